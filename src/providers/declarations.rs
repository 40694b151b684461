//! The input schema of each tool a request declares, in every provider's
//! and SDK's shape, for checking tool calls before they run.
//!
//! The reader hands the core the declarations as JSON; the core answers
//! with each tool's name and the JSON Pointer of its input schema within
//! them, so the facade can take the schema object itself from the live
//! declarations (and find its compiled validator by identity).

use serde_json::Value;

/// One declared tool: its name, and where its input schema is (`None`: the
/// tool takes no arguments, so any object is fine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub schema_pointer: Option<String>,
}

/// Where a whole request keeps its tool declarations, in the order they
/// are read (a name declared twice is the first one's). The facade reads a
/// request's declarations here by property access, and hands the core each
/// list or record it finds ([`declared_in`]), never the whole request.
pub const DECLARATION_PATHS: [&[&str]; 4] = [
    &["tools"],
    &["functions"],
    &["toolConfig", "tools"],
    &["config", "tools"],
];

/// Every tool declared in `tools`: a list or record of declarations in any
/// shape, or a whole request (read at [`DECLARATION_PATHS`]).
#[must_use]
pub fn declared_tools(tools: &Value) -> Vec<Declared> {
    let mut found = Vec::new();
    if let Value::Object(map) = tools {
        // A whole request: its declarations.
        let mut any = false;
        for path in DECLARATION_PATHS {
            let mut node = Some(tools);
            for key in path {
                node = node.and_then(|n| n.get(*key));
            }
            if let Some(list) = node.filter(|n| n.is_array() || n.is_object()) {
                any = true;
                collect(list, &pointer_of(path), &mut found);
            }
        }
        if any || map.is_empty() {
            return found;
        }
        // One declaration, or an AI SDK tools record keyed by name.
        if declaration(tools, "").is_some() {
            collect(&Value::Array(vec![tools.clone()]), "", &mut found);
            // The pointer must address the value itself, not an array element.
            for tool in &mut found {
                tool.schema_pointer = tool
                    .schema_pointer
                    .as_ref()
                    .and_then(|p| p.strip_prefix("/0").map(str::to_owned));
            }
            return found;
        }
    }
    collect(tools, "", &mut found);
    found
}

/// The tools declared in `list`, a list or record found at one of a
/// request's [`DECLARATION_PATHS`], with pointers into `list` itself.
#[must_use]
pub fn declared_in(list: &Value) -> Vec<Declared> {
    let mut found = Vec::new();
    collect(list, "", &mut found);
    found
}

fn pointer_of(path: &[&str]) -> String {
    path.iter().map(|key| format!("/{}", escape(key))).collect()
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The declarations in a list, or in a record keyed by tool name (the AI
/// SDK's `tools`).
fn collect(list: &Value, at: &str, found: &mut Vec<Declared>) {
    match list {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let here = format!("{at}/{i}");
                // Gemini groups function declarations in a tool.
                if let Some(group) = item.get("functionDeclarations").and_then(Value::as_array) {
                    for (j, function) in group.iter().enumerate() {
                        if let Some(tool) =
                            declaration(function, &format!("{here}/functionDeclarations/{j}"))
                        {
                            found.push(tool);
                        }
                    }
                } else if let Some(tool) = declaration(item, &here) {
                    found.push(tool);
                }
            }
        }
        Value::Object(record) => {
            for (name, tool) in record {
                let here = format!("{at}/{}", escape(name));
                if let Some(mut declared) = declaration(tool, &here) {
                    declared.name.clone_from(name);
                    found.push(declared);
                } else if let Some(pointer) = ai_sdk_schema(tool, &here) {
                    found.push(Declared {
                        name: name.clone(),
                        schema_pointer: Some(pointer),
                    });
                }
            }
        }
        _ => {}
    }
}

/// One tool declaration at `at`: its name and its schema's pointer.
fn declaration(tool: &Value, at: &str) -> Option<Declared> {
    // OpenAI Chat: { type: "function", function: { name, parameters } }.
    if let Some(function) = tool.get("function").filter(|f| f.is_object()) {
        let name = function.get("name")?.as_str()?.to_owned();
        let schema_pointer = function
            .get("parameters")
            .map(|_| format!("{at}/function/parameters"));
        return Some(Declared {
            name,
            schema_pointer,
        });
    }
    // Bedrock Converse: { toolSpec: { name, inputSchema: { json } } }.
    if let Some(spec) = tool.get("toolSpec").filter(|s| s.is_object()) {
        let name = spec.get("name")?.as_str()?.to_owned();
        let schema_pointer = spec
            .pointer("/inputSchema/json")
            .map(|_| format!("{at}/toolSpec/inputSchema/json"));
        return Some(Declared {
            name,
            schema_pointer,
        });
    }
    let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
    // Responses and legacy functions (`parameters`), Anthropic
    // (`input_schema`), Gemini (`parametersJsonSchema`, `parameters`), MCP
    // (`inputSchema`), the AI SDK (`inputSchema` as jsonSchema()).
    for key in [
        "parameters",
        "parametersJsonSchema",
        "input_schema",
        "inputSchema",
    ] {
        if let Some(schema) = tool.get(key) {
            let name = name?;
            let pointer = format!("{at}/{key}");
            let schema_pointer = match ai_sdk_inner(schema) {
                Some(inner) => Some(format!("{pointer}/{inner}")),
                None => Some(pointer),
            };
            return Some(Declared {
                name,
                schema_pointer,
            });
        }
    }
    // A declaration without parameters (a tool that takes none).
    let described = tool.get("description").is_some()
        || tool.get("type").and_then(Value::as_str) == Some("function");
    match name {
        Some(name) if described => Some(Declared {
            name,
            schema_pointer: None,
        }),
        _ => None,
    }
}

