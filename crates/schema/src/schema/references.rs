//! `$ref` values as URI references.
//!
//! A `$ref` is a URI reference, and real-world schemas name definitions
//! after generic types (`"#/definitions/Foo<Bar>"`, `"Map<string, T>"`) or
//! in other scripts: characters a URI reference cannot hold. ajv
//! percent-encodes them as it resolves the reference (a JSON Pointer
//! fragment is percent-decoded, RFC 6901 section 6, so the pointer still
//! names the definition), and so does the guard before compiling: each
//! such character's UTF-8 bytes become `%XX`, a `%` that does not start an
//! escape becomes `%25`, and a second `#` becomes `%23`. A `$ref` a URI
//! reference can hold is left as it is.
//!
//! Only schema positions are rewritten: the values of `const`, `enum`,
//! `default` and `examples` are data, which may hold a member named `$ref`.

use std::borrow::Cow;

use serde_json::Value;

/// Keywords whose values are data, never subschemas.
const DATA: [&str; 4] = ["const", "enum", "default", "examples"];

/// `schema` with every `$ref` a URI reference can hold: borrowed when each
/// already is one.
pub fn encode_references(schema: &Value) -> Cow<'_, Value> {
    let mut out = schema.clone();
    if encode_in(&mut out) {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(schema)
    }
}

/// Keywords whose values map names to subschemas: a member named `const`
/// there is a property's schema, not data.
const NAMED_SUBSCHEMAS: [&str; 6] = [
    "properties",
    "patternProperties",
    "definitions",
    "$defs",
    "dependentSchemas",
    "dependencies",
];

/// Encodes every `$ref` of `schema` in place; whether one changed.
/// Iterative, like every walk over a schema not yet measured for depth.
fn encode_in(schema: &mut Value) -> bool {
    let mut changed = false;
    let mut stack = vec![(schema, false)];
    while let Some((node, named)) = stack.pop() {
        match node {
            Value::Object(map) => {
                if named {
                    stack.extend(map.values_mut().map(|member| (member, false)));
                    continue;
                }
                for (key, member) in map {
                    if key == "$ref" {
                        if let Value::String(reference) = member {
                            if let Cow::Owned(encoded) = encode(reference) {
                                *reference = encoded;
                                changed = true;
                            }
                        }
                    } else if !DATA.contains(&key.as_str()) {
                        stack.push((member, NAMED_SUBSCHEMAS.contains(&key.as_str())));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().map(|item| (item, false))),
            _ => {}
        }
    }
    changed
}

/// `reference` with what a URI reference cannot hold percent-encoded.
pub fn encode(reference: &str) -> Cow<'_, str> {
    let bytes = reference.as_bytes();
    let mut in_fragment = false;
    let mut out: Option<String> = None;
    for (at, &byte) in bytes.iter().enumerate() {
        let escape_starts = byte == b'%'
            && bytes.get(at + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(at + 2).is_some_and(u8::is_ascii_hexdigit);
        let allowed = escape_starts
            || if in_fragment {
                is_fragment_byte(byte)
            } else {
                is_uri_byte(byte)
            };
        if byte == b'#' && !in_fragment {
            in_fragment = true;
        }
        match (&mut out, allowed) {
            (None, true) => {}
            (None, false) => {
                let mut started = String::with_capacity(reference.len() + 8);
                started.push_str(reference.get(..at).unwrap_or_default());
                push_escaped(&mut started, byte);
                out = Some(started);
            }
            (Some(text), true) => text.push(char::from(byte)),
            (Some(text), false) => push_escaped(text, byte),
        }
    }
    out.map_or(Cow::Borrowed(reference), Cow::Owned)
}

fn push_escaped(out: &mut String, byte: u8) {
    use std::fmt::Write;
    let _ = write!(out, "%{byte:02X}");
}

/// RFC 3986 `pchar` (but `%`, which only an escape may use), `/` and `?`:
/// what a fragment holds.
fn is_fragment_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte)
}

/// What the rest of a URI reference may hold: every unreserved and
/// reserved character (the delimiters structure it), `#` opening the
/// fragment.
fn is_uri_byte(byte: u8) -> bool {
    is_fragment_byte(byte) || b"#[]".contains(&byte)
}

#[cfg(test)]
mod tests;
