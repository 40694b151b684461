use super::*;
use serde_json::json;

#[test]
fn plain_object_schemas_are_closed_at_every_depth() {
    let schema = json!({
        "type": "object",
        "properties": {
            "rows": {"type": "array", "items": {"type": "object", "properties": {"a": {}}}}
        }
    });
    let closed = close_objects(&schema, None);
    assert_eq!(closed["additionalProperties"], json!(false));
    assert_eq!(
        closed["properties"]["rows"]["items"]["additionalProperties"],
        json!(false)
    );
}

#[test]
fn explicit_policy_wins() {
    let schema = json!({"properties": {"a": {}}, "additionalProperties": {"type": "string"}});
    assert_eq!(close_objects(&schema, None), schema);
    let schema = json!({"properties": {"a": {}}, "patternProperties": {"^x": {}}});
    assert_eq!(close_objects(&schema, None), schema);
}

#[test]
fn combined_branches_close_the_combining_node() {
    let schema = json!({"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]});
    let closed = close_objects(&schema, None);
    assert_eq!(closed["unevaluatedProperties"], json!(false));
    assert!(closed["allOf"][0].get("additionalProperties").is_none());
}

#[test]
fn draft7_leaves_combined_nodes_open() {
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "allOf": [{"properties": {"a": {}}}]});
    assert_eq!(close_objects(&schema, None), schema);
}

#[test]
fn schemas_without_properties_are_untouched() {
    let schema = json!({"type": "object"});
    assert_eq!(close_objects(&schema, None), schema);
}
