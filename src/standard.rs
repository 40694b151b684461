//! A compiled schema as Standard JSON Schema asks for it: written for the
//! draft a framework names (`"draft-2020-12"` or `"draft-07"`), converting
//! what differs between the two and refusing, with a clear error, what
//! draft-07 cannot say.

use serde_json::{Map, Value};

use crate::error::ArgumentError;
// The keywords that hold subschemas, as the provider-schema conversion
// lists them; `contentSchema` also holds one, and is converted here too.
use crate::dialect::{SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLE};

const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// The drafts a schema can be written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Draft {
    Modern,
    Classic,
}

/// Why a schema's source could not be given for a target: its schema
/// cannot be read in its dialect, or the target or options are misuse.
#[derive(Debug)]
pub enum Refused {
    Schema(hot_path::schema::SchemaError),
    Argument(ArgumentError),
}

/// A compiled schema's source as Standard JSON Schema's `jsonSchema.input`
/// and `output` give it: the JSON Schema it means in its dialect (a
/// dialect's schema, Gemini's or OpenAPI's `nullable`, translated, as a
/// framework reads a draft), written for `target` ("draft-2020-12" or
/// "draft-07"). `options` are the compile options the schema was compiled
/// with: their `dialect`, and their `draft`, which says which draft the
/// schema is written in when its `$schema` does not.
pub fn source_for_target(schema: Value, target: &str, options: &Value) -> Result<Value, Refused> {
    let draft = options.get("draft").and_then(Value::as_str);
    let inner = crate::verdict::unwrap_response_format(&schema).0;
    let dialect = options
        .get("dialect")
        .and_then(Value::as_str)
        .and_then(hot_path::schema::Dialect::parse)
        .unwrap_or_else(|| crate::dialect::detect(inner));
    let meant = crate::dialect::translate(inner, dialect).map_err(Refused::Schema)?;
    let schema = meant.map_or(schema, |t| t.schema);
    for_target(&schema, target, draft).map_err(Refused::Argument)
}

/// `schema` (a response-format wrapper unwrapped) written for `target`.
/// `draft` is the compile option the schema was compiled with, if any; the
/// schema's own `$schema` says otherwise which draft it is written in.
pub fn for_target(
    schema: &Value,
    target: &str,
    draft: Option<&str>,
) -> Result<Value, ArgumentError> {
    let to = match target {
        "draft-2020-12" => Draft::Modern,
        "draft-07" => Draft::Classic,
        other => {
            return Err(ArgumentError::new(format!(
                "the JSON Schema target must be \"draft-2020-12\" or \"draft-07\", not {}",
                Value::String(other.chars().take(40).collect())
            )))
        }
    };
    let schema = crate::verdict::unwrap_response_format(schema).0;
    let from = source_draft(schema, draft);
    let mut out = schema.clone();
    match (from, to) {
        (Draft::Modern, Draft::Classic) => down(&mut out, "")?,
        (Draft::Classic, Draft::Modern) => up(&mut out),
        _ => {}
    }
    if let Value::Object(map) = &mut out {
        let uri = if to == Draft::Modern {
            DRAFT_2020_12
        } else {
            DRAFT_07
        };
        map.insert("$schema".into(), Value::String(uri.into()));
    }
    Ok(out)
}

fn source_draft(schema: &Value, draft: Option<&str>) -> Draft {
    let declared = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
    let classic = [
        "draft-07", "draft-06", "draft-04", "draft7", "draft6", "draft4",
    ];
    let named = |text: &str| classic.iter().any(|d| text.contains(d));
    if (!declared.is_empty() && named(declared))
        || (declared.is_empty() && draft.is_some_and(named))
    {
        Draft::Classic
    } else {
        Draft::Modern
    }
}

