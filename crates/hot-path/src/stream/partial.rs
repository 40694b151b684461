//! The value of a response that is still arriving, for a preview: the JSON
//! text so far with its open frontier closed, and which of its complete
//! members and items fail the checks that apply to them on their own.
//!
//! [`PartialValue`] reads the text once, as it grows (each `read` goes on
//! from where the last stopped), keeping the open containers and where each
//! one's last complete member or item ends. Closing the frontier is then a
//! slice of the text up to that place plus the closing brackets, built
//! only when asked ([`PartialValue::read`]); or, for a reader that keeps
//! the value and grows it in place, only what changed since the last
//! reading: the members and items completed since, and the new frontier
//! ([`PartialValue::read_delta`]), so that reading after every piece costs
//! the new text rather than the whole value each time.
//!
//! What the closed value holds (`close`):
//!
//! * every complete value, as it is in the text;
//! * an open object with its complete members, an open array with its
//!   complete items, however deep;
//! * an open string as its prefix (an escape still being typed left out,
//!   and so a high surrogate whose low half has not come yet);
//! * not a member whose name is still open, or whose name is complete but
//!   whose value has not begun; not a number still being typed (the next
//!   byte may make `1` into `10`, or `1.` into `1.5`: the value is not
//!   known, so it is not shown); not a `true`, `false` or `null` still
//!   being typed. So every number, boolean and null shown is final, and
//!   the only values that still change are open strings and open
//!   containers.
//!
//! Nothing is shown before the root value begins, nor while the root is a
//! number or literal still being typed. After the root value closes, what
//! follows it is not read; after a byte that no JSON text can hold, the
//! reading stops where it was (the stream check rejects that text).
//!
//! Which values are judged (`invalid`): the complete members and items of
//! each open container, and the root once it is complete. Each is checked
//! against the subschemas that apply to its location unconditionally (the
//! stream check's [`Plan`], see `json`), and a member whose name the
//! object's schema refuses fails. Inside a complete value that fails, its
//! own members and items are judged the same way, so that the pointers
//! name the innermost values at fault as well. Judging happens on `read`,
//! once per value while its container is open.

use std::sync::Arc;

use crate::schema::{node_is_valid, with_own_budget, CompiledSchema, PATTERN_STEPS_PER_CHECK};
use crate::stream::plan::{escape_segment, LocId, Locs, Plan};
use crate::tape::{self, TapeNode, MAX_DEPTH};

/// A complete member or item of an open container, not yet judged.
#[derive(Clone, Copy)]
struct Child {
    start: usize,
    end: usize,
    /// A member's name, with its quotes.
    name: Option<(usize, usize)>,
    index: u32,
}

struct Frame {
    object: bool,
    /// Where its opening bracket is.
    open: usize,
    /// The reader holds it (see `read_delta`), with its members or items
    /// up to `shown_end`.
    shown: bool,
    shown_end: usize,
    /// Past the last complete member or item (or the opening bracket).
    last_end: usize,
    /// Members or items begun.
    count: u32,
    /// This container's place in its parent.
    name: Option<(usize, usize)>,
    index: u32,
    /// The name of the member being read.
    member: Option<(usize, usize)>,
    /// Where the value being read begins.
    value_start: usize,
    pending: Vec<Child>,
    /// While the reader holds it: the members or items completed after
    /// `shown_end`, for `read_words`.
    fresh: Vec<Child>,
    invalid: Vec<String>,
    /// Worked out on the first judging (see `locate`).
    loc: Option<Option<LocId>>,
    pointer: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// A value may begin (the root, an item, a member's value).
    Value,
    /// After `[`: a value or `]`.
    ValueOrClose,
    /// After `{`: a name or `}`.
    NameOrClose,
    /// After a comma in an object.
    Name,
    InName {
        start: usize,
        escape: bool,
    },
    Colon,
    /// After a value: a comma, or the container's end.
    After,
    InString {
        start: usize,
        escape: bool,
    },
    Number {
        start: usize,
    },
    Literal {
        start: usize,
        word: &'static [u8],
    },
    /// The root value is complete.
    Done {
        end: usize,
    },
}

/// What the bytes that follow the text read so far change in the value a
/// reader of [`PartialValue::read_delta`] holds, so that it may skip asking
/// for a piece that changes nothing or only lengthens the open string it
/// holds. "Plain" bytes are those a string holds as they are: not a quote,
/// a backslash or a control character (below 0x20).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Tail {
    /// Any byte may change it: ask.
    Asks = 0,
    /// Plain bytes go, as they are, at the end of the open string that is
    /// the innermost held container's frontier; any other byte: ask.
    String = 1,
    /// Plain bytes change nothing (a member name being read).
    Hidden = 2,
    /// JSON white space changes nothing (between tokens).
    White = 3,
    /// Digits change nothing (a number being typed is not shown).
    Digits = 4,
    /// Nothing that follows changes it (the root is complete, or the text
    /// broke off).
    Any = 5,
}

