//! Differential tests: the tape against serde_json and jsonschema's own
//! `serde_json::Value` validation.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::borrow::Cow;
use std::cell::RefCell;

use jsonschema::json::{cmp, unique, Array, Json, JsonNumber, Node, Object};
use jsonschema::types::JsonType;
use serde_json::{json, Map, Number, Value};

use super::{parse, ParseError, Tape, TapeJson, TapeNode, ENTRY_SIZE, MAX_DEPTH};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// splitmix64: deterministic, dependency-free randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// serde_json's parse with integers past 2^53 read as the double JavaScript
/// reads them as, which is how the tape checks them (see `number.rs`).
fn serde_parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Value>(text).map(js_view)
}

fn js_view(value: Value) -> Value {
    const SAFE: u64 = 1 << 53;
    match value {
        Value::Number(n) => {
            let big = n.as_u64().is_some_and(|u| u > SAFE)
                || n.as_i64().is_some_and(|i| i.unsigned_abs() > SAFE);
            if big {
                Value::Number(Number::from_f64(n.as_f64().unwrap()).unwrap())
            } else {
                Value::Number(n)
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(js_view).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, js_view(v))).collect())
        }
        other => other,
    }
}

/// Equal as values, and equal when serialised: catches `-0.0` against `0.0`,
/// integer against float, and member order.
fn assert_same_value(ours: &Value, theirs: &Value, text: &str) {
    assert_eq!(ours, theirs, "value differs for {text:?}");
    assert_eq!(
        serde_json::to_string(ours).unwrap(),
        serde_json::to_string(theirs).unwrap(),
        "serialisation differs for {text:?}"
    );
}

fn assert_same_number(ours: &impl JsonNumber, theirs: &Number, what: &str) {
    assert_eq!(ours.as_u64(), theirs.as_u64(), "as_u64 of {what}");
    assert_eq!(ours.as_i64(), theirs.as_i64(), "as_i64 of {what}");
    assert_eq!(
        ours.as_f64().map(f64::to_bits),
        theirs.as_f64().map(f64::to_bits),
        "as_f64 of {what}"
    );
    assert_eq!(ours.to_number().as_ref(), theirs, "to_number of {what}");
    assert_eq!(
        ours.to_number().to_string(),
        theirs.to_string(),
        "to_number rendering of {what}"
    );
    assert_eq!(
        ours.is_integer(),
        JsonNumber::is_integer(theirs),
        "is_integer of {what}"
    );
    assert_eq!(
        ours.is_written_as_integer(),
        JsonNumber::is_written_as_integer(theirs),
        "is_written_as_integer of {what}"
    );
    assert_eq!(
        ours.as_str(),
        JsonNumber::as_str(theirs),
        "as_str of {what}"
    );
}