/// A key as a JSON Pointer token.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Applies `f` to every subschema of `map` (one level down).
fn each_subschema(
    map: &mut Map<String, Value>,
    f: &mut dyn FnMut(&mut Value, &str) -> Result<(), ArgumentError>,
    at: &str,
) -> Result<(), ArgumentError> {
    for (key, value) in map.iter_mut() {
        let here = format!("{at}/{}", token(key));
        if SCHEMA_MAPS.contains(&key.as_str()) {
            if let Value::Object(members) = value {
                for (name, member) in members.iter_mut() {
                    f(member, &format!("{here}/{}", token(name)))?;
                }
            }
        } else if SCHEMA_LISTS.contains(&key.as_str()) || (key == "items" && value.is_array()) {
            if let Value::Array(items) = value {
                for (i, item) in items.iter_mut().enumerate() {
                    f(item, &format!("{here}/{i}"))?;
                }
            }
        } else if SCHEMA_SINGLE.contains(&key.as_str())
            || key == "contentSchema"
            || key == "dependencies"
        {
            if key == "dependencies" {
                if let Value::Object(members) = value {
                    for (name, member) in members.iter_mut().filter(|(_, m)| !m.is_array()) {
                        f(member, &format!("{here}/{}", token(name)))?;
                    }
                }
            } else {
                f(value, &here)?;
            }
        }
    }
    Ok(())
}

/// 2020-12 to draft-07.
fn down(schema: &mut Value, at: &str) -> Result<(), ArgumentError> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    for keyword in [
        "$dynamicRef",
        "$dynamicAnchor",
        "unevaluatedProperties",
        "unevaluatedItems",
        "$recursiveRef",
    ] {
        if map.contains_key(keyword) {
            return Err(ArgumentError::new(format!(
                "the schema cannot be written for draft-07: {keyword} at \"{}\" has no draft-07 form",
                if at.is_empty() { "/" } else { at }
            )));
        }
    }
    each_subschema(map, &mut |sub, here| down(sub, here), at)?;
    if let Some(defs) = map.remove("$defs") {
        match map.get_mut("definitions") {
            Some(Value::Object(existing)) => {
                if let Value::Object(defs) = defs {
                    for (name, def) in defs {
                        existing.entry(name).or_insert(def);
                    }
                }
            }
            _ => {
                map.insert("definitions".into(), defs);
            }
        }
    }
    if let Some(Value::String(reference)) = map.get_mut("$ref") {
        if let Some(rest) = reference.strip_prefix("#/$defs/") {
            *reference = format!("#/definitions/{rest}");
        }
    }
    if let Some(prefix) = map.remove("prefixItems") {
        if let Some(rest) = map.remove("items") {
            map.insert("additionalItems".into(), rest);
        }
        map.insert("items".into(), prefix);
    }
    let required = map.remove("dependentRequired");
    let schemas = map.remove("dependentSchemas");
    if required.is_some() || schemas.is_some() {
        let mut dependencies = Map::new();
        for source in [required, schemas].into_iter().flatten() {
            if let Value::Object(entries) = source {
                dependencies.extend(entries);
            }
        }
        map.insert("dependencies".into(), Value::Object(dependencies));
    }
    Ok(())
}

/// draft-07 (or 6, 4) to 2020-12.
fn up(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    let _ = each_subschema(
        map,
        &mut |sub, _| {
            up(sub);
            Ok(())
        },
        "",
    );
    if let Some(defs) = map.remove("definitions") {
        map.entry("$defs").or_insert(defs);
    }
    if let Some(Value::String(reference)) = map.get_mut("$ref") {
        if let Some(rest) = reference.strip_prefix("#/definitions/") {
            *reference = format!("#/$defs/{rest}");
        }
    }
    if map.get("items").is_some_and(Value::is_array) {
        if let Some(prefix) = map.remove("items") {
            map.insert("prefixItems".into(), prefix);
        }
        if let Some(rest) = map.remove("additionalItems") {
            map.insert("items".into(), rest);
        }
    }
    if let Some(Value::Object(dependencies)) = map.remove("dependencies") {
        let (required, schemas): (Map<String, Value>, Map<String, Value>) =
            dependencies.into_iter().partition(|(_, v)| v.is_array());
        if !required.is_empty() {
            map.insert("dependentRequired".into(), Value::Object(required));
        }
        if !schemas.is_empty() {
            map.insert("dependentSchemas".into(), Value::Object(schemas));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests;
