use super::*;
use serde_json::json;

#[test]
fn modern_to_draft_07() {
    let schema = json!({
        "type": "object",
        "$defs": { "point": { "type": "array", "prefixItems": [{ "type": "number" }, { "type": "number" }], "items": false } },
        "properties": {
            "at": { "$ref": "#/$defs/point" },
            "$defs": { "type": "string" },
            "tags": { "type": "array", "items": { "type": "string" } }
        },
        "dependentRequired": { "at": ["tags"] },
        "enum": [{ "$defs": 1 }]
    });
    let out = for_target(&schema, "draft-07", None).unwrap();
    assert_eq!(out["$schema"], json!(DRAFT_07));
    assert_eq!(
        out["definitions"]["point"]["items"],
        json!([{ "type": "number" }, { "type": "number" }])
    );
    assert_eq!(out["definitions"]["point"]["additionalItems"], json!(false));
    assert_eq!(
        out["properties"]["at"]["$ref"],
        json!("#/definitions/point")
    );
    // A property named "$defs" and values inside enum are not keywords.
    assert_eq!(out["properties"]["$defs"], json!({ "type": "string" }));
    assert_eq!(out["enum"], json!([{ "$defs": 1 }]));
    assert_eq!(
        out["properties"]["tags"]["items"],
        json!({ "type": "string" })
    );
    assert_eq!(out["dependencies"], json!({ "at": ["tags"] }));
    assert!(out.get("$defs").is_none());
}

#[test]
fn draft_07_to_modern_and_unchanged_targets() {
    let schema = json!({ "$schema": DRAFT_07, "definitions": { "a": { "type": "string" } }, "items": [{ "$ref": "#/definitions/a" }], "additionalItems": false });
    let out = for_target(&schema, "draft-2020-12", None).unwrap();
    assert_eq!(
        out,
        json!({ "$schema": DRAFT_2020_12, "$defs": { "a": { "type": "string" } }, "prefixItems": [{ "$ref": "#/$defs/a" }], "items": false })
    );
    assert_eq!(for_target(&schema, "draft-07", None).unwrap(), schema);
    // The draft the schema was compiled with, when it names none itself.
    let plain = json!({ "items": [{ "type": "string" }] });
    assert_eq!(
        for_target(&plain, "draft-2020-12", Some("draft7")).unwrap()["prefixItems"],
        json!([{ "type": "string" }])
    );
}

#[test]
fn what_draft_07_cannot_say_and_unknown_targets() {
    let dynamic = json!({ "properties": { "a": { "$dynamicRef": "#node" } } });
    let error = for_target(&dynamic, "draft-07", None).unwrap_err();
    assert!(
        error.message.contains("$dynamicRef") && error.message.contains("/properties/a"),
        "{}",
        error.message
    );
    assert!(for_target(&json!({}), "openapi-3.0", None)
        .unwrap_err()
        .message
        .contains("\"openapi-3.0\""));
}

#[test]
fn a_wrapper_gives_the_schema_it_wraps() {
    let wrapper = json!({ "name": "x", "strict": true, "schema": { "type": "object" } });
    assert_eq!(
        for_target(&wrapper, "draft-2020-12", None).unwrap(),
        json!({ "type": "object", "$schema": DRAFT_2020_12 })
    );
}

#[test]
fn a_dialects_source_is_given_as_the_json_schema_it_means() {
    let gemini = json!({ "type": "STRING", "nullable": true });
    let options = json!({ "dialect": "gemini" });
    let out = source_for_target(gemini.clone(), "draft-2020-12", &options).unwrap();
    assert_ne!(out, gemini);
    assert!(out.to_string().contains("\"null\""), "{out}");
    assert!(matches!(
        source_for_target(json!({}), "draft-3", &json!({})),
        Err(Refused::Argument(_))
    ));
}
