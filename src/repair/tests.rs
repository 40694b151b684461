#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::*;
use crate::verdict::{check_content, CheckOptions, SchemaInput};
use hot_path::redact::planted::PLANTED;
use serde_json::json;

fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["summary", "observations"],
        "additionalProperties": false,
        "properties": {
            "summary": {"type": "string", "minLength": 10},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "contact": {"type": "string", "format": "email"},
            "observations": {"type": "array", "maxItems": 3, "items": {"$ref": "#/$defs/observation"}}
        },
        "$defs": {
            "observation": {
                "type": "object",
                "required": ["type", "text"],
                "properties": {
                    "type": {"enum": ["fact", "decision", "question"]},
                    "text": {"type": "string", "pattern": "^[A-Z]"}
                }
            }
        }
    })
}

fn verdict_of(output: &str, options: &CheckOptions) -> Value {
    let schema = schema();
    check_content(output, None, SchemaInput::Json(&schema), options)
        .unwrap()
        .to_json()
}

fn feedback(output: &str) -> String {
    repair_feedback(
        &verdict_of(output, &CheckOptions::default()),
        Some(&schema()),
    )
    .unwrap()
}

#[test]
fn names_each_path_code_and_constraint() {
    let text = feedback(
        r#"{"summary":"short","confidence":7,"contact":"nobody","observations":[{"type":"guess","text":"lower"}]}"#,
    );
    for expected in [
        "/summary (minLength): must be at least 10 characters long",
        "/confidence (maximum): must be at most 1",
        "/contact (format): must be an email address",
        "/observations/0/type (enum): must be one of: fact, decision, question",
        "/observations/0/text (pattern): must match the regular expression ^[A-Z]",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(text.starts_with("Your previous response did not match the required JSON schema."));
}

#[test]
fn required_and_additional_properties_come_from_the_schema() {
    let text = feedback(r#"{"observations":[],"sideNote":"x"}"#);
    assert!(
        text.contains("the top-level object (required): must have the property \"summary\""),
        "{text}"
    );
    assert!(
        text.contains(
            "must have no properties other than: summary, confidence, contact, observations"
        ),
        "{text}"
    );
    // The unexpected key is the model's, not the schema's.
    assert!(!text.contains("sideNote"), "{text}");
}

#[test]
fn never_quotes_the_output() {
    let values = [
        "Zebra-crossing-7731",
        "guess-kind-4410",
        "mailbox-at-nowhere",
        "lowercase-start-9921",
    ];
    let output = json!({
        "summary": values[0],
        "confidence": 123.456,
        "contact": values[2],
        "observations": [
            {"type": values[1], "text": values[3]},
            {"type": "fact", "text": "A"}, {"type": "fact", "text": "B"}, {"type": "fact", "text": "C"}
        ]
    })
    .to_string();
    let options = CheckOptions {
        max_errors: 50,
        ..Default::default()
    };
    let text = repair_feedback(&verdict_of(&output, &options), Some(&schema())).unwrap();
    for v in values {
        assert!(!text.contains(v), "{v} leaked into:\n{text}");
    }
    assert!(!text.contains("123.456"), "{text}");
    assert!(
        text.contains("/observations (maxItems): must have at most 3 items"),
        "{text}"
    );
}

#[test]
fn planted_secrets_never_reach_the_feedback() {
    for secret in PLANTED {
        // A secret as an output value, as an object key (so inside a path),
        // and in the schema's enum values and title.
        let schema = json!({
            "title": format!("Extraction {secret}"),
            "type": "object",
            "properties": {"kind": {"enum": ["a", secret]}},
            "additionalProperties": {"type": "integer"}
        });
        let mut extra = Map::new();
        extra.insert(secret.to_owned(), json!("not an integer"));
        extra.insert("kind".into(), json!(secret.to_uppercase()));
        let output = Value::Object(extra).to_string();
        let options = CheckOptions {
            max_errors: 10,
            ..Default::default()
        };
        let verdict = check_content(&output, None, SchemaInput::Json(&schema), &options)
            .unwrap()
            .to_json();
        let text = repair_feedback(&verdict, Some(&schema)).unwrap();
        let message = verdict["message"].as_str().unwrap();
        for shown in [text.as_str(), message] {
            for part in secret.split(['\n', ' ']).filter(|p| p.len() >= 12) {
                assert!(!shown.contains(part), "{part} leaked into:\n{shown}");
            }
            assert!(!shown.contains(&secret.to_uppercase()[4..]), "{shown}");
        }
        assert!(
            text.contains(hot_path::redact::REDACTED),
            "{secret}: {text}"
        );
    }
}

#[test]
fn rules_give_their_message() {
    let options = CheckOptions {
        rules: crate::rules::parse_rules(Some(&json!([{
            "name": "confidence-on-fail",
            "if": {"properties": {"summary": {"const": "Verdict: fail"}}},
            "then": {"properties": {"confidence": {"maximum": 0.5}}},
            "message": "when the summary is a failing verdict, confidence must be at most 0.5"
        }])))
        .unwrap(),
        ..Default::default()
    };
    let verdict = verdict_of(
        r#"{"summary":"Verdict: fail","confidence":0.875,"observations":[]}"#,
        &options,
    );
    assert_eq!(verdict["failure"], "rule");
    let text = repair_feedback(&verdict, Some(&schema())).unwrap();
    assert!(text.starts_with("Your previous response matched the schema but broke these rules."));
    assert!(
        text.contains("/confidence (rule \"confidence-on-fail\"): when the summary is a failing verdict, confidence must be at most 0.5"),
        "{text}"
    );
    assert!(!text.contains("0.875"));
}

#[test]
fn failures_before_the_schema_stage() {
    let schema = schema();
    let cases = [
        ("", None, "was empty"),
        ("{\"summary\": ", None, "was not valid JSON"),
        ("[1, 2]", None, "not a JSON object"),
        ("{}", Some("length"), "cut off at the output token limit"),
    ];
    for (output, finish, phrase) in cases {
        let v = check_content(
            output,
            finish,
            SchemaInput::Json(&schema),
            &CheckOptions::default(),
        )
        .unwrap()
        .to_json();
        let text = repair_feedback(&v, Some(&schema)).unwrap();
        assert!(text.contains(phrase), "{output:?}: {text}");
    }
}

#[test]
fn without_a_schema_the_issue_messages_speak() {
    let v = verdict_of(
        r#"{"summary":"short","observations":[]}"#,
        &CheckOptions::default(),
    );
    let text = repair_feedback(&v, None).unwrap();
    assert!(
        text.contains("/summary (minLength): must be at least 10 characters long"),
        "{text}"
    );
}

#[test]
fn a_wrapper_is_unwrapped() {
    let wrapper = json!({"name": "extraction", "strict": true, "schema": schema()});
    let v = verdict_of(
        r#"{"summary":"short","observations":[]}"#,
        &CheckOptions::default(),
    );
    assert_eq!(
        repair_feedback(&v, Some(&wrapper)).unwrap(),
        repair_feedback(&v, Some(&schema())).unwrap()
    );
}

#[test]
fn more_errors_are_mentioned() {
    let rows: Vec<Value> = (0..10).map(|_| json!({"type": "x", "text": "y"})).collect();
    let output = json!({"summary": "long enough here", "observations": rows}).to_string();
    let text = feedback(&output);
    assert!(
        text.ends_with("- and more problems like these: check every field against the schema."),
        "{text}"
    );
}

#[test]
fn misuse_is_named() {
    assert!(repair_feedback(&json!("x"), None)
        .unwrap_err()
        .message
        .contains("not a string"));
    let ok = verdict_of(
        r#"{"summary":"long enough here","observations":[]}"#,
        &CheckOptions::default(),
    );
    assert_eq!(ok["ok"], true);
    assert!(repair_feedback(&ok, None)
        .unwrap_err()
        .message
        .contains("accepted"));
    assert!(repair_feedback(&json!({"ok": false, "failure": "nope"}), None).is_err());
    assert!(repair_feedback(
        &json!({"ok": false, "failure": "schema", "errors": 3}),
        None
    )
    .is_err());
}

#[test]
fn ref_cycles_in_the_schema_do_not_hang() {
    let schema = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    let v = json!({"ok": false, "failure": "schema", "errors": [
        {"path": "", "schemaPath": "/$ref/$ref/$ref/type", "code": "type", "message": "The response must be an object."}
    ]});
    let text = repair_feedback(&v, Some(&schema)).unwrap();
    assert!(text.contains("(type): must be an object"), "{text}");
}

#[test]
fn tool_call_feedback_names_tool_path_code_and_constraint_never_values() {
    let verdict = json!({ "ok": false, "calls": [
        { "id": "c0", "name": "get_weather", "ok": true, "errors": [] },
        { "id": "c1", "name": "get_weather", "ok": false, "failure": "schema", "moreErrors": false,
          "errors": [{ "path": "/unit", "schemaPath": "/properties/unit/enum", "code": "enum", "message": "The value at /unit must be one of: \"C\", \"F\"." }] },
        { "id": "c2", "name": "rm -rf sk-ant-secret", "ok": false, "failure": "unknown_tool", "errors": [] },
        { "id": null, "name": "get_weather", "ok": false, "failure": "truncated", "errors": [] }
    ] });
    let mut schemas = serde_json::Map::new();
    schemas.insert(
        "get_weather".into(),
        json!({ "type": "object", "properties": { "unit": { "enum": ["C", "F"] } } }),
    );
    let feedback = tool_calls_feedback(&verdict, &schemas).unwrap();
    assert_eq!(feedback.len(), 3, "accepted calls get none");
    assert_eq!(feedback[0].0.as_deref(), Some("c1"));
    assert!(
        feedback[0].1.contains("\"get_weather\"")
            && feedback[0].1.contains("/unit (enum): must be one of: C, F"),
        "{}",
        feedback[0].1
    );
    assert!(
        !feedback[1].1.contains("sk-ant") && feedback[1].1.contains("not one of your tools"),
        "{}",
        feedback[1].1
    );
    assert_eq!(feedback[2].0, None);
    assert!(feedback[2].1.contains("cut off"));
    assert!(tool_calls_feedback(&json!({ "ok": false }), &schemas).is_err());
}

#[test]
fn the_missing_property_is_read_from_the_issue_not_its_message() {
    // A name longer than an issue message quotes: the message shortens it,
    // the issue's parameters keep it whole.
    let long = "a_property_name_that_runs_on_past_what_an_issue_message_quotes_of_it_in_full_x";
    let long = format!("{long}{long}");
    let schema = json!({ "type": "object", "required": ["short", long] });
    let verdict = check_content(
        r#"{"short":1}"#,
        None,
        SchemaInput::Json(&schema),
        &CheckOptions::default(),
    )
    .unwrap()
    .to_json();
    let issue = &verdict["errors"][0];
    assert_eq!(issue["params"], json!({ "missingProperty": long }));
    assert!(
        !issue["message"].as_str().unwrap().contains(&long),
        "the message shortens the name"
    );
    let text = repair_feedback(&verdict, Some(&schema)).unwrap();
    assert!(
        text.contains("(required): must have the property \""),
        "{text}"
    );
    assert!(!text.contains("all of the properties"), "{text}");
}

#[test]
fn control_characters_and_bidirectional_marks_in_paths_and_rules_print_as_escapes() {
    // The model's own keys, a terminal title and clear, a CSI in one
    // character, and a right-to-left override.
    let schema = json!({"additionalProperties": {"type": "integer"}});
    let output = r#"{"\u001b]0;PWNED\u0007\u001b[2J":"s","a\u009b2Jb":"t","user\u202enimda":"u"}"#;
    let verdict = check_content(
        output,
        None,
        SchemaInput::Json(&schema),
        &CheckOptions::default(),
    )
    .unwrap()
    .to_json();
    // The paths stay the data they are.
    let paths: Vec<&str> = verdict["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert!(
        paths.contains(&"/\u{1b}]0;PWNED\u{7}\u{1b}[2J"),
        "{paths:?}"
    );
    let words = format!(
        "{}\n{}\n{}",
        verdict["message"].as_str().unwrap(),
        verdict["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["message"].as_str().unwrap())
            .collect::<Vec<_>>()
            .join("\n"),
        repair_feedback(&verdict, Some(&schema)).unwrap()
    );
    for c in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}'] {
        assert!(
            !words.contains(c),
            "{:#x} printed raw in:\n{words}",
            u32::from(c)
        );
    }
    for escaped in [
        "\\u001b]0;PWNED\\u0007\\u001b[2J",
        "a\\u009b2Jb",
        "user\\u202enimda",
    ] {
        assert!(words.contains(escaped), "missing {escaped} in:\n{words}");
    }
    // A business rule's name and message are the caller's, printed safely too.
    let options = CheckOptions {
        rules: crate::rules::parse_rules(Some(&json!([{
            "name": "r\u{1b}[2J",
            "if": true,
            "then": {"required": ["z"]},
            "message": "z is needed\u{9b}1A"
        }])))
        .unwrap(),
        ..Default::default()
    };
    let ruled = check_content(r#"{"a":1}"#, None, SchemaInput::None, &options)
        .unwrap()
        .to_json();
    let text = format!("{ruled}{}", repair_feedback(&ruled, None).unwrap());
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{9b}'),
        "{text}"
    );
}
