#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use super::*;
use serde_json::json;

#[test]
fn only_what_a_uri_reference_cannot_hold_is_encoded() {
    for (given, expected) in [
        ("#/definitions/Foo", "#/definitions/Foo"),
        ("#/definitions/Foo<Bar>", "#/definitions/Foo%3CBar%3E"),
        (
            "#/definitions/Map<string, T>",
            "#/definitions/Map%3Cstring,%20T%3E",
        ),
        ("#/definitions/Größe", "#/definitions/Gr%C3%B6%C3%9Fe"),
        ("#/definitions/a%20b", "#/definitions/a%20b"),
        ("#/definitions/100%", "#/definitions/100%25"),
        ("#/definitions/a#b", "#/definitions/a%23b"),
        ("#/definitions/[x]", "#/definitions/%5Bx%5D"),
        (
            "https://example.com/a b.json#/x",
            "https://example.com/a%20b.json#/x",
        ),
        ("item.json", "item.json"),
        ("http://[::1]/a.json", "http://[::1]/a.json"),
    ] {
        assert_eq!(encode(given), expected, "{given}");
    }
    assert!(matches!(encode("#/definitions/Foo"), Cow::Borrowed(_)));
}

#[test]
fn data_keywords_keep_their_values() {
    let schema = json!({
        "properties": { "const": { "$ref": "#/$defs/a b" } },
        "const": { "$ref": "#/a b" },
        "enum": [{ "$ref": "#/a b" }],
        "default": { "$ref": "#/a b" },
        "x-unknown": { "$ref": "#/a b" }
    });
    let encoded = encode_references(&schema);
    assert_eq!(
        encoded["properties"]["const"]["$ref"],
        json!("#/$defs/a%20b")
    );
    assert_eq!(encoded["x-unknown"]["$ref"], json!("#/a%20b"));
    assert_eq!(encoded["const"], schema["const"]);
    assert_eq!(encoded["enum"], schema["enum"]);
    assert_eq!(encoded["default"], schema["default"]);
    let plain = json!({ "$ref": "#/a", "items": { "$ref": "b.json" } });
    assert!(matches!(encode_references(&plain), Cow::Borrowed(_)));
}
