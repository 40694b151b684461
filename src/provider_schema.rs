//! The schema to send in a provider's native structured-output mode, and the
//! constraints that mode will not enforce.
//!
//! Native modes accept a subset of JSON Schema and enforce a smaller one
//! (`docs/providers.md`, "What each native structured-output mode enforces"). A
//! caller that sends its own schema either has the request rejected for a
//! keyword the mode does not accept, or believes a constraint holds that the
//! mode ignored. [`to_provider_schema`] returns the schema to send and, for
//! every constraint keyword of the original that the mode will not enforce,
//! where it sits in the original (a JSON Pointer) and its name: exactly what
//! post-validation against the original schema must catch.
//!
//! Per provider, each keyword of each subschema is:
//! - enforced: sent, and not listed;
//! - kept: sent, but the mode does not promise it, so it is listed;
//! - described: not sent (the mode would reject it), written into the
//!   subschema's `description` as advisory text in the form the providers'
//!   SDKs use (`{minLength: 1, pattern: "^x"}`), and listed;
//! - dropped: identifiers and comments (`$schema`, `$id`, `$comment`, ...),
//!   which constrain nothing and which the restricted modes do not take.
//!
//! | provider | enforced | described (removed) | kept but listed |
//! |---|---|---|---|
//! | `openai` (strict) | type, properties, required (of object schemas), items, enum, const (sent as a one-value enum), anyOf, $ref/$defs, pattern, format date-time/time/date/duration/email/hostname/ipv4/ipv6/uuid, multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minItems, maxItems | everything else: allOf, not, if/then/else, dependentRequired, dependentSchemas, minLength, maxLength, patternProperties, uniqueItems, contains, min/maxProperties, other formats, ... | oneOf (sent as anyOf: "exactly one" is not enforced) |
//! | `anthropic` | type, properties, required (of object schemas), items, enum, const, anyOf, allOf, $ref/$defs, format date-time/time/date/duration/email/hostname/uri/ipv4/ipv6/uuid, minItems 0 or 1 | everything else (minLength, maxLength, pattern, minimum, maximum, exclusive*, multipleOf, maxItems, uniqueItems, minItems > 1, other formats, ...) | oneOf (sent as anyOf) |
//! | `gemini` (`responseJsonSchema`) | type, properties, required, items, $ref/$defs | minLength, maxLength, pattern, const | everything else |
//! | `ollama` | type, properties, required, items, $ref/$defs | nothing | everything else |
//!
//! docs/providers.md names what OpenAI and Anthropic support (OpenAI's `enum`
//! comes from OpenAI's own list of supported types); for Gemini's
//! `responseJsonSchema` it names only what is not supported, and for Ollama
//! it says "constraints beyond shape are not guaranteed". Where it is silent
//! a keyword is listed rather than claimed: only the shape (types, property
//! names, required properties, array items, references) counts as enforced.
//! docs/providers.md lists no nesting-depth or property-count limits, so none are
//! checked here.
//!
//! Structural changes, reported in `changes` because they alter what the
//! model may produce rather than what it is held to:
//! - OpenAI strict and Anthropic close every object schema with
//!   `additionalProperties: false` ("additionalProperties: false everywhere",
//!   "forces additionalProperties: false"); where the original allowed other
//!   properties the change is `closed_object`.
//! - OpenAI strict wants every property required. An optional property becomes
//!   required and nullable (`"type": ["string", "null"]`, or an `anyOf` with
//!   `{"type": "null"}`): the change is `optional_nullable`, and a `null`
//!   there means "absent" — drop it before validating against the original.
//! - OpenAI strict needs an object at the root. A root that is only a `$ref`
//!   to an object schema (as zod-to-json-schema writes named schemas) is
//!   replaced by the schema it names; any other root is a [`SchemaError`].
//! - For OpenAI and Anthropic, draft-7 `definitions` are sent as `$defs`, and
//!   references into them are rewritten to match.
//! - OpenAPI's `nullable: true` (which the guard honours as ajv does, see
//!   `crate::dialect`) is a keyword no native mode takes: it is sent as a
//!   `null` type, `type: [T, "null"]`, or for Anthropic, whose SDK reads a
//!   list of types as none, an `anyOf` with a `{"type": "null"}` branch; the
//!   change is `nullable_keyword`.
//! - Gemini's `Schema` (see `crate::dialect`) is converted as the JSON
//!   Schema it means, with what that cannot enforce listed.
//!
//! References are kept, never inlined, so a recursive schema is converted in
//! one pass over the document and `$ref` cycles cannot loop; following a root
//! `$ref` remembers every reference it took. The walk is bounded by
//! [`MAX_SCHEMA_DEPTH`] like compilation.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::dialect::{compile, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLE};
use crate::error::ArgumentError;
use crate::verdict::unwrap_response_format;
use hot_path::schema::{
    type_name, CompileOptions, Dialect, SchemaError, Translated, MAX_SCHEMA_DEPTH,
};