/// Every accessor of `node` agrees with `value`, recursively.
fn assert_node_matches(node: &TapeNode<'_>, value: &Value, text: &str) {
    let expected_type = match value {
        Value::Null => JsonType::Null,
        Value::Bool(_) => JsonType::Boolean,
        Value::Number(_) => JsonType::Number,
        Value::String(_) => JsonType::String,
        Value::Array(_) => JsonType::Array,
        Value::Object(_) => JsonType::Object,
    };
    assert_eq!(node.json_type(), expected_type, "type in {text:?}");
    assert_eq!(node.is_null(), value.is_null());
    assert_eq!(node.as_boolean(), value.as_bool());
    assert_eq!(node.is_number(), value.is_number());
    assert_eq!(node.is_number(), node.as_number().is_some());
    assert_eq!(node.is_string(), value.is_string());
    assert_eq!(node.as_object().is_some(), value.is_object());
    assert_eq!(node.as_array().is_some(), value.is_array());
    assert_eq!(node.as_string().as_deref(), value.as_str());
    assert!(
        node.equals_value(value),
        "equals_value to itself in {text:?}"
    );
    assert_same_value(&node.to_value(), value, text);
    assert_eq!(node.identity(), node.identity());
    match value {
        Value::Number(number) => {
            assert_same_number(&node.as_number().unwrap(), number, text);
        }
        Value::String(string) => {
            let count = string.chars().count() as u64;
            assert_eq!(node.string_length(), Some(count));
            for (min, max) in [
                (0, 0),
                (0, count),
                (count, count),
                (count + 1, u64::MAX),
                (count.saturating_sub(1), count.saturating_sub(1)),
                (string.len() as u64, u64::MAX),
                (0, string.len() as u64 / 2),
            ] {
                assert_eq!(
                    node.string_length_within(min, max),
                    Some((min..=max).contains(&count)),
                    "string_length_within({min}, {max}) of {string:?}"
                );
            }
        }
        Value::Array(items) => {
            let array = node.as_array().unwrap();
            assert_eq!(array.len(), items.len());
            assert_eq!(array.elements().count(), items.len());
            for (element, item) in array.elements().zip(items) {
                assert_node_matches(&element, item, text);
            }
            assert_eq!(array.is_unique(), unique::is_unique(items), "{text:?}");
        }
        Value::Object(members) => {
            let object = node.as_object().unwrap();
            assert_eq!(object.len(), members.len(), "object length in {text:?}");
            assert_eq!(object.is_empty(), members.is_empty());
            let names: Vec<String> = object.members().map(|(n, _)| n.into_owned()).collect();
            let expected: Vec<&String> = members.keys().collect();
            assert_eq!(
                names.iter().collect::<Vec<_>>(),
                expected,
                "member order in {text:?}"
            );
            for ((name, member), (key, item)) in object.members().zip(members) {
                assert_eq!(name.as_ref(), key);
                assert_node_matches(&member, item, text);
                let found = object.get(&TapeJson::prepare_key(key)).unwrap();
                assert_eq!(found.identity(), member.identity());
            }
            for missing in ["", "missing", "a\u{0}", "é"] {
                if !members.contains_key(missing) {
                    assert!(object.get(&TapeJson::prepare_key(missing)).is_none());
                }
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
}

/// Every node of the tape, in document order.
fn all_nodes<'a>(node: TapeNode<'a>, out: &mut Vec<TapeNode<'a>>) {
    out.push(node);
    if let Some(array) = node.as_array() {
        for element in array.elements() {
            all_nodes(element, out);
        }
    }
    if let Some(object) = node.as_object() {
        for (_, member) in object.members() {
            all_nodes(member, out);
        }
    }
}

/// Parses `text` both ways and asserts they agree; returns whether accepted.
fn check(text: &str) -> bool {
    let ours = parse(text);
    let theirs = serde_parse(text);
    match (ours, theirs) {
        (Ok(tape), Ok(value)) => {
            assert_same_value(&tape.to_value(), &value, text);
            assert_node_matches(&tape.root(), &value, text);
            // `equals_value` across nodes agrees with jsonschema's equality.
            let mut nodes = Vec::new();
            all_nodes(tape.root(), &mut nodes);
            let values: Vec<Value> = nodes.iter().map(|n| n.to_value().into_owned()).collect();
            for node in nodes.iter().take(24) {
                for other in values.iter().take(24) {
                    assert_eq!(
                        node.equals_value(other),
                        cmp::equal(&node.to_value(), other),
                        "equals_value in {text:?}"
                    );
                }
            }
            true
        }
        (Err(ours), Err(theirs)) => {
            assert_eq!(ours.to_string(), theirs.to_string(), "error for {text:?}");
            assert_eq!(
                (ours.line, ours.column),
                (theirs.line(), theirs.column()),
                "position for {text:?}"
            );
            false
        }
        (Ok(_), Err(theirs)) => panic!("accepted {text:?}, serde_json says {theirs}"),
        (Err(ours), Ok(_)) => panic!("rejected {text:?} ({ours}), serde_json accepts"),
    }
}

// ---------------------------------------------------------------------------
// Parsing: hand-written corpus
// ---------------------------------------------------------------------------

const VALID: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-0",
    "-0.0",
    "0.0",
    "1",
    "-1",
    "1.0",
    "1.5",
    "-1.5",
    "1e2",
    "1E2",
    "1e+2",
    "1e-2",
    "1E-0",
    "0e0",
    "0e-5",
    "-0e5",
    "0.1",
    "0.30000000000000004",
    "123456789012345678901234567890",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "-18446744073709551615",
    "-18446744073709551616",
    "9007199254740993",
    "1.7976931348623157e308",
    "-1.7976931348623157e308",
    "1e308",
    "2.2250738585072014e-308",
    "4.9e-324",
    "2.4703282292062327e-324",
    "2.4703282292062328e-324",
    "1e-400",
    "-1e-400",
    "1e-2147483648",
    "1e-99999999999999999999",
    "0e99999999999999999999",
    "0.000e99999999999999999999",
    "-0e99999999999999999999",
    "1.00000000000000011102230246251565404236316680908203125",
    "0.1000000000000000055511151231257827021181583404541015625",
    "100000000000000000000000000000000000000000000000000000000000e-60",
    "1.5e19",
    "1e17",
    "123.456e-7",
    "\"\"",
    "\"plain\"",
    "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
    "\"\\u0041\\u00e9\\u4e2d\"",
    "\"\\u0000\"",
    "\"\\uFFFF\"",
    "\"\\ud83d\\ude00\"",
    "\"\\uD83D\\uDE00 and more\"",
    "\"\\udbff\\udfff\"",
    "\"héllo wörld 中文 😀\"",
    "\"\u{7f}\u{80}\u{ffff}\"",
    "\"tab\\tinside\"",
    "[]",
    "[ ]",
    "[1]",
    "[1,2,3]",
    "[1 , 2 , 3]",
    "[[],[[]],{}]",
    "{}",
    "{ }",
    "{\"a\":1}",
    "{\"a\" : 1 , \"b\" : [true,false,null]}",
    "{\"a\":1,\"a\":2}",
    "{\"a\":1,\"b\":2,\"a\":3}",
    "{\"a\":1,\"b\":2,\"a\":3,\"b\":4,\"a\":5}",
    "{\"a\":{\"x\":1},\"a\":[1,2]}",
    "{\"a\":[1,{\"b\":1,\"b\":2}],\"a\":{\"c\":3,\"c\":{}}}",
    "{\"\\u0061\":1,\"a\":2}",
    "{\"a\":1,\"\\u0061\":2}",
    "{\"\\u0061\":1,\"\\u0061\":2}",
    "{\"\\\"\":1,\"\\\"\":2,\"\\\\\":3}",
    "{\"\":1,\"\":2}",
    "{\"é\":1,\"\\u00e9\":2}",
    "{\"😀\":1,\"\\ud83d\\ude00\":2}",
    " \t\r\n1\n\t\r ",
    "\n[\n1\n,\n2\n]\n",
    "{\"nested\":{\"deeper\":{\"deepest\":[1,[2,[3,[4]]]]}}}",
    "[1.0,1,1e0,-0,0]",
    "[\"a\",\"a\"]",
    "[{\"a\":1},{\"a\":1.0}]",
];

const INVALID: &[&str] = &[
    "",
    " ",
    "\n\n",
    "nul",
    "nulll",
    "nUll",
    "tru",
    "trUe",
    "fals",
    "falsy",
    "True",
    "NaN",
    "Infinity",
    "-Infinity",
    "undefined",
    "01",
    "00",
    "-01",
    "1.",
    "1.e5",
    ".5",
    "-",
    "--1",
    "+1",
    "1e",
    "1e+",
    "1e-",
    "1ea",
    "1.5.5",
    "0x10",
    "1e400",
    "-1e400",
    "1e309",
    "1.7976931348623159e308",
    "1e2147483648",
    "123456789e2147483647",
    "1e99999999999999999999",
    "0.1e99999999999999999999",
    "-5e99999999999999999999",
    "[1e400]",
    "{\"a\":1e999}",
    "\"",
    "\"abc",
    "\"\\",
    "\"\\x\"",
    "\"\\U0041\"",
    "\"\\u\"",
    "\"\\u12\"",
    "\"\\u12",
    "\"\\u123",
    "\"\\uZZZZ\"",
    "\"\\u00G0\"",
    "\"\\ud800\"",
    "\"\\ud800",
    "\"\\ud800\\",
    "\"\\ud800\\u",
    "\"\\ud800\\u00",
    "\"\\ud800x\"",
    "\"\\ud800\\n\"",
    "\"\\ud800\\u0041\"",
    "\"\\ud800\\ud800\"",
    "\"\\udc00\"",
    "\"\\uDFFF\"",
    "\"a\u{0}b\"",
    "\"a\u{1}\"",
    "\"a\nb\"",
    "\"a\tb\"",
    "\"\u{1f}\"",
    "[",
    "[1",
    "[1,",
    "[1,]",
    "[,1]",
    "[,]",
    "[1 2]",
    "[1;2]",
    "[1,,2]",
    "]",
    "[}",
    "{",
    "{\"a\"",
    "{\"a\":",
    "{\"a\":1",
    "{\"a\":1,",
    "{\"a\":1,}",
    "{,}",
    "{1:2}",
    "{a:1}",
    "{'a':1}",
    "{\"a\" 1}",
    "{\"a\"::1}",
    "{\"a\":1 \"b\":2}",
    "{\"a\":1;\"b\":2}",
    "{\"a\":1}}",
    "}",
    "{]",
    "1 2",
    "1 x",
    "[] []",
    "{}x",
    "\"a\"\"b\"",
    "null null",
    "1/",
    "[1] // comment",
    "/* c */ 1",
    "[1,/*x*/2]",
    "\u{feff}1",
    "\u{a0}1",
    "1\u{a0}",
    "\u{b}1",
    "\u{c}1",
    "[\"a\",\n\"b\",\n]",
    "{\n  \"a\": 1,\n  \"b\": 2,\n}",
    "{\n  \"a\": [1,\n    2,,\n  ]\n}",
    "\n\n  [1,\n  ]",
    "[\"é\" x]",
    "[\"😀\",\n \"中\" !]",
    "\"\\😀\"",
    "\"\\u😀😀\"",
];

#[test]
fn corpus_agrees_with_serde_json() {
    for text in VALID {
        assert!(check(text), "expected {text:?} to be valid");
    }
    for text in INVALID {
        assert!(!check(text), "expected {text:?} to be invalid");
    }
}

#[test]
fn nesting_limit_matches_serde_json() {
    assert_eq!(MAX_DEPTH, 128);
    for depth in [1, 2, 126, 127, 128, 129, 200] {
        for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
            let text = format!("{}1{}", open.repeat(depth), close.repeat(depth));
            let accepted = check(&text);
            assert_eq!(accepted, depth < MAX_DEPTH, "depth {depth}");
            let empty = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(check(&empty), depth < MAX_DEPTH, "depth {depth}");
        }
    }
    // Mixed, with whitespace.
    let text = format!("{}0{}", "[ {\"a\" :\n".repeat(64), "}\n]".repeat(64));
    assert!(!check(&text));
    let text = format!("{}0{}", "[ {\"a\" :\n".repeat(63), "}\n]".repeat(63));
    assert!(check(&text));
}