/// The AI SDK's `tool({ inputSchema })` in a record keyed by name.
fn ai_sdk_schema(tool: &Value, at: &str) -> Option<String> {
    let schema = tool.get("inputSchema").or_else(|| tool.get("parameters"))?;
    let key = if tool.get("inputSchema").is_some() {
        "inputSchema"
    } else {
        "parameters"
    };
    Some(match ai_sdk_inner(schema) {
        Some(inner) => format!("{at}/{key}/{inner}"),
        None => format!("{at}/{key}"),
    })
}

/// An AI SDK `jsonSchema()` wrapper keeps the schema in `jsonSchema`.
fn ai_sdk_inner(schema: &Value) -> Option<&'static str> {
    schema
        .get("jsonSchema")
        .filter(|inner| inner.is_object() || inner.is_boolean())
        .map(|_| "jsonSchema")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(tools: &Value) -> Vec<(String, Option<String>)> {
        declared_tools(tools)
            .into_iter()
            .map(|d| (d.name, d.schema_pointer))
            .collect()
    }

    fn one(name: &str, pointer: &str) -> Vec<(String, Option<String>)> {
        vec![(name.to_owned(), Some(pointer.to_owned()))]
    }

    #[test]
    fn every_shape() {
        let s = json!({ "type": "object" });
        assert_eq!(
            pairs(&json!([{ "type": "function", "function": { "name": "a", "parameters": s } }])),
            one("a", "/0/function/parameters")
        );
        assert_eq!(
            pairs(&json!([{ "type": "function", "name": "a", "parameters": s }])),
            one("a", "/0/parameters")
        );
        assert_eq!(
            pairs(&json!([{ "name": "a", "input_schema": s }])),
            one("a", "/0/input_schema")
        );
        assert_eq!(
            pairs(
                &json!([{ "functionDeclarations": [{ "name": "a", "parametersJsonSchema": s }] }])
            ),
            one("a", "/0/functionDeclarations/0/parametersJsonSchema")
        );
        assert_eq!(
            pairs(&json!([{ "toolSpec": { "name": "a", "inputSchema": { "json": s } } }])),
            one("a", "/0/toolSpec/inputSchema/json")
        );
        assert_eq!(
            pairs(&json!([{ "name": "a", "inputSchema": s }])),
            one("a", "/0/inputSchema")
        );
        assert_eq!(
            pairs(&json!({ "a": { "inputSchema": { "jsonSchema": s } } })),
            one("a", "/a/inputSchema/jsonSchema")
        );
        assert_eq!(
            pairs(&json!({ "a/b": { "inputSchema": s } })),
            one("a/b", "/a~1b/inputSchema")
        );
    }

    #[test]
    fn whole_requests() {
        let s = json!({ "type": "object" });
        assert_eq!(
            pairs(&json!({ "model": "m", "tools": [{ "name": "a", "input_schema": s }] })),
            one("a", "/tools/0/input_schema")
        );
        assert_eq!(
            pairs(&json!({ "functions": [{ "name": "a", "parameters": s }] })),
            one("a", "/functions/0/parameters")
        );
        assert_eq!(
            pairs(
                &json!({ "toolConfig": { "tools": [{ "toolSpec": { "name": "a", "inputSchema": { "json": s } } }] } })
            ),
            one("a", "/toolConfig/tools/0/toolSpec/inputSchema/json")
        );
        assert_eq!(
            pairs(
                &json!({ "config": { "tools": [{ "functionDeclarations": [{ "name": "a", "parameters": s }] }] } })
            ),
            one("a", "/config/tools/0/functionDeclarations/0/parameters")
        );
        // One declaration on its own.
        assert_eq!(
            pairs(&json!({ "name": "a", "input_schema": s })),
            one("a", "/input_schema")
        );
    }

    #[test]
    fn tools_without_parameters_and_things_that_are_not_tools() {
        assert_eq!(
            pairs(&json!([{ "type": "function", "function": { "name": "now" } }])),
            vec![("now".to_owned(), None)]
        );
        assert!(pairs(&json!([{ "type": "web_search" }, 3, "x"])).is_empty());
        assert!(pairs(&json!(null)).is_empty());
    }
}