/// A provider's native structured-output mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// OpenAI Structured Outputs with `strict: true`.
    OpenAi,
    /// Anthropic structured outputs, as the Anthropic SDK's
    /// `transformJSONSchema` prepares them.
    Anthropic,
    /// Gemini `responseJsonSchema`.
    Gemini,
    /// Ollama's `format` with a JSON schema.
    Ollama,
}

impl Provider {
    pub const ALL: [Provider; 4] = [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Ollama,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
        }
    }

    /// The provider with this name; names are exact and lowercase.
    pub fn parse(name: &str) -> Result<Provider, ArgumentError> {
        Provider::ALL
            .into_iter()
            .find(|p| p.as_str() == name)
            .ok_or_else(|| {
                ArgumentError::new(format!(
                    "unknown provider \"{name}\": expected one of \"openai\", \"anthropic\", \"gemini\", \"ollama\""
                ))
            })
    }

    /// The modes that take only a listed subset and close every object.
    fn restricted(self) -> bool {
        matches!(self, Provider::OpenAi | Provider::Anthropic)
    }

    fn display_name(self) -> &'static str {
        match self {
            Provider::OpenAi => "OpenAI strict mode",
            Provider::Anthropic => "Anthropic structured output",
            Provider::Gemini => "Gemini responseJsonSchema",
            Provider::Ollama => "Ollama",
        }
    }
}

/// A constraint of the original schema that the provider will not enforce
/// (the shape a Validator lists what its dialect cannot enforce in, too).
pub use hot_path::schema::Unenforced;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// An optional property is now required and may be `null`, which stands
    /// for "absent".
    OptionalNullable,
    /// An object that allowed other properties now forbids them.
    ClosedObject,
    /// OpenAPI's `nullable: true`, which no native mode takes, sent as a
    /// `null` type (`type: [T, "null"]`, or for Anthropic an `anyOf` with a
    /// `{"type": "null"}` branch): the same values, in the mode's words.
    NullableKeyword,
}

/// A place where the sent schema lets the model produce something other than
/// what the original schema describes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    /// JSON Pointer into the original schema: the property's subschema for
    /// `optional_nullable`, the object's for `closed_object`.
    pub path: String,
    pub change: ChangeKind,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderSchema {
    /// The schema to send.
    pub schema: Value,
    /// Sorted by path, then keyword.
    pub unenforced: Vec<Unenforced>,
    /// Sorted by path, then change.
    pub changes: Vec<Change>,
}

/// Formats OpenAI strict mode supports (docs/providers.md).
const OPENAI_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Formats the Anthropic SDK keeps (docs/providers.md).
const ANTHROPIC_FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Identifiers and comments: they constrain nothing, and the restricted modes
/// do not take them.
const METADATA: [&str; 7] = [
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
];