/// The partial value of one stream's JSON (see the module docs).
pub struct PartialValue {
    start: usize,
    pos: usize,
    state: State,
    frames: Vec<Frame>,
    /// A byte no JSON text can hold was met at `pos`.
    broken: bool,
    plan: Option<Arc<Plan>>,
    locs: Locs,
    /// What fails in the complete root, once judged.
    root_invalid: Option<Vec<String>>,
    /// Where the reading stood at the last `read_delta` (none yet).
    delta_at: Option<(usize, State)>,
    /// The containers the reader held that closed since the last
    /// `read_delta`, innermost first: whether each is an object, where its
    /// members or items shown to the reader end, and where its closing
    /// bracket is (the reader finishes them in place).
    closed_held: Vec<(bool, usize, usize, Vec<Child>)>,
    /// The open string the reader holds as the innermost container's
    /// frontier: where it begins, and where its prefix shown ends.
    shown_string: Option<(usize, usize)>,
    /// Array items that end within these first bytes of the text passed
    /// what applies to them already (see `vouch`).
    vouched: usize,
    /// The pointers of what failed as of the last `read_words` (see
    /// `invalid_json`), and the list being made for the next.
    invalid: Vec<String>,
    judged: Vec<String>,
}

impl PartialValue {
    /// The value of the JSON that begins at byte `start` of the text,
    /// judged against `schema` (nothing is judged without one, or when the
    /// schema's meaning depends on more than the location).
    pub fn new(start: usize, schema: Option<&CompiledSchema>) -> Self {
        let plan = schema.and_then(|schema| schema.derived(Plan::derive));
        let locs = plan
            .as_ref()
            .map(|plan| plan.take_locs())
            .unwrap_or_default();
        PartialValue {
            start,
            pos: start,
            state: State::Value,
            frames: Vec::new(),
            broken: false,
            plan,
            locs,
            root_invalid: None,
            delta_at: None,
            closed_held: Vec::new(),
            shown_string: None,
            vouched: 0,
            invalid: Vec::new(),
            judged: Vec::new(),
        }
    }

    /// Every array item that ends within the first `through` bytes of the
    /// text passed the subschemas that apply to its location: a stream
    /// check that read that far with the same plan says so (see
    /// `JsonStream::items_passed_through`), and such items are not judged
    /// again. 0: none is vouched for.
    pub fn vouch(&mut self, through: usize) {
        self.vouched = through;
    }

    /// Reads `text` (all of it so far) on from where the last call stopped,
    /// and gives the closed value's JSON text (`None` when there is no
    /// value to show yet) and the JSON Pointers of the complete members
    /// and items that fail.
    pub fn read(&mut self, text: &str) -> (Option<String>, Vec<String>) {
        self.scan(text.as_bytes());
        let value = self.close(text);
        let mut invalid = Vec::new();
        self.judge(text, &mut invalid);
        (value, invalid)
    }

    /// The JSON text `{"invalid":[...],"value":...}` (no `value` when
    /// there is none to show), for the facade to parse once.
    pub fn read_json(&mut self, text: &str) -> String {
        let (value, invalid) = self.read(text);
        let mut out = String::with_capacity(value.as_ref().map_or(0, String::len) + 32);
        push_invalid(&mut out, &invalid);
        if let Some(value) = value {
            out.push_str(",\"value\":");
            out.push_str(&value);
        }
        out.push('}');
        out
    }

    /// The same value, as what changed since the last call, for a reader
    /// that keeps the value and grows it in place, so that reading after
    /// every piece costs the new text, not the whole value each time. JSON
    /// text `{"invalid":[...], ...}` with:
    ///
    /// * `same: true`: nothing changed;
    /// * `grow`: with `keep` all the containers the reader holds, the text
    ///   the open string that is the innermost one's frontier gained (and
    ///   nothing else changed);
    /// * `fin`: what each open container the reader held that has closed
    ///   since gained (an object of members or an array of items, to go
    ///   after the ones it has, once its frontier is taken out), innermost
    ///   first, so that the reader finishes it in place; the container
    ///   holding each stays as its complete frontier. After the root
    ///   closes, `fin` with `keep` 0 leaves the whole value finished;
    /// * `keep`: how many of the open containers the reader holds (each
    ///   holding the next as its frontier, see below) are still open; it
    ///   lets go of the rest (after `fin`). When `keep` is 0 without `fin`,
    ///   `value` (if any) is the whole value;
    /// * `add`: the complete members (an object) or items (an array) that
    ///   the innermost container kept gained, to go after the ones it has,
    ///   once its frontier is taken out;
    /// * `value`, at `at` (a name or an index) in that container: its new
    ///   frontier, closed (absent: it has none);
    /// * `open`: when `value` is an open container, the names or indices of
    ///   the open containers inside it, each the frontier of the one
    ///   before: the reader holds them all from now on; `tip`: the
    ///   frontier (an open string) of the innermost one.
    ///
    /// and, last, `tail`: what the bytes that follow the text change in
    /// the value, for a reader that may skip asking while they change
    /// nothing but an open string's end (see [`Tail`]).
    pub fn read_delta(&mut self, text: &str) -> String {
        let mut out = self.write_delta(text);
        // Every delta is written as a JSON object, its closing brace last.
        out.pop();
        out.push_str(",\"tail\":");
        crate::json_text::push_usize(&mut out, self.tail() as usize);
        out.push('}');
        out
    }

