#![allow(clippy::unwrap_used)]
use super::*;
use serde_json::json;

#[test]
fn defaults() {
    let o = check_options(&Value::Null).unwrap();
    assert_eq!(o, CheckOptions::default());
    assert_eq!(o.max_errors, 5);
    assert!(o.require_object);
}

#[test]
fn every_option_is_read() {
    let o = check_options(&json!({
        "maxErrors": 2, "requireObject": false, "onInvalidSchema": "throw",
        "formats": "annotate", "draft": "7", "rejectUnknownFields": true
    }))
    .unwrap();
    assert_eq!(o.max_errors, 2);
    assert!(!o.require_object);
    assert_eq!(o.on_invalid_schema, OnInvalidSchema::Throw);
    assert_eq!(o.compile.formats, FormatMode::Annotate);
    assert_eq!(o.compile.draft, parse_draft("7"));
    assert!(o.compile.reject_unknown_fields);
    assert_eq!(
        compile_options(&json!({"dialect": "gemini"}))
            .unwrap()
            .dialect,
        Some(Dialect::Gemini)
    );
    assert_eq!(compile_options(&Value::Null).unwrap().dialect, None);
    assert_eq!(
        compile_options(&json!({"draft": 4})).unwrap().draft,
        parse_draft("4")
    );
}

#[test]
fn wrong_types_are_named() {
    let cases = [
        (json!({"formats": "asert"}), "options.formats must be one of \"assert\", \"annotate\", not \"asert\""),
        (json!({"maxErrors": -1}), "options.maxErrors must be a whole number from 0 up, not -1"),
        (json!({"maxErrors": 1.5}), "options.maxErrors must be a whole number from 0 up, not 1.5"),
        (json!({"requireObject": "yes"}), "options.requireObject must be a boolean, not a string"),
        (json!({"draft": "3"}), "options.draft must be one of \"2020-12\", \"2019-09\", \"7\", \"6\", \"4\", not \"3\""),
        (json!([1]), "options must be an object, not an array"),
        (json!({"resources": {"urn:a": 3}}), "options.resources[\"urn:a\"] must be a schema (an object or a boolean), not a number"),
        (json!({"customFormats": {"x": 1}}), "options.customFormats[\"x\"] must be a regular expression source string, not a number"),
        (json!({"unknownFormats": "warn"}), "options.unknownFormats must be one of \"ignore\", \"error\", not \"warn\""),
        (json!({"dialect": "openapi"}), "options.dialect must be one of \"json-schema\", \"gemini\", not \"openapi\""),
        (json!({"rules": "none"}), "options.rules must be an array of rules, not a string"),
        (json!({"baseUri": "schemas/root.json"}), "options.baseUri must be an absolute URI (with a scheme, such as \"https://example.com/schema.json\"), not \"schemas/root.json\""),
        (json!({"baseUri": 7}), "options.baseUri must be an absolute URI (with a scheme, such as \"https://example.com/schema.json\"), not 7"),
    ];
    for (input, message) in cases {
        assert_eq!(
            check_options(&input).unwrap_err().message,
            message,
            "{input}"
        );
    }
}

#[test]
fn budgets_are_read() {
    let b = budgets(&json!({"schema": 2, "truncated": 0, "total": 3})).unwrap();
    assert_eq!(b.total(), 3);
    assert_eq!(b.for_class(Failure::Schema), Some(2));
    assert_eq!(b.for_class(Failure::Truncated), Some(0));
    assert_eq!(b.for_class(Failure::Rule), None);
    assert_eq!(budgets(&Value::Null).unwrap(), Budgets::default());
    assert_eq!(
        budgets(&json!({"total": null})).unwrap(),
        Budgets::default()
    );
}

#[test]
fn wrong_budgets_are_named() {
    let cases = [
        (json!([]), "options.budgets must be an object, not an array"),
        (json!({"schema": -1}), "options.budgets.schema must be a whole number from 0 to 10, not -1"),
        (json!({"total": 1.5}), "options.budgets.total must be a whole number from 0 to 10, not 1.5"),
        (json!({"total": 11}), "options.budgets.total must be a whole number from 0 to 10, not 11"),
        (json!({"total": "2"}), "options.budgets.total must be a whole number from 0 to 10, not \"2\""),
        (json!({"schemas": 1}), "options.budgets has an unknown member \"schemas\" (budgets are truncated, empty, unparseable, not_object, schema, rule and total)"),
    ];
    for (input, message) in cases {
        assert_eq!(budgets(&input).unwrap_err().message, message, "{input}");
    }
}
