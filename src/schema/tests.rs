#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::*;
use serde_json::json;

fn observations_schema() -> Value {
    json!({
        "type": "object",
        "required": ["observations"],
        "properties": {
            "observations": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["type", "text", "importance"],
                    "properties": {
                        "type": {"enum": ["fact", "decision", "question"]},
                        "text": {"type": "string", "minLength": 1},
                        "importance": {"type": "integer", "minimum": 1, "maximum": 5}
                    }
                }
            }
        }
    })
}

fn codes(report: &Report) -> Vec<(String, String)> {
    report
        .errors
        .iter()
        .map(|i| (i.path.clone(), i.code.clone()))
        .collect()
}

#[test]
fn hollow_row_names_path_and_enum() {
    let v = compile(&observations_schema(), &CompileOptions::default()).unwrap();
    let report = v.validate(
        &json!({"observations": [{"type": "", "text": "", "importance": 0}]}),
        5,
    );
    assert!(!report.valid);
    assert_eq!(
        codes(&report),
        vec![
            ("/observations/0/importance".into(), "minimum".into()),
            ("/observations/0/text".into(), "minLength".into()),
            ("/observations/0/type".into(), "enum".into()),
        ]
    );
    let type_issue = &report.errors[2];
    assert_eq!(
        type_issue.schema_path,
        "/properties/observations/items/properties/type/enum"
    );
    assert_eq!(
        type_issue.message,
        "The value at /observations/0/type must be one of: \"fact\", \"decision\", \"question\"."
    );
}

#[test]
fn errors_are_capped_and_flagged() {
    let v = compile(&observations_schema(), &CompileOptions::default()).unwrap();
    let rows: Vec<Value> = (0..50)
        .map(|_| json!({"type": "x", "text": "", "importance": 9}))
        .collect();
    let report = v.validate(&json!({ "observations": rows }), 5);
    assert_eq!(report.errors.len(), 5);
    assert!(report.more_errors);
    assert_eq!(report.errors[0].path, "/observations/0/importance");
    let exact = v.validate(
        &json!({"observations": [{"type": "x", "text": "t", "importance": 1}]}),
        1,
    );
    assert_eq!(exact.errors.len(), 1);
    assert!(!exact.more_errors);
}

#[test]
fn formats_are_asserted_by_default() {
    let schema = json!({"type": "object", "properties": {
        "d": {"format": "date"}, "dt": {"format": "date-time"},
        "e": {"format": "email"}, "u": {"format": "uuid"}, "h": {"format": "idn-hostname"}
    }});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    for bad in [
        json!({"d": "2026-02-30"}),
        json!({"dt": "2026-01-01T10:00:00"}),
        json!({"e": "not-an-email"}),
        json!({"u": "1234-not-a-uuid"}),
        json!({"h": "-bad-.com"}),
    ] {
        let report = v.validate(&bad, 5);
        assert_eq!(
            report.errors.first().map(|i| i.code.as_str()),
            Some("format"),
            "{bad}"
        );
    }
    assert!(v.is_valid(&json!({
        "d": "2024-02-29", "dt": "2026-01-01T10:00:00Z", "e": "a@example.com",
        "u": "123e4567-e89b-12d3-a456-426614174000", "h": "münchen.de"
    })));
    let annotate = CompileOptions {
        formats: FormatMode::Annotate,
        ..Default::default()
    };
    let lax = compile(&schema, &annotate).unwrap();
    assert!(lax.is_valid(&json!({"d": "2026-02-30"})));
}

#[test]
fn key_order_hits_the_same_cache_entry_and_hash() {
    clear_cache();
    let a: Value = serde_json::from_str(r#"{"type":"object","required":["a"]}"#).unwrap();
    let b: Value = serde_json::from_str(r#"{"required":["a"],"type":"object"}"#).unwrap();
    let first = compile(&a, &CompileOptions::default()).unwrap();
    let second = compile(&b, &CompileOptions::default()).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!(first.schema_hash(), second.schema_hash());
    let other = compile(
        &a,
        &CompileOptions {
            reject_unknown_fields: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!Arc::ptr_eq(&first, &other));
}

#[test]
fn cache_is_bounded() {
    clear_cache();
    set_cache_capacity(4);
    for i in 0..20 {
        compile(&json!({"maxLength": i}), &CompileOptions::default()).unwrap();
    }
    assert_eq!(cache_len(), 4);
    set_cache_capacity(DEFAULT_CACHE_CAPACITY);
}

#[test]
fn invalid_schemas_are_named() {
    let err = compile(&json!({"type": "strnig"}), &CompileOptions::default()).unwrap_err();
    assert!(err.message.contains("/type"), "{}", err.message);
    let err = compile(&json!(42), &CompileOptions::default()).unwrap_err();
    assert_eq!(
        err.message,
        "a schema must be an object or a boolean, not a number"
    );
    let err = parse_schema_text("{\"type\": ").unwrap_err();
    assert!(
        err.message.starts_with("the schema is not valid JSON"),
        "{}",
        err.message
    );
}

#[test]
fn remote_references_are_not_fetched() {
    let err = compile(
        &json!({"$ref": "https://example.com/s.json"}),
        &CompileOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.message.contains("remote references are not fetched"),
        "{}",
        err.message
    );
}

#[test]
fn deep_schemas_are_refused_not_overflowed() {
    // Building and dropping a 1,000-level Value recurses in serde_json itself,
    // so this runs on a thread with room for that; compile must not recurse.
    let run = std::thread::Builder::new().stack_size(256 << 20).spawn(|| {
        let mut schema = json!({"type": "string"});
        for _ in 0..1000 {
            schema = json!({"properties": {"a": schema}});
        }
        compile(&schema, &CompileOptions::default()).unwrap_err()
    });
    let err = run.unwrap().join().unwrap();
    assert!(err.message.contains("deeper than"), "{}", err.message);
}

#[test]
fn catastrophic_pattern_finishes() {
    let v = compile(&json!({"pattern": "^(a+)+$"}), &CompileOptions::default()).unwrap();
    let start = std::time::Instant::now();
    let report = v.validate(&json!(format!("{}!", "a".repeat(40))), 5);
    assert!(!report.valid);
    assert_eq!(report.errors[0].code, "pattern");
    assert!(start.elapsed().as_secs() < 2);
}

#[test]
fn reject_unknown_fields_closes_objects() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let open = compile(&schema, &CompileOptions::default()).unwrap();
    assert!(open.is_valid(&json!({"a": "x", "extra": 1})));
    let closed = compile(
        &schema,
        &CompileOptions {
            reject_unknown_fields: true,
            ..Default::default()
        },
    )
    .unwrap();
    let report = closed.validate(&json!({"a": "x", "extra": 1}), 5);
    assert_eq!(report.errors[0].code, "additionalProperties");
    assert!(
        !report.errors[0].message.contains("extra"),
        "messages never quote output"
    );
}

#[test]
fn draft_option_changes_semantics() {
    // draft 4 has boolean exclusiveMaximum; 2020-12 rejects it as a schema.
    let schema = json!({"maximum": 5, "exclusiveMaximum": true});
    let d4 = CompileOptions {
        draft: parse_draft("4"),
        ..Default::default()
    };
    let v = compile(&schema, &d4).unwrap();
    assert!(!v.is_valid(&json!(5)));
    assert!(v.is_valid(&json!(4)));
    assert!(parse_draft("3").is_none());
}