/// Keywords that decide whether an instance is valid (assertions and
/// applicators of drafts 4 to 2020-12). Anything else is an annotation or
/// unknown, and its absence is never listed.
const CONSTRAINTS: [&str; 45] = [
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "format",
    "contentEncoding",
    "contentMediaType",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// Converts `input` (a schema, or a response-format wrapper around one) for
/// `provider`. Paths in the result point into the schema itself, not into
/// the wrapper.
///
/// Errors: the schema is not an object, does not compile, or cannot be
/// expressed in the mode at all (OpenAI strict mode with a non-object root,
/// a reference the mode could not resolve).
pub fn to_provider_schema(
    input: &Value,
    provider: Provider,
) -> Result<ProviderSchema, SchemaError> {
    let (schema, _) = unwrap_response_format(input);
    let Value::Object(root) = schema else {
        return Err(SchemaError::new(format!(
            "a schema for a provider must be an object, not {}",
            type_name(schema)
        )));
    };
    compile(schema, &CompileOptions::default())?;
    // Gemini's `Schema` is converted as the JSON Schema it means (its
    // subschemas at the same paths), with what that cannot enforce listed.
    let dialect = crate::dialect::detect(schema);
    let translated = match dialect {
        Dialect::Gemini => crate::dialect::translate(schema, dialect)?,
        Dialect::JsonSchema => None,
    };
    let (schema, root, mut unenforced) = match &translated {
        Some(Translated {
            schema: meant @ Value::Object(map),
            unenforced,
        }) => (meant, map, unenforced.clone()),
        _ => (schema, root, Vec::new()),
    };
    let mut walker = Walker {
        provider,
        root: schema,
        unenforced: Vec::new(),
        changes: Vec::new(),
        refs: Vec::new(),
    };
    let converted = if provider == Provider::OpenAi {
        walker.openai_root(root)?
    } else {
        walker.convert(schema, "", 0)?
    };
    if provider.restricted() {
        walker.check_refs(&converted)?;
    }
    let Walker {
        unenforced: walked,
        mut changes,
        ..
    } = walker;
    unenforced.extend(walked);
    guard_sort::sort(&mut unenforced);
    unenforced.dedup();
    guard_sort::sort(&mut changes);
    changes.dedup();
    Ok(ProviderSchema {
        schema: converted,
        unenforced,
        changes,
    })
}

/// What happens to one keyword of one subschema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Disposition {
    /// Sent (its subschemas converted); the mode enforces it.
    Enforced,
    /// Sent (its subschemas converted); listed, as the mode does not promise it.
    Kept,
    /// Not sent; written into the description and listed.
    Described,
    /// Not sent, and nothing is lost.
    Dropped,
    /// `oneOf` sent as `anyOf`: "exactly one" becomes "at least one".
    AsAnyOf,
    /// `const` sent as a one-value `enum`.
    AsEnum,
    /// `definitions` sent as `$defs`.
    AsDefs,
    /// `additionalProperties` of an object the mode closes: sent as `false`.
    Closed,
}

/// One subschema, as the dispositions see it.
struct Node<'a> {
    map: &'a Map<String, Value>,
    /// The mode closes this object schema.
    closed: bool,
}

impl Node<'_> {
    fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }
}

fn openai(key: &str, value: &Value, node: &Node<'_>) -> Disposition {
    use Disposition::*;
    match key {
        "type" | "enum" | "anyOf" | "$ref" | "$defs" | "properties" | "pattern" | "minItems"
        | "maxItems" | "description" | "title" => Enforced,
        "required" if node.closed => Enforced,
        "multipleOf" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
            if value.is_number() =>
        {
            Enforced
        }
        "format" if is_one_of(value, &OPENAI_FORMATS) => Enforced,
        "items" if !value.is_array() && !node.has("prefixItems") => Enforced,
        "const" if is_primitive(value) && !node.has("enum") => AsEnum,
        "oneOf" if !node.has("anyOf") => AsAnyOf,
        "definitions" => AsDefs,
        "additionalProperties" if node.closed => Closed,
        // A closed object has no unevaluated properties to constrain.
        "unevaluatedProperties" if node.closed => Dropped,
        _ if METADATA.contains(&key) => Dropped,
        _ => Described,
    }
}

fn anthropic(key: &str, value: &Value, node: &Node<'_>) -> Disposition {
    use Disposition::*;
    match key {
        "type" | "enum" | "const" | "anyOf" | "allOf" | "$ref" | "$defs" | "properties"
        | "description" | "title" => Enforced,
        // Outside an object schema the modes take no `required`.
        "required" if node.closed => Enforced,
        "format" if is_one_of(value, &ANTHROPIC_FORMATS) => Enforced,
        "minItems" if matches!(value.as_u64(), Some(0 | 1)) => Enforced,
        "items" if !value.is_array() && !node.has("prefixItems") => Enforced,
        "oneOf" if !node.has("anyOf") => AsAnyOf,
        "definitions" => AsDefs,
        "additionalProperties" if node.closed => Closed,
        "unevaluatedProperties" if node.closed => Dropped,
        _ if METADATA.contains(&key) => Dropped,
        _ => Described,
    }
}

