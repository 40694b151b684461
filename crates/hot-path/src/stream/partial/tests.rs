#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{json, Value};

use crate::schema::{compile, CompileOptions};
use crate::stream::partial::PartialValue;
use guard_tape::test_rng::Rng;

/// The closed value of `text` read in one go, as serde_json reads it.
fn closed(text: &str) -> Option<Value> {
    let (value, _) = PartialValue::new(0, None).read(text);
    value.map(|v| {
        serde_json::from_str(&v).unwrap_or_else(|e| panic!("{text:?} closed as {v:?}: {e}"))
    })
}

#[test]
fn closes_the_open_frontier() {
    let cases: &[(&str, Option<Value>)] = &[
        ("", None),
        ("  ", None),
        ("{", Some(json!({}))),
        ("[", Some(json!([]))),
        ("{\"a\"", Some(json!({}))),
        ("{\"a\":", Some(json!({}))),
        ("{\"a\": ", Some(json!({}))),
        ("{\"a\":1", Some(json!({}))),
        ("{\"a\":1,", Some(json!({"a": 1}))),
        ("{\"a\":1 ", Some(json!({"a": 1}))),
        ("{\"a\":-", Some(json!({}))),
        ("{\"a\":1.5e", Some(json!({}))),
        ("{\"a\":tr", Some(json!({}))),
        ("{\"a\":true", Some(json!({"a": true}))),
        ("{\"a\":null,\"b\":fals", Some(json!({"a": null}))),
        ("{\"a\":\"", Some(json!({"a": ""}))),
        ("{\"a\":\"pre", Some(json!({"a": "pre"}))),
        ("{\"a\":\"pre\\", Some(json!({"a": "pre"}))),
        ("{\"a\":\"pre\\\\", Some(json!({"a": "pre\\"}))),
        ("{\"a\":\"pre\\u00", Some(json!({"a": "pre"}))),
        ("{\"a\":\"pre\\u00e9", Some(json!({"a": "preé"}))),
        ("{\"a\":\"\\ud83d", Some(json!({"a": ""}))),
        ("{\"a\":\"\\ud83d\\ude00", Some(json!({"a": "😀"}))),
        ("{\"a\":\"x\\\"", Some(json!({"a": "x\""}))),
        ("{\"a\":\"x\",\"b", Some(json!({"a": "x"}))),
        (
            "{\"a\":{\"b\":[1,2,{\"c\":\"d",
            Some(json!({"a": {"b": [1, 2, {"c": "d"}]}})),
        ),
        ("{\"a\":[1,2", Some(json!({"a": [1]}))),
        ("{\"a\":[1,2]", Some(json!({"a": [1, 2]}))),
        ("{\"a\":[1,2]}  trailing", Some(json!({"a": [1, 2]}))),
        ("\"open root", Some(json!("open root"))),
        ("12", None),
        ("12 ", Some(json!(12))),
        // A byte no JSON holds: the value stays as it was before it.
        ("{\"a\":1,\"b\":2,}", Some(json!({"a": 1, "b": 2}))),
        ("{\"a\":1]", Some(json!({"a": 1}))),
    ];
    for (text, expected) in cases {
        assert_eq!(&closed(text), expected, "closing {text:?}");
    }
}

#[test]
fn reads_on_from_where_it_stopped() {
    let text = "{\"rows\":[{\"id\":1,\"name\":\"ab\"},{\"id\":22,\"name\":\"cd\\u00e9\"}],\"n\":3}";
    for cut in 0..=text.len() {
        let mut partial = PartialValue::new(0, None);
        let (first, _) = partial.read(&text[..cut]);
        let (whole, _) = partial.read(text);
        assert_eq!(whole.as_deref(), Some(text), "read on after {cut} bytes");
        assert_eq!(first, PartialValue::new(0, None).read(&text[..cut]).0);
    }
}

