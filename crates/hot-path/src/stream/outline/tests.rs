#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{Map, Value};

use crate::stream::json::{JsonStream, Progress};
use guard_tape::test_rng::Rng;

/// The value a plan reads, built as the facade builds it (js/stream-value.mjs):
/// a run of items parsed as `[` run `]` and appended, a run of members parsed
/// as `{` run `}` and each member set in turn (a name set again keeps its
/// place and takes the new value, as `JSON.parse` and `Object.defineProperty`
/// both do), a nested plan built the same way.
fn assemble(plan: &Value, json: &str) -> Value {
    let entries = plan.as_array().expect("a plan is an array");
    let object = entries[0] == "o";
    let mut items = Vec::new();
    let mut members = Map::new();
    for entry in &entries[1..] {
        let entry = entry.as_array().unwrap();
        if let (Some(start), Some(end)) = (entry[0].as_u64(), entry.get(1).and_then(Value::as_u64))
        {
            let run = &json[start as usize..end as usize];
            if object {
                let parsed: Map<String, Value> =
                    serde_json::from_str(&format!("{{{run}}}")).unwrap();
                for (name, value) in parsed {
                    members.insert(name, value);
                }
            } else {
                let parsed: Vec<Value> = serde_json::from_str(&format!("[{run}]")).unwrap();
                items.extend(parsed);
            }
        } else if object {
            let name = entry[0].as_str().unwrap().to_owned();
            members.insert(name, assemble(&entry[1], json));
        } else {
            items.push(assemble(&Value::Array(entry.clone()), json));
        }
    }
    if object {
        Value::Object(members)
    } else {
        Value::Array(items)
    }
}

/// Streams `text` in pieces of `piece` bytes (whole characters), noting
/// siblings at least `gap` bytes apart, and gives its outline and where its
/// root value ends.
fn outline_of(text: &str, piece: usize, gap: usize) -> (super::Outline, usize) {
    let mut stream = JsonStream::new(0, None, false, 5).with_outline_gap(gap);
    let mut upto = 0;
    loop {
        upto = (upto + piece).min(text.len());
        while !text.is_char_boundary(upto) {
            upto += 1;
        }
        match stream.feed(&text[..upto]) {
            Progress::Pending if upto < text.len() => continue,
            Progress::Complete { end } => return (stream.take_outline().unwrap(), end),
            other => panic!("{text}: {other:?}"),
        }
    }
}

fn check(text: &str) {
    let whole: Value = serde_json::from_str(text).unwrap();
    let start = text.len() - text.trim_start().len();
    for (piece, gap) in [(1, 0), (3, 5), (17, 0), (256, 40), (text.len(), super::GAP)] {
        let (outline, end) = outline_of(text, piece, gap);
        for part in [1, 10, 60, 1 << 20] {
            let plan = outline.parts(text, start..end, part).unwrap_or_else(|| {
                panic!(
                    "no plan for {text} (piece {piece}, gap {gap}, part {part}): {:?}",
                    outline.placed
                )
            });
            let plan: Value = serde_json::from_str(&plan).unwrap();
            let json = &text[start..end];
            assert_eq!(
                assemble(&plan, json),
                whole,
                "{text}\npiece {piece}, gap {gap}, part {part}: {plan}"
            );
        }
    }
}

#[test]
fn a_plan_reads_the_value_json_parse_reads() {
    for text in [
        r#"{"a":1,"b":[1,2,3],"c":{"d":"e"}}"#,
        r#"[1,2.5e3,-0,true,false,null,"x",[],{}]"#,
        "  {\n  \"rows\": [\n    {\"x\": 1, \"y\": \"a,b]}\"},\n    {\"x\": 2}\n  ],\n  \"n\": 7\n}  ",
        r#"{"a":1,"a":2,"b":{"a":[1],"a":{"c":3}},"a":3}"#,
        r#"{"__proto__":{"x":1},"constructor":[1,2],"10":"ten","2":"two","z":0}"#,
        r#"{"\"q\\u0041\u00e9\ud83d\ude00":[1,2],"k\/":{"\n":"v"}}"#,
        r#"[[[[1,2],[3]],[[4]]],[],[[]],[{}],{"a":[{"b":[1,2,3]}]}]"#,
        r#"{"s":"\u2028, \\\" ] } [ {","t":["]",",","}"],"u":12345678901234567890}"#,
        "[1 , 2 ,\t3\r\n,4]",
        r#"{}"#,
        r#"[]"#,
    ] {
        check(text);
    }
}