    /// The same as `read_delta`, written as numbers into `out` (emptied
    /// first) for a reader that takes the text at those places itself, so
    /// that nothing is written as JSON, nor parsed, but what changed: see
    /// [`words`] for the layout. The pointers of what fails are not
    /// written: [`words::INVALID`] says when they differ from the last
    /// reading's, and `invalid_json` gives them.
    pub fn read_words(&mut self, text: &str, out: &mut Vec<u32>) {
        let mut judged = std::mem::take(&mut self.judged);
        judged.clear();
        let delta = self.delta(text, &mut judged);
        let mut flags = 0;
        if judged != self.invalid {
            flags |= words::INVALID;
            std::mem::swap(&mut self.invalid, &mut judged);
        }
        self.judged = judged;
        out.clear();
        let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        out.extend([0, self.tail() as u32, at(delta.keep), at(delta.fin.len())]);
        if delta.same {
            flags |= words::SAME;
        }
        let children = |out: &mut Vec<u32>, object: bool, children: &[Child]| {
            out.extend([u32::from(object), at(children.len())]);
            for child in children {
                match child.name {
                    Some((s, e)) => out.extend([at(s), at(e)]),
                    None => out.extend([words::INDEX, child.index]),
                }
                out.extend([at(child.start), at(child.end)]);
            }
        };
        for ((object, _, _), fresh) in &delta.fin {
            children(out, *object, fresh);
        }
        if let Some((from, cut)) = delta.grow {
            flags |= words::GROW;
            out.extend([at(from), at(cut)]);
        }
        if let Some(((object, _, _), fresh)) = &delta.add {
            flags |= words::ADD;
            children(out, *object, fresh);
        }
        if let Some((start, cut, open_string)) = delta.value {
            flags |= words::VALUE;
            out.extend([
                at(start),
                at(cut),
                u32::from(open_string),
                at(delta.closers.len()),
            ]);
            out.extend(delta.closers.iter().map(|&object| u32::from(object)));
        }
        let slot = |out: &mut Vec<u32>, slot: Slot| match slot {
            Slot::Name(s, e) => out.extend([at(s), at(e)]),
            Slot::Index(index) => out.extend([words::INDEX, index]),
        };
        if let Some(place) = delta.at {
            flags |= words::AT;
            slot(out, place);
        }
        if delta.opened {
            flags |= words::OPEN;
            out.push(at(delta.open.len()));
            for &place in &delta.open {
                slot(out, place);
            }
            if let Some(tip) = delta.tip {
                flags |= words::TIP;
                slot(out, tip);
            }
        }
        if let Some(first) = out.first_mut() {
            *first = flags;
        }
    }

