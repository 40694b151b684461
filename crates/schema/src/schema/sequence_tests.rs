//! Patterns that are an anchored run of single characters and classes,
//! each once, optional or repeated, are matched by jsonschema-regex's
//! `Sequence` without building a regex engine, however the ECMA-262
//! translation groups a quantified atom (it writes `a*` as `(?:a)*`).
//! The meta-schemas' own patterns are such runs, so checking a schema
//! against its meta-schema builds no engine for them. Where the sequence
//! decides, it decides as the engine does.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use jsonschema_regex::{translate_ecma_regex, Sequence};
use serde_json::Value;

fn sequence(pattern: &str) -> Option<Sequence> {
    let translated = translate_ecma_regex(pattern)
        .unwrap_or_else(|refusal| panic!("/{pattern}/u does not translate: {refusal}"));
    Sequence::compile(&translated)
}

/// Every `pattern` in `schema`, at any depth.
fn patterns_in(schema: &Value, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("pattern", Value::String(pattern)) => found.push(pattern.clone()),
                    _ => patterns_in(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| patterns_in(item, found)),
        _ => {}
    }
}

#[test]
fn the_meta_schemas_patterns_are_sequences() {
    let mut found = Vec::new();
    for meta in [
        &*referencing::meta::DRAFT4,
        &*referencing::meta::DRAFT6,
        &*referencing::meta::DRAFT7,
        &*referencing::meta::DRAFT201909_CORE,
        &*referencing::meta::DRAFT202012_CORE,
    ] {
        patterns_in(meta, &mut found);
    }
    // `$id`, and the anchors of 2019-09 and of 2020-12.
    for expected in [
        "^[^#]*#?$",
        "^[A-Za-z][-A-Za-z0-9.:_]*$",
        "^[A-Za-z_][-A-Za-z0-9._]*$",
    ] {
        assert!(
            found.iter().any(|p| p == expected),
            "{expected} in {found:?}"
        );
    }
    for pattern in &found {
        assert!(sequence(pattern).is_some(), "/{pattern}/u is no sequence");
    }
}

/// Patterns whose quantified atoms the translation writes in groups.
const SEQUENCES: &[&str] = &[
    "^[^#]*#?$",
    "^[A-Za-z_][-A-Za-z0-9._]*$",
    "^[A-Za-z][-A-Za-z0-9.:_]*$",
    "^a+$",
    "^a*b?c{2}$",
    "^#[0-9a-fA-F]{6}$",
    r"^\d{3}-\d{2,4}$",
    r"^\w+$",
    r"^\s*$",
    r"^\S+$",
    "^.+$",
    "^.{0,3}$",
    "^[^]*$",
    r"^\p{L}+[0-9]?$",
    r"^\.?[a-z]+$",
    "^(?:[ab])+c$",
    "^(?:(?:x))*y$",
    "^[a-z]{2,}",
    "^a*?b$",
    r"^[\]a]+$",
    r"^\u00e9+$",
];

/// Patterns with a repeated group of more than one atom, a capture, an
/// alternative or a look-around: the engine's.
const NOT_SEQUENCES: &[&str] = &[
    "^(ab)+$",
    "^(?:ab)+$",
    "^(a)+$",
    "^(?:a|b)+$",
    r"^(?:\.[a-z]+)*$",
    "^a+(?=b)",
    "^(?:a+)+$",
    "[a-z]+",
];

const SUBJECTS: &[&str] = &[
    "",
    "a",
    "aa",
    "b",
    "ab",
    "aab",
    "abc",
    "cc",
    "acc",
    "aabcc",
    "abbc",
    "x",
    "xy",
    "y",
    "#",
    "##",
    "abc#",
    "abc#x",
    "#00ffAA",
    "#00ffA",
    "_a",
    "_a-b.c",
    "a:b",
    "1ab",
    "-a",
    "123-45",
    "123-4567",
    "123-45678",
    "12-34",
    " \t",
    "a b",
    "\n",
    "a\r",
    ".abc",
    "..abc",
    "abc.",
    "]a]",
    "é",
    "éé",
    "aé",
    "\u{2028}",
    "ab9",
    "abababababababababababababababababab",
];

#[test]
fn quantified_atoms_in_groups_are_sequences() {
    for pattern in SEQUENCES {
        assert!(sequence(pattern).is_some(), "/{pattern}/u is no sequence");
    }
    for pattern in NOT_SEQUENCES {
        assert!(sequence(pattern).is_none(), "/{pattern}/u is a sequence");
    }
}

#[test]
fn a_sequence_decides_as_the_engine_does() {
    let mut decided = 0;
    for pattern in SEQUENCES {
        let translated = translate_ecma_regex(pattern).expect("translates");
        let sequence = Sequence::compile(&translated).expect("a sequence");
        let engine = fancy_regex::Regex::new(&translated).expect("the engine compiles it");
        for subject in SUBJECTS {
            let Some(verdict) = sequence.is_match(subject.as_bytes()) else {
                // Past ASCII the sequence leaves it to the engine.
                assert!(
                    !subject.is_ascii(),
                    "/{pattern}/u left {subject:?} undecided"
                );
                continue;
            };
            decided += 1;
            assert_eq!(
                verdict,
                engine.is_match(subject).expect("the engine finishes"),
                "/{pattern}/u on {subject:?}"
            );
        }
    }
    assert!(decided > SEQUENCES.len() * 30, "{decided} verdicts");
}