/// A random JSON value whose containers reach `depth` levels.
fn random_value(rng: &mut Rng, depth: usize) -> String {
    let names = ["a", "b", "__proto__", "10", "é", "\\\"x\\\"", "a"];
    let scalars = [
        "1",
        "-0.5",
        "true",
        "null",
        "\"s,]}\"",
        "\"\\u00e9\"",
        "123456789012345678901",
        "\"\"",
    ];
    let space = |rng: &mut Rng| [" ", "", "\n  ", ""][rng.below(4)];
    if depth == 0 || rng.below(4) == 0 {
        return rng.pick(&scalars).to_owned();
    }
    let n = rng.below(6);
    let object = rng.below(2) == 0;
    let mut out = String::from(if object { "{" } else { "[" });
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        out.push_str(space(rng));
        if object {
            out.push('"');
            out.push_str(rng.pick(&names));
            out.push_str("\":");
            out.push_str(space(rng));
        }
        out.push_str(&random_value(rng, depth - 1));
        out.push_str(space(rng));
    }
    out.push(if object { '}' } else { ']' });
    out
}

#[test]
fn plans_of_generated_documents_read_their_values() {
    let mut rng = Rng(0x5eed_0f0a_711e);
    for _ in 0..300 {
        let mut text = random_value(&mut rng, 5);
        if !text.starts_with(['{', '[']) {
            text = format!("[{text}]");
        }
        check(&text);
    }
}

#[test]
fn no_plan_for_a_span_the_outline_does_not_start() {
    let text = r#"{"a":[1,2]}"#;
    let (outline, end) = outline_of(text, 4, 0);
    assert!(outline.parts(text, 1..end, 4).is_none());
    let (outline, end) = outline_of("\"text\"", 2, 0);
    assert!(outline.parts("\"text\"", 0..end, 4).is_none());
}

#[test]
fn runs_hold_at_most_a_part_unless_one_value_is_larger() {
    let items: Vec<String> = (0..50)
        .map(|i| format!("{{\"i\":{i},\"s\":\"{}\"}}", "x".repeat(i % 7)))
        .collect();
    let text = format!(
        "{{\"rows\":[{}],\"big\":\"{}\"}}",
        items.join(","),
        "y".repeat(300)
    );
    let (outline, end) = outline_of(&text, 64, 0);
    let plan: Value = serde_json::from_str(&outline.parts(&text, 0..end, 100).unwrap()).unwrap();
    // The root: the rows, split into runs of items, then "big" in a run of its own.
    let root = plan.as_array().unwrap();
    assert_eq!(root[0], "o");
    assert_eq!(root[1][0], "rows");
    let runs = root[1][1].as_array().unwrap();
    assert!(runs.len() > 10, "{plan}");
    for run in &runs[1..] {
        let (start, end) = (run[0].as_u64().unwrap(), run[1].as_u64().unwrap());
        assert!(end - start <= 100, "{run}");
    }
    let big = root[2].as_array().unwrap();
    assert!(big[1].as_u64().unwrap() - big[0].as_u64().unwrap() > 300);
    assert_eq!(
        assemble(&plan, &text),
        serde_json::from_str::<Value>(&text).unwrap()
    );
}

#[test]
fn siblings_close_together_are_noted_once_a_gap() {
    // 200,000 items of two bytes each: a few hundred noted, not one each.
    let text = format!("[{}1]", "1,".repeat(200_000));
    let (outline, end) = outline_of(&text, 4096, super::GAP);
    assert!(
        outline.placed.len() <= 2 + text.len() / super::GAP,
        "{}",
        outline.placed.len()
    );
    assert!(outline.placed.len() > text.len() / (2 * super::GAP));
    let plan: Value =
        serde_json::from_str(&outline.parts(&text, 0..end, 32 * 1024).unwrap()).unwrap();
    let runs = plan.as_array().unwrap();
    assert!(runs.len() > 10, "{plan}");
    assert_eq!(
        assemble(&plan, &text),
        serde_json::from_str::<Value>(&text).unwrap()
    );
    // Inside an item not noted, nothing is noted either: its members are read with it.
    let text = format!(
        r#"[{{"a":[1]}},{{"b":[2]}},{{"c":[{}3]}}]"#,
        "3,".repeat(600)
    );
    let (outline, end) = outline_of(&text, 7, 20);
    let depths: Vec<u8> = outline.placed.iter().map(|p| p.depth).collect();
    assert_eq!(depths, [0, 1, 2, 1, 2], "{:?}", outline.placed);
    let plan: Value = serde_json::from_str(&outline.parts(&text, 0..end, 8).unwrap()).unwrap();
    assert_eq!(
        assemble(&plan, &text),
        serde_json::from_str::<Value>(&text).unwrap()
    );
}

#[test]
fn a_stream_notes_no_outline_unless_asked() {
    let mut stream = JsonStream::new(0, None, false, 5);
    assert!(matches!(stream.feed("[1,2]"), Progress::Complete { .. }));
    assert!(stream.take_outline().is_none());
    let mut stream = JsonStream::new(0, None, false, 5).with_outline();
    assert!(matches!(stream.feed("[1,2]"), Progress::Complete { .. }));
    assert_eq!(stream.take_outline().unwrap().placed.len(), 2);
}
