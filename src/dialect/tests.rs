#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use super::*;
use serde_json::json;

fn valid(schema: &Value, instance: &Value) -> bool {
    compile(schema, &CompileOptions::default())
        .unwrap()
        .is_valid(instance)
}

fn gemini() -> CompileOptions {
    CompileOptions {
        dialect: Some(Dialect::Gemini),
        ..CompileOptions::default()
    }
}

#[test]
fn nullable_with_a_type_admits_null_as_ajv_reads_it() {
    let schema = json!({"type": "object", "properties": {"category": {"type": "string", "nullable": true}}, "required": ["category"]});
    assert!(valid(&schema, &json!({"category": null})));
    assert!(valid(&schema, &json!({"category": "x"})));
    assert!(!valid(&schema, &json!({"category": 5})));
    // An enum still applies: null must be one of its values.
    let listed = json!({"type": "string", "nullable": true, "enum": ["a"]});
    assert!(!valid(&listed, &json!(null)));
    assert!(valid(
        &json!({"type": "string", "nullable": true, "enum": ["a", null]}),
        &json!(null)
    ));
    // And the rest of the schema's constraints apply to the other values.
    let bounded = json!({"type": "integer", "nullable": true, "minimum": 3});
    assert!(valid(&bounded, &json!(null)));
    assert!(!valid(&bounded, &json!(2)));
    // false, or beside a null type already: nothing changes.
    assert!(!valid(
        &json!({"type": "string", "nullable": false}),
        &json!(null)
    ));
    assert!(valid(
        &json!({"type": ["string", "null"], "nullable": true}),
        &json!(null)
    ));
}

#[test]
fn nullable_where_ajv_refuses_it_is_a_schema_error() {
    let cases = [
        (
            json!({"anyOf": [{"type": "string"}], "nullable": true}),
            "\"nullable\" cannot be used without \"type\"",
        ),
        (
            json!({"properties": {"a": {"nullable": false}}}),
            "at /properties/a: \"nullable\" cannot be used without \"type\"",
        ),
        (
            json!({"type": "null", "nullable": false}),
            "type null contradicts \"nullable\": false",
        ),
        (
            json!({"type": "string", "nullable": "yes"}),
            "\"nullable\" must be a boolean",
        ),
    ];
    for (schema, message) in cases {
        let e = compile(&schema, &CompileOptions::default()).unwrap_err();
        assert!(e.message.contains(message), "{schema}: {}", e.message);
    }
}

#[test]
fn a_schema_without_nullable_compiles_as_it_is() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(translate(&schema, Dialect::JsonSchema).unwrap(), None);
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    assert_eq!(
        compiled.schema_hash(),
        hot_path::hash::sha256_hex(hot_path::hash::canonical_json(&schema).as_bytes())
    );
    assert_eq!(compiled.dialect(), Dialect::JsonSchema);
    assert!(compiled.unenforced().is_empty());
}

#[test]
fn gemini_shapes_that_leave_no_doubt_are_detected() {
    assert_eq!(
        detect(&json!({"type": "OBJECT", "properties": {"a": {"type": "STRING"}}})),
        Dialect::Gemini
    );
    assert_eq!(
        detect(&json!({"type": "object", "properties": {"a": {"type": "array", "minItems": "1"}}})),
        Dialect::Gemini
    );
    assert_eq!(
        detect(&json!({"anyOf": [{"type": "INTEGER"}]})),
        Dialect::Gemini
    );
    // A count that is no number at all is a mistake, named as JSON Schema's.
    assert_eq!(detect(&json!({"minLength": "three"})), Dialect::JsonSchema);
    assert_eq!(
        detect(
            &json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}})
        ),
        Dialect::JsonSchema
    );
    // A property named "type", and data in enum/default, are not subschemas' types.
    assert_eq!(
        detect(
            &json!({"type": "object", "properties": {"type": {"enum": ["OBJECT"]}}, "default": {"type": "OBJECT"}})
        ),
        Dialect::JsonSchema
    );
}

/// The issue's case: a `Type.OBJECT` schema with `minItems: "1"` and an
/// INTEGER enum, judged as Gemini judges it.
#[test]
fn a_gemini_schema_rejects_what_gemini_would_and_accepts_the_rest() {
    let schema = json!({
        "type": "OBJECT",
        "properties": {
            "rooms": {"type": "ARRAY", "minItems": "1", "maxItems": "3", "items": {"type": "INTEGER", "format": "enum", "enum": ["101", "201", "301"]}},
            "city": {"type": "STRING", "nullable": true, "maxLength": "20"}
        },
        "required": ["rooms"],
        "propertyOrdering": ["rooms", "city"]
    });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    assert_eq!(compiled.dialect(), Dialect::Gemini);
    for good in [
        json!({"rooms": [101]}),
        json!({"rooms": [201, 301], "city": null}),
        json!({"rooms": [101], "city": "Oslo"}),
    ] {
        assert!(compiled.is_valid(&good), "{good}");
    }
    for bad in [
        json!({"rooms": []}),
        json!({"rooms": [102]}),
        json!({"rooms": ["101"]}),
        json!({"rooms": [101, 201, 301, 101]}),
        json!({"city": "Oslo"}),
        json!({"rooms": [101], "city": 5}),
        json!({"rooms": [101], "city": "a city name longer than twenty"}),
    ] {
        assert!(!compiled.is_valid(&bad), "{bad}");
    }
    let report = compiled.validate(&json!({"rooms": []}), 5);
    assert_eq!(report.errors[0].schema_path, "/properties/rooms/minItems");
    assert_eq!(
        compiled.unenforced(),
        &[Unenforced {
            path: String::new(),
            keyword: "propertyOrdering".into()
        }]
    );
}

