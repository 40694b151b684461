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
        pairs(&json!([{ "functionDeclarations": [{ "name": "a", "parametersJsonSchema": s }] }])),
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
