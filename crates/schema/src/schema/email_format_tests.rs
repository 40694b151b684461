//! The `email` and `idn-email` formats take a shortcut for plain ASCII
//! `dot-atom@host` addresses (see `plain_email_domain` in the vendored
//! jsonschema). The shortcut must decide exactly as the full check does:
//! these tests compare the default validator, which takes it, with one given
//! explicit email options (the defaults, without display text, as a
//! Mailbox has none), which never does.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::PathBuf;

use serde_json::{json, Value};

use guard_tape::test_rng::Rng;

struct Pair {
    shortcut: jsonschema::Validator,
    full: jsonschema::Validator,
}

fn pair(format: &str) -> Pair {
    let schema = json!({ "format": format });
    let shortcut = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let full = jsonschema::options()
        .should_validate_formats(true)
        .with_email_options(jsonschema::EmailOptions::default().without_display_text())
        .build(&schema)
        .unwrap();
    Pair { shortcut, full }
}

fn assert_same(pairs: &[(&str, Pair)], address: &str) {
    let instance = Value::String(address.to_owned());
    for (format, p) in pairs {
        assert_eq!(
            p.shortcut.is_valid(&instance),
            p.full.is_valid(&instance),
            "{format} decides {address:?} differently with and without the shortcut"
        );
    }
}

fn pairs() -> Vec<(&'static str, Pair)> {
    vec![("email", pair("email")), ("idn-email", pair("idn-email"))]
}

/// Pieces that sit on every boundary the shortcut draws: atext and its
/// neighbours, dots, hyphens, quotes, brackets, display-name syntax,
/// whitespace, non-ASCII letters and marks, punycode labels.
const PIECES: &[&str] = &[
    "a",
    "b",
    "z",
    "Z",
    "0",
    "9",
    "x",
    ".",
    ".",
    "-",
    "-",
    "_",
    "+",
    "!",
    "#",
    "$",
    "%",
    "&",
    "'",
    "*",
    "/",
    "=",
    "?",
    "^",
    "`",
    "{",
    "|",
    "}",
    "~",
    "@",
    "@",
    "\"",
    "\\",
    "(",
    ")",
    ",",
    ":",
    ";",
    "<",
    ">",
    "[",
    "]",
    " ",
    "\t",
    "é",
    "ß",
    "例",
    "\u{301}",
    "\u{200d}",
    "xn--",
    "xn--nxasmq6b",
    "IPv6:",
    "::1",
    "127.0.0.1",
    "com",
    "example",
    "-a",
    "a-",
    "--",
];

fn random_piece_string(rng: &mut Rng, max_pieces: usize) -> String {
    let n = rng.below(max_pieces + 1);
    (0..n).map(|_| rng.pick(PIECES)).collect()
}

fn label(rng: &mut Rng) -> String {
    let len = match rng.below(6) {
        0 => 63,
        1 => 64,
        2 => 62,
        _ => 1 + rng.below(12),
    };
    let alphabet = b"abcxyz019-";
    (0..len)
        .map(|_| char::from(alphabet[rng.below(alphabet.len())]))
        .collect()
}

fn generated(rng: &mut Rng) -> String {
    match rng.below(5) {
        // Anything at all from the pieces.
        0 => random_piece_string(rng, 12),
        // local@domain from pieces on each side.
        1 => format!(
            "{}@{}",
            random_piece_string(rng, 6),
            random_piece_string(rng, 6)
        ),
        // A plain address, then one piece inserted somewhere.
        2 => {
            let mut address = format!("{}@{}", label(rng), label(rng));
            let at = rng.below(address.len() + 1);
            if address.is_char_boundary(at) {
                address.insert_str(at, rng.pick(PIECES));
            }
            address
        }
        // Lengths around the local-part, label and domain limits.
        3 => {
            let local_len = 60 + rng.below(8);
            let local: String = (0..local_len)
                .map(|i| if i % 7 == 3 { '.' } else { 'a' })
                .collect();
            let labels: Vec<String> = (0..1 + rng.below(5)).map(|_| label(rng)).collect();
            format!("{local}@{}", labels.join("."))
        }
        // Dotted local parts and domains.
        _ => {
            let locals: Vec<String> = (0..1 + rng.below(3)).map(|_| label(rng)).collect();
            let labels: Vec<String> = (0..1 + rng.below(4)).map(|_| label(rng)).collect();
            let sep = rng.pick(&[".", ".", "..", "-", "@"]);
            format!("{}@{}", locals.join(sep), labels.join("."))
        }
    }
}

#[test]
fn the_email_shortcut_agrees_with_the_full_check_on_generated_addresses() {
    let pairs = pairs();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for _ in 0..60_000 {
        assert_same(&pairs, &generated(&mut rng));
    }
}

