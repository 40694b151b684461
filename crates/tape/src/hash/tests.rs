use super::*;
use serde_json::json;

#[test]
fn key_order_does_not_change_the_hash() {
    let a: Value = serde_json::from_str(r#"{"b":1,"a":{"y":[1,2],"x":null}}"#).unwrap_or_default();
    let b: Value = serde_json::from_str(r#"{"a":{"x":null,"y":[1,2]},"b":1}"#).unwrap_or_default();
    assert_eq!(canonical_json(&a), r#"{"a":{"x":null,"y":[1,2]},"b":1}"#);
    assert_eq!(content_hash(&a), content_hash(&b));
}

#[test]
fn different_content_gives_different_hashes() {
    assert_ne!(
        content_hash(&json!({"a": 1})),
        content_hash(&json!({"a": 2}))
    );
    assert_ne!(content_hash(&json!([1, 2])), content_hash(&json!([2, 1])));
    assert_eq!(content_hash(&json!(true)).len(), 64);
}

#[test]
fn the_content_hash_is_sha256_of_the_canonical_text() {
    // FIPS 180-2's test vector for "abc", and the canonical text of a
    // schema hashed as a whole.
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(content_hash(&json!("abc")), sha256_hex(b"\"abc\""));
}

#[test]
fn keys_are_escaped() {
    assert_eq!(canonical_json(&json!({"a\"b": "\n"})), r#"{"a\"b":"\n"}"#);
}
