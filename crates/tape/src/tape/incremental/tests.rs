//! The resumable parser against `parse`: the same tape for every way of
//! cutting a text, and a stop exactly where `parse` fails before the end.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use super::*;
use crate::tape::parse;
use crate::test_rng::Rng;

/// Hears nothing, stops nothing; asks for every open string, and, when
/// `through`, to be told nothing of a container the text holds whole.
struct Deaf {
    through: bool,
    /// Items after one read through are read through in a run (see
    /// `Watch::items_alike`).
    alike: bool,
}

impl Watch for Deaf {
    fn begin(&mut self, _: &mut Lend<'_>, _: usize, kind: Kind) -> ControlFlow<(), bool> {
        ControlFlow::Continue(kind == Kind::String || self.through)
    }
    fn items_alike(&mut self, _: usize) -> bool {
        self.alike
    }
    fn name(&mut self, _: &mut Lend<'_>, _: u32) -> Flow {
        ControlFlow::Continue(())
    }
    fn end(&mut self, _: &mut Lend<'_>, _: u32, _: usize) -> Flow {
        ControlFlow::Continue(())
    }
    fn partial(&mut self, _: &mut Lend<'_>, string: Partial<'_>) -> Flow {
        // The raw text handed over is always whole characters and escapes.
        let decoded = strings::decode(string.raw);
        assert!(
            !decoded.contains(char::REPLACEMENT_CHARACTER),
            "a partial escape was handed over: {:?}",
            string.raw
        );
        assert_eq!(
            decoded.chars().count() as u64,
            string.chars,
            "chars of {:?}",
            string.raw
        );
        ControlFlow::Continue(())
    }
}

const STRINGS: [&str; 12] = [
    "",
    "a",
    "plain text",
    "é",
    "漢字",
    "😀",
    "\\n",
    "\\\"quoted\\\"",
    "\\\\",
    "\\u00e9x",
    "\\ud83d\\ude00",
    "\\/\\b\\f\\r\\t",
];
const NUMBERS: [&str; 10] = [
    "0",
    "-0",
    "7",
    "-12",
    "3.25",
    "1e3",
    "-2.5E-3",
    "1E+2",
    "12345678901234567890",
    "0.000001",
];
const NAMES: [&str; 6] = ["a", "b", "type", "t\\u0079pe", "é", "a b"];

fn space(rng: &mut Rng) -> &'static str {
    ["", "", "", " ", "\n", "\t", " \r\n "][rng.below(7)]
}

fn value(rng: &mut Rng, depth: usize, out: &mut String) {
    let choice = if depth >= 4 {
        2 + rng.below(4)
    } else {
        rng.below(6)
    };
    match choice {
        0 => {
            out.push('{');
            let n = rng.below(5);
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(space(rng));
                out.push('"');
                out.push_str(rng.pick(&NAMES));
                out.push('"');
                out.push_str(space(rng));
                out.push(':');
                out.push_str(space(rng));
                value(rng, depth + 1, out);
                out.push_str(space(rng));
            }
            out.push('}');
        }
        1 => {
            out.push('[');
            let n = rng.below(5);
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(space(rng));
                value(rng, depth + 1, out);
                out.push_str(space(rng));
            }
            out.push(']');
        }
        2 => {
            out.push('"');
            out.push_str(rng.pick(&STRINGS));
            out.push_str(rng.pick(&STRINGS));
            out.push('"');
        }
        3 => out.push_str(rng.pick(&NUMBERS)),
        4 => out.push_str(["true", "false", "null"][rng.below(3)]),
        _ => {
            out.push('"');
            out.push_str(rng.pick(&STRINGS));
            out.push('"');
        }
    }
}

fn document(rng: &mut Rng) -> String {
    let mut out = String::new();
    out.push_str(space(rng));
    if rng.below(2) == 0 {
        out.push('{');
        out.push('"');
        out.push_str(rng.pick(&NAMES));
        out.push_str("\":");
        value(rng, 1, &mut out);
        out.push('}');
    } else {
        value(rng, 0, &mut out);
    }
    out
}

/// Cut points at character boundaries, `pieces` of them at random.
fn cuts(rng: &mut Rng, text: &str, pieces: usize) -> Vec<usize> {
    let mut points: Vec<usize> = (0..pieces)
        .map(|_| rng.below(text.len() + 1))
        .filter(|&p| text.is_char_boundary(p))
        .collect();
    points.sort_unstable();
    points.push(text.len());
    points
}