fn gemini(key: &str, value: &Value, node: &Node<'_>) -> Disposition {
    match key {
        "minLength" | "maxLength" | "pattern" | "const" => Disposition::Described,
        _ => shape(key, value, node),
    }
}

/// What every native mode enforces: the shape. The rest is kept and listed.
fn shape(key: &str, value: &Value, node: &Node<'_>) -> Disposition {
    match key {
        "type" | "properties" | "required" | "$ref" | "$defs" | "definitions" => {
            Disposition::Enforced
        }
        "items" if !value.is_array() && !node.has("prefixItems") => Disposition::Enforced,
        _ => Disposition::Kept,
    }
}

fn is_one_of(value: &Value, names: &[&str]) -> bool {
    value.as_str().is_some_and(|s| names.contains(&s))
}

fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// A keyword value that constrains nothing, so not enforcing it loses nothing.
fn is_trivial(key: &str, value: &Value) -> bool {
    let empty_map = || value.as_object().is_some_and(Map::is_empty);
    match key {
        "uniqueItems" => value == &Value::Bool(false),
        "minLength" | "minItems" | "minProperties" => value.as_f64() == Some(0.0),
        "required" => value.as_array().is_some_and(Vec::is_empty),
        "additionalProperties"
        | "items"
        | "additionalItems"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "propertyNames" => value == &Value::Bool(true) || empty_map(),
        "properties" | "patternProperties" | "dependentSchemas" | "dependentRequired"
        | "dependencies" => empty_map(),
        _ => false,
    }
}

/// Whether the restricted modes treat this subschema as an object schema
/// (and so close it). A subschema that is a reference is closed where the
/// schema it names is defined.
fn is_object_schema(map: &Map<String, Value>) -> bool {
    if map.contains_key("$ref") {
        return false;
    }
    match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        Some(_) => false,
        // A bare `required` (as in `anyOf: [{"required": ["a"]}, ...]`) asks
        // for presence; closing it would forbid the very properties it names.
        None => map.contains_key("properties") || map.contains_key("additionalProperties"),
    }
}

/// `path` extended by one JSON Pointer segment.
fn child(path: &str, segment: &str) -> String {
    let mut out = String::with_capacity(path.len() + segment.len() + 1);
    out.push_str(path);
    out.push('/');
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            other => out.push(other),
        }
    }
    out
}

fn too_deep() -> SchemaError {
    SchemaError::new(format!(
        "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
    ))
}

/// A reference's fragment with percent-escapes decoded (a JSON Pointer, when
/// it starts with "/").
fn fragment(reference: &str) -> Option<String> {
    let encoded = reference.strip_prefix('#')?;
    if !encoded.contains('%') {
        return Some(encoded.to_owned());
    }
    let bytes = encoded.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let escaped = (b == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                i += 3;
            }
            None => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(decoded).ok()
}

/// One segment of a JSON Pointer, unescaped.
fn unescape_segment(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// How the next segment of a pointer into a schema is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    /// A subschema: the segment is a keyword.
    Schema,
    /// A map or list of subschemas: the segment is a name or an index.
    Member,
    /// Inside a keyword's value that holds no subschemas.
    Other,
}

fn position_after(keyword: &str, value: Option<&Value>) -> Position {
    let members = SCHEMA_MAPS.contains(&keyword)
        || SCHEMA_LISTS.contains(&keyword)
        || keyword == "dependencies"
        || (keyword == "items" && value.is_some_and(Value::is_array));
    if members {
        Position::Member
    } else if SCHEMA_SINGLE.contains(&keyword) {
        Position::Schema
    } else {
        Position::Other
    }
}

fn step<'a>(value: &'a Value, segment: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => map.get(segment),
        Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

struct Walker<'a> {
    provider: Provider,
    /// The original schema, which references point into.
    root: &'a Value,
    unenforced: Vec<Unenforced>,
    changes: Vec<Change>,
    /// Every reference sent, as sent.
    refs: Vec<String>,
}

