//! JSON text written by hand: results are built of many small strings and
//! numbers, and serde_json's writer, or the formatting machinery, cost more
//! per value than a small response's check.

use serde_json::Value;

/// Appends an object of `members`: each name as [`push_json_str`] writes
/// it, each value as `value` writes it.
pub fn push_json_members<N: AsRef<str>, V>(
    out: &mut String,
    members: &[(N, V)],
    mut value: impl FnMut(&mut String, &V),
) {
    out.push('{');
    for (i, (name, member)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_str(out, name.as_ref());
        out.push(':');
        value(out, member);
    }
    out.push('}');
}

/// Appends `text` as a JSON string, escaped as serde_json escapes it (the
/// quote, the backslash and control characters; `\b \f \n \r \t` short,
/// others as `\u00XX`). The strings of a result are written with this:
/// serde_json's writer costs more per string than the check of a small
/// response's member.
pub fn push_json_str(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(text.len() + 2);
    out.push('"');
    // Most texts (names, hashes, messages) need no escape: one scan, one copy.
    if !text
        .bytes()
        .any(|byte| byte < 0x20 || byte == b'"' || byte == b'\\')
    {
        out.push_str(text);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, &byte) in text.as_bytes().iter().enumerate() {
        let short = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        // An ASCII byte: the text around it is whole characters.
        out.push_str(text.get(start..i).unwrap_or_default());
        if short.is_empty() {
            out.push_str("\\u00");
            for digit in [byte >> 4, byte & 0xf] {
                out.push(char::from(
                    HEX.get(usize::from(digit)).copied().unwrap_or(b'0'),
                ));
            }
        } else {
            out.push_str(short);
        }
        start = i + 1;
    }
    out.push_str(text.get(start..).unwrap_or_default());
    out.push('"');
}

/// [`push_json_str`], or `null`.
pub fn push_json_opt(out: &mut String, text: Option<&str>) {
    match text {
        Some(text) => push_json_str(out, text),
        None => out.push_str("null"),
    }
}

/// Appends `n` in decimal. Results carry a few numbers each (offsets,
/// token counts), and the formatting machinery cost more per number than
/// the rest of writing them; itoa (serde_json's own integer writer) does not.
pub fn push_usize(out: &mut String, n: usize) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Appends `n` as serde_json writes it: a whole number with itoa, any
/// other as its `Display`.
pub fn push_json_number(out: &mut String, n: &serde_json::Number) {
    if let Some(u) = n.as_u64() {
        out.push_str(itoa::Buffer::new().format(u));
    } else if let Some(i) = n.as_i64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else {
        use std::fmt::Write as _;
        let _ = write!(out, "{n}");
    }
}

/// Appends `value` as JSON text, as serde_json writes it.
pub fn push_json_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => push_json_number(out, n),
        Value::String(text) => push_json_str(out, text),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_value(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, member)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_str(out, key);
                out.push(':');
                push_json_value(out, member);
            }
            out.push('}');
        }
    }
}