#[test]
fn names_the_complete_values_that_fail() {
    let schema = json!({
        "type": "object",
        "properties": {
            "rows": {"type": "array", "items": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
                "required": ["id"]
            }},
            "title": {"type": "string", "maxLength": 3}
        },
        "additionalProperties": false
    });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let invalid = |text: &str| PartialValue::new(0, Some(&compiled)).read(text).1;
    assert!(invalid("{\"rows\":[{\"id\":1},{\"id\":2}").is_empty());
    assert_eq!(
        invalid("{\"rows\":[{\"id\":1},{\"id\":\"x\"},{\"id\":3"),
        ["/rows/1", "/rows/1/id"]
    );
    // Inside the open item, its complete members are judged as well.
    assert_eq!(
        invalid("{\"rows\":[{\"id\":\"x\",\"tags\":[\"a\",2,"),
        ["/rows/0/id", "/rows/0/tags/1"]
    );
    // A complete member that fails names what inside it fails too.
    assert_eq!(
        invalid("{\"rows\":[{\"id\":1},{\"tags\":[\"a\",1]}],\"title\":\"ok\""),
        ["/rows", "/rows/1", "/rows/1/tags", "/rows/1/tags/1"]
    );
    assert_eq!(
        invalid("{\"title\":\"long\",\"other\":1,"),
        ["/title", "/other"]
    );
    // The complete root is judged against the whole schema.
    assert_eq!(invalid("{\"title\":\"ok\"}"), Vec::<String>::new());
    assert_eq!(invalid("{\"rows\":[{}]}"), ["", "/rows", "/rows/0"]);
    // The open string is not judged until it closes.
    assert!(invalid("{\"title\":\"longer and longer").is_empty());
}

#[test]
fn judgments_do_not_depend_on_when_it_is_read() {
    let schema = json!({"type": "array", "items": {"type": "object", "properties": {"a": {"type": "integer"}}}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let text = "[{\"a\":1},{\"a\":\"x\"},{\"a\":2,\"b\":[true]},{\"a\":1.5}]";
    for cut in 0..text.len() {
        let mut once = PartialValue::new(0, Some(&compiled));
        let mut twice = PartialValue::new(0, Some(&compiled));
        let half = &text[..cut / 2];
        let _ = twice.read(half);
        assert_eq!(
            once.read(&text[..cut]),
            twice.read(&text[..cut]),
            "at {cut}"
        );
    }
}

#[test]
fn deep_nesting_stops_at_the_parser_limit() {
    let text = "[".repeat(100_000);
    let (value, invalid) = PartialValue::new(0, None).read(&text);
    let value = value.unwrap();
    assert!(
        value.len() < 300,
        "the frontier closes within the nesting limit"
    );
    assert!(serde_json::from_str::<Value>(&value).is_ok());
    assert!(invalid.is_empty());
}

/// A random JSON value, with numbers, escapes and non-ASCII text.
fn value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => json!(rng.below(2000) as i64 - 1000),
        3 => json!((rng.below(10_000) as f64) / 64.0 - 50.0),
        4 => Value::String(
            rng.pick(&["", "a", "é\"\\/", "😀 x", "\u{1}\n\t", "long string here"])
                .to_owned(),
        ),
        5 => Value::Array((0..rng.below(4)).map(|_| value(rng, depth + 1)).collect()),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|i| {
                    (
                        format!("{}{i}", rng.pick(&["k", "é", "a/b", "~"])),
                        value(rng, depth + 1),
                    )
                })
                .collect(),
        ),
    }
}

/// Every value shown is final or open: removing the open strings' and
/// containers' growth, the closed value of each prefix is a "prefix" of
/// the whole value.
fn grows_into(part: &Value, whole: &Value) -> bool {
    match (part, whole) {
        (Value::String(p), Value::String(w)) => w.starts_with(p.as_str()),
        (Value::Array(p), Value::Array(w)) => {
            let last = p.len().saturating_sub(1);
            p.len() <= w.len()
                && p.iter()
                    .zip(w)
                    .enumerate()
                    .all(|(i, (p, w))| if i < last { p == w } else { grows_into(p, w) })
        }
        (Value::Object(p), Value::Object(w)) => p
            .iter()
            .all(|(k, v)| w.get(k).is_some_and(|w| grows_into(v, w))),
        (p, w) => p == w,
    }
}