#[test]
fn hostile_nesting_is_a_clean_error() {
    let text = "[".repeat(100_000);
    let error = parse(&text).unwrap_err();
    assert_eq!(error.message, "recursion limit exceeded");
    assert_eq!((error.line, error.column), (1, 128));
    let text = "{\"a\":".repeat(100_000);
    let error = parse(&text).unwrap_err();
    assert_eq!(error.message, "recursion limit exceeded");
    check(&text);
    // Deep but within the limit, then dropped and converted: no recursion trouble.
    let text = format!("{}{}", "[".repeat(127), "]".repeat(127));
    let tape = parse(&text).unwrap();
    assert_eq!(tape.to_value(), serde_parse(&text).unwrap());
}

#[test]
fn error_display_matches_serde_json_and_never_quotes_input() {
    let text = "{\"secret-token-123\": [1, 2,, 3]}";
    let ours = parse(text).unwrap_err();
    let theirs = serde_parse(text).unwrap_err();
    assert_eq!(ours.to_string(), theirs.to_string());
    assert_eq!(ours.to_string(), "expected value at line 1 column 28");
    assert_eq!(
        ours,
        ParseError {
            message: "expected value".to_owned(),
            line: 1,
            column: 28
        }
    );
    for text in INVALID {
        let error = parse(text).unwrap_err();
        assert!(!error.message.contains('"') || error.message.contains("`\"`"));
        assert!(!error.message.contains("secret"));
    }
    let error = parse("\"secret\\q\"").unwrap_err();
    assert!(!error.to_string().contains("secret"));
}

// ---------------------------------------------------------------------------
// Parsing: generated corpus
// ---------------------------------------------------------------------------

const SAMPLES: &[&str] = &[
    "{\"type\":\"fact\",\"text\":\"Water boils at 100 \\u00b0C\",\"importance\":3,\"observedOn\":\"2024-05-17\"}",
    "[{\"a\":[1,2.5,-3e2,true,false,null]},{\"b\":{\"c\":\"\\ud83d\\ude00\\n\"}},[],{}]",
    "{\n  \"rows\": [\n    {\"id\": 1, \"tags\": [\"x\", \"y\"]},\n    {\"id\": -0.0, \"tags\": []}\n  ],\n  \"id\": 18446744073709551616\n}",
    "{\"k\":1,\"k\":{\"k\":[1,{\"k\":2,\"k\":3}]},\"\\u006b\":\"last\"}",
];

#[test]
fn truncations_and_mutations_agree_with_serde_json() {
    let mut checked = 0;
    for sample in SAMPLES {
        assert!(check(sample));
        // Every truncation.
        for end in 0..sample.len() {
            if let Some(prefix) = sample.get(..end) {
                check(prefix);
                checked += 1;
            }
        }
        // Every single-byte replacement, insertion and deletion.
        let replacements = [
            ",", "]", "}", "[", "{", "\"", "\\", ":", "x", " ", "\n", "\u{1}", "0", "-", ".", "e",
            "u", "é",
        ];
        for (at, _) in sample.char_indices() {
            let (head, tail) = sample.split_at(at);
            let mut rest = tail.chars();
            rest.next();
            let rest = rest.as_str();
            for replacement in replacements {
                check(&format!("{head}{replacement}{rest}"));
                check(&format!("{head}{replacement}{tail}"));
                checked += 2;
            }
            check(&format!("{head}{rest}"));
            checked += 1;
        }
        // Trailing garbage and surrounding whitespace.
        for suffix in ["", " ", "\n", " x", ",", "]", "}", "1", "\u{0}"] {
            check(&format!("{sample}{suffix}"));
            check(&format!(" \r\n\t{sample}{suffix}"));
            checked += 2;
        }
    }
    assert!(checked > 3_000, "{checked}");
}

fn random_number_literal(rng: &mut Rng) -> String {
    let mut text = String::new();
    if rng.chance(40) {
        text.push('-');
    }
    let digits = if rng.chance(5) {
        300 + rng.below(30)
    } else {
        1 + rng.below(25)
    };
    if rng.chance(20) {
        text.push('0');
    } else {
        text.push(char::from(b'1' + rng.below(9) as u8));
        for _ in 1..digits {
            text.push(char::from(b'0' + rng.below(10) as u8));
        }
    }
    if rng.chance(40) {
        text.push('.');
        for _ in 0..1 + rng.below(25) {
            text.push(char::from(b'0' + rng.below(10) as u8));
        }
    }
    if rng.chance(40) {
        text.push(*rng.pick(&['e', 'E']));
        match rng.below(3) {
            0 => text.push('+'),
            1 => text.push('-'),
            _ => {}
        }
        let exponent = match rng.below(4) {
            0 => rng.below(10),
            1 => rng.below(400),
            2 => 280 + rng.below(60),
            _ => rng.next() >> rng.below(64),
        };
        text.push_str(&exponent.to_string());
    }
    text
}