/// Feeds `text` cut at `points`; the outcome after the last piece, and
/// the parser. `through`: containers the text holds whole are read
/// through (see `Watch::begin`).
fn feed_cut(text: &str, points: &[usize], through: bool) -> (Result<Fed, Stop>, Incremental) {
    feed_cut_alike(text, points, through, false)
}

/// The same, with items read through in runs when `alike`.
fn feed_cut_alike(
    text: &str,
    points: &[usize],
    through: bool,
    alike: bool,
) -> (Result<Fed, Stop>, Incremental) {
    let mut parser = Incremental::new(0);
    let mut outcome = Ok(Fed::Pending);
    let mut deaf = Deaf { through, alike };
    for &point in points {
        outcome = parser.feed(&text[..point], &mut deaf);
        if !matches!(outcome, Ok(Fed::Pending)) {
            break;
        }
    }
    (outcome, parser)
}

fn assert_same_tape(text: &str, parser: Incremental) {
    let expected = parse(text).unwrap();
    let tape = parser.into_tape(text).expect("a complete root value");
    assert_eq!(tape.entries, expected.entries, "entries of {text:?}");
    assert_eq!(tape.redirects, expected.redirects, "redirects of {text:?}");
    assert_eq!(tape.to_value(), expected.to_value());
}

#[test]
fn every_cut_gives_the_tape_parse_gives() {
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..300 {
        // A space after the root, so that a root number is known complete.
        let text = format!("{} ", document(&mut rng));
        let json_end = text.trim_end().len();
        let every: Vec<Vec<usize>> = if text.len() < 120 {
            (0..=text.len())
                .filter(|&p| text.is_char_boundary(p))
                .map(|p| vec![p, text.len()])
                .collect()
        } else {
            Vec::new()
        };
        let one_by_one: Vec<usize> = (1..=text.len())
            .filter(|&p| text.is_char_boundary(p))
            .collect();
        let random: Vec<Vec<usize>> = (0..4)
            .map(|_| {
                let n = 1 + rng.below(12);
                cuts(&mut rng, &text, n)
            })
            .collect();
        for (points, through, alike) in every
            .iter()
            .chain(random.iter())
            .chain(std::iter::once(&one_by_one))
            .flat_map(|points| {
                [
                    (points, false, false),
                    (points, true, false),
                    (points, true, true),
                ]
            })
        {
            let (outcome, parser) = feed_cut_alike(&text, points, through, alike);
            let end = match outcome {
                Ok(Fed::Complete { end }) => end,
                other => panic!("{text:?} cut at {points:?}: {other:?}"),
            };
            let parsed_end = if text
                .trim_start()
                .starts_with(['{', '[', '"', 't', 'f', 'n'])
            {
                json_end
            } else {
                // A number ends where the white space after it begins.
                json_end
            };
            assert_eq!(end, parsed_end, "{text:?}");
            assert_same_tape(&text[..end], parser);
        }
    }
}