    /// The pointers of what failed as of the last `read_words`, as a JSON
    /// array.
    pub fn invalid_json(&self) -> String {
        let mut out = String::from("[");
        for (i, pointer) in self.invalid.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            crate::json_text::push_json_str(&mut out, pointer);
        }
        out.push(']');
        out
    }

    /// What the bytes after the text read so far change in the value the
    /// reader of `read_delta` holds (see [`Tail`]).
    fn tail(&self) -> Tail {
        if self.broken {
            return Tail::Any;
        }
        match self.state {
            State::Done { .. } => Tail::Any,
            // The open string the reader holds as its innermost frontier,
            // shown up to the last byte read (no escape being typed).
            State::InString {
                start,
                escape: false,
            } => match self.shown_string {
                Some((shown, cut))
                    if shown == start
                        && cut == self.pos
                        && !self.frames.is_empty()
                        && self.frames.iter().all(|f| f.shown) =>
                {
                    Tail::String
                }
                _ => Tail::Asks,
            },
            State::InName { escape: false, .. } => Tail::Hidden,
            State::Number { .. } => Tail::Digits,
            State::Value
            | State::ValueOrClose
            | State::NameOrClose
            | State::Name
            | State::Colon
            | State::After => Tail::White,
            _ => Tail::Asks,
        }
    }

    /// What changed since the last reading (see `read_delta`), as places
    /// in `text`; the judging's pointers go to `invalid`.
    fn delta(&mut self, text: &str, invalid: &mut Vec<String>) -> Delta {
        self.scan(text.as_bytes());
        self.judge(text, invalid);
        let mut delta = Delta::default();
        let now = (self.pos, self.state);
        if self.delta_at == Some(now) {
            delta.same = true;
            return delta;
        }
        self.delta_at = Some(now);
        let finished = !self.closed_held.is_empty();
        // What the held containers that closed gained, innermost first.
        for (object, shown_end, bracket, fresh) in self.closed_held.drain(..) {
            let start = body_start(text, shown_end, bracket);
            delta.fin.push(((object, start, bracket), fresh));
        }
        if let State::Done { end } = self.state {
            // Without `fin`, the reader did not hold the root: it is the value.
            if !finished {
                delta.value = Some((self.start, end, false));
            }
            return delta;
        }
        let keep = self.frames.iter().take_while(|f| f.shown).count();
        delta.keep = keep;
        let shown_string = self.shown_string.take();
        if let (State::InString { start, .. }, Some((shown, from)), false, true) = (
            self.state,
            shown_string,
            finished,
            keep == self.frames.len() && keep > 0,
        ) {
            if shown == start {
                // The same open string, longer: only what it gained.
                let cut = string_prefix_end(text.as_bytes(), start, self.pos);
                delta.grow = Some((from, cut.max(from)));
                self.shown_string = Some((start, cut.max(from)));
                return delta;
            }
        }
        if let Some(frame) = keep.checked_sub(1).and_then(|m| self.frames.get_mut(m)) {
            let body = body_start(text, frame.shown_end, frame.last_end);
            let fresh = std::mem::take(&mut frame.fresh);
            if body < frame.last_end {
                delta.add = Some(((frame.object, body, frame.last_end), fresh));
            }
            frame.shown_end = frame.last_end;
        }
        // The new frontier: the first container not held, or the open string.
        let string = match self.state {
            State::InString { start, .. } => Some(start),
            _ => None,
        };
        let from = match (self.frames.get(keep), string) {
            (Some(frame), _) => Some(frame.open),
            (None, Some(start)) => Some(start),
            (None, None) => None,
        };
        let Some(from) = from else {
            return delta;
        };
        let (cut, open_string) = match string {
            Some(start) => (string_prefix_end(text.as_bytes(), start, self.pos), true),
            None => (self.frames.last().map_or(from, |f| f.last_end), false),
        };
        if let (Some(start), false) = (string, self.frames.is_empty()) {
            self.shown_string = Some((start, cut));
        }
        delta.value = Some((from, cut, open_string));
        delta.closers = self
            .frames
            .iter()
            .skip(keep)
            .rev()
            .map(|frame| frame.object)
            .collect();
        // Where it goes in the innermost container held.
        let place = |frame: &Frame, child: Option<&Frame>| -> Slot {
            let (name, index) = match child {
                Some(child) => (child.name, child.index),
                None => (frame.member, frame.count.saturating_sub(1)),
            };
            match (frame.object, name) {
                (true, Some((s, e))) => Slot::Name(s, e),
                _ => Slot::Index(index),
            }
        };
        if let Some(held) = keep.checked_sub(1).and_then(|m| self.frames.get(m)) {
            delta.at = Some(place(held, self.frames.get(keep)));
        }
        if self.frames.len() > keep {
            delta.opened = true;
            for pair in self.frames.get(keep..).unwrap_or_default().windows(2) {
                if let [parent, child] = pair {
                    delta.open.push(place(parent, Some(child)));
                }
            }
            if let (Some(top), true) = (self.frames.last(), open_string) {
                delta.tip = Some(place(top, None));
            }
            for frame in self.frames.iter_mut().skip(keep) {
                frame.shown = true;
                frame.shown_end = frame.last_end;
            }
        }
        delta
    }

    /// The delta of `read_delta` as JSON text, without its `tail`.
    fn write_delta(&mut self, text: &str) -> String {
        let mut invalid = Vec::new();
        let delta = self.delta(text, &mut invalid);
        let mut out = String::with_capacity(64);
        push_invalid(&mut out, &invalid);
        if delta.same {
            out.push_str(",\"same\":true}");
            return out;
        }
        let slice = |(start, end): (usize, usize)| text.get(start..end).unwrap_or_default();
        let bracketed = |out: &mut String, object: bool, range: (usize, usize)| {
            out.push(if object { '{' } else { '[' });
            out.push_str(slice(range));
            out.push(if object { '}' } else { ']' });
        };
        if !delta.fin.is_empty() {
            out.push_str(",\"fin\":[");
            for (i, &((object, start, end), _)) in delta.fin.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                bracketed(&mut out, object, (start, end));
            }
            out.push(']');
        }
        out.push_str(",\"keep\":");
        crate::json_text::push_usize(&mut out, delta.keep);
        if let Some(grown) = delta.grow {
            out.push_str(",\"grow\":\"");
            out.push_str(slice(grown));
            out.push_str("\"}");
            return out;
        }
        if let Some(((object, start, end), _)) = delta.add {
            out.push_str(",\"add\":");
            bracketed(&mut out, object, (start, end));
        }
        let Some((start, cut, open_string)) = delta.value else {
            out.push('}');
            return out;
        };
        out.push_str(",\"value\":");
        out.push_str(slice((start, cut)));
        if open_string {
            out.push('"');
        }
        for &object in &delta.closers {
            out.push(if object { '}' } else { ']' });
        }
        let push_slot = |out: &mut String, slot: Slot| match slot {
            Slot::Name(s, e) => out.push_str(text.get(s..e).unwrap_or("\"\"")),
            Slot::Index(index) => crate::json_text::push_usize(out, index as usize),
        };
        if let Some(at) = delta.at {
            out.push_str(",\"at\":");
            push_slot(&mut out, at);
        }
        if delta.opened {
            out.push_str(",\"open\":[");
            for (i, &slot) in delta.open.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_slot(&mut out, slot);
            }
            out.push(']');
            if let Some(tip) = delta.tip {
                out.push_str(",\"tip\":");
                push_slot(&mut out, tip);
            }
        }
        out.push('}');
        out
    }

    fn scan(&mut self, bytes: &[u8]) {
        if self.broken {
            return;
        }
        while let Some(&b) = bytes.get(self.pos) {
            if matches!(self.state, State::Done { .. }) {
                return;
            }
            if !self.step(bytes, b) {
                self.broken = true;
                return;
            }
        }
    }

    /// A value of the innermost container (or the root) completed at `end`.
    fn completed(&mut self, start: usize, end: usize) {
        match self.frames.last_mut() {
            None => self.state = State::Done { end },
            Some(frame) => {
                frame.last_end = end;
                let child = Child {
                    start,
                    end,
                    name: frame.member.take(),
                    index: frame.count.saturating_sub(1),
                };
                if frame.shown {
                    frame.fresh.push(child);
                }
                frame.pending.push(child);
                self.state = State::After;
            }
        }
    }

    /// A value begins at `pos` with byte `b`; false when no value can.
    fn begin_value(&mut self, b: u8) -> bool {
        let at = self.pos;
        if let Some(frame) = self.frames.last_mut() {
            frame.value_start = at;
            if !frame.object {
                frame.count = frame.count.saturating_add(1);
            }
        }
        self.state = match b {
            b'"' => State::InString {
                start: at,
                escape: false,
            },
            b'-' | b'0'..=b'9' => State::Number { start: at },
            b't' => State::Literal {
                start: at,
                word: b"true",
            },
            b'f' => State::Literal {
                start: at,
                word: b"false",
            },
            b'n' => State::Literal {
                start: at,
                word: b"null",
            },
            b'{' | b'[' => {
                if self.frames.len() + 1 >= MAX_DEPTH {
                    return false;
                }
                let (name, index) = match self.frames.last_mut() {
                    Some(parent) if parent.object => (parent.member, 0),
                    Some(parent) => (None, parent.count.saturating_sub(1)),
                    None => (None, 0),
                };
                self.frames.push(Frame {
                    object: b == b'{',
                    open: at,
                    shown: false,
                    shown_end: at + 1,
                    last_end: at + 1,
                    count: 0,
                    name,
                    index,
                    member: None,
                    value_start: at,
                    pending: Vec::new(),
                    fresh: Vec::new(),
                    invalid: Vec::new(),
                    loc: None,
                    pointer: None,
                });
                if b == b'{' {
                    State::NameOrClose
                } else {
                    State::ValueOrClose
                }
            }
            _ => return false,
        };
        self.pos += 1;
        true
    }

    /// The innermost container closes with `b` at `pos`.
    fn close_container(&mut self, b: u8) -> bool {
        let Some(mut frame) = self.frames.pop() else {
            return false;
        };
        if frame.object != (b == b'}') {
            self.frames.push(frame);
            return false;
        }
        let bracket = self.pos;
        self.pos += 1;
        if frame.shown {
            // The reader finishes it in place, and its parent, held too,
            // has it complete as it is.
            self.closed_held.push((
                frame.object,
                frame.shown_end,
                bracket,
                std::mem::take(&mut frame.fresh),
            ));
            if let Some(parent) = self.frames.last_mut() {
                parent.shown_end = self.pos;
            }
        }
        // The parent's value being read is this container.
        let start = self
            .frames
            .last()
            .map_or(self.start, |parent| parent.value_start);
        self.completed(start, self.pos);
        if frame.shown {
            // Held as its parent's complete frontier, not added to it.
            if let Some(parent) = self.frames.last_mut() {
                parent.fresh.clear();
            }
        }
        true
    }

    /// One step from byte `b` at `pos`; false at a byte no JSON text holds
    /// there (nothing moves then).
    fn step(&mut self, bytes: &[u8], b: u8) -> bool {
        let white = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        match self.state {
            State::Value
            | State::ValueOrClose
            | State::NameOrClose
            | State::Name
            | State::Colon
            | State::After
                if white =>
            {
                self.pos += 1;
            }
            State::Value => return self.begin_value(b),
            State::ValueOrClose if b == b']' => return self.close_container(b),
            State::ValueOrClose => return self.begin_value(b),
            State::NameOrClose if b == b'}' => return self.close_container(b),
            State::NameOrClose | State::Name if b == b'"' => {
                self.state = State::InName {
                    start: self.pos,
                    escape: false,
                };
                self.pos += 1;
            }
            State::NameOrClose | State::Name => return false,
            State::InName { start, escape } => {
                let (end, closed, escape) = string_run(bytes, self.pos, escape);
                self.pos = end;
                if closed {
                    if let Some(frame) = self.frames.last_mut() {
                        frame.member = Some((start, end));
                        frame.count = frame.count.saturating_add(1);
                    }
                    self.state = State::Colon;
                } else {
                    self.state = State::InName { start, escape };
                }
            }
            State::Colon if b == b':' => {
                self.pos += 1;
                self.state = State::Value;
            }
            State::Colon => return false,
            State::After => {
                let Some(frame) = self.frames.last() else {
                    return false;
                };
                match (b, frame.object) {
                    (b',', true) => {
                        self.pos += 1;
                        self.state = State::Name;
                    }
                    (b',', false) => {
                        self.pos += 1;
                        self.state = State::Value;
                    }
                    (b'}' | b']', _) => return self.close_container(b),
                    _ => return false,
                }
            }
            State::InString { start, escape } => {
                let (end, closed, escape) = string_run(bytes, self.pos, escape);
                self.pos = end;
                if closed {
                    self.completed(start, end);
                } else {
                    self.state = State::InString { start, escape };
                }
            }
            State::Number { start } => {
                if matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    self.pos += 1;
                } else {
                    let number = bytes.get(start..self.pos).unwrap_or_default();
                    if !number_is_complete(number) {
                        return false;
                    }
                    // The byte after it is read in the state that follows.
                    self.completed(start, self.pos);
                }
            }
            State::Literal { start, word } => {
                let at = self.pos - start;
                if word.get(at) != Some(&b) {
                    return false;
                }
                self.pos += 1;
                if at + 1 == word.len() {
                    self.completed(start, self.pos);
                }
            }
            State::Done { .. } => return false,
        }
        true
    }

    /// The closed value's JSON text (see the module docs).
    fn close(&self, text: &str) -> Option<String> {
        let json = |end: usize| text.get(self.start..end);
        let (keep, open_string) = match self.state {
            State::Done { end } => return json(end).map(str::to_owned),
            State::InString { start, .. } => {
                (string_prefix_end(text.as_bytes(), start, self.pos), true)
            }
            _ => match self.frames.last() {
                Some(frame) => (frame.last_end, false),
                None => return None,
            },
        };
        let kept = json(keep)?;
        let mut out = String::with_capacity(kept.len() + self.frames.len() + 1);
        out.push_str(kept);
        if open_string {
            out.push('"');
        }
        for frame in self.frames.iter().rev() {
            out.push(if frame.object { '}' } else { ']' });
        }
        Some(out)
    }

    /// Judges what is not yet judged (see the module docs), and gives the
    /// pointers of what failed, outermost first, in `out`.
    fn judge(&mut self, text: &str, out: &mut Vec<String>) {
        let Some(plan) = self.plan.clone() else {
            return;
        };
        if let State::Done { end } = self.state {
            if self.root_invalid.is_none() {
                let root = self.locs.intern(&plan, vec![0]);
                let child = Child {
                    start: self.start,
                    end,
                    name: None,
                    index: 0,
                };
                let mut found = Vec::new();
                if !judge_value(
                    &plan,
                    &mut self.locs,
                    text,
                    root,
                    false,
                    ("", &Place::Root),
                    child,
                    &mut found,
                    0,
                ) {
                    found.insert(0, String::new());
                }
                self.root_invalid = Some(found);
            }
            out.extend(self.root_invalid.iter().flatten().cloned());
            return;
        }
        for i in 0..self.frames.len() {
            self.locate(&plan, text, i);
            let Some(frame) = self.frames.get_mut(i) else {
                break;
            };
            let loc = frame.loc.flatten();
            let object = frame.object;
            // The pending list is emptied in place (its room kept for the
            // next reading), and the pointer borrowed, not copied.
            let Frame {
                pending,
                pointer,
                invalid,
                ..
            } = frame;
            if !object {
                let vouched = self.vouched;
                pending.retain(|child| child.end > vouched);
            }
            let base = pointer.as_deref().unwrap_or_default();
            for child in pending.drain(..) {
                let (place, refused, at) =
                    child_place(&plan, &mut self.locs, text, loc, object, child);
                let mut found = Vec::new();
                if !judge_value(
                    &plan,
                    &mut self.locs,
                    text,
                    at,
                    refused,
                    (base, &place),
                    child,
                    &mut found,
                    0,
                ) {
                    invalid.push(place.pointer(base));
                    invalid.append(&mut found);
                }
            }
            out.extend(frame.invalid.iter().cloned());
        }
    }

    /// Works out the location and pointer of open container `i` (its
    /// parent's are worked out already).
    fn locate(&mut self, plan: &Plan, text: &str, i: usize) {
        if self.frames.get(i).is_some_and(|f| f.loc.is_some()) {
            return;
        }
        let (loc, pointer) = match i.checked_sub(1).and_then(|p| self.frames.get(p)) {
            None => (self.locs.intern(plan, vec![0]), String::new()),
            Some(parent) => {
                let Some(frame) = self.frames.get(i) else {
                    return;
                };
                let child = Child {
                    start: 0,
                    end: 0,
                    name: frame.name,
                    index: frame.index,
                };
                let base = parent.pointer.clone().unwrap_or_default();
                let (place, _, loc) = child_place(
                    plan,
                    &mut self.locs,
                    text,
                    parent.loc.flatten(),
                    parent.object,
                    child,
                );
                (loc, place.pointer(&base))
            }
        };
        if let Some(frame) = self.frames.get_mut(i) {
            frame.loc = Some(loc);
            frame.pointer = Some(pointer);
        }
    }
}