#[test]
fn the_dialect_changes_the_hash_and_the_option_can_name_it() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "format": "enum", "enum": ["1", "2"]}}});
    let plain = compile(&schema, &CompileOptions::default()).unwrap();
    let read = compile(&schema, &gemini()).unwrap();
    assert_ne!(plain.schema_hash(), read.schema_hash());
    assert!(!plain.is_valid(&json!({"n": 1})));
    assert!(read.is_valid(&json!({"n": 1})));
    assert!(!read.is_valid(&json!({"n": 3})));
    // Detected or named, one dialect is one identity.
    let upper = json!({"type": "OBJECT"});
    assert_eq!(
        compile(&upper, &CompileOptions::default())
            .unwrap()
            .schema_hash(),
        compile(&upper, &gemini()).unwrap().schema_hash()
    );
}

#[test]
fn gemini_formats_json_schema_lacks_are_listed_and_nullable_anyof_admits_null() {
    let schema = json!({
        "type": "OBJECT",
        "properties": {
            "count": {"type": "INTEGER", "format": "int32", "minimum": "0"},
            "when": {"type": "STRING", "format": "date-time"},
            "either": {"anyOf": [{"type": "STRING"}, {"type": "NUMBER"}], "nullable": true},
            "flag": {"type": "BOOLEAN", "enum": ["true"]},
            "any": {"type": "TYPE_UNSPECIFIED"}
        }
    });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let listed: Vec<(&str, &str)> = compiled
        .unenforced()
        .iter()
        .map(|u| (u.path.as_str(), u.keyword.as_str()))
        .collect();
    assert_eq!(listed, [("/properties/count", "format")]);
    assert!(compiled.is_valid(&json!({"count": 5, "when": "2026-01-31T09:30:00Z", "either": null, "flag": true, "any": [1]})));
    assert!(!compiled.is_valid(&json!({"count": -1})));
    assert!(!compiled.is_valid(&json!({"when": "yesterday"})));
    assert!(!compiled.is_valid(&json!({"either": true})));
    assert!(!compiled.is_valid(&json!({"flag": false})));
}

#[test]
fn gemini_schemas_gemini_would_refuse_are_schema_errors() {
    let cases = [
        (
            json!({"type": "OBJECT", "properties": {"a": {"type": "DATE"}}}),
            "at /properties/a: \"type\" \"DATE\" is not one of Gemini's types",
        ),
        (
            json!({"type": "ARRAY", "minItems": "one"}),
            "\"minItems\" must be a whole number from 0 up",
        ),
        (
            json!({"type": "INTEGER", "format": "enum", "enum": ["ten"]}),
            "the enum value \"ten\" is not a value of the type integer",
        ),
        (
            json!({"type": "OBJECT", "propertyOrdering": "a"}),
            "\"propertyOrdering\" must be a list of property names",
        ),
    ];
    for (schema, message) in cases {
        let e = compile(&schema, &CompileOptions::default()).unwrap_err();
        assert!(e.message.contains(message), "{schema}: {}", e.message);
    }
}

#[test]
fn issues_and_repair_feedback_say_a_nullable_value_may_be_null() {
    let schema = json!({"type": "object", "properties": {"category": {"type": "string", "nullable": true}}, "required": ["category"]});
    let options = crate::verdict::CheckOptions::default();
    let verdict = crate::verdict::check_content(
        r#"{"category":5}"#,
        None,
        crate::verdict::SchemaInput::Json(&schema),
        &options,
    )
    .unwrap();
    assert_eq!(verdict.errors[0].schema_path, "/properties/category/type");
    assert!(
        verdict.errors[0]
            .message
            .contains("must be a string or null"),
        "{}",
        verdict.errors[0].message
    );
    let feedback = crate::repair::repair_feedback(&verdict.to_json(), Some(&schema)).unwrap();
    assert!(
        feedback.contains("/category (type): must be a string or null"),
        "{feedback}"
    );
    // Gemini's string bounds are worded from the number they mean.
    let rooms =
        json!({"type": "OBJECT", "properties": {"rooms": {"type": "ARRAY", "minItems": "1"}}});
    let verdict = crate::verdict::check_content(
        r#"{"rooms":[]}"#,
        None,
        crate::verdict::SchemaInput::Json(&rooms),
        &options,
    )
    .unwrap();
    let feedback = crate::repair::repair_feedback(&verdict.to_json(), Some(&rooms)).unwrap();
    assert!(
        feedback.contains("/rooms (minItems): must have at least 1 items"),
        "{feedback}"
    );
    assert_eq!(
        hot_path::schema::alternatives(&["integer", "null", "string"]),
        "an integer, a string or null"
    );
}