#[test]
fn every_cut_closes_to_json_that_grows_into_the_whole() {
    let mut rng = Rng(0x5eed_0042);
    for _ in 0..300 {
        let whole = Value::Object(
            (0..1 + rng.below(4))
                .map(|i| (format!("m{i}"), value(&mut rng, 0)))
                .collect(),
        );
        let text = if rng.below(2) == 0 {
            whole.to_string()
        } else {
            serde_json::to_string_pretty(&whole).unwrap()
        };
        let mut streamed = PartialValue::new(0, None);
        for cut in 0..=text.len() {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let (part, _) = streamed.read(&text[..cut]);
            let alone = PartialValue::new(0, None).read(&text[..cut]).0;
            assert_eq!(part, alone, "{text} at {cut}");
            if let Some(part) = part {
                let part: Value = serde_json::from_str(&part)
                    .unwrap_or_else(|e| panic!("{text} at {cut}: {part}: {e}"));
                assert!(grows_into(&part, &whole), "{text} at {cut}: {part}");
            }
        }
        let (end, _) = streamed.read(&text);
        assert_eq!(serde_json::from_str::<Value>(&end.unwrap()).unwrap(), whole);
    }
}

// ---- the value read as what changed ---------------------------------------

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn seg(v: &Value) -> Seg {
    match v {
        Value::String(s) => Seg::Key(s.clone()),
        other => Seg::Index(other.as_u64().unwrap() as usize),
    }
}

fn at_path<'a>(root: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(root, |v, s| match s {
        Seg::Key(k) => v.get_mut(k.as_str()).unwrap(),
        Seg::Index(i) => v.get_mut(*i).unwrap(),
    })
}

/// The reader of `read_delta`, as the facade is (js/stream-check.mjs): the
/// value grown in place, the open containers it holds by path.
#[derive(Default)]
struct Mirror {
    root: Option<Value>,
    levels: Vec<(Vec<Seg>, Option<Seg>)>,
}

impl Mirror {
    fn apply(&mut self, delta: &str) {
        let d: Value = serde_json::from_str(delta).unwrap_or_else(|e| panic!("{delta}: {e}"));
        if d.get("same").is_some() {
            return;
        }
        let keep = d["keep"].as_u64().unwrap() as usize;
        if let Some(Value::String(grown)) = d.get("grow") {
            assert_eq!(keep, self.levels.len(), "{delta}");
            let (path, frontier) = self.levels[keep - 1].clone();
            let held = at_path(self.root.as_mut().unwrap(), &path);
            let string = match frontier {
                Some(Seg::Index(i)) => &mut held.as_array_mut().unwrap()[i],
                Some(Seg::Key(k)) => held.as_object_mut().unwrap().get_mut(&k).unwrap(),
                None => panic!("{delta}: no frontier to grow"),
            };
            let mut longer = string.as_str().unwrap().to_owned();
            longer.push_str(grown);
            *string = Value::String(longer);
            return;
        }
        if let Some(Value::Array(fin)) = d.get("fin") {
            // The held containers that closed, innermost first, finished in
            // place; each one's parent keeps it as its complete frontier.
            assert_eq!(fin.len(), self.levels.len() - keep, "{delta}");
            for (i, added) in fin.iter().enumerate() {
                let level = self.levels.len() - 1 - i;
                let (path, frontier) = self.levels[level].clone();
                let held = at_path(self.root.as_mut().unwrap(), &path);
                match frontier {
                    Some(Seg::Index(i)) => held.as_array_mut().unwrap().truncate(i),
                    Some(Seg::Key(k)) => {
                        held.as_object_mut().unwrap().remove(&k);
                    }
                    None => {}
                }
                match added {
                    Value::Array(items) => {
                        held.as_array_mut().unwrap().extend(items.iter().cloned())
                    }
                    Value::Object(members) => {
                        for (k, v) in members {
                            held.as_object_mut().unwrap().insert(k.clone(), v.clone());
                        }
                    }
                    _ => panic!("{delta}"),
                }
                if level > 0 {
                    self.levels[level - 1].1 = None;
                }
            }
        }
        self.levels.truncate(keep);
        let mut base = Vec::new();
        if keep == 0 {
            if d.get("fin").is_none() {
                self.root = d.get("value").cloned();
            }
        } else {
            let (path, frontier) = self.levels[keep - 1].clone();
            let held = at_path(self.root.as_mut().unwrap(), &path);
            match frontier {
                Some(Seg::Index(i)) => held.as_array_mut().unwrap().truncate(i),
                Some(Seg::Key(k)) => {
                    held.as_object_mut().unwrap().remove(&k);
                }
                None => {}
            }
            match d.get("add") {
                Some(Value::Array(items)) => {
                    held.as_array_mut().unwrap().extend(items.iter().cloned())
                }
                Some(Value::Object(members)) => {
                    for (k, v) in members {
                        held.as_object_mut().unwrap().insert(k.clone(), v.clone());
                    }
                }
                _ => {}
            }
            let at = d.get("value").map(|v| (seg(&d["at"]), v.clone()));
            if let Some((at, value)) = &at {
                match (held, at) {
                    (Value::Array(items), Seg::Index(i)) => {
                        assert_eq!(items.len(), *i, "{delta}");
                        items.push(value.clone());
                    }
                    (Value::Object(members), Seg::Key(k)) => {
                        members.insert(k.clone(), value.clone());
                    }
                    _ => panic!("{delta}: the frontier's place"),
                }
            }
            self.levels[keep - 1].1 = at.as_ref().map(|(at, _)| at.clone());
            base = path;
            if let Some((at, _)) = at {
                base.push(at);
            }
        }
        if let Some(Value::Array(open)) = d.get("open") {
            let tip = d.get("tip").map(seg);
            let segs: Vec<Seg> = open.iter().map(seg).collect();
            for i in 0..=segs.len() {
                let frontier = segs.get(i).cloned().or_else(|| tip.clone());
                self.levels.push((base.clone(), frontier));
                if let Some(s) = segs.get(i) {
                    base.push(s.clone());
                }
            }
        }
    }
}

