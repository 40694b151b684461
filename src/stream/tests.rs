//! The stream check against the whole-text check, on generated responses
//! cut every way: `end` gives exactly the whole text's verdict, and a
//! rejection comes only for a text that fails, and would fail the same way
//! however it went on.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use super::*;
use crate::dialect::compile;
use crate::verdict::check_content;
use hot_path::schema::CompileOptions;
use serde_json::json;

/// xorshift64*, so that a failure reproduces from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

// ---- schemas ----------------------------------------------------------------

fn rows_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["observations"],
        "properties": {
            "summary": {"type": "string", "maxLength": 30},
            "status": {"enum": ["draft", "final", null]},
            "observations": {
                "type": "array",
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["type", "text", "importance"],
                    "properties": {
                        "type": {"enum": ["fact", "decision", "question", "risk"]},
                        "text": {"type": "string", "minLength": 1, "maxLength": 24},
                        "importance": {"type": "integer", "minimum": 1, "maximum": 5},
                        "observedOn": {"type": "string", "format": "date"},
                        "tags": {"type": "array", "items": {"type": "string", "maxLength": 6}}
                    }
                }
            }
        }
    })
}

/// `rows_schema` without `maxItems`, whose count is watched item by item:
/// its items are read through one after another (see `Watch::items_alike`).
fn unbounded_rows_schema() -> Value {
    let mut schema = rows_schema();
    schema["properties"]["observations"]
        .as_object_mut()
        .unwrap()
        .remove("maxItems");
    schema
}

fn refs_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["id", "contacts"],
        "properties": {
            "id": {"$ref": "#/$defs/id"},
            "contacts": {"type": "array", "maxItems": 3, "items": {"$ref": "#/$defs/contact"}}
        },
        "$defs": {
            "id": {"type": "string", "pattern": "^D-[0-9]{3}$"},
            "contact": {
                "type": "object",
                "additionalProperties": false,
                "required": ["name", "channel"],
                "properties": {
                    "name": {"type": "string", "maxLength": 12},
                    "channel": {"oneOf": [
                        {"type": "object", "required": ["email"], "properties": {"kind": {"const": "email"}, "email": {"type": "string", "format": "email"}}},
                        {"type": "object", "required": ["phone"], "properties": {"kind": {"const": "phone"}, "phone": {"type": "string"}}}
                    ]}
                }
            }
        }
    })
}

fn mixed_schema() -> Value {
    json!({
        "type": "object",
        "propertyNames": {"maxLength": 8},
        "patternProperties": {"^x-": {"type": "integer"}, "^n[0-9]$": false},
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"const": 1}], "items": false},
            "both": {"allOf": [{"$ref": "#/$defs/short"}, {"type": "string"}]},
            "kind": {"const": "alpha"},
            "choice": {"enum": ["yes", "no", 3]},
            "deep": {"type": "object", "properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/short"}}, "n": {"type": "integer"}}},
            "when": {"if": {"type": "string"}, "then": {"minLength": 3}}
        },
        "additionalProperties": {"type": ["string", "integer", "object", "array"]},
        "$defs": {"short": {"type": "string", "maxLength": 4}}
    })
}

/// Draft 7: a `$ref` hides its siblings, and tuple `items` has `additionalItems`.
fn draft7_schema() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {"loose": {"type": "object"}, "list": {"type": "array"}},
        "properties": {
            "hidden": {"$ref": "#/definitions/loose", "properties": {"x": {"type": "string"}}, "additionalProperties": false},
            "list": {"$ref": "#/definitions/list", "items": {"type": "string"}},
            "tuple": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}], "additionalItems": {"type": "boolean"}}
        }
    })
}

// ---- documents --------------------------------------------------------------

/// JSON text for `value`, with white space and escapes chosen at random.
fn write(value: &Value, rng: &mut Rng, out: &mut String) {
    let space = |rng: &mut Rng, out: &mut String| {
        if rng.chance(3) {
            out.push_str([" ", "\n", "\t", "  ", "\r\n "][rng.below(5)]);
        }
    };
    match value {
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                write_string(key, rng, out);
                space(rng, out);
                out.push(':');
                space(rng, out);
                write(item, rng, out);
                space(rng, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                write(item, rng, out);
                space(rng, out);
            }
            out.push(']');
        }
        Value::String(text) => write_string(text, rng, out),
        other => out.push_str(&other.to_string()),
    }
}

fn write_string(text: &str, rng: &mut Rng, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if rng.chance(6) => {
                let mut units = [0_u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            '/' if rng.chance(2) => out.push_str("\\/"),
            c => out.push(c),
        }
    }
    out.push('"');
}

const WORDS: [&str; 10] = [
    "ok",
    "é",
    "漢字",
    "😀",
    "a\"b",
    "back\\slash",
    "tab\there",
    "line\nbreak",
    "x",
    "plain",
];

fn words(rng: &mut Rng, most: usize) -> String {
    let mut text = String::new();
    for _ in 0..1 + rng.below(most) {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(WORDS[rng.below(WORDS.len())]);
    }
    text
}

fn row(rng: &mut Rng) -> Value {
    let kind = ["fact", "decision", "question", "risk"][rng.below(4)];
    let mut row = json!({
        "type": kind,
        "text": words(rng, 2),
        "importance": 1 + rng.below(5),
    });
    if rng.chance(3) {
        row["observedOn"] = json!(format!("2026-0{}-1{}", 1 + rng.below(9), rng.below(10)));
    }
    if rng.chance(3) {
        row["tags"] = json!(["a", "é😀", "x"][..rng.below(4)].to_vec());
    }
    row
}

/// A rows document, valid or with one fault a model makes.
fn rows_document(rng: &mut Rng) -> (Value, bool) {
    let mut doc = json!({"observations": (0..rng.below(4)).map(|_| row(rng)).collect::<Vec<_>>()});
    if rng.chance(2) {
        doc["summary"] = json!(words(rng, 3).chars().take(30).collect::<String>());
    }
    if rng.chance(3) {
        doc["status"] = json!(["draft", "final"][rng.below(2)]);
    }
    let rows = doc["observations"].as_array().unwrap().len();
    let fault = if rng.chance(2) { 99 } else { rng.below(12) };
    let at = if rows > 0 { rng.below(rows) } else { 0 };
    let valid = match fault {
        0 if rows > 0 => {
            doc["observations"][at]["type"] =
                json!(["observation", "facts", "fac", ""][rng.below(4)]);
            false
        }
        1 if rows > 0 => {
            doc["observations"][at]["importance"] = json!([0, 6, -1][rng.below(3)]);
            false
        }
        2 if rows > 0 => {
            doc["observations"][at]["importance"] = json!("3");
            false
        }
        3 if rows > 0 => {
            doc["observations"][at]
                .as_object_mut()
                .unwrap()
                .remove("type");
            false
        }
        4 if rows > 0 => {
            doc["observations"][at]["confidence"] = json!(0.5);
            false
        }
        5 if rows > 0 => {
            doc["observations"][at]["text"] =
                json!("a much longer text than the schema allows here");
            false
        }
        6 if rows > 0 => {
            doc["observations"][at]["observedOn"] = json!("2026-02-30");
            false
        }
        7 => {
            let extra: Vec<Value> = (0..5).map(|_| row(rng)).collect();
            doc["observations"].as_array_mut().unwrap().extend(extra);
            false
        }
        8 => {
            doc["summary"] = json!("a summary that goes on for longer than thirty characters");
            false
        }
        9 => {
            doc["status"] = [json!("drafts"), json!("Final"), json!(3)][rng.below(3)].clone();
            false
        }
        10 => {
            doc["extra"] = json!(true);
            false
        }
        11 if rows > 0 => {
            doc["observations"][at]["tags"] = json!(["toolongtag"]);
            false
        }
        _ => true,
    };
    (doc, valid)
}

