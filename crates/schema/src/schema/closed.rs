//! `rejectUnknownFields`: treat object schemas that say nothing about extra
//! properties as closed, as providers' native strict modes do.
//!
//! A plain object schema with `properties` gets `additionalProperties: false`.
//! Subschemas that are combined in place (branches of allOf/anyOf/oneOf,
//! if/then/else) are not closed one by one, since each would reject the
//! others' properties; the node that combines them is closed with
//! `unevaluatedProperties: false` instead, which sees through the combination.
//! Draft 7 and older have no `unevaluatedProperties`, so such nodes stay open
//! there. An explicit `additionalProperties`, `unevaluatedProperties` or
//! `patternProperties` always wins.

use jsonschema::Draft;
use serde_json::{Map, Value};

const IN_PLACE_ARRAYS: [&str; 3] = ["allOf", "anyOf", "oneOf"];
const IN_PLACE_SINGLE: [&str; 3] = ["if", "then", "else"];
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
const SCHEMA_SINGLE: [&str; 8] = [
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
];

pub(super) fn close_objects(schema: &Value, draft: Option<Draft>) -> Value {
    let has_unevaluated = supports_unevaluated(schema, draft);
    let mut out = schema.clone();
    close(&mut out, false, has_unevaluated);
    out
}

fn supports_unevaluated(schema: &Value, draft: Option<Draft>) -> bool {
    match draft {
        Some(Draft::Draft4 | Draft::Draft6 | Draft::Draft7) => false,
        Some(_) => true,
        None => {
            let declared = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
            !["draft-04", "draft-06", "draft-07"]
                .iter()
                .any(|d| declared.contains(d))
        }
    }
}

fn close(node: &mut Value, in_place_branch: bool, has_unevaluated: bool) {
    let Value::Object(map) = node else { return };
    recurse(map, has_unevaluated);
    if says_something_about_extras(map) {
        return;
    }
    let composite = IN_PLACE_ARRAYS
        .iter()
        .chain(IN_PLACE_SINGLE.iter())
        .any(|k| map.contains_key(*k))
        || map.contains_key("$ref")
        || map.contains_key("dependentSchemas");
    let declares = map.contains_key("properties") || branches_declare_properties(map);
    if !declares {
        return;
    }
    if composite {
        if has_unevaluated && !in_place_branch {
            map.insert("unevaluatedProperties".into(), Value::Bool(false));
        }
    } else if !in_place_branch && map.contains_key("properties") {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
}

fn says_something_about_extras(map: &Map<String, Value>) -> bool {
    [
        "additionalProperties",
        "unevaluatedProperties",
        "patternProperties",
    ]
    .iter()
    .any(|k| map.contains_key(*k))
}

fn branches_declare_properties(map: &Map<String, Value>) -> bool {
    let declares = |v: &Value| v.get("properties").is_some();
    IN_PLACE_ARRAYS
        .iter()
        .filter_map(|k| map.get(*k).and_then(Value::as_array))
        .flatten()
        .any(declares)
        || IN_PLACE_SINGLE
            .iter()
            .filter_map(|k| map.get(*k))
            .any(declares)
}

fn recurse(map: &mut Map<String, Value>, has_unevaluated: bool) {
    for key in SCHEMA_MAPS {
        if let Some(Value::Object(children)) = map.get_mut(key) {
            for child in children.values_mut() {
                close(child, false, has_unevaluated);
            }
        }
    }
    for key in SCHEMA_SINGLE {
        match map.get_mut(key) {
            Some(Value::Array(items)) => items
                .iter_mut()
                .for_each(|c| close(c, false, has_unevaluated)),
            Some(child) => close(child, false, has_unevaluated),
            None => {}
        }
    }
    if let Some(Value::Array(items)) = map.get_mut("prefixItems") {
        items
            .iter_mut()
            .for_each(|c| close(c, false, has_unevaluated));
    }
    if let Some(Value::Object(deps)) = map.get_mut("dependencies") {
        deps.values_mut()
            .for_each(|c| close(c, false, has_unevaluated));
    }
    for key in IN_PLACE_ARRAYS {
        if let Some(Value::Array(items)) = map.get_mut(key) {
            items
                .iter_mut()
                .for_each(|c| close(c, true, has_unevaluated));
        }
    }
    for key in IN_PLACE_SINGLE {
        if let Some(child) = map.get_mut(key) {
            close(child, true, has_unevaluated);
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;