#[test]
fn numbers_agree_with_serde_json() {
    let mut rng = Rng(7);
    let mut literals: Vec<String> = VALID
        .iter()
        .filter(|text| text.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']))
        .map(|text| (*text).to_owned())
        .collect();
    for _ in 0..3_000 {
        literals.push(random_number_literal(&mut rng));
    }
    for _ in 0..1_000 {
        let bits = f64::from_bits(rng.next());
        if bits.is_finite() {
            literals.push(serde_json::to_string(&bits).unwrap());
            literals.push(format!("{bits:e}"));
        }
        literals.push(rng.next().to_string());
        literals.push((rng.next() as i64).to_string());
    }
    for boundary in [
        u64::MAX as i128,
        u64::MAX as i128 + 1,
        i64::MIN as i128,
        i64::MIN as i128 - 1,
        i64::MAX as i128,
        i64::MAX as i128 + 1,
        (1_i128 << 53) + 1,
        -(1_i128 << 63) - 1,
    ] {
        literals.push(boundary.to_string());
        literals.push(format!("{boundary}.0"));
        literals.push(format!("{boundary}e0"));
    }
    let mut accepted = 0;
    for literal in &literals {
        if check(literal) {
            accepted += 1;
            let tape = parse(literal).unwrap();
            let value: Value = serde_parse(literal).unwrap();
            assert_same_number(
                &tape.root().as_number().unwrap(),
                value.as_number().unwrap(),
                literal,
            );
        }
        check(&format!("[{literal},{literal}]"));
    }
    assert!(accepted > 5_000, "{accepted}");
    assert!(
        accepted < literals.len(),
        "some literals must be out of range"
    );
}

// ---------------------------------------------------------------------------
// Round trips of random values
// ---------------------------------------------------------------------------

fn random_string(rng: &mut Rng) -> String {
    const CHARS: &[char] = &[
        'a',
        'b',
        'z',
        ' ',
        '"',
        '\\',
        '/',
        '\n',
        '\r',
        '\t',
        '\u{0}',
        '\u{1f}',
        '\u{7f}',
        'é',
        'ß',
        '中',
        '😀',
        '\u{2028}',
        '\u{ffff}',
        '\u{10ffff}',
        '\u{fffd}',
    ];
    let len = match rng.below(10) {
        0 => 0,
        1 => 40 + rng.below(40),
        _ => 1 + rng.below(8),
    };
    (0..len).map(|_| *rng.pick(CHARS)).collect()
}

fn random_number(rng: &mut Rng) -> Value {
    match rng.below(5) {
        0 => json!(rng.next()),
        1 => json!(rng.next() as i64),
        2 => json!(rng.below(100)),
        3 => {
            let value = f64::from_bits(rng.next());
            if value.is_finite() {
                json!(value)
            } else {
                json!(-0.0)
            }
        }
        _ => json!((rng.below(2_000) as f64 - 1_000.0) / 8.0),
    }
}

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    let leaf = depth == 0 || rng.chance(40);
    match rng.below(if leaf { 4 } else { 6 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => random_number(rng),
        3 => Value::String(random_string(rng)),
        4 => Value::Array(
            (0..rng.below(6))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(6) {
                let key = if rng.chance(30) {
                    (*rng.pick(&["a", "b", "é", "\"", ""])).to_owned()
                } else {
                    random_string(rng)
                };
                map.insert(key, random_value(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

#[test]
fn random_values_round_trip() {
    let mut rng = Rng(2024);
    for case in 0..600 {
        let value = random_value(&mut rng, 5);
        for text in [
            serde_json::to_string(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap(),
        ] {
            let tape = parse(&text).unwrap_or_else(|e| panic!("case {case}: {e} in {text}"));
            assert_same_value(&tape.to_value(), &js_view(value.clone()), &text);
            assert!(check(&text));
        }
    }
}

#[test]
fn random_documents_with_random_damage() {
    let mut rng = Rng(99);
    let mut rejected = 0;
    for _ in 0..600 {
        let value = random_value(&mut rng, 4);
        let mut text = serde_json::to_string(&value).unwrap();
        for _ in 0..1 + rng.below(2) {
            let boundaries: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            let at = *rng.pick(&boundaries);
            let insert = *rng.pick(&[
                ",", "]", "}", "\"", "\\", ":", "1", "-", "e", " ", "\u{1}", "\\u", "\\ud800", "é",
                "[", "{",
            ]);
            if rng.chance(50) {
                text.insert_str(at, insert);
            } else {
                text.truncate(at);
            }
        }
        if !check(&text) {
            rejected += 1;
        }
    }
    assert!(rejected > 300, "{rejected}");
}

// ---------------------------------------------------------------------------
// Tape shape and node contracts
// ---------------------------------------------------------------------------

#[test]
fn entries_are_small_and_one_per_value() {
    assert_eq!(ENTRY_SIZE, 12);
    let tape = parse("{\"a\": [1, \"x\", null], \"b\": {}}").unwrap();
    // object, key a, array, 1, "x", null, key b, object
    assert_eq!(tape.entry_count(), 8);
    assert_eq!(tape.source(), "{\"a\": [1, \"x\", null], \"b\": {}}");
}

#[test]
fn strings_borrow_unless_escaped() {
    let tape = parse("[\"plain\", \"esc\\u0061ped\", \"\\n\"]").unwrap();
    let items: Vec<Cow<'_, str>> = tape
        .root()
        .as_array()
        .unwrap()
        .elements()
        .map(|e| e.as_string().unwrap())
        .collect();
    assert!(matches!(items[0], Cow::Borrowed("plain")));
    assert!(matches!(&items[1], Cow::Owned(s) if s == "escaped"));
    assert!(matches!(&items[2], Cow::Owned(s) if s == "\n"));
}

#[test]
fn duplicate_keys_behave_like_serde_json() {
    let text = "{\"a\":1,\"b\":2,\"a\":3,\"c\":4,\"b\":5,\"\\u0061\":6}";
    let value: Value = serde_parse(text).unwrap();
    let tape = parse(text).unwrap();
    let object = tape.root().as_object().unwrap();
    assert_eq!(object.len(), 3);
    assert_eq!(value.as_object().unwrap().len(), 3);
    let members: Vec<(String, Value)> = object
        .members()
        .map(|(k, v)| (k.into_owned(), v.to_value().into_owned()))
        .collect();
    assert_eq!(
        members,
        vec![
            ("a".to_owned(), json!(6)),
            ("b".to_owned(), json!(5)),
            ("c".to_owned(), json!(4)),
        ]
    );
    assert_eq!(
        object.get(&"a".to_owned()).unwrap().to_value().as_ref(),
        &json!(6)
    );
    assert!(check(text));

    // Above the pairwise threshold, repeated names are found by sorting.
    let mut text = String::from("{");
    for round in 0..3 {
        for key in 0..30 {
            if round > 0 && key % 3 != 0 {
                continue;
            }
            text.push_str(&format!("\"k{key}\":{},", round * 100 + key));
        }
    }
    text.push_str("\"\\u006b0\":\"last\"}");
    assert!(check(&text));
    let tape = parse(&text).unwrap();
    let object = tape.root().as_object().unwrap();
    assert_eq!(object.len(), 30);
    assert_eq!(
        object.get(&"k0".to_owned()).unwrap().to_value().as_ref(),
        &json!("last")
    );
    assert_eq!(
        object.get(&"k3".to_owned()).unwrap().to_value().as_ref(),
        &json!(203)
    );
    assert_eq!(
        object.members().nth(1).unwrap().1.to_value().as_ref(),
        &json!(1)
    );
}

#[test]
fn large_objects_dedupe_by_sorting() {
    // 20,000 names, every seventh repeated later with another value.
    let mut text = String::from("{");
    for i in 0..20_000 {
        text.push_str(&format!("\"k{i}\":{i},"));
    }
    for i in (0..20_000).step_by(7) {
        text.push_str(&format!("\"k{i}\":\"again {i}\","));
    }
    text.push_str("\"\\u006b3\":null}");
    let tape = parse(&text).unwrap();
    let value: Value = serde_parse(&text).unwrap();
    assert_same_value(&tape.to_value(), &value, "large object");
    let map = value.as_object().unwrap();
    let object = tape.root().as_object().unwrap();
    assert_eq!(object.len(), map.len());
    let names: Vec<String> = object.members().map(|(k, _)| k.into_owned()).collect();
    assert_eq!(names, map.keys().cloned().collect::<Vec<_>>());
    for name in ["k0", "k1", "k3", "k7", "k19999", "k19998", "nope"] {
        assert_eq!(
            object
                .get(&name.to_owned())
                .map(|n| n.to_value().into_owned()),
            map.get(name).cloned(),
            "{name}"
        );
    }
    // Debug output carries sizes, never the text.
    let debug = format!("{tape:?}");
    assert!(
        debug.contains("entries") && !debug.contains("k1"),
        "{debug}"
    );
}

#[test]
fn conformance_contract() {
    // The checks of jsonschema-value's `conformance` module, which the crate
    // builds only under a feature this crate does not enable.
    let text = serde_json::to_string(&json!({
        "string": "héllo",
        "integer": 42,
        "float": 1.5,
        "boolean": true,
        "null": null,
        "array": [10, 20, 30],
        "duplicates": [1, {"a": 1}, {"a": 1}],
        "object": {"nested": "value"}
    }))
    .unwrap();
    let tape = parse(&text).unwrap();
    let root = tape.root();
    let members = root.as_object().unwrap();
    let member = |name: &str| members.get(&TapeJson::prepare_key(name)).unwrap();
    assert_eq!(members.len(), 8);
    assert!(members.get(&TapeJson::prepare_key("missing")).is_none());
    assert_eq!(member("string").string_length(), Some(5));
    assert_eq!(member("integer").string_length(), None);
    let integer = member("integer").as_number().unwrap();
    assert_eq!(
        (integer.as_u64(), integer.as_i64(), integer.as_f64()),
        (Some(42), Some(42), Some(42.0))
    );
    assert!(integer.is_integer());
    let float = member("float").as_number().unwrap();
    assert_eq!((float.as_u64(), float.as_i64()), (None, None));
    assert!(!float.is_integer());
    assert!(member("array").as_array().unwrap().is_unique());
    assert!(!member("duplicates").as_array().unwrap().is_unique());
    assert!(member("integer").equals_value(&json!(42.0)));
    assert!(!member("integer").equals_value(&json!(43)));
    assert!(!member("boolean").equals_value(&json!(1)));
    assert!(member("object").equals_value(&json!({"nested": "value"})));
    assert!(!member("object").equals_value(&json!({"nested": "other"})));
    assert!(!member("object").equals_value(&json!({"other": "value"})));
    let child = member("object");
    assert_ne!(root.identity(), child.identity());
    assert_eq!(member("object").identity(), child.identity());
    assert_eq!(root.container_identity(), root.identity());
    assert_eq!(member("integer").container_identity(), None);
    for expected in ["héllo", "", "second"] {
        TapeJson::with_string_node(&mut (), expected, |node| {
            assert_eq!(node.json_type(), JsonType::String);
            assert_eq!(node.as_string().as_deref(), Some(expected));
            assert_eq!(node.string_length(), Some(expected.chars().count() as u64));
            assert!(node.equals_value(&json!(expected)));
            assert!(!node.equals_value(&json!(1)));
            assert_eq!(node.to_value().as_ref(), &json!(expected));
            assert!(node.as_object().is_none() && node.as_array().is_none());
        });
    }
}

#[test]
fn identities_are_unique_within_a_tape() {
    let text = "[{\"a\":[1,2,{\"b\":null}],\"c\":\"x\"},[],[[]],\"y\",1.5,{\"a\":1,\"a\":2}]";
    let tape = parse(text).unwrap();
    let mut nodes = Vec::new();
    all_nodes(tape.root(), &mut nodes);
    let mut identities: Vec<_> = nodes.iter().map(|n| n.identity().unwrap()).collect();
    let count = identities.len();
    identities.sort_by_key(|identity| format!("{identity:?}"));
    identities.dedup();
    assert_eq!(identities.len(), count);
    // A second tape of the same text has other identities.
    let other = parse(text).unwrap();
    assert_ne!(tape.root().identity(), other.root().identity());
    // A string node differs from every tape node.
    TapeJson::with_string_node(&mut (), "x", |node| {
        assert!(!identities.contains(&node.identity().unwrap()));
    });
}

// ---------------------------------------------------------------------------
// The prefix view
// ---------------------------------------------------------------------------

#[test]
fn prefix_view_cuts_array_iteration_not_length() {
    let tape = parse("[0,1,2,3,4,5,6,7,8,9]").unwrap();
    let cut = RefCell::new(Vec::new());
    let root = TapeNode::prefix(&tape, 3, &cut);
    let array = root.as_array().unwrap();
    assert_eq!(array.len(), 10);
    assert!(cut.borrow().is_empty(), "len alone does not cut");
    let shown: Vec<u64> = array
        .elements()
        .map(|e| e.as_number().unwrap().as_u64().unwrap())
        .collect();
    assert_eq!(shown, [0, 1, 2]);
    assert_eq!(*cut.borrow(), [root.index()]);

    let cut = RefCell::new(Vec::new());
    let root = TapeNode::prefix(&tape, 10, &cut);
    assert_eq!(root.as_array().unwrap().elements().count(), 10);
    assert!(root.as_array().unwrap().is_unique());
    assert!(cut.borrow().is_empty());
    assert_eq!(tape.root().as_array().unwrap().elements().count(), 10);
}

#[test]
fn prefix_view_shows_objects_whole_and_checks_uniqueness_over_everything() {
    let text = "{\"a\":[1,2,3,1],\"b\":2,\"c\":3,\"d\":{\"x\":1,\"y\":2,\"z\":3,\"w\":4},\"b\":9}";
    let tape = parse(text).unwrap();
    let cut = RefCell::new(Vec::new());
    let root = TapeNode::prefix(&tape, 3, &cut);
    let object = root.as_object().unwrap();
    assert_eq!(object.len(), 4);
    let names: Vec<String> = object.members().map(|(k, _)| k.into_owned()).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    assert_eq!(
        object.get(&"b".to_owned()).unwrap().to_value().as_ref(),
        &json!(9)
    );
    let d = object.get(&"d".to_owned()).unwrap();
    let inner: Vec<String> = d
        .as_object()
        .unwrap()
        .members()
        .map(|(k, _)| k.into_owned())
        .collect();
    assert_eq!(inner, ["x", "y", "z", "w"]);
    assert!(cut.borrow().is_empty(), "objects are never cut");
    let a = object.get(&"a".to_owned()).unwrap();
    assert!(
        !a.as_array().unwrap().is_unique(),
        "the duplicate past the prefix counts"
    );
    assert!(cut.borrow().is_empty(), "is_unique does not cut");
    assert_eq!(a.as_array().unwrap().elements().count(), 3);
    assert_eq!(*cut.borrow(), [a.index()]);
}

// ---------------------------------------------------------------------------
// Validation: the tape against jsonschema's own serde_json::Value path
// ---------------------------------------------------------------------------

fn schemas() -> Vec<Value> {
    vec![
        json!({"type": "object", "properties": {
            "type": {"enum": ["fact", "opinion", "question"]},
            "text": {"type": "string", "minLength": 3, "maxLength": 20},
            "importance": {"type": "integer", "minimum": 1, "maximum": 5},
            "observedOn": {"type": "string", "format": "date"}},
            "required": ["type", "text", "importance"],
            "additionalProperties": false}),
        json!({"type": ["integer", "null"]}),
        json!({"type": "number"}),
        json!({"type": "integer"}),
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}),
        json!({"$schema": "http://json-schema.org/draft-04/schema#",
               "items": {"type": ["integer", "string"]}}),
        json!({"enum": [1, "a", null, [1, 2], {"a": 1}, true]}),
        json!({"enum": [1.0, -0.0, 18446744073709551615_u64, "é"]}),
        json!({"const": 1}),
        json!({"const": {"a": [1, 2.0], "b": "\n"}}),
        json!({"const": "é\u{1F600}"}),
        json!({"const": [1, 1.0]}),
        json!({"type": "array", "uniqueItems": true}),
        json!({"items": {"uniqueItems": true}}),
        json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
               "items": {"type": "boolean"}}),
        json!({"patternProperties": {"^x-": {"type": "string"}, "\\d+": {"type": "number"}},
               "additionalProperties": {"type": "null"}}),
        json!({"type": "string", "minLength": 2, "maxLength": 3}),
        json!({"minLength": 1, "maxLength": 1}),
        json!({"multipleOf": 0.1}),
        json!({"multipleOf": 3}),
        json!({"multipleOf": 1e-10}),
        json!({"items": {"multipleOf": 2}}),
        json!({"format": "date"}),
        json!({"format": "email"}),
        json!({"format": "uuid"}),
        json!({"format": "date-time"}),
        json!({"items": {"format": "ipv4"}}),
        json!({"$defs": {"node": {"type": "object", "properties": {
                  "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                  "v": {"type": "integer"}}, "required": ["v"]}},
               "$ref": "#/$defs/node"}),
        json!({"$defs": {"any": {"anyOf": [{"type": "integer"},
                  {"type": "array", "items": {"$ref": "#/$defs/any"}},
                  {"type": "object", "additionalProperties": {"$ref": "#/$defs/any"}}]}},
               "$ref": "#/$defs/any"}),
        json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "number"}]}),
        json!({"not": {"type": "null"}}),
        json!({"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
               "then": {"required": ["x"]}, "else": {"required": ["y"]}}),
        json!({"properties": {"a": {}}, "unevaluatedProperties": false,
               "allOf": [{"properties": {"b": {}}}]}),
        json!({"prefixItems": [{}], "unevaluatedItems": false}),
        json!({"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}}),
        json!({"propertyNames": {"enum": ["a", "b", "é"]}}),
        json!({"dependentRequired": {"a": ["b", "c"]}}),
        json!({"dependentSchemas": {"a": {"required": ["b"]}}}),
        json!({"minimum": 0, "exclusiveMaximum": 10}),
        json!({"maximum": 18446744073709551615_u64, "minimum": -9223372036854775808_i64}),
        json!({"required": ["a", "b", "c", "d", "e"]}),
        json!({"required": ["a", "b"]}),
        json!({"required": ["a", "b", "c"]}),
        json!({"required": ["a\"b", "é"]}),
        json!({"items": {"type": "object", "required": ["a", "b", "c", "d", "e"]}}),
        json!({"minItems": 2, "maxItems": 3, "contains": {"type": "string"}, "minContains": 1}),
        json!({"minProperties": 2, "maxProperties": 3}),
        json!({"properties": {"a": {"type": "string"}, "b": {"const": 2}}}),
        json!({"additionalProperties": {"type": "integer"}}),
        json!({"pattern": "^[a-zé]+$"}),
        json!(false),
        json!(true),
    ]
}

const INSTANCES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1",
    "1.0",
    "1e2",
    "1.5",
    "-7",
    "3",
    "6",
    "0.30000000000000004",
    "0.3",
    "1e-400",
    "1e-11",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1.5e19",
    "\"\"",
    "\"a\"",
    "\"ab\"",
    "\"é\"",
    "\"éé\"",
    "\"😀😀\"",
    "\"\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\"",
    "\"\\u00e9\"",
    "\"é\\ud83d\\ude00\"",
    "\"fact\"",
    "\"2024-02-29\"",
    "\"2023-02-29\"",
    "\"2024-13-01\"",
    "\"2024-05-17T10:00:00Z\"",
    "\"someone@example.com\"",
    "\"not an email\"",
    "\"123e4567-e89b-12d3-a456-426614174000\"",
    "\"123e4567-e89b-12d3-a456-42661417400\"",
    "[]",
    "[1]",
    "[1,1.0]",
    "[1,2]",
    "[1,2,3]",
    "[\"a\",\"a\"]",
    "[\"a\",\"\\u0061\"]",
    "[[1],[1.0]]",
    "[{\"a\":1},{\"a\":1.0}]",
    "[{\"a\":1,\"b\":2},{\"b\":2,\"a\":1}]",
    "[1,\"x\",true,false]",
    "[1,\"x\",3]",
    "[\"1.2.3.4\",\"256.1.1.1\"]",
    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,0.0]",
    "[2,4,6,7]",
    "{}",
    "{\"a\":1}",
    "{\"a\":1.0}",
    "{\"a\":\"x\",\"b\":2}",
    "{\"a\":[1,2.0],\"b\":\"\\n\"}",
    "{\"a\":[1,2],\"b\":\"\\n\"}",
    "{\"a\":1,\"a\":\"x\"}",
    "{\"\\u0061\":1,\"b\":2,\"c\":3}",
    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}",
    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10}",
    "{\"j\":1,\"i\":2,\"h\":3,\"g\":4,\"f\":5,\"e\":6,\"d\":7,\"c\":8,\"b\":9,\"a\":10}",
    "{\"a\\\"b\":1,\"é\":2}",
    "{\"a\\\"b\":1,\"\\u00e9\":2}",
    "{\"x-one\":\"s\",\"n1\":1,\"other\":null}",
    "{\"x-one\":1,\"n1\":\"s\",\"other\":0}",
    "{\"abcd\":1,\"A\":2}",
    "{\"kind\":\"a\",\"x\":1}",
    "{\"kind\":\"a\",\"y\":1}",
    "{\"kind\":\"b\",\"y\":1}",
    "{\"v\":1,\"children\":[{\"v\":2},{\"v\":\"3\"},{\"children\":[]}]}",
    "{\"v\":1,\"children\":[{\"v\":2,\"children\":[{\"v\":3}]}]}",
    "{\"type\":\"fact\",\"text\":\"Water boils\",\"importance\":3,\"observedOn\":\"2024-05-17\"}",
    "{\"type\":\"guess\",\"text\":\"x\",\"importance\":9.5,\"observedOn\":\"2024-02-30\",\"extra\":1}",
    "{\"type\":\"fact\",\"text\":\"ééé\",\"importance\":1.0}",
    "[{\"type\":\"fact\",\"text\":\"abc\",\"importance\":2},{\"type\":1,\"importance\":0}]",
    "[1,[2,[3,{\"a\":4,\"b\":[5,\"x\"]}]]]",
];

/// What an error says, without the instance value (tape errors carry none:
/// see `TapeNode::lazy_value`).
fn said(error: &jsonschema::ValidationError<'_>) -> String {
    match error.kind() {
        jsonschema::error::ValidationErrorKind::PropertyNames { error } => {
            format!("a property name: {}", said(error))
        }
        _ => error.masked().to_string(),
    }
}

fn error_keys<'i>(errors: impl Iterator<Item = jsonschema::ValidationError<'i>>) -> Vec<String> {
    let mut keys: Vec<String> = errors
        .map(|error| {
            format!(
                "{} | {} | {}",
                error.instance_path().as_str(),
                error.schema_path().as_str(),
                said(&error)
            )
        })
        .collect();
    keys.sort();
    keys
}