impl<'a> Walker<'a> {
    fn disposition(&self, key: &str, value: &Value, node: &Node<'_>) -> Disposition {
        match self.provider {
            Provider::OpenAi => openai(key, value, node),
            Provider::Anthropic => anthropic(key, value, node),
            Provider::Gemini => gemini(key, value, node),
            Provider::Ollama => shape(key, value, node),
        }
    }

    fn node<'m>(&self, map: &'m Map<String, Value>) -> Node<'m> {
        Node {
            map,
            closed: self.provider.restricted() && is_object_schema(map),
        }
    }

    /// Lists `keyword` at `path` when it constrains anything.
    fn note(&mut self, path: &str, keyword: &str, value: &Value) {
        if CONSTRAINTS.contains(&keyword) && !is_trivial(keyword, value) {
            self.unenforced.push(Unenforced {
                path: path.to_owned(),
                keyword: keyword.to_owned(),
            });
        }
    }

    /// One subschema converted; `path` is where it sits in the original.
    fn convert(&mut self, schema: &Value, path: &str, depth: usize) -> Result<Value, SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(too_deep());
        }
        let Value::Object(map) = schema else {
            return Ok(schema.clone());
        };
        let node = self.node(map);
        let mut out = Map::new();
        let mut advisory: Vec<String> = Vec::new();
        for (key, value) in map {
            // Read after the other keywords: see `send_nullable`.
            if key == "nullable" {
                continue;
            }
            let here = child(path, key);
            match self.disposition(key, value, &node) {
                Disposition::Enforced => {
                    let converted = self.member(key, value, &here, depth, &node)?;
                    if key == "$defs" {
                        merge_defs(&mut out, converted, path)?;
                    } else {
                        out.insert(key.clone(), converted);
                    }
                }
                Disposition::Kept => {
                    self.note(path, key, value);
                    let converted = self.member(key, value, &here, depth, &node)?;
                    out.insert(key.clone(), converted);
                }
                Disposition::Described => {
                    self.note(path, key, value);
                    advisory.push(format!("{key}: {}", value));
                }
                Disposition::Dropped => {}
                Disposition::AsAnyOf => {
                    self.note(path, key, value);
                    let converted = self.member(key, value, &here, depth, &node)?;
                    out.insert("anyOf".to_owned(), converted);
                }
                Disposition::AsEnum => {
                    out.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
                }
                Disposition::AsDefs => {
                    let converted = self.member(key, value, &here, depth, &node)?;
                    merge_defs(&mut out, converted, path)?;
                }
                Disposition::Closed => {
                    out.insert(key.clone(), Value::Bool(false));
                }
            }
        }
        if node.closed {
            self.close(map, &mut out, path);
        }
        if self.provider.restricted() {
            infer_type(&mut out);
        }
        if !advisory.is_empty() {
            let text = format!("{{{}}}", advisory.join(", "));
            let description = match out.get("description").and_then(Value::as_str) {
                Some(existing) if !existing.is_empty() => format!("{existing}\n\n{text}"),
                _ => text,
            };
            out.insert("description".to_owned(), Value::String(description));
        }
        if map.get("nullable") == Some(&Value::Bool(true)) {
            out = self.send_nullable(out, path);
        }
        Ok(Value::Object(out))
    }

    /// A subschema with OpenAPI's `nullable: true` (the guard reads it as
    /// ajv does: compiling refused it unless the subschema has a `type`),
    /// sent as the mode takes a value that may be null.
    fn send_nullable(&mut self, mut out: Map<String, Value>, path: &str) -> Map<String, Value> {
        self.changes.push(Change {
            path: path.to_owned(),
            change: ChangeKind::NullableKeyword,
        });
        if self.provider != Provider::Anthropic {
            let types = match out.remove("type") {
                Some(Value::String(t)) => vec![Value::String(t)],
                Some(Value::Array(types)) => types,
                _ => Vec::new(),
            };
            let mut types = types;
            if !types.iter().any(|t| t == "null") {
                types.push(Value::String("null".to_owned()));
            }
            out.insert("type".to_owned(), Value::Array(types));
            return out;
        }
        // The Anthropic SDK reads a list of types as no type at all (and
        // describes away an object's properties): a branch of its own.
        let mut outer = Map::new();
        for key in ["$defs", "title", "description"] {
            if let Some(value) = out.remove(key) {
                outer.insert(key.to_owned(), value);
            }
        }
        outer.insert(
            "anyOf".to_owned(),
            Value::Array(vec![Value::Object(out), null_schema()]),
        );
        outer
    }

    /// A sent keyword's value, its subschemas converted.
    fn member(
        &mut self,
        key: &str,
        value: &Value,
        here: &str,
        depth: usize,
        node: &Node<'_>,
    ) -> Result<Value, SchemaError> {
        let next = depth + 1;
        if SCHEMA_MAPS.contains(&key) || key == "dependencies" {
            let Value::Object(members) = value else {
                return Ok(value.clone());
            };
            let mut out = Map::new();
            for (name, sub) in members {
                // OpenAI strict requires every property; one that must be
                // absent is left out instead (the object is closed anyway).
                if key == "properties"
                    && node.closed
                    && self.provider == Provider::OpenAi
                    && sub == &Value::Bool(false)
                {
                    continue;
                }
                let converted = if sub.is_array() {
                    sub.clone()
                } else {
                    self.convert(sub, &child(here, name), next)?
                };
                out.insert(name.clone(), converted);
            }
            return Ok(Value::Object(out));
        }
        if SCHEMA_LISTS.contains(&key) || (key == "items" && value.is_array()) {
            let Value::Array(items) = value else {
                return Ok(value.clone());
            };
            let mut out = Vec::with_capacity(items.len());
            for (i, sub) in items.iter().enumerate() {
                out.push(self.convert(sub, &child(here, &i.to_string()), next)?);
            }
            return Ok(Value::Array(out));
        }
        if SCHEMA_SINGLE.contains(&key) {
            return self.convert(value, here, next);
        }
        if key == "$ref" {
            if let Value::String(reference) = value {
                let sent = if self.provider.restricted() {
                    self.rewrite_ref(reference)
                } else {
                    reference.clone()
                };
                self.refs.push(sent.clone());
                return Ok(Value::String(sent));
            }
        }
        Ok(value.clone())
    }

    /// Closes an object schema: `additionalProperties: false`, and for
    /// OpenAI every property required, the optional ones nullable.
    fn close(&mut self, original: &Map<String, Value>, out: &mut Map<String, Value>, path: &str) {
        if !out.contains_key("type") {
            out.insert("type".to_owned(), Value::String("object".to_owned()));
        }
        if !out.contains_key("properties") {
            out.insert("properties".to_owned(), Value::Object(Map::new()));
        }
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
        let already_closed = match original.get("additionalProperties") {
            Some(Value::Bool(false)) => true,
            None => original.get("unevaluatedProperties") == Some(&Value::Bool(false)),
            Some(_) => false,
        } && !original.contains_key("patternProperties");
        if !already_closed {
            self.changes.push(Change {
                path: path.to_owned(),
                change: ChangeKind::ClosedObject,
            });
        }
        if self.provider != Provider::OpenAi {
            return;
        }
        let required: Vec<&str> = original
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties_path = child(path, "properties");
        let mut names = Vec::new();
        if let Some(Value::Object(properties)) = out.get_mut("properties") {
            for (name, schema) in properties.iter_mut() {
                names.push(Value::String(name.clone()));
                if !required.contains(&name.as_str()) {
                    *schema = nullable(std::mem::take(schema));
                    self.changes.push(Change {
                        path: child(&properties_path, name),
                        change: ChangeKind::OptionalNullable,
                    });
                }
            }
        }
        // A required name the object does not declare can never be sent.
        if required
            .iter()
            .any(|name| !names.iter().any(|n| n.as_str() == Some(name)))
        {
            self.unenforced.push(Unenforced {
                path: path.to_owned(),
                keyword: "required".to_owned(),
            });
        }
        out.insert("required".to_owned(), Value::Array(names));
    }

    /// The root for OpenAI strict mode, which must be an object schema.
    fn openai_root(&mut self, root: &'a Map<String, Value>) -> Result<Value, SchemaError> {
        if is_object_schema(root) {
            return self.convert(self.root, "", 0);
        }
        let (target, target_path) = self.follow_root_ref(root)?;
        let Value::Object(mut out) = self.convert(target, &target_path, 0)? else {
            return Err(not_object_root(
                "a reference to a schema that is not an object",
            ));
        };
        // The schema the root named still refers into the root's definitions.
        let node = self.node(root);
        for key in ["$defs", "definitions"] {
            if let Some(defs) = root.get(key) {
                let converted = self.member(key, defs, &child("", key), 0, &node)?;
                merge_defs(&mut out, converted, "")?;
            }
        }
        for key in ["description", "title"] {
            if let (Some(value), false) = (root.get(key), out.contains_key(key)) {
                out.insert(key.to_owned(), value.clone());
            }
        }
        Ok(Value::Object(out))
    }

    /// The object schema a root made only of a `$ref` names, following
    /// references until one leads to an object schema. Every reference is
    /// taken at most once, so a cycle ends in an error.
    fn follow_root_ref(
        &self,
        root: &'a Map<String, Value>,
    ) -> Result<(&'a Value, String), SchemaError> {
        const BESIDE_REF: [&str; 5] = ["$ref", "$defs", "definitions", "description", "title"];
        let mut node = root;
        let mut taken: Vec<&str> = Vec::new();
        loop {
            let only_ref = node
                .keys()
                .all(|k| BESIDE_REF.contains(&k.as_str()) || METADATA.contains(&k.as_str()));
            let reference = match (node.get("$ref"), only_ref, taken.first()) {
                (Some(Value::String(r)), true, _) => r.as_str(),
                (_, _, None) => return Err(not_object_root(&describe_root(node))),
                (_, _, Some(first)) => {
                    return Err(not_object_root(&format!(
                        "a reference to {first}, which leads to a schema {}",
                        describe_root(node)
                    )))
                }
            };
            if taken.contains(&reference) {
                return Err(not_object_root("a cycle of references"));
            }
            taken.push(reference);
            let pointer = fragment(reference)
                .filter(|p| p.is_empty() || p.starts_with('/'))
                .ok_or_else(|| not_object_root(&format!("a reference to {reference}")))?;
            let target = self
                .root
                .pointer(&pointer)
                .ok_or_else(|| not_object_root(&format!("a reference to {reference}")))?;
            match target {
                Value::Object(map) if is_object_schema(map) => return Ok((target, pointer)),
                Value::Object(map) => node = map,
                _ => return Err(not_object_root(&format!("a reference to {reference}"))),
            }
        }
    }

    /// A reference into the original, rewritten to where the same subschema
    /// sits in the sent schema (`definitions` become `$defs`, `oneOf`
    /// becomes `anyOf`).
    fn rewrite_ref(&self, reference: &str) -> String {
        let Some(pointer) = reference.strip_prefix("#/") else {
            return reference.to_owned();
        };
        let mut at: Option<&Value> = Some(self.root);
        let mut position = Position::Schema;
        let mut written: Vec<String> = Vec::new();
        for raw in pointer.split('/') {
            let segment = fragment(&format!("#{raw}"))
                .map(|s| unescape_segment(&s))
                .unwrap_or_else(|| raw.to_owned());
            let mut sent = raw.to_owned();
            let next = match position {
                Position::Schema => {
                    let value = at.and_then(|v| step(v, &segment));
                    if let (Some(Value::Object(map)), Some(value)) = (at, value) {
                        match self.disposition(&segment, value, &self.node(map)) {
                            Disposition::AsDefs => sent = "$defs".to_owned(),
                            Disposition::AsAnyOf => sent = "anyOf".to_owned(),
                            _ => {}
                        }
                    }
                    position_after(&segment, value)
                }
                Position::Member => Position::Schema,
                Position::Other => Position::Other,
            };
            at = at.and_then(|v| step(v, &segment));
            written.push(sent);
            position = next;
        }
        format!("#/{}", written.join("/"))
    }

    /// Every reference sent must resolve within the sent schema: the
    /// restricted modes resolve only local JSON Pointers, and a subschema a
    /// reference named may have been described away.
    fn check_refs(&self, sent: &Value) -> Result<(), SchemaError> {
        for reference in &self.refs {
            let resolves = fragment(reference)
                .filter(|p| p.is_empty() || p.starts_with('/'))
                .is_some_and(|pointer| sent.pointer(&pointer).is_some());
            if !resolves {
                return Err(SchemaError::new(format!(
                    "{} cannot resolve the reference \"{reference}\": only references to subschemas it accepts, by JSON Pointer within the schema, can be sent",
                    self.provider.display_name()
                )));
            }
        }
        Ok(())
    }
}