fn refs_document(rng: &mut Rng) -> (Value, bool) {
    let contact = |rng: &mut Rng| {
        if rng.chance(2) {
            json!({"name": words(rng, 1).chars().take(12).collect::<String>(), "channel": {"kind": "email", "email": "a.b@example.org"}})
        } else {
            json!({"name": "Ana", "channel": {"kind": "phone", "phone": "+49 30 1234567"}})
        }
    };
    let mut doc = json!({"id": "D-123", "contacts": (0..rng.below(3)).map(|_| contact(rng)).collect::<Vec<_>>()});
    let n = doc["contacts"].as_array().unwrap().len();
    let valid = match rng.below(10) {
        0 => {
            doc["id"] = json!("D-12");
            false
        }
        1 if n > 0 => {
            doc["contacts"][0]["channel"] = json!({"kind": "fax"});
            false
        }
        2 if n > 0 => {
            doc["contacts"][n - 1]["name"] = json!("a name that is too long");
            false
        }
        3 => {
            let more: Vec<Value> = (0..4).map(|_| contact(rng)).collect();
            doc["contacts"].as_array_mut().unwrap().extend(more);
            false
        }
        4 if n > 0 => {
            doc["contacts"][0]["role"] = json!("lead");
            false
        }
        _ => true,
    };
    (doc, valid)
}

fn mixed_document(rng: &mut Rng) -> (Value, bool) {
    let mut doc = json!({"kind": "alpha", "pair": ["s", 1], "both": "ab", "x-count": 3, "deep": {"list": ["a", "bb"]}, "when": "long"});
    if rng.chance(2) {
        doc["choice"] = [json!("yes"), json!("no"), json!(3)][rng.below(3)].clone();
    }
    if rng.chance(2) {
        doc["other"] = json!({"free": [1, {"n1": true}]});
    }
    if rng.chance(2) {
        doc["deep"]["n"] = json!(7);
    }
    let valid = match rng.below(21) {
        20 => {
            // Beside an array whose items were checked, a member that was not.
            doc["deep"]["n"] = json!("seven");
            false
        }
        0 => {
            doc["kind"] =
                [json!("alph"), json!("alphabet"), json!("beta"), json!(1)][rng.below(4)].clone();
            false
        }
        1 => {
            doc["pair"] = json!(["s", 1, "third"]);
            false
        }
        2 => {
            doc["pair"] = json!(["s", 2]);
            false
        }
        3 => {
            doc["both"] = json!("longer");
            false
        }
        4 => {
            doc["x-count"] = json!("three");
            false
        }
        5 => {
            doc["n1"] = json!(1);
            false
        }
        6 => {
            doc["a-very-long-name"] = json!(1);
            false
        }
        7 => {
            doc["choice"] = [json!("ye"), json!("maybe"), json!(4)][rng.below(3)].clone();
            false
        }
        8 => {
            doc["deep"]["list"] = json!(["toolong"]);
            false
        }
        9 => {
            doc["when"] = json!("ab");
            false
        }
        10 => {
            doc["other"] = json!(true);
            false
        }
        _ => true,
    };
    (doc, valid)
}

fn draft7_document(rng: &mut Rng) -> (Value, bool) {
    // `hidden.x` may be anything: its sibling `properties` is ignored.
    // `list`'s items may be anything: its sibling `items` is ignored too.
    let mut doc = json!({"hidden": {"x": 1, "y": [true]}, "list": [1, {"a": 2}], "tuple": [1, "s", true, false]});
    let valid = match rng.below(4) {
        0 => {
            doc["tuple"] = json!([1, "s", "not a boolean"]);
            false
        }
        1 => {
            doc["hidden"] = json!("not an object");
            false
        }
        _ => true,
    };
    (doc, valid)
}

/// How a response goes wrong around, or inside, its JSON.
fn frame(json: &str, rng: &mut Rng) -> (String, bool) {
    let fence = ["```json\n", "```\n", "~~~~ js\n", "  ```JSON  \r\n"][rng.below(4)];
    let close = |fence: &str| {
        if fence.contains('~') {
            "\n~~~~"
        } else {
            "\n```"
        }
    };
    // Half the time the JSON alone, as most responses are.
    match rng.below(24) {
        0 => (format!("{fence}{json}{}", close(fence)), true),
        1 => (format!(" \n\u{a0}{json}\u{3000}\n "), true),
        2 => (format!("Here it is:\n{json}"), false),
        3 => (format!("{json} trailing"), false),
        4 => (format!("{fence}{json}{}\nmore", close(fence)), false),
        5 => (format!("{fence}{json}"), false),
        6 => (format!("{fence}{json} ``"), false),
        7 => (format!("[{json}]"), false),
        8 => {
            // Garbage somewhere inside.
            let mut at = rng.below(json.len() + 1);
            while !json.is_char_boundary(at) {
                at -= 1;
            }
            let noise = [",", "}", "]", "\"", "x", ":", "\\q", "\u{1}", "tru"][rng.below(9)];
            (format!("{}{noise}{}", &json[..at], &json[at..]), false)
        }
        9 => {
            // Cut short.
            let mut at = rng.below(json.len());
            while !json.is_char_boundary(at) {
                at -= 1;
            }
            (json[..at].to_owned(), false)
        }
        10 => ("\"just a string\"".to_owned(), false),
        11 => (
            format!("{fence}{json}{}\n\n", close(fence).replace("```", "``````")),
            true,
        ),
        _ => (json.to_owned(), true),
    }
}