#[test]
fn validation_agrees_with_serde_json_value() {
    let mut invalid = 0;
    let mut compared = 0;
    for schema in schemas() {
        let plain = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap();
        let taped = jsonschema::options_for::<TapeJson>()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap();
        for text in INSTANCES {
            let value: Value = serde_parse(text).unwrap();
            let tape = parse(text).unwrap();
            let valid = plain.is_valid(&value);
            assert_eq!(
                taped.is_valid(tape.root()),
                valid,
                "is_valid of {text} against {schema}"
            );
            assert_eq!(taped.validate(tape.root()).is_ok(), valid);
            let expected = error_keys(plain.iter_errors(&value));
            let actual = error_keys(taped.iter_errors(tape.root()));
            assert_eq!(actual, expected, "errors of {text} against {schema}");
            invalid += usize::from(!valid);
            compared += 1;
        }
    }
    assert!(invalid > compared / 4, "{invalid} of {compared}");
    assert!(invalid < compared * 3 / 4, "{invalid} of {compared}");
}

#[test]
fn prefix_required_errors_are_errors_of_the_whole() {
    // Ten members, the required ones last: a members pass cut at three would
    // miss them. Lookups must decide `required`, cut or not.
    let schema = json!({"items": {"required": ["h", "i", "j", "a", "b"]}});
    let validator = jsonschema::options_for::<TapeJson>()
        .build(&schema)
        .unwrap();
    let text =
        "[{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10}]";
    let tape = parse(text).unwrap();
    for limit in [1, 3, 5] {
        let cut = RefCell::new(Vec::new());
        let errors: Vec<_> = validator
            .iter_errors(TapeNode::prefix(&tape, limit, &cut))
            .collect();
        assert!(errors.is_empty(), "limit {limit}: {errors:?}");
        let cut = RefCell::new(Vec::new());
        assert!(validator.is_valid(TapeNode::prefix(&tape, limit, &cut)));
    }
}

