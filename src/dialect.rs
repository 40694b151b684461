//! The schema the provider was given, read as the provider reads it.
//!
//! Two dialects reach the guard besides plain JSON Schema, and each means a
//! JSON Schema that [`compile`] checks against:
//!
//! - **JSON Schema with OpenAPI's `nullable`** (the default dialect). The
//!   `openai` package's Zod 3 helper, `z.toJSONSchema(…, { target:
//!   "openapi-3.0" })`, OpenAPI 3.0 documents and Gemini all write a value
//!   that may be null as `{ "type": "string", "nullable": true }`, and the
//!   providers' models answer `null` there. JSON Schema itself knows no
//!   `nullable` (an unknown keyword, so `null` would be refused); OpenAPI
//!   3.0.3 says `nullable: true` adds `"null"` to the types only when the
//!   same schema object has a `type`, and that its other constraints still
//!   apply. The guard follows the providers and reads it exactly as ajv
//!   does: with a `type`, `nullable: true` adds `"null"` to it (an `enum`
//!   or `const` still applies, so `null` must be among its values);
//!   `nullable` without a `type`, `nullable: false` beside a `null` type,
//!   and a `nullable` that is not a boolean are schema errors.
//! - **Gemini's `Schema`** (`@google/genai`'s `Schema`, the REST API's
//!   `responseSchema`): types named in capitals (`"OBJECT"`, also accepted
//!   in any case, as the SDK sends them), integer bounds as strings
//!   (`minItems: "1"`), an enum marked `format: "enum"` with its values as
//!   strings whatever the type (`{ type: INTEGER, enum: ["101", "201"] }`
//!   means the numbers 101 and 201), `nullable` (any value may then be
//!   `null`, an enum's too, as Gemini answers), `propertyOrdering`, `anyOf`,
//!   and `example`, `title`, `default`, `description` as annotations.
//!   Members outside Gemini's `Schema` keep their JSON Schema meaning. What
//!   cannot be enforced is listed (`Validator.unenforced`): formats JSON
//!   Schema does not define (`int32`, `int64`, `float`, `double`, `byte`,
//!   `password`, ...) and `propertyOrdering` (the order members are
//!   written in, which a check of the parsed value cannot see).
//!
//! The dialect is the caller's option (`dialect: "json-schema" | "gemini"`)
//! or, without it, told by the schema's shape where that leaves no doubt:
//! a subschema whose `type` is one of Gemini's capitalised names, or whose
//! count bound (`minItems`, `maxLength`, ...) is a string of digits, is not JSON
//! Schema at all (its meta-schema refuses both), and is read as Gemini's.
//!
//! Translation keeps every subschema where it was (a `nullable` Gemini
//! schema without a `type` gains an `anyOf` branch, never a wrapper), so
//! the schema paths of issues point into the schema the caller wrote.

use std::sync::Arc;

use serde_json::{Map, Number, Value};

use hot_path::schema::{
    compile_in_dialect, CompileOptions, CompiledSchema, Dialect, SchemaError, Translated,
    Unenforced,
};

/// Compiles `schema` in the dialect the options name, or the one its shape
/// tells (see the module docs), as the JSON Schema it means.
pub fn compile(
    schema: &Value,
    options: &CompileOptions,
) -> Result<Arc<CompiledSchema>, SchemaError> {
    let dialect = options.dialect.unwrap_or_else(|| detect(schema));
    compile_in_dialect(schema, options, dialect, |schema| {
        translate(schema, dialect)
    })
}

/// Gemini's type names, as `@google/genai`'s `Type` enum spells them.
const GEMINI_TYPES: [&str; 8] = [
    "STRING",
    "NUMBER",
    "INTEGER",
    "BOOLEAN",
    "ARRAY",
    "OBJECT",
    "NULL",
    "TYPE_UNSPECIFIED",
];

/// Bounds that count (items, characters, properties): whole numbers in JSON
/// Schema, int64 (so strings) in Gemini's `Schema`.
const COUNT_BOUNDS: [&str; 6] = [
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
];

