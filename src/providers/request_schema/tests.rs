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
    assert_eq!(json[6]["dialect"], "gemini");
    assert_eq!(json[6]["jsonSchemaWith"], "$schema");
    assert_eq!(json[9]["schema"], serde_json::json!(["format"]));
    assert!(json[9]["strict"].is_null());
    // Forced tools come first: their call, not the text, carries the output.
    let first_member = SCHEMA_SOURCES
        .iter()
        .position(|s| s.forced.is_none())
        .unwrap();
    assert!(SCHEMA_SOURCES[first_member..]
        .iter()
        .all(|s| s.forced.is_none()));
}