// ---------------------------------------------------------------------------
// Speed (run with `cargo test --release speed -- --ignored --nocapture`)
// ---------------------------------------------------------------------------

pub(super) fn speed_document(rows: usize) -> String {
    let kinds = ["fact", "opinion", "question"];
    let mut text = String::from("[\n");
    for row in 0..rows {
        if row > 0 {
            text.push_str(",\n");
        }
        text.push_str(&format!(
            "  {{\"type\": \"{}\", \"text\": \"Row {row}: quarterly figures rose\", \"importance\": {}, \"observedOn\": \"2024-{:02}-{:02}\"}}",
            kinds[row % 3],
            1 + row % 5,
            1 + row % 12,
            1 + row % 28
        ));
    }
    text.push_str("\n]\n");
    text
}

pub(super) fn speed_schema() -> Value {
    json!({"type": "array", "items": {"type": "object", "properties": {
        "type": {"enum": ["fact", "opinion", "question"]},
        "text": {"type": "string", "minLength": 1, "maxLength": 500},
        "importance": {"type": "integer", "minimum": 1, "maximum": 5},
        "observedOn": {"type": "string", "format": "date"}},
        "required": ["type", "text", "importance", "observedOn"],
        "additionalProperties": false}})
}

#[test]
#[ignore = "timing; run in release with --ignored --nocapture"]
fn speed() {
    use std::time::{Duration, Instant};
    // Best of 15 batches: the least disturbed on a shared machine.
    fn best(mut f: impl FnMut()) -> Duration {
        f();
        (0..15)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..20 {
                    f();
                }
                start.elapsed() / 20
            })
            .min()
            .unwrap()
    }
    let text = speed_document(2_000);
    let schema = speed_schema();
    let plain = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let taped = jsonschema::options_for::<TapeJson>()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let serde_time = best(|| {
        let value: Value = serde_parse(&text).unwrap();
        assert!(plain.is_valid(&value));
    });
    let tape_time = best(|| {
        let tape = parse(&text).unwrap();
        assert!(taped.is_valid(tape.root()));
    });
    println!(
        "{} bytes, 2,000 rows: serde_json parse+is_valid {serde_time:?}, tape parse+is_valid {tape_time:?} ({:.1}x)",
        text.len(),
        serde_time.as_secs_f64() / tape_time.as_secs_f64()
    );
}