fn not_object_root(what: &str) -> SchemaError {
    SchemaError::new(format!(
        "OpenAI strict mode needs an object schema at the root (type \"object\"), but this schema's root is {what}"
    ))
}

fn describe_root(map: &Map<String, Value>) -> String {
    if let Some(t) = map.get("type") {
        return format!("of type {t}");
    }
    for key in ["anyOf", "oneOf", "allOf", "$ref", "enum", "const"] {
        if map.contains_key(key) {
            return format!("{key} without type \"object\"");
        }
    }
    "a schema without type \"object\"".to_owned()
}

/// Adds converted definitions to the sent `$defs`. `$defs` and `definitions`
/// side by side merge; the same name in both cannot be sent.
fn merge_defs(
    out: &mut Map<String, Value>,
    converted: Value,
    path: &str,
) -> Result<(), SchemaError> {
    let Value::Object(incoming) = converted else {
        out.insert("$defs".to_owned(), converted);
        return Ok(());
    };
    let defs = out
        .entry("$defs")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(defs) = defs else {
        return Ok(());
    };
    for (name, schema) in incoming {
        if defs.contains_key(&name) {
            let at = if path.is_empty() { "the root" } else { path };
            return Err(SchemaError::new(format!(
                "\"{name}\" is defined both in $defs and in definitions at {at}; rename one of them"
            )));
        }
        defs.insert(name, schema);
    }
    Ok(())
}