impl Drop for PartialValue {
    /// The locations worked out go back to the plan, for the next reading.
    fn drop(&mut self) {
        if let Some(plan) = &self.plan {
            plan.keep_locs(std::mem::take(&mut self.locs));
        }
    }
}

/// The layout of [`PartialValue::read_words`]: the numbers say what
/// `read_delta`'s JSON says, with places in the text (byte offsets) for
/// the text it holds. In order, each part only when its flag is set:
///
/// * flags (the constants here), the tail ([`Tail`]), `keep`, and the
///   number of `fin` entries, each members or items (below);
/// * [`GROW`]: `start, end` of what the open string gained (string
///   content as written, escapes and all);
/// * [`ADD`]: members or items;
/// * [`VALUE`]: `start, end, open_string, n`, then `n` closing brackets
///   (1 an object's): the value's text is `start..end`, then a quote when
///   `open_string`, then the brackets;
/// * [`AT`]: a slot; [`OPEN`]: `n`, then `n` slots; [`TIP`]: a slot. A
///   slot is `start, end` of a member's name (with its quotes), or
///   [`INDEX`] and an index.
///
/// Members or items are `object, n`, then `n` times a slot and the
/// `start, end` of the value's text.
pub mod words {
    pub const SAME: u32 = 1;
    pub const GROW: u32 = 2;
    /// The pointers of what fails differ from the last reading's.
    pub const INVALID: u32 = 4;
    pub const VALUE: u32 = 8;
    pub const ADD: u32 = 16;
    pub const AT: u32 = 32;
    pub const OPEN: u32 = 64;
    pub const TIP: u32 = 128;
    /// A slot that is an index.
    pub const INDEX: u32 = u32::MAX;
}