#[test]
fn the_email_shortcut_agrees_with_the_full_check_on_chosen_addresses() {
    let pairs = pairs();
    let long_label = "a".repeat(63);
    let too_long_label = "a".repeat(64);
    let domain_253 = format!("{long_label}.{long_label}.{long_label}.{}", "a".repeat(61));
    let addresses = [
        "joe.bloggs@example.com".to_owned(),
        "a@b".to_owned(),
        "a@b.c".to_owned(),
        "a.b@c".to_owned(),
        ".a@b".to_owned(),
        "a.@b".to_owned(),
        "a..b@c".to_owned(),
        "a@-b".to_owned(),
        "a@b-".to_owned(),
        "a@b..c".to_owned(),
        "a@.b".to_owned(),
        "a@b.".to_owned(),
        "a@ab--cd".to_owned(),
        "a@xn--nxasmq6b.com".to_owned(),
        "a@xn--zz".to_owned(),
        "a@123".to_owned(),
        "a@1.2.3.4".to_owned(),
        "a@[127.0.0.1]".to_owned(),
        "a@[IPv6:::1]".to_owned(),
        "\"\"@example.com".to_owned(),
        "\"a b\"@example.com".to_owned(),
        "Joe <joe@example.com>".to_owned(),
        "<joe@example.com>".to_owned(),
        "te~st@example.com".to_owned(),
        "~test@example.com".to_owned(),
        "test~@example.com".to_owned(),
        "!#$%&'*+-/=?^_`{|}~@example.com".to_owned(),
        "a@b@c".to_owned(),
        "@b".to_owned(),
        "a@".to_owned(),
        "@".to_owned(),
        String::new(),
        format!("{}@b", "a".repeat(64)),
        format!("{}@b", "a".repeat(65)),
        format!("a@{long_label}"),
        format!("a@{too_long_label}"),
        format!("a@{domain_253}"),
        format!("a@{domain_253}a"),
        format!("a@{domain_253}aa"),
        format!("a@{domain_253}.b"),
        "é@example.com".to_owned(),
        "a@é.com".to_owned(),
        "a@例え.テスト".to_owned(),
    ];
    for address in &addresses {
        assert_same(&pairs, address);
    }
}

/// The JSON Schema Test Suite, where the conformance tests read it: the
/// pinned copy in `tests/conformance/json-schema-test-suite` (this crate is
/// `crates/schema` inside the repository) or at `JSON_SCHEMA_TEST_SUITE`.
fn suite_root() -> PathBuf {
    let root = std::env::var_os("JSON_SCHEMA_TEST_SUITE").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/conformance/json-schema-test-suite")
        },
        PathBuf::from,
    );
    assert!(
        root.join("tests").is_dir(),
        "the JSON Schema Test Suite was not found at {} (set JSON_SCHEMA_TEST_SUITE)",
        root.display()
    );
    root
}

#[test]
fn the_email_shortcut_agrees_with_the_full_check_on_the_test_suite() {
    let pairs = pairs();
    let root = suite_root().join("tests");
    let mut seen = 0;
    for draft in [
        "draft4",
        "draft6",
        "draft7",
        "draft2019-09",
        "draft2020-12",
        "draft-next",
    ] {
        for file in ["email.json", "idn-email.json"] {
            let path = root.join(draft).join("optional/format").join(file);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let groups: Value = serde_json::from_str(&text).unwrap();
            for group in groups.as_array().unwrap() {
                for case in group["tests"].as_array().unwrap() {
                    if let Some(address) = case["data"].as_str() {
                        assert_same(&pairs, address);
                        // Both validators must also match the suite itself.
                        let expected = case["valid"].as_bool().unwrap();
                        let format = if file == "email.json" {
                            "email"
                        } else {
                            "idn-email"
                        };
                        let (_, p) = pairs.iter().find(|(name, _)| *name == format).unwrap();
                        assert_eq!(
                            p.shortcut.is_valid(&json!(address)),
                            expected,
                            "{draft}/{file}: {address:?}"
                        );
                        seen += 1;
                    }
                }
            }
        }
    }
    assert!(
        seen > 40,
        "only {seen} email cases were read from the suite"
    );
}

/// `email` is an RFC 5321 Mailbox and `idn-email` an RFC 6531 one: a local
/// part (a dot-string or a quoted string) and a domain or address literal,
/// with no display text, angle brackets or comments around it.
#[test]
fn an_email_is_a_mailbox_without_display_text_or_comments() {
    let pairs = pairs();
    for (format, p) in &pairs {
        for address in [
            "Name <a@b.co>",
            "x\n\ny <a@b.co>",
            "\"Name\" <a@b.co>",
            "<a@b.co>",
            "Ray Shan <ray@shan.io>",
            "a@b.co (comment)",
            "(comment)a@b.co",
            "a(comment)@b.co",
            "\"a\tb\"@b.co",
        ] {
            assert!(
                !p.shortcut.is_valid(&json!(address)),
                "{format} accepts {address:?}"
            );
        }
        for address in [
            "a@b.co",
            "\"a b\"@b.co",
            "\"a\\ b\"@b.co",
            "\"a\\\"b\"@b.co",
            "\"a@b\"@b.co",
            "\"<a>\"@b.co",
            "\"\"@b.co",
            "a@[127.0.0.1]",
        ] {
            assert!(
                p.shortcut.is_valid(&json!(address)),
                "{format} rejects {address:?}"
            );
        }
    }
}
