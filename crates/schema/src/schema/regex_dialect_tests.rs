//! `pattern`, `patternProperties` and `format: "regex"` share one dialect:
//! ECMA-262 with the `u` flag's meaning. Each expectation here is what
//! `new RegExp(pattern, "u").test(subject)` gives in Node.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::json;

use super::{compile, CompileOptions};

fn matches(pattern: &str, subject: &str) -> bool {
    compile(
        &json!({ "type": "string", "pattern": pattern }),
        &CompileOptions::default(),
    )
    .unwrap_or_else(|e| panic!("/{pattern}/u does not compile: {e}"))
    .is_valid(&json!(subject))
}

fn refused(pattern: &str) -> String {
    match compile(&json!({ "pattern": pattern }), &CompileOptions::default()) {
        Ok(_) => panic!("/{pattern}/ compiles"),
        Err(e) => e.message,
    }
}

#[test]
fn word_boundaries_are_ascii() {
    for (pattern, subject, expected) in [
        (r"\bé", "é", false),
        (r"^\w\b", "aé", true),
        (r"a\B", "aé", false),
        (r"\Bé", "aé", false),
        (r"^é\b", "é", false),
        (r"\bfoo\b", "a foo b", true),
        (r"\bfoo\b", "afoo", false),
        (r"^\B$", "", true),
        (r"\b", "", false),
    ] {
        assert_eq!(
            matches(pattern, subject),
            expected,
            "/{pattern}/u on {subject:?}"
        );
    }
}

#[test]
fn any_and_no_character_classes() {
    for (pattern, subject, expected) in [
        ("^[^]$", "\n", true),
        ("^a[^]*b$", "a\n\u{2028}b", true),
        ("a[]", "a", false),
        ("[]", "", false),
        ("^[^]$", "😀", true),
        ("^.$", "\u{2028}", false),
        ("^.$", "😀", true),
    ] {
        assert_eq!(
            matches(pattern, subject),
            expected,
            "/{pattern}/u on {subject:?}"
        );
    }
}

#[test]
fn named_groups_and_back_references() {
    for (pattern, subject, expected) in [
        (r"^(?<pair>ab)\k<pair>$", "abab", true),
        (r"^(?<pair>ab)\k<pair>$", "abba", false),
        (r"^\k<a>(?<a>x)$", "x", true),
        (r"^(a)\1$", "aa", true),
        (r"^(?:(a)|b)\1$", "b", true),
        (r"^(?:(a)|b)\1$", "aa", true),
        (r"^(a)?\1$", "", true),
        (r"^(?=(a+))\1b$", "aab", true),
        // A repeated group that captures on every repetition. (Where its last repetition
        // could match the empty string, ECMA-262 stops before it and the engine takes it:
        // /^(a*)*\1$/u refuses "a" in JavaScript and matches it here; docs/conformance.md says so.)
        (r"^(a*)*\1$", "aa", true),
        (r"^(a*)*\1$", "", true),
        (r"^(a?)*\1$", "aa", true),
        (r"^(ab)+\1$", "ababab", true),
        (r"^(ab)+\1$", "aba", false),
        (r"^(?:(a*)*\1c|a+!)$", "aaac", true),
        (r"^(?:(a*)*\1c|a+!)$", "aaa!", true),
    ] {
        assert_eq!(
            matches(pattern, subject),
            expected,
            "/{pattern}/u on {subject:?}"
        );
    }
}

#[test]
fn class_escapes_keep_their_meaning_beside_look_arounds() {
    for (pattern, subject, expected) in [
        (r"^(?=.)\d$", "٣", false),
        (r"^(?=.)\w$", "é", false),
        (r"^(a)\1.$", "aa\n", false),
        (r"^(?<=)\s$", "\u{2028}", true),
        (r"^(?!x)\S$", "\u{a0}", false),
        (r"^\u{1F600}$", "😀", true),
        (r"^\uD83D\uDE00$", "😀", true),
        (r"^[\uD83D\uDE00]$", "😀", true),
        (r"\uD800", "\u{fffd}", false),
        (r"^[\uD800-\uDFFF]", "a", false),
        (r"^[^\uD800-\uDFFF]$", "a", true),
        (r"^\p{Lu}+$", "ÀB", true),
        (r"^\p{Script=Greek}$", "α", true),
        (r"^\P{L}$", "1", true),
        (r"^[\p{Nd}\-]+$", "-٣", true),
        (r"^\-$", "-", true),
        (r"^\cJ$", "\n", true),
        (r"^a{2}$", "aa", true),
        (r"^(?:ab){1,2}?$", "abab", true),
    ] {
        assert_eq!(
            matches(pattern, subject),
            expected,
            "/{pattern}/u on {subject:?}"
        );
    }
}

#[test]
fn pattern_properties_share_the_dialect() {
    let schema = json!({ "type": "object", "patternProperties": { "^x[^]$": { "type": "integer" }, r"^(?<c>.)\k<c>$": { "const": 1 } } });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    assert!(compiled.is_valid(&json!({ "x\n": 1, "aa": 1 })));
    assert!(!compiled.is_valid(&json!({ "x\n": "one" })));
    assert!(!compiled.is_valid(&json!({ "aa": 2 })));
}

#[test]
fn what_is_not_supported_is_refused_clearly() {
    for (pattern, says) in [
        (r"(?i:a)", "modifiers"),
        (r"^(?:(a)|b)+\1$", "repeated group"),
        (r"(?<=\1(a))b", "lookbehind"),
        (r"(?<n>a)|(?<n>b)", "names two groups"),
        (r"(?<=\w(?!D)(a)+)", "look-around inside a lookbehind"),
        (r"\p{letter}", "is not an ECMA-262 regular expression"),
    ] {
        let message = refused(pattern);
        assert!(message.contains(says), "/{pattern}/: {message}");
    }
}

#[test]
fn format_regex_accepts_what_the_u_flag_accepts() {
    let compiled = compile(&json!({ "format": "regex" }), &CompileOptions::default()).unwrap();
    for source in [
        "[^]",
        r"(?<n>a)\k<n>",
        r"\bx\B",
        r"\p{Lu}",
        r"\u{1F600}",
        "(?<=a)b",
        r"\-",
    ] {
        assert!(compiled.is_valid(&json!(source)), "{source}");
    }
    for source in [
        r"\k",
        "]",
        "{",
        r"\a",
        r"(?<n>a)\k<m>",
        r"\p{letter}",
        r"\p{Greek}",
    ] {
        assert!(!compiled.is_valid(&json!(source)), "{source}");
    }
}

#[test]
fn a_count_past_any_length_is_a_verdict_not_an_overflow() {
    // A backreference beside a repetition whose least length is past usize:
    // the lengths fancy-regex adds up saturate, in a build with overflow
    // checks as in one without.
    let pattern = "(\u{fffd}?<=\\1dMMMMMMMMMMMMMMM{77777777770000000000000001119769285})";
    if let Ok(schema) = compile(
        &json!({ "type": "string", "pattern": pattern }),
        &CompileOptions::default(),
    ) {
        let _ = schema.is_valid(&json!("dMM"));
    }
}