/// Completes a prefix as simply as possible: open strings, literals and
/// numbers finished, missing values `null`, containers closed (a name
/// being written becomes one no object here has), a fence closed. `None`
/// when the prefix cannot be completed into JSON.
fn complete(prefix: &str) -> Option<String> {
    #[derive(PartialEq, Clone, Copy)]
    enum E {
        Value,
        ValueOrClose,
        NameOrClose,
        Name,
        Colon,
        Next,
        Done,
    }
    let lead = prefix.len() - prefix.trim_start().len();
    let rest = &prefix[lead..];
    let mut body_from = lead;
    let mut closing = String::new();
    if let Some(marker) = rest.chars().next().filter(|c| *c == '`' || *c == '~') {
        let run = rest.chars().take_while(|c| *c == marker).count();
        let newline = rest.find('\n')?;
        body_from = lead + newline + 1;
        closing = format!("\n{}", marker.to_string().repeat(run));
    }
    let json = &prefix[body_from..];
    let mut out = prefix.to_owned();
    let mut stack: Vec<bool> = Vec::new();
    let mut expect = E::Value;
    let mut in_string = false;
    let mut key = false;
    let mut escape: Option<String> = None;
    let mut low_needed = false;
    let mut token = String::new();
    let done = |stack: &Vec<bool>| if stack.is_empty() { E::Done } else { E::Next };
    for c in json.chars() {
        if in_string {
            if let Some(e) = escape.as_mut() {
                e.push(c);
                let finished = (!e.starts_with('u') && e.len() == 1) || e.len() == 5;
                if finished {
                    if let Some(digits) = e.strip_prefix('u') {
                        let v = u32::from_str_radix(digits, 16).ok()?;
                        low_needed = (0xD800..0xDC00).contains(&v);
                    }
                    escape = None;
                }
                continue;
            }
            if low_needed && c != '\\' {
                return None;
            }
            match c {
                '\\' => escape = Some(String::new()),
                '"' => {
                    in_string = false;
                    expect = if key { E::Colon } else { done(&stack) };
                }
                _ => {}
            }
            continue;
        }
        if !token.is_empty() {
            if c.is_ascii_alphanumeric() || "+-.".contains(c) {
                token.push(c);
                continue;
            }
            token.clear();
            expect = done(&stack);
        }
        if matches!(c, ' ' | '\n' | '\t' | '\r') || (expect == E::Done && c.is_whitespace()) {
            continue;
        }
        match (expect, c) {
            (E::Value | E::ValueOrClose, '{') => {
                stack.push(true);
                expect = E::NameOrClose;
            }
            (E::Value | E::ValueOrClose, '[') => {
                stack.push(false);
                expect = E::ValueOrClose;
            }
            (E::Value | E::ValueOrClose, '"') => {
                in_string = true;
                key = false;
            }
            (E::Value | E::ValueOrClose, c) if c.is_ascii_alphanumeric() || c == '-' => {
                token.push(c)
            }
            (E::ValueOrClose, ']') | (E::NameOrClose, '}') => {
                stack.pop();
                expect = done(&stack);
            }
            (E::NameOrClose | E::Name, '"') => {
                in_string = true;
                key = true;
            }
            (E::Colon, ':') => expect = E::Value,
            (E::Next, ',') => expect = if *stack.last()? { E::Name } else { E::Value },
            (E::Next, '}') if *stack.last()? => {
                stack.pop();
                expect = done(&stack);
            }
            (E::Next, ']') if !*stack.last()? => {
                stack.pop();
                expect = done(&stack);
            }
            // Already broken: any completion is.
            _ => return Some(prefix.to_owned()),
        }
    }
    if in_string {
        if let Some(e) = escape {
            if e.is_empty() {
                out.push('n');
            } else if let Some(digits) = e.strip_prefix('u') {
                let mut hex = digits.to_owned();
                while hex.len() < 4 {
                    hex.push('0');
                }
                let v = u32::from_str_radix(&hex, 16).ok()?;
                if (0xDC00..0xE000).contains(&v) && !low_needed {
                    return None;
                }
                out.push_str(&hex[digits.len()..]);
                if (0xD800..0xDC00).contains(&v) {
                    out.push_str("\\uDC00");
                }
            }
        } else if low_needed {
            out.push_str("\\uDC00");
        }
        if key {
            out.push_str("~done~\":null");
        } else {
            out.push('"');
        }
        expect = done(&stack);
    } else if !token.is_empty() {
        for word in ["true", "false", "null"] {
            if word.starts_with(token.as_str()) {
                out.push_str(&word[token.len()..]);
            }
        }
        let number = token.starts_with(|c: char| c == '-' || c.is_ascii_digit());
        if number && token.ends_with(['-', '+', '.', 'e', 'E']) {
            out.push('0');
        }
        expect = done(&stack);
    }
    match expect {
        E::Colon => out.push_str(":null"),
        E::Value if !stack.is_empty() => out.push_str("null"),
        E::Value => return None,
        E::Name => out.push_str("\"~done~\":null"),
        _ => {}
    }
    for object in stack.iter().rev() {
        out.push(if *object { '}' } else { ']' });
    }
    out.push_str(&closing);
    Some(out)
}

// ---- the comparison ---------------------------------------------------------

/// The text's bytes cut at `points`.
fn pieces<'a>(text: &'a str, points: &[usize]) -> Vec<&'a [u8]> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    for &point in points.iter().chain(std::iter::once(&bytes.len())) {
        if point >= from {
            out.push(&bytes[from..point]);
            from = point;
        }
    }
    out
}

struct Case<'a> {
    compiled: &'a Arc<CompiledSchema>,
    options: &'a CheckOptions,
    text: &'a str,
    label: &'a str,
    /// The whole-text verdict, with no finish reason.
    whole: Verdict,
    /// Completions already checked: prefix length → failure class.
    completed: std::cell::RefCell<std::collections::HashMap<usize, Option<Failure>>>,
}

/// Streams the case cut at `points`, items cut within `hold` bytes of the
/// end left for the next piece (see `StreamCheck::hold_items`); the first
/// rejection, if any.
fn stream(
    case: &Case<'_>,
    points: &[usize],
    finish: Option<&str>,
    hold: usize,
) -> Option<Rejection> {
    let input = SchemaInput::Compiled(Arc::clone(case.compiled));
    let mut check = StreamCheck::new(input.clone(), case.options.clone()).unwrap();
    check.hold_items(hold);
    let mut first: Option<Rejection> = None;
    for piece in pieces(case.text, points) {
        let now = check.push(piece).cloned();
        match (&first, now) {
            (None, now) => first = now,
            (Some(before), now) => assert_eq!(
                now.as_ref(),
                Some(before),
                "{}: the rejection changed",
                case.label
            ),
        }
    }
    assert!(
        !check.disagreed,
        "{}: the incremental parser and parse disagreed at {points:?}",
        case.label
    );
    assert_eq!(check.bytes(), case.text.len());
    let verdict = check.end(finish);
    let whole = match finish {
        None => case.whole.clone(),
        Some(_) => check_content(case.text, finish, input, case.options).unwrap(),
    };
    match &first {
        // After a rejection, the end is the rejection.
        Some(rejection) => assert_eq!(
            verdict,
            rejection.verdict(whole.schema_hash.clone(), false, finish),
            "{}: end is not the rejection, cut at {points:?}",
            case.label
        ),
        None => assert_eq!(
            verdict, whole,
            "{}: end differs from the whole-text check, cut at {points:?}",
            case.label
        ),
    }
    if let Some(rejection) = &first {
        let input = SchemaInput::Compiled(Arc::clone(case.compiled));
        assert!(
            !case.whole.ok(),
            "{}: rejected at byte {} ({rejection:?}), yet the text is accepted\n{:?}",
            case.label,
            rejection.at_byte,
            case.text
        );
        assert!(rejection.at_byte <= case.text.len());
        let prefix = &check.text()[..rejection.at_byte];
        let known = case.completed.borrow().get(&rejection.at_byte).copied();
        let completed = complete(prefix);
        let failure = known.or_else(|| {
            let completed = completed.as_ref()?;
            let failure = check_content(completed, None, input, case.options)
                .unwrap()
                .failure;
            case.completed
                .borrow_mut()
                .insert(rejection.at_byte, failure);
            Some(failure)
        });
        if let Some(failure) = failure {
            assert_eq!(
                failure,
                Some(rejection.failure),
                "{}: rejected at byte {} as {:?} ({}), but completed as {completed:?} it is {:?}",
                case.label,
                rejection.at_byte,
                rejection.failure,
                rejection.message,
                failure
            );
        }
    }
    first
}