/// What changed in the partial value since the last reading (see
/// `PartialValue::read_delta`), as places in the text.
#[derive(Default)]
struct Delta {
    same: bool,
    grow: Option<(usize, usize)>,
    /// Whether an object, and the text of its members or items; and
    /// those members or items.
    fin: Vec<Members>,
    keep: usize,
    add: Option<Members>,
    /// Its text, and whether it ends in an open string (then closed with a
    /// quote), before the brackets of `closers` (true: an object's).
    value: Option<(usize, usize, bool)>,
    closers: Vec<bool>,
    at: Option<Slot>,
    opened: bool,
    open: Vec<Slot>,
    tip: Option<Slot>,
}

/// Members or items: whether of an object, their text, and each one.
type Members = ((bool, usize, usize), Vec<Child>);

/// A place in a container: a member's name (its text, with its quotes) or
/// an item's index.
#[derive(Clone, Copy)]
enum Slot {
    Name(usize, usize),
    Index(u32),
}

/// Where the members or items in `text[start..end]` begin, past the white
/// space and comma that may lead them.
fn body_start(text: &str, start: usize, end: usize) -> usize {
    let body = text.get(start..end).unwrap_or_default();
    end - body.trim_start_matches([' ', '\t', '\n', '\r', ',']).len()
}