/// The restricted modes expect a `type` on every subschema that is not a
/// combination or reference. An `enum` or `const` already fixes it; naming
/// it changes nothing.
fn infer_type(out: &mut Map<String, Value>) {
    if ["type", "$ref", "anyOf", "allOf"]
        .iter()
        .any(|k| out.contains_key(*k))
    {
        return;
    }
    let values: Vec<&Value> = match (out.get("enum"), out.get("const")) {
        (Some(Value::Array(values)), _) => values.iter().collect(),
        (None, Some(value)) => vec![value],
        _ => return,
    };
    // An object or array value would need a closed, fully described schema.
    if values.is_empty() || !values.iter().all(|v| is_primitive(v)) {
        return;
    }
    let all_integers = values
        .iter()
        .filter(|v| v.is_number())
        .all(|v| v.is_i64() || v.is_u64());
    let mut types: Vec<&str> = Vec::new();
    for value in values {
        let name = match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) if all_integers => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) | Value::Object(_) => continue,
        };
        if !types.contains(&name) {
            types.push(name);
        }
    }
    let inferred = match types.as_slice() {
        [single] => Value::String((*single).to_owned()),
        many => Value::Array(
            many.iter()
                .map(|t| Value::String((*t).to_owned()))
                .collect(),
        ),
    };
    out.insert("type".to_owned(), inferred);
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&Value::String("null".to_owned()))
}

/// The same subschema, also accepting `null`.
fn nullable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        // `true` accepts null already; `false` properties were left out.
        return schema;
    };
    if map.contains_key("$ref") {
        let mut outer = Map::new();
        let description = map.remove("description");
        let title = map.remove("title");
        outer.insert(
            "anyOf".to_owned(),
            Value::Array(vec![Value::Object(map), null_schema()]),
        );
        if let Some(title) = title {
            outer.insert("title".to_owned(), title);
        }
        if let Some(description) = description {
            outer.insert("description".to_owned(), description);
        }
        return Value::Object(outer);
    }
    match map.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let single = std::mem::take(t);
            map.insert(
                "type".to_owned(),
                Value::Array(vec![
                    Value::String(single),
                    Value::String("null".to_owned()),
                ]),
            );
        }
        Some(Value::Array(types)) if !types.iter().any(|t| t == "null") => {
            types.push(Value::String("null".to_owned()));
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        if !branches.iter().any(is_null_schema) {
            branches.push(null_schema());
        }
    }
    Value::Object(map)
}

fn null_schema() -> Value {
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String("null".to_owned()));
    Value::Object(map)
}

#[cfg(test)]
mod tests;
