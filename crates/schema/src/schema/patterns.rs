//! Every `pattern` and `patternProperties` key of a schema read as ECMA-262
//! (with the `u` flag's meaning), for a schema that did not compile: a
//! pattern the guard does not support is then a `SchemaError` saying where
//! and why, rather than the meta-schema's "value is not a regex".

use serde_json::Value;

use super::SchemaError;

/// Keywords whose values are data, never subschemas.
const DATA: [&str; 4] = ["const", "enum", "default", "examples"];

/// Keywords whose values map names to subschemas.
const NAMED_SUBSCHEMAS: [&str; 6] = [
    "properties",
    "patternProperties",
    "definitions",
    "$defs",
    "dependentSchemas",
    "dependencies",
];

/// The first pattern of `schema` that does not translate, as a
/// `SchemaError`. Iterative, like every walk over a schema not yet measured
/// for depth.
pub fn check_patterns(schema: &Value) -> Result<(), SchemaError> {
    let mut stack: Vec<(&Value, String, bool)> = vec![(schema, String::new(), false)];
    while let Some((node, at, named)) = stack.pop() {
        match node {
            Value::Object(map) => {
                if !named {
                    if let Some(Value::String(pattern)) = map.get("pattern") {
                        check(pattern, &format!("{at}/pattern"))?;
                    }
                    if let Some(Value::Object(properties)) = map.get("patternProperties") {
                        for pattern in properties.keys() {
                            check(pattern, &format!("{at}/patternProperties"))?;
                        }
                    }
                }
                for (key, member) in map {
                    if named || !DATA.contains(&key.as_str()) {
                        let child = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                        stack.push((
                            member,
                            child,
                            !named && NAMED_SUBSCHEMAS.contains(&key.as_str()),
                        ));
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    stack.push((item, format!("{at}/{index}"), false));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn check(pattern: &str, at: &str) -> Result<(), SchemaError> {
    jsonschema_regex::translate_ecma_regex(pattern)
        .map(|_| ())
        .map_err(|refusal| {
            let shown: String = pattern.chars().take(80).collect();
            SchemaError::new(format!(
                "the schema is invalid at {at}: the pattern {shown:?} {refusal} (patterns are \
                 ECMA-262 regular expressions, read as with the u flag)"
            ))
        })
}
