//! Content hashes for audit records and repair-loop detection.
//!
//! A schema's hash must not change when a client re-serialises it with keys in
//! another order, so hashing goes through a canonical form: object keys sorted,
//! no insignificant white space.

use serde_json::Value;
use xxhash_rust::xxh3::xxh3_128;

/// Writes `value` as canonical JSON: keys sorted by their UTF-8 bytes.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// 128-bit xxh3 as 32 lowercase hex digits.
pub fn hex_digest(bytes: &[u8]) -> String {
    format!("{:032x}", xxh3_128(bytes))
}

pub fn content_hash(value: &Value) -> String {
    hex_digest(canonical_json(value).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_change_the_hash() {
        let a: Value =
            serde_json::from_str(r#"{"b":1,"a":{"y":[1,2],"x":null}}"#).unwrap_or_default();
        let b: Value =
            serde_json::from_str(r#"{"a":{"x":null,"y":[1,2]},"b":1}"#).unwrap_or_default();
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
        assert_eq!(content_hash(&json!(true)).len(), 32);
    }

    #[test]
    fn keys_are_escaped() {
        assert_eq!(canonical_json(&json!({"a\"b": "\n"})), r#"{"a\"b":"\n"}"#);
    }
}