/// Where a value is in its parent, for its JSON Pointer, written only for
/// the values that fail (most pass).
enum Place {
    Root,
    Name(String),
    Index(u32),
}

impl Place {
    /// The pointer of the value at this place in the value at `base`.
    fn pointer(&self, base: &str) -> String {
        match self {
            Place::Root => base.to_owned(),
            Place::Name(name) => format!("{base}/{}", escape_segment(name)),
            Place::Index(index) => format!("{base}/{index}"),
        }
    }
}

/// A child's place, whether its name is refused, and its location.
fn child_place(
    plan: &Plan,
    locs: &mut Locs,
    text: &str,
    parent: Option<LocId>,
    object: bool,
    child: Child,
) -> (Place, bool, Option<LocId>) {
    if object {
        let raw = child
            .name
            .and_then(|(s, e)| text.get(s + 1..e.saturating_sub(1)))
            .unwrap_or_default();
        let name = tape::decode_string(raw);
        let (refused, loc) = match parent {
            Some(loc) => {
                let member = locs.member(plan, loc, &name);
                (member.refused, member.loc)
            }
            None => (false, None),
        };
        (Place::Name(name), refused, loc)
    } else {
        let loc = parent.and_then(|loc| locs.item(plan, loc, child.index));
        (Place::Index(child.index), false, loc)
    }
}

/// Nesting past which a failing value's own members are not judged.
const MAX_JUDGED_DEPTH: usize = 32;

