#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use serde_json::json;

fn carries(request: Value) -> bool {
    request_carries_tools(&request, false)
}

const FUNCTION: &str =
    r#"{"type":"function","function":{"name":"lookup","parameters":{"type":"object"}}}"#;

fn function_tool() -> Value {
    serde_json::from_str(FUNCTION).unwrap()
}

#[test]
fn openai_chat_tools_and_legacy_functions() {
    assert!(carries(
        json!({"model": "gpt-4.1", "messages": [], "tools": [function_tool()]})
    ));
    assert!(carries(
        json!({"messages": [], "functions": [{"name": "lookup", "parameters": {}}]})
    ));
    assert!(carries(json!({"messages": [], "web_search_options": {}})));
    assert!(!carries(
        json!({"messages": [], "tools": [], "functions": []})
    ));
}

#[test]
fn openai_responses_hosted_tools() {
    for tool in [
        json!({"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.example/sse"}),
        json!({"type": "web_search"}),
        json!({"type": "code_interpreter", "container": {"type": "auto"}}),
        json!({"type": "file_search", "vector_store_ids": ["vs_1"]}),
    ] {
        assert!(carries(
            json!({"model": "gpt-5", "input": "hi", "tools": [tool]})
        ));
    }
}

#[test]
fn anthropic_tools_server_tools_and_mcp_servers() {
    assert!(carries(
        json!({"model": "claude", "max_tokens": 100, "messages": [],
        "tools": [{"name": "lookup", "input_schema": {"type": "object"}}]})
    ));
    assert!(carries(
        json!({"messages": [], "tools": [{"type": "web_search_20250305", "name": "web_search"}]})
    ));
    assert!(carries(json!({"messages": [],
        "mcp_servers": [{"type": "url", "url": "https://mcp.example/sse", "name": "example"}]})));
    assert!(!carries(json!({"messages": [], "mcp_servers": []})));
}

#[test]
fn gemini_rest_and_google_genai_config_tools() {
    let declarations =
        json!([{"functionDeclarations": [{"name": "lookup", "parameters": {"type": "OBJECT"}}]}]);
    assert!(carries(json!({"contents": [], "tools": declarations})));
    assert!(carries(
        json!({"model": "gemini-2.5-flash", "contents": "hi", "config": {"tools": declarations}})
    ));
    for builtin in [
        json!({"googleSearch": {}}),
        json!({"codeExecution": {}}),
        json!({"urlContext": {}}),
    ] {
        assert!(carries(
            json!({"contents": "hi", "config": {"tools": [builtin]}})
        ));
    }
    assert!(!carries(
        json!({"contents": "hi", "config": {"temperature": 0, "tools": []}})
    ));
    assert!(!carries(
        json!({"contents": "hi", "config": {"responseMimeType": "application/json"}})
    ));
}

#[test]
fn bedrock_converse_and_invoke_model_bodies() {
    assert!(carries(
        json!({"modelId": "m", "messages": [], "toolConfig": {"tools": [{"toolSpec": {"name": "lookup"}}]}})
    ));
    assert!(!carries(
        json!({"modelId": "m", "messages": [], "toolConfig": {"tools": []}})
    ));
    // InvokeModel: the model's own request as JSON text, bare or in `input`.
    let anthropic_body =
        json!({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 10, "messages": [],
        "tools": [{"name": "lookup", "input_schema": {"type": "object"}}]})
        .to_string();
    let nova_body =
        json!({"messages": [], "toolConfig": {"tools": [{"toolSpec": {"name": "lookup"}}]}})
            .to_string();
    let plain_body = json!({"anthropic_version": "bedrock-2023-05-31", "messages": []}).to_string();
    assert!(carries(
        json!({"modelId": "anthropic.claude", "body": anthropic_body})
    ));
    assert!(carries(
        json!({"modelId": "amazon.nova", "body": nova_body})
    ));
    assert!(carries(
        json!({"input": {"modelId": "anthropic.claude", "body": anthropic_body}})
    ));
    assert!(!carries(
        json!({"modelId": "anthropic.claude", "body": plain_body})
    ));
    assert!(!carries(json!({"modelId": "m", "body": "not json"})));
    // A body already held as an object is read the same way.
    assert!(carries(
        json!({"modelId": "m", "body": {"tools": [{"name": "lookup"}]}})
    ));
}

#[test]
fn mistral_cohere_and_ollama_tools() {
    assert!(carries(
        json!({"model": "mistral-large", "messages": [], "tools": [function_tool()]})
    ));
    assert!(carries(
        json!({"model": "command-r", "messages": [], "tools": [function_tool()]})
    ));
    assert!(carries(
        json!({"model": "llama3", "messages": [], "stream": false, "tools": [function_tool()]})
    ));
}

#[test]
fn ai_sdk_tool_records() {
    assert!(carries(
        json!({"prompt": "hi", "tools": {"lookup": {"description": "d", "inputSchema": {}}}})
    ));
    assert!(!carries(json!({"prompt": "hi", "tools": {}})));
}

#[test]
fn what_the_reader_cannot_make_out_counts_as_tools() {
    let mut found = vec![Found::Nothing; TOOL_PATHS.len()];
    assert!(!carries_tools(&found, false));
    assert!(carries_tools(&found, true));
    found[3] = Found::Unreadable;
    assert!(carries_tools(&found, false));
    // Any present value that is not a collection counts too.
    assert!(carries(json!({"tools": "lookup"})));
    assert!(carries(json!({"tools": 1})));
    assert!(!carries(json!({"tools": null, "functions": false})));
}

#[test]
fn a_body_inside_a_body_is_not_read_again() {
    let inner = json!({"tools": [{"name": "lookup"}]}).to_string();
    let outer = json!({"body": inner}).to_string();
    assert!(!carries(json!({"body": outer})));
}

#[test]
fn the_table_crosses_as_paths_and_leaves() {
    let text = serde_json::to_string(&TOOL_PATHS).unwrap();
    assert!(
        text.starts_with(r#"[{"path":["tools"],"leaf":"collection"},"#),
        "{text}"
    );
    assert!(text.contains(r#"{"path":["web_search_options"],"leaf":"presence"}"#));
    assert!(text.contains(r#"{"path":["body"],"leaf":"request_text"}"#));
}