fn cut_points(rng: &mut Rng, text: &str, every_byte_up_to: usize) -> Vec<Vec<usize>> {
    let n = text.len();
    let mut cuts: Vec<Vec<usize>> = vec![vec![], (1..n).collect()];
    if n <= every_byte_up_to {
        cuts.extend((1..n).map(|k| vec![k]));
    }
    for _ in 0..2 {
        let mut points = Vec::new();
        let mut at = 0;
        while at < n {
            at += 1 + rng.below(9);
            points.push(at.min(n));
        }
        cuts.push(points);
    }
    cuts
}

struct Stats {
    cases: usize,
    rejected: usize,
    valid: usize,
}

fn run_cases(
    schema: &Value,
    options: &CheckOptions,
    generate: fn(&mut Rng) -> (Value, bool),
    seed: u64,
    count: usize,
    stats: &mut Stats,
) {
    let compiled = compile(schema, &options.compile).unwrap();
    let mut rng = Rng(seed);
    for n in 0..count {
        let (value, valid_value) = generate(&mut rng);
        let mut json = String::new();
        write(&value, &mut rng, &mut json);
        let (text, valid_frame) = frame(&json, &mut rng);
        let expected_ok = valid_value && valid_frame;
        let label = format!("seed {seed:#x} case {n}");
        let whole = check_content(
            &text,
            None,
            SchemaInput::Compiled(Arc::clone(&compiled)),
            options,
        )
        .unwrap();
        let case = Case {
            compiled: &compiled,
            options,
            text: &text,
            label: &label,
            whole: whole.clone(),
            completed: Default::default(),
        };
        if expected_ok {
            assert!(
                whole.ok(),
                "{label}: the generator meant {text:?} to be valid: {whole:?}"
            );
            stats.valid += 1;
        }
        // Every cut point for some of the shorter texts.
        let every = if n % 6 == 0 { 240 } else { 0 };
        let mut rejections = Vec::new();
        for points in cut_points(&mut rng, &text, every) {
            rejections.push(stream(&case, &points, None, 0));
        }
        // Pieces of about `hold` bytes, as the facade's batches are, with
        // the items they cut left for the next piece.
        for _ in 0..2 {
            let hold = 8 + rng.below(120);
            let mut points = Vec::new();
            let mut at = 0;
            while at < text.len() {
                at += hold / 2 + rng.below(hold);
                points.push(at.min(text.len()));
            }
            rejections.push(stream(&case, &points, None, hold));
        }
        stream(&case, &[text.len() / 2], Some("length"), 0);
        stream(&case, &[text.len() / 3], Some("stop"), 64);
        if expected_ok {
            assert!(
                rejections.iter().all(Option::is_none),
                "{label}: a valid text was rejected: {rejections:?}"
            );
        }
        // Whole at once is the latest anything rejects.
        let latest = rejections[0].as_ref().map(|r| r.at_byte);
        for rejection in rejections.iter().flatten() {
            assert!(
                latest.is_some_and(|latest| rejection.at_byte <= latest),
                "{label}: {rejections:?}"
            );
        }
        stats.cases += 1;
        stats.rejected += usize::from(rejections[0].is_some());
    }
}

#[test]
fn end_is_the_whole_check_and_rejections_are_definite() {
    let mut stats = Stats {
        cases: 0,
        rejected: 0,
        valid: 0,
    };
    let defaults = CheckOptions::default();
    run_cases(
        &rows_schema(),
        &defaults,
        rows_document,
        0x005e_eda1,
        120,
        &mut stats,
    );
    run_cases(
        &refs_schema(),
        &defaults,
        refs_document,
        0x005e_edb2,
        60,
        &mut stats,
    );
    run_cases(
        &mixed_schema(),
        &defaults,
        mixed_document,
        0x005e_edc3,
        80,
        &mut stats,
    );
    run_cases(
        &draft7_schema(),
        &defaults,
        draft7_document,
        0x005e_edd4,
        30,
        &mut stats,
    );
    let few_errors = CheckOptions {
        max_errors: 1,
        ..CheckOptions::default()
    };
    run_cases(
        &rows_schema(),
        &few_errors,
        rows_document,
        0x005e_ede5,
        30,
        &mut stats,
    );
    let any_root = CheckOptions {
        require_object: false,
        ..CheckOptions::default()
    };
    run_cases(
        &rows_schema(),
        &any_root,
        rows_document,
        0x005e_edf6,
        30,
        &mut stats,
    );
    let closed = CheckOptions {
        compile: CompileOptions {
            reject_unknown_fields: true,
            ..CompileOptions::default()
        },
        ..CheckOptions::default()
    };
    let mut open_rows = rows_schema();
    open_rows["properties"]["observations"]["items"]
        .as_object_mut()
        .unwrap()
        .remove("additionalProperties");
    run_cases(
        &open_rows,
        &closed,
        rows_document,
        0x005e_ed07,
        30,
        &mut stats,
    );
    // Without `maxItems`, items are read through one after another, and
    // those the pieces cut may wait (see `StreamCheck::hold_items`).
    let unbounded = unbounded_rows_schema();
    run_cases(
        &unbounded,
        &defaults,
        rows_document,
        0x005e_ed18,
        40,
        &mut stats,
    );
    // The generators make both kinds, and the checks do reject early.
    assert!(
        stats.valid > stats.cases / 5,
        "{} valid of {}",
        stats.valid,
        stats.cases
    );
    assert!(
        stats.rejected > stats.cases / 3,
        "{} rejected early of {}",
        stats.rejected,
        stats.cases
    );
}

// ---- what rejects early, and where ------------------------------------------

