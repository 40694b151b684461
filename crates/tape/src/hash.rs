//! Content hashes for audit records, the schema cache and repair-loop
//! detection.
//!
//! A schema's hash must not change when a client re-serialises it with keys in
//! another order, so hashing goes through a canonical form: object keys sorted,
//! no insignificant white space.
//!
//! Both are SHA-256. A schema's identity is the whole digest: the cache
//! hands out the validator stored under a schema's hash, and audit records
//! name the schema by it, so two different schemas must never share one
//! (128-bit xxh3, used before, has a public default secret from which
//! colliding schemas can be built). The error hash only tells a repair loop
//! that a mistake repeats, where a collision can do no more than stop the
//! loop early, so it keeps its 128 bits.

use serde_json::Value;
use sha2::{Digest, Sha256};

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
            guard_sort::sort_by(&mut entries, |a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
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

/// The first 128 bits of SHA-256 as 32 lowercase hex digits, for the
/// error hash (see the module docs).
pub fn hex_digest(bytes: &[u8]) -> String {
    hex(Sha256::digest(bytes).get(..16).unwrap_or_default())
}

/// SHA-256 as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    // By table rather than the formatting machinery, which cost more than
    // the digest of a short text.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        for nibble in [byte >> 4, byte & 0xf] {
            out.push(char::from(
                DIGITS.get(usize::from(nibble)).copied().unwrap_or(b'0'),
            ));
        }
    }
    out
}

/// The SHA-256 of a value's canonical form: the same for the same content
/// whatever its key order, and different for different content.
pub fn content_hash(value: &Value) -> String {
    sha256_hex(canonical_json(value).as_bytes())
}

#[cfg(test)]
mod tests;