#[test]
fn a_stop_is_where_parse_fails_and_only_there() {
    const NOISE: [&str; 16] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "x", "1", "-", ".", "e", "\u{1}", "tru", "\\u12",
    ];
    let mut rng = Rng(0x5eed_0002);
    let mut stops = 0;
    for _ in 0..3000 {
        let mut text = document(&mut rng);
        for _ in 0..1 + rng.below(2) {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(3) {
                0 => text.insert_str(at, rng.pick(&NOISE)),
                1 => {
                    let mut end = at + 1;
                    while end < text.len() && !text.is_char_boundary(end) {
                        end += 1;
                    }
                    if end <= text.len() {
                        text.replace_range(at..end, "");
                    }
                }
                _ => {
                    let noise = rng.pick(&NOISE);
                    let mut end = at + 1;
                    while end < text.len() && !text.is_char_boundary(end) {
                        end += 1;
                    }
                    if end <= text.len() {
                        text.replace_range(at..end, noise);
                    }
                }
            }
        }
        let n = 1 + rng.below(8);
        let random = cuts(&mut rng, &text, n);
        let one_by_one: Vec<usize> = (1..=text.len())
            .filter(|&p| text.is_char_boundary(p))
            .collect();
        let mut outcomes = Vec::new();
        let ways = [vec![text.len()], random, one_by_one]
            .into_iter()
            .flat_map(|points| {
                [
                    (points.clone(), false, false),
                    (points.clone(), true, false),
                    (points, true, true),
                ]
            });
        for (points, through, alike) in ways {
            let (outcome, parser) = feed_cut_alike(&text, &points, through, alike);
            match outcome {
                Err(Stop::Syntax { at, escape }) => {
                    stops += 1;
                    let through = (at + 1..=text.len())
                        .find(|&end| text.is_char_boundary(end))
                        .unwrap();
                    let mut shown = parse(&text[..through]).expect_err("parse fails too");
                    if escape {
                        // Four bytes of a `\u` escape are read at once.
                        shown = parse(&format!("{}000", &text[..through]))
                            .expect_err("parse fails too");
                    }
                    assert!(
                        !shown.message.starts_with("EOF"),
                        "{text:?}: stopped at {at}, parse says {shown}"
                    );
                    // Nothing before the stop already fails, but for a
                    // number, which is decided at the byte after it.
                    if let Err(before) = parse(&text[..at]) {
                        let after_number = text[..at]
                            .ends_with(|c: char| c.is_ascii_digit() || "+-.eE".contains(c));
                        assert!(
                            before.message.starts_with("EOF") || after_number,
                            "{text:?}: stopped at {at}, already failing: {before}"
                        );
                    }
                }
                Ok(Fed::Complete { end }) => {
                    assert_same_tape(&text[..end], parser);
                }
                Ok(Fed::Pending) => {
                    // Incomplete, or a root number that may go on.
                    match parse(&text) {
                        Err(e) => assert!(
                            e.message.starts_with("EOF"),
                            "{text:?}: pending, parse says {e}"
                        ),
                        Ok(tape) => {
                            assert_eq!(tape.entries.len(), 1, "{text:?}: pending but complete")
                        }
                    }
                }
                Err(other) => panic!("{text:?}: {other:?}"),
            }
            outcomes.push(outcome);
        }
        // However the text is cut, the same outcome; a stop may come
        // earlier when a piece ends inside a number (decided at a pause).
        let whole = outcomes[0];
        for outcome in &outcomes[1..] {
            match (whole, outcome) {
                (Err(Stop::Syntax { at: late, .. }), Err(Stop::Syntax { at, .. })) => {
                    assert!(*at <= late, "{text:?}: {outcomes:?}");
                }
                _ => assert_eq!(whole, *outcome, "{text:?}: {outcomes:?}"),
            }
        }
    }
    assert!(
        stops > 500,
        "the mutations should break most texts ({stops})"
    );
}