/// The first rejection of `text` pushed one byte at a time.
fn byte_by_byte(schema: &Value, options: CheckOptions, text: &str) -> Option<Rejection> {
    let compiled = compile(schema, &options.compile).unwrap();
    let mut check = StreamCheck::new(SchemaInput::Compiled(compiled), options).unwrap();
    for byte in text.as_bytes() {
        if let Some(rejection) = check.push(std::slice::from_ref(byte)) {
            let rejection = rejection.clone();
            assert!(!check.disagreed);
            return Some(rejection);
        }
    }
    assert!(!check.disagreed);
    None
}

/// `(code at the first issue, path)` of the rejection of `text`, and the
/// byte it came at, or `None`.
fn rejected(schema: &Value, text: &str) -> Option<(String, String, usize)> {
    let rejection = byte_by_byte(schema, CheckOptions::default(), text)?;
    let first = rejection.errors.first();
    Some((
        first.map_or(rejection.failure.as_str().to_owned(), |i| i.code.clone()),
        first.map_or(String::new(), |i| i.path.clone()),
        rejection.at_byte,
    ))
}

#[test]
fn each_keyword_that_rejects_early_does_so_as_soon_as_it_is_definite() {
    let mixed = mixed_schema();
    let cases: [(&Value, &str, &str, &str, usize); 9] = [
        // schema, text, code, path, bytes read when rejected
        (&mixed, r#"{"kind":"alpx"#, "const", "/kind", 13),
        (&mixed, r#"{"n1":1}"#, "falseSchema", "/n1", 5),
        (&mixed, r#"{"a-long-name":1}"#, "propertyNames", "", 14),
        (
            &mixed,
            r#"{"pair":["s",1,2]}"#,
            "falseSchema",
            "/pair/2",
            17,
        ),
        (&mixed, r#"{"both":"abcde"#, "maxLength", "/both", 14),
        (&mixed, r#"{"x-n":"s"}"#, "type", "/x-n", 10),
        (
            &mixed,
            r#"{"deep":{"list":["abcde"]}}"#,
            "maxLength",
            "/deep/list/0",
            23,
        ),
        (&mixed, r#"{"choice":"maybe"#, "enum", "/choice", 12),
        (&mixed, r#"{"other":true}"#, "type", "/other", 13),
    ];
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|&(schema, text, code, path, at)| {
            let got = rejected(schema, text);
            (got != Some((code.to_owned(), path.to_owned(), at)))
                .then(|| format!("{text}: {got:?}"))
        })
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn keywords_that_depend_on_what_follows_wait() {
    let mixed = mixed_schema();
    let waits = [
        // The value is still open, or its outcome depends on the rest.
        r#"{"kind":"alph"#,
        r#"{"choice":"ye"#,
        r#"{"pair":["s",1"#,
        r#"{"when":"ab"#,
        r#"{"x-1":1"#,
        r#"{"deep":{"list":["abcd""#,
    ];
    for text in waits {
        assert_eq!(rejected(&mixed, text), None, "{text}");
    }
    let rows = rows_schema();
    for text in [
        r#"{"observations":[{"type":"fact"}"#.trim_end_matches('}'),
        r#"{"observations":[{"text":"x","importance":1"#,
        r#"{"observations":[],"summary":"s""#,
        r#"{"observations":[1"#,
    ] {
        assert_eq!(rejected(&rows, text), None, "{text}");
    }
    // `required`, `minLength` and the rest are decided when the value closes.
    assert_eq!(
        rejected(&rows, r#"{"observations":[{"text":"x","importance":1}"#),
        Some(("required".to_owned(), "/observations/0".to_owned(), 44))
    );
}

#[test]
fn the_issues_of_an_early_rejection_are_the_ones_the_whole_check_reports() {
    let schema = rows_schema();
    let text = r#"{"observations":[{"type":"fact","text":"ok","importance":2},{"type":"observation","text":"","importance":9}],"status":"final"}"#;
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let whole = check_content(
        text,
        None,
        SchemaInput::Compiled(Arc::clone(&compiled)),
        &CheckOptions::default(),
    )
    .unwrap();
    let mut check =
        StreamCheck::new(SchemaInput::Compiled(compiled), CheckOptions::default()).unwrap();
    let rejection = check.push_str(text).cloned().unwrap();
    assert_eq!(rejection.failure, Failure::Schema);
    assert_eq!(
        rejection.errors, whole.errors,
        "paths, schema paths, codes and messages"
    );
    assert_eq!(rejection.more_errors, whole.more_errors);
    assert_eq!(rejection.message, whole.message);
    assert_eq!(
        error_hash(rejection.failure, &rejection.errors),
        whole.error_hash().unwrap()
    );
    assert_eq!(rejection.at_byte, text.find("],").unwrap());
    // Through a `$ref` too.
    let refs = refs_schema();
    let text = r#"{"id":"D-123","contacts":[{"name":"Ana","channel":{"kind":"fax"}},{"name":"a name much too long"}],"more":[{"channel":7}]}"#;
    let compiled_refs = compile(&refs, &CompileOptions::default()).unwrap();
    let whole_refs = check_content(
        text,
        None,
        SchemaInput::Compiled(Arc::clone(&compiled_refs)),
        &CheckOptions::default(),
    )
    .unwrap();
    let mut check_refs = StreamCheck::new(
        SchemaInput::Compiled(compiled_refs),
        CheckOptions::default(),
    )
    .unwrap();
    let first = check_refs.push_str(text).cloned().unwrap();
    assert_eq!(
        first.errors,
        whole_refs
            .errors
            .iter()
            .filter(|i| i.path.starts_with("/contacts/0"))
            .cloned()
            .collect::<Vec<_>>()
    );
    let shaped = rejection.to_json();
    assert_eq!(shaped["status"], "rejected");
    assert_eq!(shaped["atByte"], rejection.at_byte);
    assert_eq!(shaped["errors"][0]["path"], "/observations/1/importance");
}

#[test]
fn an_item_the_piece_holds_whole_is_judged_whole_when_it_closes() {
    let schema = rows_schema();
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let text = r#"{"observations":[{"type":"fact","text":"ok","importance":2},{"type":"fcat","text":"ok","importance":2,"x":1},{"type":"risk"#;
    let second = text.find(r#"{"type":"fcat""#).unwrap();
    let closes = text.rfind(",{").unwrap();
    let open = |compiled: &Arc<CompiledSchema>| {
        StreamCheck::new(
            SchemaInput::Compiled(Arc::clone(compiled)),
            CheckOptions::default(),
        )
        .unwrap()
    };
    // In one piece: the second item is read through, then checked whole
    // as it closes, so every issue it has is reported there.
    let mut whole = open(&compiled);
    let rejection = whole.push_str(text).cloned().unwrap();
    assert_eq!(rejection.at_byte, closes);
    let codes: Vec<&str> = rejection.errors.iter().map(|i| i.code.as_str()).collect();
    assert_eq!(codes, ["additionalProperties", "enum"], "{rejection:?}");
    // Cut inside it: it is read value by value, and the open string that
    // can no longer be an allowed one rejects as soon as it arrives.
    let cut = second + r#"{"type":"f"#.len();
    let mut cut_check = open(&compiled);
    assert!(cut_check.push_str(&text[..cut]).is_none());
    let rejection = cut_check.push_str(&text[cut..cut + 1]).cloned().unwrap();
    assert_eq!(rejection.at_byte, cut + 1);
    assert_eq!(rejection.errors.len(), 1);
    assert_eq!(rejection.errors[0].code, "enum");
    assert_eq!(rejection.errors[0].path, "/observations/1/type");
}

/// The whole-text check of `text`, finished with "stop", default options.
fn stopped(compiled: &Arc<CompiledSchema>, text: &str) -> Verdict {
    crate::verdict::check_content(
        text,
        Some("stop"),
        SchemaInput::Compiled(Arc::clone(compiled)),
        &CheckOptions::default(),
    )
    .unwrap()
}

#[test]
fn items_read_through_one_after_another_are_each_judged_where_they_stand() {
    let schema = unbounded_rows_schema();
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let good = r#"{"type":"fact","text":"ok","importance":2}"#;
    let bad = r#"{"type":"risk","text":"ok","importance":9}"#;
    // In one piece, the items after the first are read in a run; the
    // fifth fails where it closes, at its own index.
    let text = format!(r#"{{"observations":[{good}, {good},{good} ,{good},{bad},{good}"#);
    let closes = text.rfind(",{").unwrap();
    let mut check = StreamCheck::new(
        SchemaInput::Compiled(Arc::clone(&compiled)),
        CheckOptions::default(),
    )
    .unwrap();
    let rejection = check.push_str(&text).cloned().unwrap();
    assert_eq!(rejection.at_byte, closes);
    assert_eq!(rejection.errors.len(), 1, "{rejection:?}");
    assert_eq!(rejection.errors[0].path, "/observations/4/importance");
    // Accepted, the run's items are all on the tape the end checks.
    let text = format!(r#"{{"observations":[{good},{good},{good},{good}]}}"#);
    let mut check = StreamCheck::new(
        SchemaInput::Compiled(Arc::clone(&compiled)),
        CheckOptions::default(),
    )
    .unwrap();
    assert!(check.push_str(&text).is_none());
    let verdict = check.end(Some("stop"));
    assert!(verdict.ok(), "{:?}", verdict.failure);
    assert_eq!(verdict.span, stopped(&compiled, &text).span);
}

#[test]
fn an_item_a_piece_cuts_may_wait_for_the_next_piece_and_is_then_judged_whole() {
    let schema = unbounded_rows_schema();
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let open = || {
        StreamCheck::new(
            SchemaInput::Compiled(Arc::clone(&compiled)),
            CheckOptions::default(),
        )
        .unwrap()
    };
    let good = r#"{"type":"fact","text":"all good","importance":2}"#;
    let bad = r#"{"type":"fcat","text":"ok","importance":2}"#;
    let text = format!(r#"{{"observations":[{good},{good},{bad},{good}]}}"#);
    let bad_at = text.find(bad).unwrap();
    // The piece ends inside the third item, inside a string that can no
    // longer be an allowed one.
    let cut = bad_at + r#"{"type":"fc"#.len();
    // Read as far as the text goes, it is rejected at once.
    let mut eager = open();
    assert!(eager.push_str(&text[..cut]).is_some());
    // Left for the next piece (it begins within 64 bytes of the end, and
    // the items before it took 48), it is not read yet...
    let mut held = open();
    held.hold_items(64);
    assert!(held.push_str(&text[..cut]).is_none());
    // ...and then read through whole and judged where it closes, as in
    // one piece.
    let rejection = held.push_str(&text[cut..]).cloned().unwrap();
    assert_eq!(rejection.at_byte, bad_at + bad.len());
    assert_eq!(rejection.errors.len(), 1, "{rejection:?}");
    assert_eq!(rejection.errors[0].path, "/observations/2/type");
    // With items longer than what may wait, the next piece would most
    // likely cut it again: it is read as far as the text goes.
    let mut short = open();
    short.hold_items(32);
    assert!(short.push_str(&text[..cut]).is_some());
    // An item still waiting when the text ends is read at the end: here
    // the last, shorter than the one before it, so taken for cut.
    let last = r#"{"type":"risk","text":"no","importance":1}"#;
    let incomplete = r#"{"type":"risk","importance":1}"#;
    for (item, ok) in [(last, true), (incomplete, false)] {
        let text = format!(r#"{{"observations":[{good},{good},{item}]}}"#);
        let mut check = open();
        check.hold_items(64);
        let state = check.push_str(&text).cloned();
        assert!(state.is_none(), "{item}: {state:?}");
        let verdict = check.end(Some("stop"));
        assert_eq!(verdict.ok(), ok, "{item}: {:?}", verdict.failure);
        // Read by the stream, so that the end used what it built.
        assert_eq!(check.json_end.is_some(), ok, "{item}");
        assert_eq!(verdict, stopped(&compiled, &text));
    }
}

#[test]
fn a_draft_7_ref_hides_its_siblings_here_too() {
    let schema = draft7_schema();
    assert_eq!(rejected(&schema, r#"{"hidden":{"x":1}}"#), None);
    assert_eq!(rejected(&schema, r#"{"list":[1,2,3]}"#), None);
    assert_eq!(
        rejected(&schema, r#"{"tuple":[1,"s",true,"no"]}"#),
        Some(("type".to_owned(), "/tuple/3".to_owned(), 25))
    );
}

#[test]
fn schemas_whose_meaning_depends_on_more_than_the_location_only_get_the_syntax_checks() {
    for schema in [
        json!({"$defs": {"t": {"$dynamicAnchor": "t", "type": "string"}}, "properties": {"a": {"$dynamicRef": "#t"}}}),
        json!({"properties": {"a": {"$id": "https://example.com/a", "type": "string"}}}),
        json!({"properties": {"a": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}}}),
    ] {
        assert_eq!(rejected(&schema, r#"{"a":1,"b":"#), None, "{schema}");
        assert_eq!(
            rejected(&schema, r#"{"a":1,}"#).map(|r| r.0),
            Some("unparseable".to_owned()),
            "{schema}"
        );
        let any = CheckOptions {
            require_object: true,
            ..CheckOptions::default()
        };
        assert_eq!(
            byte_by_byte(&schema, any, "[").map(|r| r.failure),
            Some(Failure::NotObject)
        );
    }
}

#[test]
fn repeated_names_among_complete_values_resolve_as_the_whole_check_does() {
    let schema = rows_schema();
    // Within a row, which closes before it is checked: the last one wins.
    let text = r#"{"observations":[{"type":"bogus","text":"x","importance":1,"type":"fact"}]}"#;
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let mut check =
        StreamCheck::new(SchemaInput::Compiled(compiled), CheckOptions::default()).unwrap();
    assert_eq!(check.push_str(text), None);
    assert!(check.end(None).ok());
    // Cut inside the first value, it is compared while open, and the
    // repetition that would have replaced it comes too late.
    assert_eq!(
        rejected(&schema, text).map(|r| r.0),
        Some("enum".to_owned())
    );
}

#[test]
fn a_character_cut_at_the_end_is_a_replacement_character_as_in_a_lossy_decoding() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string"}}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let text = "{\"s\":\"😀\"}";
    let bytes = text.as_bytes();
    let mut check = StreamCheck::new(
        SchemaInput::Compiled(Arc::clone(&compiled)),
        CheckOptions::default(),
    )
    .unwrap();
    check.push(&bytes[..7]);
    check.push(&bytes[7..8]);
    assert_eq!(check.bytes(), 8);
    let verdict = check.end(None);
    let lossy = String::from_utf8_lossy(&bytes[..8]).into_owned();
    assert_eq!(
        verdict,
        check_content(
            &lossy,
            None,
            SchemaInput::Compiled(compiled),
            &CheckOptions::default()
        )
        .unwrap()
    );
    assert_eq!(check.text(), lossy);
}

#[test]
fn the_end_never_skips_a_subschema_that_applies_anywhere_unchecked() {
    // Each schema reaches a subschema that a stream checks on a member
    // from somewhere else too (a `$ref`, an in-place branch, the root
    // again): the end must still apply it there.
    let cases = [
        (
            json!({"properties": {"a": {"type": "string"}}, "anyOf": [{"$ref": "#/properties/a"}]}),
            r#"{"a":"x"}"#,
        ),
        (
            json!({"properties": {"a": {"type": "object", "properties": {"b": {"$ref": "#"}}}, "c": {"type": "integer"}}, "required": ["c"]}),
            r#"{"a":{"b":{}},"c":1}"#,
        ),
        (
            json!({"allOf": [{"properties": {"a": {"maxLength": 1}}}], "properties": {"a": {"type": "string"}}}),
            r#"{"a":"xy"}"#,
        ),
        (
            json!({"$defs": {"s": {"type": "string"}}, "properties": {"a": {"items": {"$ref": "#/$defs/s"}}}, "not": {"properties": {"a": {"items": {"$ref": "#/$defs/s"}}}}}),
            r#"{"a":["x"]}"#,
        ),
        (
            json!({"properties": {"l": {"items": {"minLength": 2}}}, "if": {"properties": {"l": {"items": {"minLength": 2}}}}, "then": false}),
            r#"{"l":["ab"]}"#,
        ),
        (
            json!({"properties": {"l": {"type": "array", "items": {"type": "integer"}}}, "unevaluatedProperties": false, "patternProperties": {"^l$": {"maxItems": 1}}}),
            r#"{"l":[1,2]}"#,
        ),
    ];
    for (schema, text) in cases {
        let compiled = compile(&schema, &CompileOptions::default()).unwrap();
        let whole = check_content(
            text,
            None,
            SchemaInput::Compiled(Arc::clone(&compiled)),
            &CheckOptions::default(),
        )
        .unwrap();
        for points in [vec![], (1..text.len()).collect::<Vec<_>>()] {
            let mut check = StreamCheck::new(
                SchemaInput::Compiled(Arc::clone(&compiled)),
                CheckOptions::default(),
            )
            .unwrap();
            let mut rejected = false;
            for piece in pieces(text, &points) {
                rejected |= check.push(piece).is_some();
            }
            let verdict = check.end(None);
            if rejected {
                // Ended with the rejection, which names the same problems.
                assert_eq!(
                    (verdict.failure, &verdict.errors, &verdict.message),
                    (whole.failure, &whole.errors, &whole.message),
                    "{schema} {text}"
                );
            } else {
                assert_eq!(verdict, whole, "{schema} {text}");
            }
        }
    }
}

/// A backreference pattern that costs about twice as much per extra `a`
/// (and that `a+!` finally matches): pattern work the check's budget counts.
const COSTLY: &str = "^(?:(a*)*\\1c|a+!)$";

#[test]
fn the_end_spends_the_one_budget_a_check_has_for_patterns() {
    // Each item passes alone; together they exceed one check's budget, so
    // the whole-text check fails them, and so must the end (which checked
    // them one by one as they closed).
    let schema = json!({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string", "pattern": COSTLY}}}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let one = format!("{}!", "a".repeat(18));
    let (_, left) = hot_path::schema::with_own_budget(usize::MAX, || {
        compiled.is_valid(&json!({"l": [one.clone()]}))
    });
    let over = hot_path::schema::PATTERN_STEPS_PER_CHECK / (usize::MAX - left) + 1;
    for count in [over - 1, over] {
        let text = format!(
            r#"{{"l":[{}]}}"#,
            vec![format!("\"{one}\""); count].join(",")
        );
        let whole = check_content(
            &text,
            None,
            SchemaInput::Compiled(Arc::clone(&compiled)),
            &CheckOptions::default(),
        )
        .unwrap();
        assert_eq!(whole.ok(), count < over, "{count} items: {whole:?}");
        let mut check = StreamCheck::new(
            SchemaInput::Compiled(Arc::clone(&compiled)),
            CheckOptions::default(),
        )
        .unwrap();
        assert_eq!(
            check.push_str(&text),
            None,
            "{count} items: no early rejection for want of steps"
        );
        assert_eq!(check.end(None), whole, "{count} items");
    }
}

#[test]
fn an_accepted_json_has_a_plan_for_reading_it_in_parts_at_its_own_span_only() {
    let schema = compile(&rows_schema(), &CompileOptions::default()).unwrap();
    // Items of about 1.4 KB, each past the outline's gap between siblings.
    let tags = vec!["abcdef"; 150];
    let rows: Vec<Value> = ["fact", "risk", "question"]
        .iter()
        .map(|kind| json!({"type": kind, "text": "a", "importance": 1, "tags": tags}))
        .collect();
    let json = json!({ "observations": rows }).to_string();
    let text = format!("```json\n{json}\n```\n");
    let mut check = StreamCheck::new(
        SchemaInput::Compiled(schema.clone()),
        CheckOptions::default(),
    )
    .unwrap();
    check.note_outline();
    for piece in text.as_bytes().chunks(700) {
        assert!(check.push(piece).is_none());
    }
    let verdict = check.end(Some("stop"));
    assert!(verdict.ok(), "{}", verdict.message);
    let span = verdict.span.clone().unwrap();
    assert_eq!(&text[span.clone()], json);
    let plan: Value = serde_json::from_str(&check.value_parts(span.clone(), 8).unwrap()).unwrap();
    // The root object; its one member's array, split into one run per item.
    assert_eq!(plan[0], "o");
    assert_eq!(plan[1][0], "observations");
    let items = plan[1][1].as_array().unwrap();
    assert_eq!(items.len(), 4, "{plan}");
    for (run, row) in items[1..].iter().zip(&rows) {
        let (start, end) = (
            run[0].as_u64().unwrap() as usize,
            run[1].as_u64().unwrap() as usize,
        );
        assert_eq!(
            serde_json::from_str::<Value>(&json[start..end]).unwrap(),
            *row
        );
    }
    assert!(check.value_parts(span.start + 1..span.end, 8).is_none());
    assert!(check.value_parts(span.start..span.end - 1, 8).is_none());
    // A check not asked to note the outline has no plan to give.
    let mut check =
        StreamCheck::new(SchemaInput::Compiled(schema), CheckOptions::default()).unwrap();
    check.push(text.as_bytes());
    assert!(check.end(Some("stop")).ok());
    assert!(check.value_parts(span, 8).is_none());
}

#[test]
fn a_stopped_stream_ends_with_its_rejection_whatever_came_after() {
    let schema = rows_schema();
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let open = || {
        StreamCheck::new(
            SchemaInput::Compiled(Arc::clone(&compiled)),
            CheckOptions::default(),
        )
        .unwrap()
    };
    let text = r#"{"observations":[{"type":"fcat","text":"x","importance":1},{"type":"fact","text":"y","importance":1}]}"#;
    let stop = text.find("fcat").unwrap() + 3;
    // Stopped at the rejection: the prefix alone would be unparseable.
    let mut stopped = open();
    let rejection = stopped.push_str(&text[..stop]).cloned().unwrap();
    assert_eq!(rejection.failure, Failure::Schema);
    let prefix_alone = check_content(
        &text[..stop],
        Some("stop"),
        SchemaInput::Compiled(Arc::clone(&compiled)),
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(prefix_alone.failure, Some(Failure::Unparseable));
    let verdict = stopped.end(Some("stop"));
    assert_eq!(verdict.failure, Some(Failure::Schema));
    assert_eq!(verdict.errors, rejection.errors);
    assert_eq!(
        verdict.error_hash(),
        Some(error_hash(rejection.failure, &rejection.errors))
    );
    assert_eq!(verdict.finish_reason.as_deref(), Some("stop"));
    // Pushed on to the end, with a finish reason that says truncated: the
    // rejection still decides.
    let mut continued = open();
    assert!(continued.push_str(&text[..stop]).is_some());
    continued.push_str(&text[stop..]);
    let verdict = continued.end(Some("length"));
    assert_eq!(verdict.failure, Some(Failure::Schema));
    assert_eq!(verdict.errors, rejection.errors);
    assert_eq!(verdict.finish_reason.as_deref(), Some("length"));
}

// ---- the partial value ----------------------------------------------------

fn partial_of(check: &mut StreamCheck) -> Value {
    serde_json::from_str(&check.partial_json()).unwrap()
}

#[test]
fn the_partial_value_follows_the_json_inside_a_fence_and_past_a_rejection() {
    let compiled = compile(&rows_schema(), &CompileOptions::default()).unwrap();
    let mut check =
        StreamCheck::new(SchemaInput::Compiled(compiled), CheckOptions::default()).unwrap();
    check.push_str("```json\n");
    assert_eq!(partial_of(&mut check), json!({"invalid": []}));
    check.push_str("{\"summary\":\"Two fi");
    assert_eq!(
        partial_of(&mut check),
        json!({"invalid": [], "value": {"summary": "Two fi"}})
    );
    let bad = "{\"type\":\"fact\",\"text\":\"ok\",\"importance\":9}";
    let good = "{\"type\":\"risk\",\"text\":\"late\",\"importance\":2}";
    let rejected = check
        .push_str(&format!("nds\",\"observations\":[{good},{bad}"))
        .cloned();
    assert_eq!(rejected.map(|r| r.failure), Some(Failure::Schema));
    // The item the stream rejected for is the one the partial value names,
    // and the text after the rejection is still read.
    check.push_str(&format!(",{good},{{\"type\":\"fa"));
    let partial = partial_of(&mut check);
    assert_eq!(
        partial["invalid"],
        json!(["/observations/1", "/observations/1/importance"])
    );
    assert_eq!(
        partial["value"]["observations"].as_array().unwrap().len(),
        4
    );
    assert_eq!(partial["value"]["observations"][3], json!({"type": "fa"}));
    check.push_str("ct\"}]}\n```\n");
    let partial = partial_of(&mut check);
    assert_eq!(partial["invalid"][0], json!(""));
    assert_eq!(partial["value"]["summary"], json!("Two finds"));
}

#[test]
fn text_kept_for_a_preview_is_checked_with_the_next_push_or_at_the_end() {
    let compiled = compile(&rows_schema(), &CompileOptions::default()).unwrap();
    let bad = r#"{"observations":[{"type":"fact","text":"ok","importance":9}"#;
    let mut check = StreamCheck::new(
        SchemaInput::Compiled(Arc::clone(&compiled)),
        CheckOptions::default(),
    )
    .unwrap();
    check.append(bad.as_bytes());
    assert_eq!(check.rejection(), None, "kept, not yet read");
    assert_eq!(
        partial_of(&mut check)["invalid"],
        json!(["/observations/0", "/observations/0/importance"])
    );
    assert_eq!(check.push_str("").map(|r| r.failure), Some(Failure::Schema));
    // Kept and never pushed after: the end reads it.
    let text = r#"{"observations":[{"type":"fact","text":"ok","importance":2}]}"#;
    let mut check =
        StreamCheck::new(SchemaInput::Compiled(compiled), CheckOptions::default()).unwrap();
    check.push_str(&text[..10]);
    check.append(&text.as_bytes()[10..]);
    assert!(check.end(Some("stop")).ok());
}

#[test]
fn the_end_written_for_the_facade_says_where_a_shown_rejection_was_decided() {
    let schema = json!({ "type": "object", "properties": { "a": { "type": "integer" } } });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let open = || {
        StreamCheck::new(
            SchemaInput::Compiled(compiled.clone()),
            CheckOptions::default(),
        )
        .unwrap()
    };
    let mut accepted = open();
    assert!(accepted.push_str("{\"a\":1}").is_none());
    let (text, span) = accepted.end_json(Some("stop"), false);
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["ok"], json!(true));
    assert!(verdict.get("atByte").is_none());
    assert_eq!(span, Some(0..7));
    let mut rejected = open();
    assert!(rejected.push_str("{\"a\":\"no\"").is_some());
    let (text, span) = rejected.end_json(None, true);
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["ok"], json!(false));
    assert!(verdict["atByte"].is_u64());
    assert_eq!(span, None);
    // A rejection never shown is set aside: the whole text decides.
    let mut unshown = open();
    assert!(unshown.push_str("{\"a\":\"no\"").is_some());
    let (text, _) = unshown.end_json(None, false);
    assert!(serde_json::from_str::<Value>(&text)
        .unwrap()
        .get("atByte")
        .is_none());
}
