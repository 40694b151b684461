#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{json, Value};

use super::program_of;
use crate::dialect::compile;
use hot_path::schema::CompileOptions;

fn program(schema: Value) -> Option<Value> {
    let compiled = compile(&schema, &CompileOptions::default()).ok()?;
    program_of(&compiled).map(|p| serde_json::from_str(&p.text).unwrap_or(Value::Null))
}

#[test]
fn a_schema_of_plain_keywords_has_a_program_with_its_references_resolved() {
    let p = program(json!({
        "type": "object",
        "required": ["a"],
        "properties": { "a": { "$ref": "#/$defs/n" } },
        "$defs": { "n": { "type": "integer", "minimum": 0 } }
    }));
    let p = p.expect("a program");
    assert_eq!(p["draft"], json!(2020));
    let nodes = p["nodes"].as_array().cloned().unwrap_or_default();
    // The root's checks run in the validator's order: type, required, properties.
    assert_eq!(nodes[0][0], json!(["type", 64]));
    assert_eq!(nodes[0][1], json!(["required", ["a"]]));
    let a = nodes[0][2][1][0][1].as_u64().unwrap_or(0) as usize;
    assert_eq!(nodes[a], json!([["ref", 2]]));
    assert_eq!(nodes[2], json!([["type", 4], ["min", 0.0]]));
}

#[test]
fn keywords_no_program_says_exactly_leave_the_schema_to_the_core() {
    for schema in [
        json!({ "allOf": [{}], "unevaluatedProperties": false }),
        json!({ "contains": {}, "unevaluatedItems": false }),
        json!({ "$defs": { "a": { "$id": "https://example.com/a", "$dynamicAnchor": "x" } }, "items": { "$dynamicRef": "#x" } }),
        json!({ "patternProperties": { "(a|bc)+d": {} } }),
        json!({ "properties": { "a": { "$id": "https://example.com/a" } } }),
        json!({ "$ref": "https://example.com/elsewhere" }),
        json!({ "$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveRef": "#/$defs/a", "$defs": { "a": {} } }),
        json!({ "$recursiveRef": "#" }),
        json!({ "const": 9007199254740993u64 }),
    ] {
        assert_eq!(program(schema.clone()), None, "{schema}");
    }
}

#[test]
fn formats_the_javascript_side_lacks_are_string_checks_of_the_core() {
    let p = program(json!({ "properties": { "d": { "format": "date" }, "e": { "format": "email" }, "x": { "format": "no-such-format" } } })).expect("a program");
    assert_eq!(p["strings"], json!([["format", "email"]]));
    let text = p.to_string();
    assert!(text.contains("[\"format\",\"date\"]"), "{text}");
    assert!(!text.contains("no-such-format"), "{text}");
}

#[test]
fn draft_4_integers_are_not_decided_from_parsed_text() {
    let p =
        program(json!({ "$schema": "http://json-schema.org/draft-04/schema#", "type": "integer" }));
    assert_eq!(p.map(|p| p["textSafe"].clone()), Some(json!(false)));
}

#[test]
fn anchored_class_sequences_are_matched_in_javascript() {
    let p = program(json!({ "type": "string", "pattern": "^INV-[0-9]{6}$" })).expect("a program");
    let check = &p["nodes"][0][1];
    assert_eq!(check[0], json!("pattern"), "{check}");
    // The state machine: a slot a character, the accepting bit after them.
    assert_eq!(check[2][0], json!(2));
    assert_eq!(check[2][5], json!(1 << 10));
    // A quantified character, which the translation writes in a group, is a slot too.
    let p = program(json!({ "type": "string", "pattern": "^[^#]*#?$" })).expect("a program");
    let check = &p["nodes"][0][1];
    assert_eq!(check[0], json!("pattern"), "{check}");
    assert_eq!(check[2][0], json!(2));
    // A pattern that is no sequence is matched by the core.
    let p = program(json!({ "type": "string", "pattern": "^(ab)+$" })).expect("a program");
    assert_eq!(p["nodes"][0][1][0], json!("string"));
}

