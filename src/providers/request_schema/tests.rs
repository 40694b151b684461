#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use super::*;

#[test]
fn the_table_serialises_as_the_reader_walks_it() {
    let json = serde_json::to_value(SCHEMA_SOURCES).unwrap();
    let anthropic = json
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "tool_choice (Anthropic's forced tool's input_schema)")
        .unwrap();
    assert_eq!(anthropic["forced"]["choiceType"], "tool");
    let named = |name: &str| {
        json.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
    };
    // Bedrock's choice says which tool by its place alone: no `type`.
    let bedrock = named("toolConfig.toolChoice (Bedrock's forced tool's inputSchema.json)");
    assert!(bedrock["forced"]["choiceType"].is_null());
    assert_eq!(
        bedrock["forced"]["choice"],
        serde_json::json!(["toolConfig", "toolChoice", "tool"])
    );
    assert_eq!(named("config.responseSchema")["dialect"], "gemini");
    assert_eq!(named("config.responseSchema")["jsonSchemaWith"], "$schema");
    assert_eq!(named("format")["schema"], serde_json::json!(["format"]));
    assert!(named("format")["strict"].is_null());
    // Forced tools come first: their call, not the text, carries the output.
    let first_member = SCHEMA_SOURCES
        .iter()
        .position(|s| s.forced.is_none())
        .unwrap();
    assert!(SCHEMA_SOURCES[first_member..]
        .iter()
        .all(|s| s.forced.is_none()));
}
