//! `contentEncoding` is decoded by a small RFC 4648 decoder in the vendored
//! jsonschema (patches/jsonschema-*-rfc4648-codecs.patch), which replaced the
//! `data-encoding` crate. It must accept exactly the texts that crate
//! accepted: these tests decide random texts both ways, through draft 7
//! schemas (where `contentEncoding` and `contentMediaType` are asserted).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use data_encoding::{Encoding, BASE32, BASE32HEX, BASE64, BASE64URL, HEXUPPER};
use serde_json::{json, Value};

use guard_tape::test_rng::Rng;

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .build(schema)
        .unwrap()
}

/// What `data-encoding` decoded the text to, as the vendored crate called it
/// (base16 was tried as written, then upper-cased).
fn reference(encoding: &str, text: &str) -> Option<Vec<u8>> {
    let codec: &Encoding = match encoding {
        "base64" => &BASE64,
        "base64url" => &BASE64URL,
        "base32" => &BASE32,
        "base32hex" => &BASE32HEX,
        "base16" => {
            return HEXUPPER
                .decode(text.as_bytes())
                .or_else(|_| HEXUPPER.decode(text.to_uppercase().as_bytes()))
                .ok()
        }
        _ => unreachable!(),
    };
    codec.decode(text.as_bytes()).ok()
}

const ENCODINGS: [&str; 5] = ["base64", "base64url", "base32", "base32hex", "base16"];

/// A text that is often valid: the encoding of random bytes (sometimes of
/// JSON), then, at random, a symbol changed, padding moved or dropped, two
/// encodings joined, or a character from outside every alphabet.
fn text(rng: &mut Rng, encoding: &str) -> String {
    let codec = match encoding {
        "base64" => &BASE64,
        "base64url" => &BASE64URL,
        "base32" => &BASE32,
        "base32hex" => &BASE32HEX,
        _ => &HEXUPPER,
    };
    let payload: Vec<u8> = if rng.below(3) == 0 {
        format!("{{\"n\":{}}}", rng.below(1000)).into_bytes()
    } else {
        (0..rng.below(12))
            .map(|_| (rng.next() & 0xff) as u8)
            .collect()
    };
    let mut text = codec.encode(&payload);
    if rng.below(4) == 0 {
        text.push_str(&codec.encode(&payload[..payload.len() / 2]));
    }
    if encoding == "base16" && rng.below(2) == 0 {
        text = text.to_lowercase();
    }
    const NOISE: &[char] = &[
        '=', '=', 'A', 'a', 'z', 'Z', '0', '1', '7', '8', '9', 'V', 'W', 'f', 'g', '+', '/', '-',
        '_', ' ', '\n', '.', 'é', 'ı', 'ſ', 'ａ',
    ];
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.below(3) {
        match rng.below(5) {
            // Re-pad: the last few symbols become padding.
            3 if !chars.is_empty() => {
                let from = chars.len() - 1 - rng.below(chars.len().min(7));
                for c in &mut chars[from..] {
                    *c = '=';
                }
            }
            0 if !chars.is_empty() => {
                let at = rng.below(chars.len());
                chars[at] = NOISE[rng.below(NOISE.len())];
            }
            1 if !chars.is_empty() => {
                chars.remove(rng.below(chars.len()));
            }
            2 => {
                let at = rng.below(chars.len() + 1);
                chars.insert(at, NOISE[rng.below(NOISE.len())]);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

#[test]
fn content_encodings_accept_exactly_what_data_encoding_accepted() {
    let mut rng = Rng(0x0c0f_fee5_eed5_1234);
    let mut accepted = 0;
    for encoding in ENCODINGS {
        let bare = validator(&json!({ "contentEncoding": encoding }));
        let as_json = validator(
            &json!({ "contentEncoding": encoding, "contentMediaType": "application/json" }),
        );
        for _ in 0..20_000 {
            let text = text(&mut rng, encoding);
            let decoded = reference(encoding, &text);
            let instance = Value::String(text.clone());
            assert_eq!(
                bare.is_valid(&instance),
                decoded.is_some(),
                "{encoding} decides {text:?} differently from data-encoding"
            );
            let is_json = decoded.as_deref().is_some_and(|bytes| {
                std::str::from_utf8(bytes).is_ok_and(|s| serde_json::from_str::<Value>(s).is_ok())
            });
            assert_eq!(
                as_json.is_valid(&instance),
                is_json,
                "{encoding} + application/json decides {text:?} differently from data-encoding"
            );
            accepted += usize::from(decoded.is_some());
        }
    }
    // The generator must reach both sides of every boundary.
    assert!(
        accepted > 20_000 && accepted < 80_000,
        "accepted {accepted} of 100,000"
    );
}

#[test]
fn content_encodings_known_texts() {
    let cases = [
        ("base64", "Zm9vYmFy", true),
        ("base64", "Zm9vYg==", true),
        ("base64", "Zm9vYh==", false), // trailing bits set
        ("base64", "Zg==Zg==", true),  // data-encoding takes padded groups back to back
        ("base64", "Zm9v====", false),
        ("base64", "AA==", true),
        ("base64", "A===", false), // one symbol holds no whole byte
        ("base32", "AA======", true),
        ("base32", "A=======", false),
        ("base32", "AAA=====", false),
        ("base64", "Zm9vY", false),
        ("base64url", "PDw_Pz4-", true),
        ("base64url", "PDw/Pz4+", false),
        ("base32", "MZXW6YTBOI======", true),
        ("base32", "MZXW6YTBO=======", false), // 1 symbol short of a byte boundary
        ("base32hex", "CPNMUOJ1E8======", true),
        ("base16", "666f6F626172", true),
        ("base16", "666", false),
        ("base16", "GG", false),
    ];
    for (encoding, text, expected) in cases {
        let v = validator(&json!({ "contentEncoding": encoding }));
        assert_eq!(v.is_valid(&json!(text)), expected, "{encoding} {text:?}");
        assert_eq!(
            reference(encoding, text).is_some(),
            expected,
            "reference {encoding} {text:?}"
        );
    }
}