impl Mirror {
    /// The value after `added` follows, as a reader that skips asking
    /// would have it, when the delta's `tail` lets it skip (see `Tail`).
    fn skipping(&self, tail: u64, added: &str) -> Option<Option<Value>> {
        let plain = added.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
        let white = added
            .bytes()
            .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
        let digits = added.bytes().all(|b| b.is_ascii_digit());
        match tail {
            1 if plain => {
                let mut root = self.root.clone();
                let (path, frontier) = self.levels.last()?.clone();
                let held = at_path(root.as_mut()?, &path);
                let string = match frontier? {
                    Seg::Index(i) => &mut held.as_array_mut()?[i],
                    Seg::Key(k) => held.as_object_mut()?.get_mut(&k)?,
                };
                let longer = format!("{}{added}", string.as_str()?);
                *string = Value::String(longer);
                Some(root)
            }
            2 if plain => Some(self.root.clone()),
            3 if white => Some(self.root.clone()),
            4 if digits => Some(self.root.clone()),
            5 => Some(self.root.clone()),
            _ => None,
        }
    }
}

#[test]
fn the_value_read_as_what_changed_is_the_value_closed() {
    let schema = json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object"}}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let mut rng = Rng(0x0de1_7a00);
    let mut skips = 0;
    for round in 0..200 {
        let whole = Value::Object(
            (0..1 + rng.below(4))
                .map(|i| (format!("m{i}"), value(&mut rng, 0)))
                .collect(),
        );
        let text = if rng.below(2) == 0 {
            whole.to_string()
        } else {
            serde_json::to_string_pretty(&whole).unwrap()
        };
        let mut streamed = PartialValue::new(0, Some(&compiled));
        let mut mirror = Mirror::default();
        let mut cut = 0;
        let mut tail = 0;
        while cut < text.len() {
            let from = cut;
            cut = (cut + 1 + rng.below(6)).min(text.len());
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let (closed, invalid) = PartialValue::new(0, Some(&compiled)).read(&text[..cut]);
            let closed: Option<Value> = closed.map(|c| serde_json::from_str(&c).unwrap());
            // What the last delta's tail let the reader take without asking.
            if let Some(skipped) = mirror.skipping(tail, &text[from..cut]) {
                assert_eq!(
                    skipped, closed,
                    "round {round}: {text:?} from {from} to {cut}, tail {tail}"
                );
                skips += 1;
            }
            let delta = streamed.read_delta(&text[..cut]);
            mirror.apply(&delta);
            assert_eq!(
                mirror.root, closed,
                "round {round}: {text:?} at {cut}: {delta}"
            );
            let read: Value = serde_json::from_str(&delta).unwrap();
            tail = read["tail"].as_u64().unwrap();
            let listed: Value = serde_json::from_str(&delta).unwrap();
            assert_eq!(listed["invalid"], json!(invalid), "round {round} at {cut}");
        }
        assert_eq!(mirror.root.as_ref(), Some(&whole));
    }
    assert!(
        skips > 200,
        "pieces a reader could skip asking for: {skips}"
    );
}