/// Whether the complete value `child` (at `loc`, at `place` in the value
/// whose pointer is `base`) passes what applies to it; when it fails, the
/// pointers of its own members or items that fail are added to `found`.
#[allow(clippy::too_many_arguments)]
fn judge_value(
    plan: &Plan,
    locs: &mut Locs,
    text: &str,
    loc: Option<LocId>,
    refused: bool,
    (base, place): (&str, &Place),
    child: Child,
    found: &mut Vec<String>,
    depth: usize,
) -> bool {
    let Some(json) = text.get(child.start..child.end) else {
        return true;
    };
    let mut valid = !refused;
    let checks = loc.and_then(|l| locs.get(l)).map(|l| &l.check[..]);
    if let (true, Some(checks @ [_, ..])) = (valid, checks) {
        let Ok(value) = tape::parse(json) else {
            return true;
        };
        let (passed, _) = with_own_budget(PATTERN_STEPS_PER_CHECK, || {
            checks.iter().all(|&id| {
                plan.validator(id)
                    .is_none_or(|v| node_is_valid(v, TapeNode::full(&value)))
            })
        });
        valid = passed;
    }
    let container = matches!(json.as_bytes().first(), Some(b'{' | b'['));
    if valid || !container || depth >= MAX_JUDGED_DEPTH {
        return valid;
    }
    // The failing container's own members and items: its text read with
    // white space for the closing bracket leaves them all pending in its
    // frame (a number last among them complete).
    let mut open = json
        .as_bytes()
        .get(..json.len() - 1)
        .unwrap_or_default()
        .to_vec();
    open.push(b' ');
    let mut inner = PartialValue::new(0, None);
    inner.scan(&open);
    let Some(frame) = inner.frames.first() else {
        return valid;
    };
    let pointer = place.pointer(base);
    let object = frame.object;
    for grandchild in frame.pending.clone() {
        let grandchild = Child {
            start: child.start + grandchild.start,
            end: child.start + grandchild.end,
            name: grandchild
                .name
                .map(|(s, e)| (child.start + s, child.start + e)),
            index: grandchild.index,
        };
        let (at, refused, inner_loc) = child_place(plan, locs, text, loc, object, grandchild);
        let mut deeper = Vec::new();
        if !judge_value(
            plan,
            locs,
            text,
            inner_loc,
            refused,
            (&pointer, &at),
            grandchild,
            &mut deeper,
            depth + 1,
        ) {
            found.push(at.pointer(&pointer));
            found.append(&mut deeper);
        }
    }
    valid
}

/// Reads a string's bytes from `pos` (inside it; `escape`: the byte before
/// was an escaping backslash): where the reading stopped, whether the
/// string closed (`end` then past its quote), and the escape state.
fn string_run(bytes: &[u8], mut pos: usize, mut escape: bool) -> (usize, bool, bool) {
    while let Some(&b) = bytes.get(pos) {
        pos += 1;
        if escape {
            escape = false;
        } else if b == b'\\' {
            escape = true;
        } else if b == b'"' {
            return (pos, true, false);
        }
    }
    (pos, false, escape)
}

/// Whether `number` is a whole JSON number (and so the value it shows is
/// final once a byte that is not part of a number follows).
fn number_is_complete(number: &[u8]) -> bool {
    let digits = number.strip_prefix(b"-").unwrap_or(number);
    let (int, rest) = digits.split_at(digits.iter().take_while(|b| b.is_ascii_digit()).count());
    if int.is_empty() || (int.len() > 1 && int.first() == Some(&b'0')) {
        return false;
    }
    let rest = match rest.strip_prefix(b".") {
        Some(fraction) => {
            let n = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
            if n == 0 {
                return false;
            }
            fraction.get(n..).unwrap_or_default()
        }
        None => rest,
    };
    match rest.first() {
        None => true,
        Some(b'e' | b'E') => {
            let exp = rest.get(1..).unwrap_or_default();
            let exp = exp
                .strip_prefix(b"+")
                .or_else(|| exp.strip_prefix(b"-"))
                .unwrap_or(exp);
            !exp.is_empty() && exp.iter().all(u8::is_ascii_digit)
        }
        Some(_) => false,
    }
}

/// Where the prefix of the open string that begins at `start` (its quote)
/// and is read up to `end` may be cut to close it: before an escape still
/// being typed, and before a high surrogate escape whose low half may
/// follow.
fn string_prefix_end(bytes: &[u8], start: usize, end: usize) -> usize {
    let body = start + 1;
    let escaping = |at: usize| {
        // The backslash at `at` escapes when an even number precede it.
        let before = bytes
            .get(body..at)
            .map_or(0, |b| b.iter().rev().take_while(|&&c| c == b'\\').count());
        bytes.get(at) == Some(&b'\\') && before % 2 == 0
    };
    let mut cut = end;
    // A backslash alone, or `\u` with fewer than four digits after it.
    for back in 1..=5 {
        let Some(at) = end.checked_sub(back).filter(|&at| at >= body) else {
            break;
        };
        if escaping(at) && (back == 1 || bytes.get(at + 1) == Some(&b'u')) {
            cut = at;
            break;
        }
    }
    // A complete high surrogate escape at the end.
    if let Some(at) = cut.checked_sub(6).filter(|&at| at >= body) {
        let high = bytes.get(at + 1) == Some(&b'u')
            && matches!(bytes.get(at + 2), Some(b'd' | b'D'))
            && matches!(
                bytes.get(at + 3),
                Some(b'8' | b'9' | b'a' | b'b' | b'A' | b'B')
            );
        if high && escaping(at) {
            cut = at;
        }
    }
    cut
}

/// `{"invalid":[...]` (the object left open) for the failing pointers, as
/// `read_json` and `write_delta` begin their replies.
fn push_invalid(out: &mut String, invalid: &[String]) {
    out.push_str("{\"invalid\":[");
    for (i, pointer) in invalid.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        crate::json_text::push_json_str(out, pointer);
    }
    out.push(']');
}

#[cfg(test)]
mod tests;