#[test]
fn speed_document_is_valid_both_ways() {
    let text = speed_document(50);
    let schema = speed_schema();
    let plain = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let taped = jsonschema::options_for::<TapeJson>()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let value: Value = serde_parse(&text).unwrap();
    let tape: Tape<'_> = parse(&text).unwrap();
    assert!(plain.is_valid(&value));
    assert!(taped.is_valid(tape.root()));
    let broken = text.replacen("\"importance\": 2", "\"importance\": 7", 3);
    let tape = parse(&broken).unwrap();
    assert!(!taped.is_valid(tape.root()));
    assert_eq!(taped.iter_errors(tape.root()).count(), 3);
}

/// The parser keeps its buffers from one parse to the next (and a dropped
/// tape hands its entries back): nothing of an earlier document, a failed
/// parse or a tape still alive may show through in a later one.
#[test]
fn reused_buffers_leave_nothing_behind() {
    let rows: Vec<String> = (0..3000)
        .map(|i| format!(r#"{{"k{i}":{i},"name":"r{i}","k{i}":"last"}}"#))
        .collect();
    let big = format!("[{}]", rows.join(","));
    let small = r#"{"a":1,"b":{"a":2,"a":3},"c":[true,null]}"#;
    let texts = [
        big.as_str(),
        small,
        r#"{"a":1,"b":[1,2"#,
        small,
        "[]",
        big.as_str(),
        r#"{"x":"\u00e9","x":"é"}"#,
        small,
    ];
    for text in texts {
        check(text);
    }
    // A tape alive while others are parsed and dropped keeps its own entries.
    let held = parse(small).unwrap_or_else(|e| unreachable!("{e}"));
    let before = held.to_value();
    for text in texts {
        check(text);
    }
    assert_eq!(held.to_value(), before);
    let expected = serde_parse(small).unwrap_or_else(|e| unreachable!("{e}"));
    assert_same_value(&held.to_value(), &expected, small);
}

/// A tape larger than the spare limit is freed rather than kept, and one
/// within it is kept for the next parse.
#[test]
fn only_moderate_buffers_are_kept() {
    let huge = format!("[{}]", vec!["0"; 100_000].join(","));
    drop(parse(&huge));
    assert!(super::parse::spare_capacity() <= super::parse::SPARE_ENTRIES);
    let moderate = format!("[{}]", vec!["0"; 1_000].join(","));
    drop(parse(&moderate));
    assert!(super::parse::spare_capacity() >= 1_001);
}

/// Repeated names are found whatever part of the name differs: the first
/// eight bytes, a later byte, the length, or only the spelling of an escape.
#[test]
fn repeated_names_are_found_by_content() {
    let texts = [
        r#"{"abcdefghX":1,"abcdefghY":2,"abcdefghX":3}"#,
        r#"{"abcdefgh":1,"abcdefghi":2,"abcdefgh":3,"abcdefghi":4}"#,
        r#"{"abc":1,"abd":2,"ab":3,"abc":4,"":5,"":6}"#,
        r#"{"a":1,"\u0061":2,"b\n":3,"b\u000a":4,"\"q":5,"\u0022q":6}"#,
        r#"{"ключ":1,"ключ":2,"\u043a\u043b\u044e\u0447":3,"ключи":4}"#,
        r#"{"abcdefgh\u0069":1,"abcdefghi":2}"#,
        r#"{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,
            "k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k3":"last"}"#,
        r#"{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,
            "k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"\u006b3":"last"}"#,
    ];
    for text in texts {
        assert!(check(text), "{text} should parse");
    }
}

/// Different names whose hash (see `hash_apart` in parse.rs) is the same
/// are still told apart, and repeated names among them still found: the
/// hash only settles that names differ, never that they are the same.
#[test]
fn names_sharing_a_hash_are_compared_whole() {
    // Names found to share a hash: the set has 256 places, so among a
    // few hundred short names some always do.
    let names: Vec<String> = (0..600).map(|i| format!("n{i}")).collect();
    let hash = |name: &str| {
        let len = u32::try_from(name.len()).unwrap();
        super::parse::name_hash(super::parse::prefix_at(name.as_bytes(), 0, name.len()), len)
    };
    let mut pairs = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in names.iter().skip(i + 1) {
            if hash(a) == hash(b) && pairs.len() < 40 {
                pairs.push((a.clone(), b.clone()));
            }
        }
    }
    assert!(pairs.len() >= 40, "only {} pairs share a hash", pairs.len());
    for (a, b) in &pairs {
        // Apart: both members kept.
        let text = format!(r#"{{"{a}":1,"x":2,"{b}":3}}"#);
        assert!(check(&text), "{text}");
        assert_eq!(
            parse(&text).unwrap().to_value(),
            json!({ a.as_str(): 1, "x": 2, b.as_str(): 3 })
        );
        // Repeated beside them: still found.
        let text = format!(r#"{{"{a}":1,"{b}":2,"{a}":3}}"#);
        assert!(check(&text), "{text}");
        assert_eq!(
            parse(&text).unwrap().to_value(),
            json!({ a.as_str(): 3, b.as_str(): 2 })
        );
    }
}

#[test]
fn hex_digits_read_in_either_case_and_nothing_else() {
    assert_eq!(super::hex_value(b'0'), Some(0));
    assert_eq!(super::hex_value(b'9'), Some(9));
    assert_eq!(super::hex_value(b'a'), Some(10));
    assert_eq!(super::hex_value(b'F'), Some(15));
    assert_eq!(super::hex_value(b'g'), None);
    assert_eq!(super::hex_value(b' '), None);
    // Both parsers read an escape's digits through it.
    let tape = parse(r#""\u00e9\u00C9""#).unwrap();
    assert_eq!(tape.to_value(), json!("éÉ"));
}