#[test]
fn a_held_root_is_finished_in_place() {
    let mut streamed = PartialValue::new(0, None);
    streamed.read_delta(r#"[{"a":1},{"b""#);
    let delta = streamed.read_delta(r#"[{"a":1},{"b":2}]"#);
    assert_eq!(
        delta,
        r#"{"invalid":[],"fin":[{"b":2},[]],"keep":0,"tail":5}"#
    );
}

#[test]
fn an_open_string_sends_only_what_it_gained() {
    let mut streamed = PartialValue::new(0, None);
    streamed.read_delta(r#"{"a":"he"#);
    let delta = streamed.read_delta(r#"{"a":"hello \u00e9\u"#);
    // An escape being typed: the reader asks again for what follows.
    assert_eq!(
        delta,
        r#"{"invalid":[],"keep":1,"grow":"llo \u00e9","tail":0}"#
    );
    let delta = streamed.read_delta(r#"{"a":"hello \u00e9\u00e8 w"#);
    assert_eq!(
        delta,
        r#"{"invalid":[],"keep":1,"grow":"\u00e8 w","tail":1}"#
    );
}

#[test]
fn items_vouched_for_are_not_judged_again() {
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let text = r#"[1,"two",3,"four","#;
    let mut judged = PartialValue::new(0, Some(&compiled));
    assert_eq!(judged.read(text).1, vec!["/1", "/3"]);
    // A stream check that read the first three items passed them (here,
    // with another schema's verdicts, to see that they are taken as given).
    let mut vouched = PartialValue::new(0, Some(&compiled));
    vouched.vouch(r#"[1,"two",3"#.len());
    assert_eq!(vouched.read(text).1, vec!["/3"]);
    // The members of an open object are judged whatever is vouched for.
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let mut member = PartialValue::new(0, Some(&compiled));
    member.vouch(100);
    assert_eq!(member.read(r#"{"a":"x","#).1, vec!["/a"]);
}

/// `read_words` written back as `read_delta`'s JSON, as the facade reads
/// it (`applyWords` in js/stream-check.mjs), with `invalid` the list as of
/// the last words that said it changed.
fn words_as_json(words: &[u32], text: &str, invalid: &mut Value, listed: &str) -> Value {
    use crate::stream::partial::words as w;
    let flags = words[0];
    let mut at = 4;
    let mut take = |n: usize| {
        let out = words[at..at + n].to_vec();
        at += n;
        out
    };
    if flags & w::INVALID != 0 {
        *invalid = serde_json::from_str(listed).unwrap();
    }
    let mut out = serde_json::Map::new();
    out.insert("invalid".into(), invalid.clone());
    if flags & w::SAME != 0 {
        out.insert("same".into(), json!(true));
        return Value::Object(out);
    }
    let slice = |s: u32, e: u32| &text[s as usize..e as usize];
    // Members or items: `object, n`, then each a slot and its value's text.
    let members = |take: &mut dyn FnMut(usize) -> Vec<u32>| -> Value {
        let head = take(2);
        let mut object = serde_json::Map::new();
        let mut items = Vec::new();
        for _ in 0..head[1] {
            let c = take(4);
            let value: Value = serde_json::from_str(slice(c[2], c[3])).unwrap();
            if head[0] == 1 {
                let name: String = serde_json::from_str(slice(c[0], c[1])).unwrap();
                object.insert(name, value);
            } else {
                assert_eq!(c[0], w::INDEX);
                items.push(value);
            }
        }
        if head[0] == 1 {
            Value::Object(object)
        } else {
            Value::Array(items)
        }
    };
    let fins = words[3] as usize;
    if fins > 0 {
        let fin = (0..fins).map(|_| members(&mut take)).collect();
        out.insert("fin".into(), Value::Array(fin));
    }
    out.insert("keep".into(), json!(words[2]));
    if flags & w::GROW != 0 {
        let g = take(2);
        let grown: Value = serde_json::from_str(&format!("\"{}\"", slice(g[0], g[1]))).unwrap();
        out.insert("grow".into(), grown);
    }
    if flags & w::ADD != 0 {
        out.insert("add".into(), members(&mut take));
    }
    let slot = |take: &mut dyn FnMut(usize) -> Vec<u32>| -> Value {
        let s = take(2);
        if s[0] == w::INDEX {
            json!(s[1])
        } else {
            serde_json::from_str(slice(s[0], s[1])).unwrap()
        }
    };
    if flags & w::VALUE != 0 {
        let v = take(4);
        let mut json = slice(v[0], v[1]).to_owned();
        if v[2] == 1 {
            json.push('"');
        }
        for object in take(v[3] as usize) {
            json.push(if object == 1 { '}' } else { ']' });
        }
        out.insert("value".into(), serde_json::from_str(&json).unwrap());
    }
    if flags & w::AT != 0 {
        out.insert("at".into(), slot(&mut take));
    }
    if flags & w::OPEN != 0 {
        let n = take(1)[0];
        let open = (0..n).map(|_| slot(&mut take)).collect();
        out.insert("open".into(), Value::Array(open));
    }
    if flags & w::TIP != 0 {
        out.insert("tip".into(), slot(&mut take));
    }
    out.insert("tail".into(), json!(words[1]));
    Value::Object(out)
}

#[test]
fn the_numbers_say_what_the_json_says() {
    let schema = json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}}});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let mut rng = Rng(0x0de1_7a01);
    for round in 0..300 {
        let whole = if round % 10 == 0 {
            value(&mut rng, 0)
        } else {
            Value::Object(
                (0..1 + rng.below(4))
                    .map(|i| (format!("m\\u00e9{i}"), value(&mut rng, 0)))
                    .collect(),
            )
        };
        let text = if rng.below(2) == 0 {
            whole.to_string()
        } else {
            serde_json::to_string_pretty(&whole).unwrap()
        };
        let mut as_json = PartialValue::new(0, Some(&compiled));
        let mut as_words = PartialValue::new(0, Some(&compiled));
        let mut words = Vec::new();
        let mut invalid = json!([]);
        let mut cut = 0;
        while cut < text.len() {
            cut = (cut + 1 + rng.below(8)).min(text.len());
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let expected: Value = serde_json::from_str(&as_json.read_delta(&text[..cut])).unwrap();
            as_words.read_words(&text[..cut], &mut words);
            let listed = as_words.invalid_json();
            let read = words_as_json(&words, &text[..cut], &mut invalid, &listed);
            assert_eq!(
                read, expected,
                "round {round}: {text:?} at {cut}: {words:?}"
            );
        }
    }
}

#[test]
fn locations_kept_from_an_earlier_stream_judge_alike() {
    let schema = json!({
        "type": "object",
        "patternProperties": {"^n": {"type": "integer"}},
        "properties": {"rows": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}},
        "additionalProperties": {"type": "string"}
    });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    let texts = [
        r#"{"n1":1,"n2":"x","rows":[{"id":1},{"id":"y"}],"other":2,"more":"ok"}"#,
        r#"{"rows":[{"id":"z"}],"n":true,"zz":"s","rows2":[1]"#,
    ];
    let fresh = |text: &str| {
        let mut alone = PartialValue::new(0, Some(&compiled));
        // Another reading open at the same time works out its own.
        let mut beside = PartialValue::new(0, Some(&compiled));
        let read = alone.read(text);
        assert_eq!(beside.read(text), read);
        read
    };
    let first: Vec<_> = texts.iter().map(|t| fresh(t)).collect();
    assert_eq!(
        first[0].1,
        ["", "/n2", "/rows", "/rows/1", "/rows/1/id", "/other"]
    );
    for _ in 0..3 {
        for (text, read) in texts.iter().zip(&first) {
            assert_eq!(&fresh(text), read, "{text}");
        }
    }
}