/// The formats the guard checks (JSON Schema's); Gemini's others are
/// listed as unenforced.
const CHECKED_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The dialect `schema`'s shape tells: Gemini's when some subschema has a
/// capitalised Gemini type name or a count bound written as a string of
/// digits (no JSON Schema has either), else JSON Schema.
pub fn detect(schema: &Value) -> Dialect {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        let Value::Object(map) = node else { continue };
        let gemini_type = match map.get("type") {
            Some(Value::String(t)) => GEMINI_TYPES.contains(&t.as_str()),
            Some(Value::Array(types)) => types
                .iter()
                .any(|t| t.as_str().is_some_and(|t| GEMINI_TYPES.contains(&t))),
            _ => false,
        };
        // A count as a string of digits, as Gemini writes it (any other
        // string is a mistake in either dialect, named as JSON Schema's).
        let string_bound = COUNT_BOUNDS.iter().any(|key| {
            map.get(*key)
                .and_then(Value::as_str)
                .is_some_and(|text| text.parse::<u64>().is_ok())
        });
        if gemini_type || string_bound {
            return Dialect::Gemini;
        }
        for_each_subschema(map, |sub| stack.push(sub));
    }
    Dialect::JsonSchema
}

/// Calls `visit` with each subschema directly inside `map`, in the
/// applicators of every draft (and Gemini's `properties`, `items`, `anyOf`).
fn for_each_subschema<'a>(map: &'a Map<String, Value>, mut visit: impl FnMut(&'a Value)) {
    for (key, value) in map {
        if SCHEMA_MAPS.contains(&key.as_str()) || key == "dependencies" {
            if let Value::Object(members) = value {
                members
                    .values()
                    .filter(|sub| sub.is_object())
                    .for_each(&mut visit);
            }
        } else if SCHEMA_LISTS.contains(&key.as_str()) || (key == "items" && value.is_array()) {
            if let Value::Array(items) = value {
                items.iter().for_each(&mut visit);
            }
        } else if SCHEMA_SINGLE.contains(&key.as_str()) {
            visit(value);
        }
    }
}

/// The JSON Schema `schema` means in `dialect`; `None` when that is the
/// schema itself (JSON Schema without `nullable`).
pub fn translate(schema: &Value, dialect: Dialect) -> Result<Option<Translated>, SchemaError> {
    match dialect {
        Dialect::JsonSchema => {
            if !mentions_nullable(schema) {
                return Ok(None);
            }
            let mut out = schema.clone();
            json_schema_node(&mut out, "")?;
            Ok(Some(Translated {
                schema: out,
                unenforced: Vec::new(),
            }))
        }
        Dialect::Gemini => {
            let mut out = schema.clone();
            let mut unenforced = Vec::new();
            gemini_node(&mut out, "", &mut unenforced)?;
            guard_sort::sort(&mut unenforced);
            unenforced.dedup();
            Ok(Some(Translated {
                schema: out,
                unenforced,
            }))
        }
    }
}

/// Whether any subschema has a `nullable` member (most schemas have none,
/// and are compiled as they are).
fn mentions_nullable(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        let Value::Object(map) = node else { continue };
        if map.contains_key("nullable") {
            return true;
        }
        for_each_subschema(map, |sub| stack.push(sub));
    }
    false
}

/// `path` extended by JSON Pointer segments.
fn child(path: &str, segments: &[&str]) -> String {
    let mut out = path.to_owned();
    for segment in segments {
        out.push('/');
        out.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    }
    out
}

fn invalid(path: &str, problem: &str) -> SchemaError {
    if path.is_empty() {
        SchemaError::new(format!("the schema is invalid: {problem}"))
    } else {
        SchemaError::new(format!("the schema is invalid at {path}: {problem}"))
    }
}

/// Runs `each` on every subschema directly inside `node`, mutably, with its path.
fn each_subschema_mut(
    node: &mut Map<String, Value>,
    path: &str,
    mut each: impl FnMut(&mut Value, &str) -> Result<(), SchemaError>,
) -> Result<(), SchemaError> {
    for (key, value) in node.iter_mut() {
        if SCHEMA_MAPS.contains(&key.as_str()) || key == "dependencies" {
            if let Value::Object(members) = value {
                for (name, sub) in members.iter_mut() {
                    if sub.is_object() {
                        each(sub, &child(path, &[key, name]))?;
                    }
                }
            }
        } else if SCHEMA_LISTS.contains(&key.as_str()) || (key == "items" && value.is_array()) {
            if let Value::Array(items) = value {
                for (i, sub) in items.iter_mut().enumerate() {
                    each(sub, &child(path, &[key, &i.to_string()]))?;
                }
            }
        } else if SCHEMA_SINGLE.contains(&key.as_str()) {
            each(value, &child(path, &[key]))?;
        }
    }
    Ok(())
}