#[test]
fn nesting_stops_at_the_parsers_limit() {
    let deepest = format!("{}{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1));
    assert!(parse(&deepest).is_ok());
    for through in [false, true] {
        let (outcome, parser) = feed_cut(&deepest, &[10, deepest.len()], through);
        assert_eq!(outcome, Ok(Fed::Complete { end: deepest.len() }));
        assert_same_tape(&deepest, parser);
        // Too deep, whether it closes in the text at hand or not.
        let open = "[".repeat(MAX_DEPTH);
        let closed = format!("{open}{}", "]".repeat(MAX_DEPTH));
        for deeper in [&open, &closed] {
            let (outcome, _) = feed_cut(deeper, &[deeper.len()], through);
            assert_eq!(
                outcome,
                Err(Stop::Syntax {
                    at: MAX_DEPTH - 1,
                    escape: false
                })
            );
        }
    }
    let deeper = "[".repeat(MAX_DEPTH);
    assert!(parse(&deeper)
        .unwrap_err()
        .message
        .starts_with("recursion limit"));
}

/// A stream's tape starts from the buffer the last tape dropped, as a
/// whole-text parse does, and leaves its own for the next one.
#[test]
fn the_tape_starts_from_the_spare_buffer() {
    let text = format!("[{}] ", vec!["0"; 1_000].join(","));
    drop(parse(&text));
    let kept = crate::tape::parse::spare_capacity();
    assert!(kept >= 1_001);
    let (outcome, parser) = feed_cut(&text, &[10, text.len()], true);
    assert!(matches!(outcome, Ok(Fed::Complete { .. })));
    assert_eq!(
        crate::tape::parse::spare_capacity(),
        0,
        "taken by the stream"
    );
    assert!(parser.entries.capacity() >= kept);
    assert_same_tape(&text, parser);
    assert!(crate::tape::parse::spare_capacity() >= kept, "given back");
}

/// A stream's parse dropped before its end (rejected, or abandoned) gives
/// its buffer back too, for the next parse or stream to start from.
#[test]
fn an_unfinished_parse_gives_its_buffer_back() {
    let text = format!("[{}", vec!["0"; 1_000].join(","));
    drop(parse::spare_entries());
    assert_eq!(crate::tape::parse::spare_capacity(), 0);
    let (outcome, parser) = feed_cut(&text, &[10, text.len()], true);
    assert!(matches!(outcome, Ok(Fed::Pending)));
    let grown = parser.entries.capacity();
    assert!(grown >= 1_000);
    assert!(
        parser.into_tape(&text).is_none(),
        "the root value is still open"
    );
    assert_eq!(crate::tape::parse::spare_capacity(), grown, "given back");
}

/// Reads every container through, and records each value that ends, as
/// `(entry, depth, bytes read)`, by `end` or by `item`.
struct Recorder {
    alike: bool,
    ended: Vec<(u32, usize, usize)>,
    /// Items told of by `item`.
    runs: usize,
}

impl Recorder {
    fn new(alike: bool) -> Self {
        Recorder {
            alike,
            ended: Vec::new(),
            runs: 0,
        }
    }
}

impl Watch for Recorder {
    fn begin(&mut self, _: &mut Lend<'_>, _: usize, kind: Kind) -> ControlFlow<(), bool> {
        ControlFlow::Continue(matches!(kind, Kind::Object | Kind::Array))
    }
    fn name(&mut self, _: &mut Lend<'_>, _: u32) -> Flow {
        ControlFlow::Continue(())
    }
    fn end(&mut self, tape: &mut Lend<'_>, index: u32, depth: usize) -> Flow {
        self.ended.push((index, depth, tape.read()));
        ControlFlow::Continue(())
    }
    fn partial(&mut self, _: &mut Lend<'_>, _: Partial<'_>) -> Flow {
        ControlFlow::Continue(())
    }
    fn items_alike(&mut self, _: usize) -> bool {
        self.alike
    }
    fn item(&mut self, tape: &mut Lend<'_>, index: u32, depth: usize, start: usize) -> Flow {
        let open = tape.src.as_bytes()[start];
        let close = tape.src.as_bytes()[tape.read() - 1];
        assert!(
            matches!((open, close), (b'{', b'}') | (b'[', b']')),
            "item {index} from {start} to {} of {:?}",
            tape.read(),
            tape.src
        );
        assert_eq!(
            tape.kind(index),
            if open == b'{' {
                Kind::Object
            } else {
                Kind::Array
            }
        );
        self.runs += 1;
        self.ended.push((index, depth, tape.read()));
        ControlFlow::Continue(())
    }
}

#[test]
fn items_read_in_a_run_are_told_of_as_each_would_end() {
    let mut rng = Rng(0x5eed_0003);
    let mut runs = 0;
    for round in 0..400 {
        // Arrays of several containers, among other values.
        let mut text = String::from("[");
        let items = 1 + rng.below(6);
        let bracket = rng.below(2) == 0;
        for i in 0..items {
            if i > 0 {
                text.push_str(space(&mut rng));
                text.push(',');
                text.push_str(space(&mut rng));
            }
            let mut item = String::new();
            value(&mut rng, 2, &mut item);
            if bracket {
                text.push_str(&format!("{{\"a\":{item}}}"));
            } else {
                text.push_str(&format!("[{item}]"));
            }
        }
        text.push_str("] ");
        let whole = vec![text.len()];
        let random = cuts(&mut rng, &text, 1 + round % 5);
        for points in [&whole, &random] {
            let heard = |alike: bool| {
                let mut parser = Incremental::new(0);
                let mut recorder = Recorder::new(alike);
                for &point in points.iter() {
                    if !matches!(parser.feed(&text[..point], &mut recorder), Ok(Fed::Pending)) {
                        break;
                    }
                }
                assert_same_tape(text.trim_end(), parser);
                (recorder.ended, recorder.runs)
            };
            let (each, none) = heard(false);
            let (run, told) = heard(true);
            assert_eq!(none, 0);
            assert_eq!(run, each, "{text:?} cut at {points:?}");
            runs += told;
        }
        // Broken inside or between the items: the same stop, after the
        // same values, with runs and without.
        let mut broken = text.clone();
        let at = rng.below(broken.len());
        if broken.is_char_boundary(at) {
            broken.insert_str(at, rng.pick(&["}", "]", ",", "\"", "x", ":"]));
        }
        let stopped = |alike: bool| {
            let mut parser = Incremental::new(0);
            let mut recorder = Recorder::new(alike);
            let outcome = parser.feed(&broken, &mut recorder);
            (outcome, recorder.ended)
        };
        assert_eq!(stopped(true), stopped(false), "{broken:?}");
    }
    // Runs were read: the text held several items whole.
    assert!(runs > 100, "{runs} items read in runs");
}