#[test]
fn email_is_a_string_check_the_javascript_side_may_accept_first() {
    let p = program(json!({ "type": "string", "format": "email" })).expect("a program");
    assert_eq!(p["nodes"][0][1], json!(["email", 0]));
    // A custom format of that name is the core's alone.
    let options = CompileOptions {
        custom_formats: vec![("email".to_owned(), "^[a-z]+$".to_owned())],
        ..CompileOptions::default()
    };
    let compiled =
        compile(&json!({ "type": "string", "format": "email" }), &options).expect("compiles");
    let p = program_of(&compiled)
        .map(|p| serde_json::from_str::<Value>(&p.text).unwrap_or(Value::Null));
    assert_eq!(p.expect("a program")["nodes"][0][1][0], json!("string"));
}

#[test]
fn a_failing_not_says_its_own_issue() {
    let p = program(json!({ "type": "object", "not": { "required": ["a"] } })).expect("a program");
    let nodes = p["nodes"].as_array().cloned().unwrap_or_default();
    let says = p["says"].as_array().cloned().unwrap_or_default();
    let at = nodes[0]
        .as_array()
        .and_then(|checks| checks.iter().position(|check| check[0] == json!("not")))
        .expect("a not check");
    assert_eq!(
        says[0][at],
        json!([
            "not",
            "not",
            null,
            "must not match the schema under \"not\""
        ])
    );
}

#[test]
fn each_check_carries_what_the_core_says_when_it_fails() {
    let p = program(json!({
        "type": "object",
        "required": ["a"],
        "properties": { "a": { "$ref": "#/$defs/n" }, "e": { "enum": [{ "x": 1, "y": 2 }] } },
        "additionalProperties": false,
        "$defs": { "n": { "type": "integer", "minimum": 0, "description": "ghp_token here" } }
    }))
    .expect("a program");
    let nodes = p["nodes"].as_array().cloned().unwrap_or_default();
    let says = p["says"].as_array().cloned().unwrap_or_default();
    assert_eq!(says.len(), nodes.len());
    for (node, said) in nodes.iter().zip(&says) {
        match node {
            Value::Array(checks) => assert_eq!(said.as_array().map(Vec::len), Some(checks.len())),
            _ => assert_eq!(said, &Value::Null),
        }
    }
    assert_eq!(
        says[0][0],
        json!(["type", "type", { "type": "object" }, "must be an object"])
    );
    assert_eq!(
        says[0][1],
        json!([
            "required",
            "required",
            [{ "missingProperty": "a" }],
            ["is missing the required property \"a\""]
        ])
    );
    assert_eq!(
        says[0][3][3],
        json!([
            "has 1 property that the schema does not allow",
            "has ",
            " properties that the schema does not allow"
        ])
    );
    // Where a reference leads, its issues' schema path starts again.
    let pointers = p["pointers"].as_array().cloned().unwrap_or_default();
    assert!(pointers.contains(&json!("/$defs/n")));
    // An object of an enum is quoted by the core in the order written,
    // which the program (written from the sorted schema) does not know.
    let e = nodes[0][2][1]
        .as_array()
        .and_then(|pairs| pairs.iter().find(|pair| pair[0] == json!("e")))
        .and_then(|pair| pair[1].as_u64())
        .expect("e's node") as usize;
    assert_eq!(says[e][0][3], Value::Null);
    let wording = &p["wording"];
    assert_eq!(
        wording["subjects"],
        json!(["The response", "The value at "])
    );
    assert_eq!(
        wording["message"][0],
        json!("The response does not match the schema (1 problem); first: ")
    );
    assert!(wording["secrets"][0]
        .as_array()
        .is_some_and(|words| words.contains(&json!("ghp_"))));
}

#[test]
fn pattern_properties_match_names_by_their_sequences() {
    let p = program(json!({ "patternProperties": { "^a": { "type": "integer" } }, "additionalProperties": false }))
        .expect("a program");
    let checks = &p["nodes"][0];
    assert_eq!(checks[0][0], json!("patternProperties"), "{checks}");
    assert_eq!(checks[0][1][0][0][0], json!(2), "{checks}");
    // additionalProperties skips the names the same sequences match.
    assert_eq!(checks[1][0], json!("additionalProperties"), "{checks}");
    assert_eq!(
        checks[1][3],
        json!([checks[0][1][0][0].clone()]),
        "{checks}"
    );
}