/// OpenAPI's `nullable` read as ajv reads it (see the module docs), in
/// this subschema and every one inside it.
fn json_schema_node(node: &mut Value, path: &str) -> Result<(), SchemaError> {
    let Value::Object(map) = node else {
        return Ok(());
    };
    if let Some(nullable) = map.remove("nullable") {
        let Value::Bool(nullable) = nullable else {
            return Err(invalid(path, "\"nullable\" must be a boolean"));
        };
        let has_null = match map.get("type") {
            None => {
                return Err(invalid(
                    path,
                    "\"nullable\" cannot be used without \"type\" (OpenAPI's nullable adds null to the types a schema names)",
                ))
            }
            Some(Value::String(t)) => t == "null",
            Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
            // Not a type at all: the meta-schema check names the problem.
            Some(_) => true,
        };
        if has_null && !nullable {
            return Err(invalid(path, "type null contradicts \"nullable\": false"));
        }
        if nullable && !has_null {
            add_null_type(map);
        }
    }
    each_subschema_mut(map, path, json_schema_node)
}

/// Adds `"null"` to the node's `type` (a name, or a list of names).
fn add_null_type(map: &mut Map<String, Value>) {
    match map.get_mut("type") {
        Some(Value::String(t)) => {
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
}

/// A Gemini type name (in any case) as JSON Schema's; `None` for
/// `TYPE_UNSPECIFIED`, which constrains nothing.
fn gemini_type(name: &str, path: &str) -> Result<Option<&'static str>, SchemaError> {
    let known = [
        ("STRING", "string"),
        ("NUMBER", "number"),
        ("INTEGER", "integer"),
        ("BOOLEAN", "boolean"),
        ("ARRAY", "array"),
        ("OBJECT", "object"),
        ("NULL", "null"),
    ];
    if name.eq_ignore_ascii_case("TYPE_UNSPECIFIED") {
        return Ok(None);
    }
    known
        .iter()
        .find(|(gemini, _)| name.eq_ignore_ascii_case(gemini))
        .map(|(_, json)| Some(*json))
        .ok_or_else(|| {
            invalid(
                path,
                &format!(
                    "\"type\" {} is not one of Gemini's types (STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL)",
                    Value::String(name.chars().take(40).collect())
                ),
            )
        })
}

/// A count bound as a JSON number: Gemini writes them as strings of digits.
fn count_bound(value: &Value, key: &str, path: &str) -> Result<Value, SchemaError> {
    let parsed = match value {
        Value::String(text) => text.parse::<u64>().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    };
    parsed.map(|n| Value::Number(n.into())).ok_or_else(|| {
        invalid(
            path,
            &format!("\"{key}\" must be a whole number from 0 up (Gemini writes it as a string of digits)"),
        )
    })
}

/// A number Gemini may write as a string (`minimum`, `maximum`, an enum value of a numeric type).
fn number_of(value: &Value) -> Option<Value> {
    match value {
        Value::Number(_) => Some(value.clone()),
        Value::String(text) => {
            let trimmed = text.trim();
            if let Ok(n) = trimmed.parse::<i64>() {
                return Some(Value::Number(n.into()));
            }
            if let Ok(n) = trimmed.parse::<u64>() {
                return Some(Value::Number(n.into()));
            }
            trimmed
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map(Value::Number)
        }
        _ => None,
    }
}

/// Gemini's `Schema` read as the JSON Schema it means (see the module
/// docs), in this subschema and every one inside it.
fn gemini_node(
    node: &mut Value,
    path: &str,
    unenforced: &mut Vec<Unenforced>,
) -> Result<(), SchemaError> {
    let Value::Object(map) = node else {
        return Ok(());
    };
    let mut note = |keyword: &str| {
        unenforced.push(Unenforced {
            path: path.to_owned(),
            keyword: keyword.to_owned(),
        })
    };
    match map.remove("type") {
        None => {}
        Some(Value::String(name)) => {
            if let Some(t) = gemini_type(&name, path)? {
                map.insert("type".to_owned(), Value::String(t.to_owned()));
            }
        }
        Some(Value::Array(names)) => {
            let mut types = Vec::new();
            for name in &names {
                let Some(name) = name.as_str() else {
                    return Err(invalid(path, "\"type\" must name Gemini types"));
                };
                if let Some(t) = gemini_type(name, path)? {
                    let t = Value::String(t.to_owned());
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
            }
            if !types.is_empty() {
                map.insert("type".to_owned(), Value::Array(types));
            }
        }
        Some(_) => return Err(invalid(path, "\"type\" must be one of Gemini's type names")),
    }
    for key in COUNT_BOUNDS {
        if let Some(value) = map.get(key) {
            let bound = count_bound(value, key, path)?;
            map.insert(key.to_owned(), bound);
        }
    }
    for key in ["minimum", "maximum"] {
        if let Some(value) = map.get(key) {
            let bound = number_of(value)
                .ok_or_else(|| invalid(path, &format!("\"{key}\" must be a number")))?;
            map.insert(key.to_owned(), bound);
        }
    }
    if let Some(format) = map.get("format") {
        let checked = format
            .as_str()
            .is_some_and(|f| CHECKED_FORMATS.contains(&f));
        if format.as_str() != Some("enum") && !checked {
            note("format");
        }
        if !checked {
            map.remove("format");
        }
    }
    if let Some(ordering) = map.remove("propertyOrdering") {
        let names = ordering
            .as_array()
            .is_some_and(|names| names.iter().all(Value::is_string));
        if !names {
            return Err(invalid(
                path,
                "\"propertyOrdering\" must be a list of property names",
            ));
        }
        note("propertyOrdering");
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        let values = enum_values(values, map.get("type"), path)?;
        map.insert("enum".to_owned(), Value::Array(values));
    }
    match map.remove("nullable") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => admit_null(map),
        Some(_) => return Err(invalid(path, "\"nullable\" must be a boolean")),
    }
    each_subschema_mut(map, path, |sub, at| gemini_node(sub, at, unenforced))
}

/// An enum's values for the node's JSON types: Gemini writes them as
/// strings, which mean numbers (or booleans) for those types.
fn enum_values(
    values: &[Value],
    types: Option<&Value>,
    path: &str,
) -> Result<Vec<Value>, SchemaError> {
    let names: Vec<&str> = match types {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if names.is_empty() || names.contains(&"string") {
        return Ok(values.to_vec());
    }
    let numeric = names.contains(&"integer") || names.contains(&"number");
    let boolean = names.contains(&"boolean");
    values
        .iter()
        .map(|value| {
            let Value::String(text) = value else {
                return Ok(value.clone());
            };
            let read = if numeric { number_of(value) } else { None }.or_else(|| {
                match (boolean, text.as_str()) {
                    (true, "true") => Some(Value::Bool(true)),
                    (true, "false") => Some(Value::Bool(false)),
                    _ => None,
                }
            });
            read.ok_or_else(|| {
                invalid(
                    path,
                    &format!(
                        "the enum value {} is not a value of the type {}",
                        Value::String(text.chars().take(40).collect()),
                        names.join(", ")
                    ),
                )
            })
        })
        .collect()
}

/// Gemini's `nullable: true`: `null` is a value, whatever else the node says.
fn admit_null(map: &mut Map<String, Value>) {
    add_null_type(map);
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    if !map.contains_key("type") {
        if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
            let null = Value::Object(Map::from_iter([(
                "type".to_owned(),
                Value::String("null".to_owned()),
            )]));
            if !branches.contains(&null) {
                branches.push(null);
            }
        }
    }
}

/// Keywords whose value maps names to subschemas.
pub(crate) const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a list of subschemas.
pub(crate) const SCHEMA_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value is one subschema (`items` may also be a list).
pub(crate) const SCHEMA_SINGLE: [&str; 11] = [
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
];

#[cfg(test)]
mod tests;
