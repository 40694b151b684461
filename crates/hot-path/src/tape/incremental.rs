//! The tape parser, resumable: text that arrives in pieces is parsed as it
//! arrives, into the same tape [`parse`](super::parse()) builds from the
//! whole text, and a [`Watch`] hears of every value as it begins and as it
//! ends (or, where it asks, only of a container that the text at hand
//! holds whole), so that checks can run on a value the moment it is
//! complete.
//!
//! Nothing is read again from the start, however the text is cut: between
//! pieces the state is what `parse` keeps (the open containers, their
//! member names) plus the token in progress. Within a piece, a token or a
//! container read through (see [`Watch::begin`]) that the piece's end cuts
//! is read once more, token by token. It accepts what `parse` accepts; at a byte
//! that no continuation can make valid it stops with [`Stop::Syntax`], and
//! the caller asks `parse` for the message (which also confirms the stop).

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::parse::{
    dedupe, number_flags, prefix_at, recycle, skip_plain, spare_entries, Frame, Key, Within,
};
use super::{hex_value, strings, Entry, Kind, Tape, ESCAPED, MAX_DEPTH};

/// What a [`Watch`] answers: `Break` stops the parse for good.
pub type Flow = ControlFlow<()>;

/// Told of every value as the parser meets it.
pub trait Watch {
    /// A value of `kind` begins at `depth` (0: the root), before anything of
    /// it is on the tape. For a string, `Continue(true)` asks for
    /// [`Watch::partial`] while it is open. For an object or array it asks
    /// to hear nothing of what is inside it when the text read in this
    /// [`Incremental::feed`] holds the whole of it: the parser reads it
    /// through and says only that it ended. When the text runs out inside
    /// it (or anything in it is in error), the parser reads it again from
    /// its bracket and tells every value inside as usual.
    fn begin(&mut self, tape: &mut Lend<'_>, depth: usize, kind: Kind) -> ControlFlow<(), bool>;
    /// A member name is complete; `key` is its entry.
    fn name(&mut self, tape: &mut Lend<'_>, key: u32) -> Flow;
    /// The value whose entry is `index` is complete; `depth` is its own.
    fn end(&mut self, tape: &mut Lend<'_>, index: u32, depth: usize) -> Flow;
    /// The text ran out inside a string that `begin` asked about.
    fn partial(&mut self, tape: &mut Lend<'_>, string: Partial<'_>) -> Flow;
    /// An item at `depth` that was read through (see [`Watch::begin`]) has
    /// ended: whether the items after it in its array, up to the first
    /// the text at hand does not hold whole, may be read through too and
    /// told of only by [`Watch::item`], each instead of a `begin` and an
    /// `end`. Those items begin with the same bracket as this one.
    fn items_alike(&mut self, _depth: usize) -> bool {
        false
    }
    /// An item at `depth` read through after `items_alike` said so: its
    /// bracket is at byte `start`, its entry is `index`, and the text
    /// read so far ends with it. What `begin` and then `end` would do for
    /// it.
    fn item(&mut self, _tape: &mut Lend<'_>, _index: u32, _depth: usize, _start: usize) -> Flow {
        ControlFlow::Continue(())
    }
}

/// An open string: its raw text up to the last complete character or
/// escape, and how many characters that is.
pub struct Partial<'s> {
    pub raw: &'s str,
    pub chars: u64,
}

/// Why the parse stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The byte at this offset cannot continue any JSON text; `escape`
    /// when it is in a `\\u` escape, where `parse` reads four bytes at once
    /// (and says only "EOF" for fewer).
    Syntax { at: usize, escape: bool },
    /// The watcher said so.
    Watcher,
    /// Past 4 GiB, which the tape's offsets cannot address.
    TooLarge,
}

/// How far the text so far goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fed {
    /// The root value is still open (or not begun).
    Pending,
    /// The root value is complete and ends before this offset.
    Complete { end: usize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value: at the root, after a colon, after a comma in an array.
    Value,
    /// Just after `[`: a value or `]`.
    ValueOrEnd,
    /// Just after `{`: a name or `}`.
    NameOrEnd,
    /// After a comma in an object: a name.
    Name,
    /// After a name.
    Colon,
    /// After a value in a container: a comma or the container's close.
    Next,
    String,
    Literal,
    Number,
    /// The root value is complete.
    Done,
}

/// A token that the text holds whole (see [`Incremental::next_whole`]).
enum Whole {
    /// A colon or a comma, read.
    Moved,
    /// A closing bracket, read; the container is still to be closed.
    Close,
    /// A member name, read onto the tape; its entry.
    Name(u32),
    /// The bracket of an object or array.
    Open(u8),
    /// A string, number or literal: its entry, and the offset past it.
    Scalar(Entry, usize),
    /// Anything else: the token-by-token reading decides.
    Other,
}

/// Where a string is inside a backslash escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escape {
    None,
    Backslash,
    /// In `\uXXXX`; `low` for the second half of a surrogate pair.
    Hex {
        digits: u8,
        value: u16,
        low: bool,
    },
    /// After a high surrogate: its low half's backslash, then its `u`.
    LowBackslash,
    LowU,
}

/// The string, literal or number in progress.
#[derive(Debug, Clone, Copy)]
struct Token {
    /// String: just past the opening quote; literal and number: the first byte.
    start: u32,
    key: bool,
    flags: u8,
    escape: Escape,
    /// Where the escape in progress began (its backslash).
    escape_start: u32,
    /// Report the string while it is open.
    watched: bool,
    /// Characters in the raw text up to `counted` (counted at pauses only,
    /// so the bytes of a string are not looked at twice).
    chars: u64,
    counted: u32,
    /// A literal's bytes still to come, and what it is.
    rest: &'static [u8],
    kind: Kind,
}

impl Token {
    const NONE: Token = Token {
        start: 0,
        key: false,
        flags: 0,
        escape: Escape::None,
        escape_start: 0,
        watched: false,
        chars: 0,
        counted: 0,
        rest: &[],
        kind: Kind::Null,
    };
}

/// The resumable parser. Offsets on its tape are offsets into the whole text
/// handed to [`Incremental::feed`] (which only ever grows).
pub struct Incremental {
    pos: usize,
    expect: Expect,
    token: Token,
    entries: Vec<Entry>,
    stack: Vec<Frame>,
    keys: Vec<Key>,
    redirects: Vec<(u32, u32)>,
    /// Containers may be read through without the watcher (see
    /// [`Watch::begin`]): not after one that the text cut, until the next
    /// `feed`, so that a piece is read through at most once.
    silent_ok: bool,
    /// About the bytes the container read through last took: one that
    /// begins with less text than that left is read token by token at once
    /// (siblings are alike in size, and the text is likely to cut it).
    silent_len: usize,
    /// The stack [`Within`] works with, kept from one container
    /// to the next.
    scratch: Vec<Frame>,
    /// An item of a run read through (see [`Watch::items_alike`]) that
    /// begins within this many bytes of the text's end and that the text
    /// does not hold whole waits, unread, for the next `feed` (see
    /// [`Incremental::hold_items`]); 0: none waits.
    hold: usize,
    /// This `feed` stopped before such an item.
    held: bool,
}

/// A byte offset as the tape keeps it (`u32::MAX` past that).
#[inline(always)]
pub(crate) fn offset(index: usize) -> u32 {
    // `feed` refuses texts whose offsets do not fit.
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// Past the JSON white space at `pos`.
#[inline(always)]
pub(crate) fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\t' | b'\r') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// Past the run of bytes at `pos` that a number may hold (a number is
/// read to the first byte that none can, then decided).
#[inline(always)]
fn number_run(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// Four hex digits at `at`, as `parse` reads a `\\u` escape's.
fn hex4(bytes: &[u8], at: usize) -> Option<u16> {
    let digits = bytes.get(at..at.checked_add(4)?)?;
    digits
        .iter()
        .try_fold(0u16, |value, &byte| Some((value << 4) | hex_value(byte)?))
}

/// The string whose content begins at `start`, when the text holds the
/// whole of it and it is well formed: its closing quote's offset, and
/// whether it has escapes (`ESCAPED`). `None` for anything else, which the
/// token-by-token reading decides. It accepts what `parse`'s
/// `parse_string` accepts (the tests compare the two on every cut); it is
/// not that function run on the text, because setting a parser up for each
/// string cost the stream check 4–7%.
fn whole_string(bytes: &[u8], start: usize) -> Option<(usize, u8)> {
    let mut pos = start;
    let mut flags = 0;
    loop {
        pos = skip_plain(bytes, pos);
        match bytes.get(pos)? {
            b'"' => return Some((pos, flags)),
            b'\\' => {
                flags = ESCAPED;
                pos = match bytes.get(pos + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => pos + 2,
                    b'u' => {
                        let value = hex4(bytes, pos + 2)?;
                        match value {
                            0xDC00..=0xDFFF => return None,
                            0xD800..=0xDBFF => {
                                if bytes.get(pos + 6..pos + 8)? != b"\\u" {
                                    return None;
                                }
                                if !(0xDC00..=0xDFFF).contains(&hex4(bytes, pos + 8)?) {
                                    return None;
                                }
                                pos + 12
                            }
                            _ => pos + 6,
                        }
                    }
                    _ => return None,
                };
            }
            _ => return None,
        }
    }
}

/// The string, number or literal that begins at `pos` with `byte`, when
/// the text holds the whole of it (a number: and the byte after it) and it
/// is well formed: its entry, as `parse` writes it, and the offset past it.
fn whole_scalar(text: &str, pos: usize, byte: u8) -> Option<(Entry, usize)> {
    let bytes = text.as_bytes();
    match byte {
        b'"' => {
            let (end, flags) = whole_string(bytes, pos + 1)?;
            let entry = Entry {
                kind: Kind::String,
                flags,
                a: offset(pos + 1),
                b: offset(end - pos - 1),
            };
            Some((entry, end + 1))
        }
        b'-' | b'0'..=b'9' => {
            let end = number_run(bytes, pos + 1);
            if end >= bytes.len() {
                return None;
            }
            let flags = number_flags(text.get(pos..end)?)?;
            let entry = Entry {
                kind: Kind::Number,
                flags,
                a: offset(pos),
                b: offset(end - pos),
            };
            Some((entry, end))
        }
        b't' | b'f' | b'n' => {
            let (word, kind): (&[u8], Kind) = match byte {
                b't' => (b"true", Kind::True),
                b'f' => (b"false", Kind::False),
                _ => (b"null", Kind::Null),
            };
            if bytes.get(pos..pos + word.len())? != word {
                return None;
            }
            let entry = Entry {
                kind,
                flags: 0,
                a: offset(pos),
                b: 0,
            };
            Some((entry, pos + word.len()))
        }
        _ => None,
    }
}

/// A parse dropped before its tape was taken (a stream rejected, abandoned
/// or cut short) leaves its entry buffer for the next parse, as a dropped
/// tape does.
impl Drop for Incremental {
    fn drop(&mut self) {
        recycle(std::mem::take(&mut self.entries));
    }
}

impl Incremental {
    /// A parser whose root value begins at or after `start` (JSON white
    /// space before it is skipped).
    pub fn new(start: usize) -> Self {
        Incremental {
            pos: start,
            expect: Expect::Value,
            token: Token::NONE,
            entries: spare_entries(),
            stack: Vec::new(),
            keys: Vec::new(),
            redirects: Vec::new(),
            silent_ok: true,
            silent_len: 0,
            scratch: Vec::new(),
            hold: 0,
            held: false,
        }
    }

    /// Bytes of the text read so far: every value that closed before
    /// them was handed to the watcher as it closed.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The tape of a complete root value; `None` before it is complete.
    pub fn into_tape(mut self, text: &str) -> Option<Tape<'_>> {
        (self.expect == Expect::Done).then(|| Tape {
            src: text,
            entries: std::mem::take(&mut self.entries),
            redirects: std::mem::take(&mut self.redirects),
            fallback: Entry::NULL,
        })
    }

    fn lend<'a>(&'a mut self, text: &'a str) -> Lend<'a> {
        Lend {
            src: text,
            entries: &mut self.entries,
            redirects: &mut self.redirects,
            stack: &self.stack,
            keys: &self.keys,
            pos: self.pos,
        }
    }

    /// From now on, an item of a run read through (see
    /// [`Watch::items_alike`]) that the text cuts, and that begins within
    /// `bytes` of the text's end, is left for the next `feed`, which reads
    /// it through whole if the text then holds it, instead of being read
    /// token by token now and the rest of it then; when the item before it
    /// took more than `bytes`, the next `feed` would most likely cut it
    /// again, and it is read as before. Reading a cut item token
    /// by token cost a 480 KB array of rows, fed in 122 parts, about a
    /// twentieth of its check in wasm; the price is that what is wrong
    /// inside such an item is found a `feed` later. An item still cut when
    /// it begins more than `bytes` before the end is read token by token,
    /// so nothing is left unread for longer. An item shorter than the one
    /// before it counts as cut without a look (as the token-by-token reading
    /// assumes), so the last `feed`, of a text that holds everything, must
    /// come with 0 (the default): then none waits.
    pub fn hold_items(&mut self, bytes: usize) {
        self.hold = bytes;
    }

    /// Reads `text` from where the last call stopped (`text` is the whole
    /// text so far: what earlier calls saw, then more).
    pub fn feed(&mut self, text: &str, watch: &mut dyn Watch) -> Result<Fed, Stop> {
        if u32::try_from(text.len()).map_or(true, |len| len == u32::MAX) {
            return Err(Stop::TooLarge);
        }
        let bytes = text.as_bytes();
        self.silent_ok = true;
        loop {
            match self.expect {
                Expect::Done => return Ok(Fed::Complete { end: self.pos }),
                Expect::String => {
                    if !self.string(text, watch)? {
                        return Ok(Fed::Pending);
                    }
                }
                Expect::Literal => {
                    if !self.literal(text, watch)? {
                        return Ok(Fed::Pending);
                    }
                }
                Expect::Number => {
                    if !self.number(text, watch)? {
                        return Ok(Fed::Pending);
                    }
                }
                _ => {
                    self.run_whole(text, watch)?;
                    if std::mem::take(&mut self.held) {
                        return Ok(Fed::Pending);
                    }
                    let structural = self.expect;
                    if matches!(
                        structural,
                        Expect::Done | Expect::String | Expect::Literal | Expect::Number
                    ) {
                        continue;
                    }
                    self.pos = skip_whitespace(bytes, self.pos);
                    let Some(&byte) = bytes.get(self.pos) else {
                        return Ok(Fed::Pending);
                    };
                    self.structural(text, watch, structural, byte)?;
                }
            }
        }
    }

    /// The common tokens read straight through while the text holds them
    /// whole (see [`Incremental::next_whole`]), each with the steps and the
    /// watcher's calls that the token-by-token reading below makes for it.
    /// It stops before a token it does not finish here (one that the text
    /// cuts, one in error), and the token-by-token reading takes it from
    /// there.
    fn run_whole(&mut self, text: &str, watch: &mut dyn Watch) -> Result<(), Stop> {
        loop {
            match self.next_whole(text) {
                Whole::Moved => {}
                Whole::Close => self.close(text, watch)?,
                Whole::Name(index) => {
                    if watch.name(&mut self.lend(text), index).is_break() {
                        return Err(Stop::Watcher);
                    }
                }
                Whole::Open(byte) => {
                    if self.begin_value(text, watch, byte)? && self.silent_ok {
                        if text.len() - self.pos + 1 >= self.silent_len {
                            self.read_through(text, watch)?;
                            if self.held {
                                return Ok(());
                            }
                        } else {
                            // So that one large container does not keep
                            // its smaller siblings from being read through.
                            self.silent_len /= 2;
                        }
                    }
                }
                Whole::Scalar(entry, end) => {
                    let depth = self.stack.len();
                    if watch
                        .begin(&mut self.lend(text), depth, entry.kind)
                        .is_break()
                    {
                        return Err(Stop::Watcher);
                    }
                    self.pos = end;
                    self.scalar_done(text, watch, entry)?;
                }
                Whole::Other => return Ok(()),
            }
        }
    }

    /// The next token, when the text holds the whole of it and it is what
    /// may come here: a colon or comma is read, a closing bracket and a
    /// name are read onto the tape (the container not yet closed); a
    /// container's bracket and a string, number or literal are only looked
    /// at (`pos` is at them).
    #[inline(always)]
    fn next_whole(&mut self, text: &str) -> Whole {
        let bytes = text.as_bytes();
        let expect = self.expect;
        if matches!(
            expect,
            Expect::Done | Expect::String | Expect::Literal | Expect::Number
        ) {
            return Whole::Other;
        }
        let pos = skip_whitespace(bytes, self.pos);
        self.pos = pos;
        let Some(&byte) = bytes.get(pos) else {
            return Whole::Other;
        };
        match (expect, byte) {
            (Expect::Colon, b':') => {
                self.pos = pos + 1;
                self.expect = Expect::Value;
                Whole::Moved
            }
            (Expect::Next, b',') => {
                let Some(frame) = self.stack.last() else {
                    return Whole::Other;
                };
                self.pos = pos + 1;
                self.expect = if frame.object {
                    Expect::Name
                } else {
                    Expect::Value
                };
                Whole::Moved
            }
            (Expect::Next | Expect::ValueOrEnd | Expect::NameOrEnd, b']' | b'}') => {
                match self.stack.last() {
                    Some(frame) if frame.object == (byte == b'}') => {
                        self.pos = pos + 1;
                        Whole::Close
                    }
                    _ => Whole::Other,
                }
            }
            (Expect::NameOrEnd | Expect::Name, b'"') => match self.whole_name(bytes, pos) {
                Some(index) => Whole::Name(index),
                None => Whole::Other,
            },
            (Expect::Value | Expect::ValueOrEnd, b'{' | b'[') => Whole::Open(byte),
            (Expect::Value | Expect::ValueOrEnd, _) => match whole_scalar(text, pos, byte) {
                Some((entry, end)) => Whole::Scalar(entry, end),
                None => Whole::Other,
            },
            _ => Whole::Other,
        }
    }

    fn structural(
        &mut self,
        text: &str,
        watch: &mut dyn Watch,
        expect: Expect,
        byte: u8,
    ) -> Result<(), Stop> {
        let syntax = Stop::Syntax {
            at: self.pos,
            escape: false,
        };
        match (expect, byte) {
            (Expect::ValueOrEnd, b']') | (Expect::NameOrEnd, b'}') => {
                self.pos += 1;
                self.close(text, watch)
            }
            (Expect::Value | Expect::ValueOrEnd, _) => {
                self.begin_value(text, watch, byte).map(|_| ())
            }
            (Expect::NameOrEnd | Expect::Name, b'"') => {
                self.pos += 1;
                self.token = Token {
                    start: offset(self.pos),
                    key: true,
                    ..Token::NONE
                };
                self.expect = Expect::String;
                Ok(())
            }
            (Expect::Colon, b':') => {
                self.pos += 1;
                self.expect = Expect::Value;
                Ok(())
            }
            (Expect::Next, b',' | b']' | b'}') => {
                let object = self.stack.last().is_some_and(|frame| frame.object);
                match (object, byte) {
                    (_, b',') => {
                        self.pos += 1;
                        self.expect = if object { Expect::Name } else { Expect::Value };
                        Ok(())
                    }
                    (true, b'}') | (false, b']') => {
                        self.pos += 1;
                        self.close(text, watch)
                    }
                    _ => Err(syntax),
                }
            }
            _ => Err(syntax),
        }
    }

    /// A value begins at `byte`; the watcher's answer (see [`Watch::begin`]).
    fn begin_value(&mut self, text: &str, watch: &mut dyn Watch, byte: u8) -> Result<bool, Stop> {
        let depth = self.stack.len();
        let kind = match byte {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b't' => Kind::True,
            b'f' => Kind::False,
            b'n' => Kind::Null,
            b'-' | b'0'..=b'9' => Kind::Number,
            _ => {
                return Err(Stop::Syntax {
                    at: self.pos,
                    escape: false,
                })
            }
        };
        if matches!(kind, Kind::Object | Kind::Array) && depth + 1 >= MAX_DEPTH {
            return Err(Stop::Syntax {
                at: self.pos,
                escape: false,
            });
        }
        let watched = match watch.begin(&mut self.lend(text), depth, kind) {
            ControlFlow::Continue(watched) => watched,
            ControlFlow::Break(()) => return Err(Stop::Watcher),
        };
        match kind {
            Kind::Object | Kind::Array => self.open(kind),
            Kind::String => {
                self.pos += 1;
                self.token = Token {
                    start: offset(self.pos),
                    watched,
                    ..Token::NONE
                };
                self.expect = Expect::String;
            }
            Kind::Number => {
                self.token = Token {
                    start: offset(self.pos),
                    ..Token::NONE
                };
                self.expect = Expect::Number;
            }
            literal => {
                self.token = Token {
                    start: offset(self.pos),
                    rest: match literal {
                        Kind::True => b"rue",
                        Kind::False => b"alse",
                        _ => b"ull",
                    },
                    kind: literal,
                    ..Token::NONE
                };
                self.pos += 1;
                self.expect = Expect::Literal;
            }
        }
        Ok(watched)
    }

    /// A value other than a container is complete: onto the tape with it.
    fn scalar_done(&mut self, text: &str, watch: &mut dyn Watch, entry: Entry) -> Result<(), Stop> {
        let index = offset(self.entries.len());
        self.entries.push(entry);
        let depth = self.stack.len();
        if watch.end(&mut self.lend(text), index, depth).is_break() {
            return Err(Stop::Watcher);
        }
        self.value_done();
        Ok(())
    }

    fn value_done(&mut self) {
        match self.stack.last_mut() {
            None => self.expect = Expect::Done,
            Some(frame) => {
                frame.count = frame.count.saturating_add(1);
                self.expect = Expect::Next;
            }
        }
    }

    /// Closes the innermost container, whose bracket was just read, as
    /// `parse` closes it (repeated names resolved the same way).
    fn close(&mut self, text: &str, watch: &mut dyn Watch) -> Result<(), Stop> {
        let index = self.close_tape(text)?;
        let depth = self.stack.len();
        if watch.end(&mut self.lend(text), index, depth).is_break() {
            return Err(Stop::Watcher);
        }
        self.value_done();
        Ok(())
    }

    /// An object or array begins at `pos`: onto the tape and the stack.
    fn open(&mut self, kind: Kind) {
        let index = offset(self.entries.len());
        self.entries.push(Entry {
            kind,
            flags: 0,
            a: 0,
            b: 0,
        });
        let object = kind == Kind::Object;
        self.stack.push(Frame {
            index,
            count: 0,
            keys_start: offset(self.keys.len()),
            object,
        });
        self.pos += 1;
        self.expect = if object {
            Expect::NameOrEnd
        } else {
            Expect::ValueOrEnd
        };
    }

    /// The container just opened, read through without the watcher (see
    /// [`Watch::begin`]) by the whole-text parser, from its bracket: if it
    /// closes in the text so far, the watcher hears that it ended; if not,
    /// the tape goes back to its bracket, to be read token by token.
    fn read_through(&mut self, text: &str, watch: &mut dyn Watch) -> Result<(), Stop> {
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        let depth = self.stack.len();
        let (pos, expect) = (self.pos, self.expect);
        let (keys, redirects) = (self.keys.len(), self.redirects.len());
        let container = self.entries.get(frame.index as usize).copied();
        self.entries.truncate(frame.index as usize);
        let mut within = self.within(text, depth);
        let read = within.container(pos - 1);
        self.take_back(within);
        if let Some(end) = read {
            // Objects close inner first; the tape looks redirects up by key
            // index, so they are kept in that order.
            if self.redirects.len() != redirects {
                self.redirects.sort_unstable_by_key(|&(key, _)| key);
            }
            self.pos = end;
            self.silent_len = end - pos + 1;
            if watch
                .end(&mut self.lend(text), frame.index, depth)
                .is_break()
            {
                return Err(Stop::Watcher);
            }
            self.value_done();
            if self.stack.last().is_some_and(|f| !f.object) && watch.items_alike(depth) {
                self.items_through(text, watch, depth)?;
            }
            return Ok(());
        }
        // What the parser read was appended (redirects too: it sorts them
        // only at the end of a whole text): cut back to the bracket.
        self.entries.truncate(frame.index as usize);
        self.entries.extend(container);
        self.keys.truncate(keys);
        self.redirects.truncate(redirects);
        self.stack.push(frame);
        self.pos = pos;
        self.expect = expect;
        self.silent_ok = false;
        Ok(())
    }

    /// The items that follow the one just read through at `depth`, read
    /// through in the same way while the text holds them whole and the
    /// watcher hears of each by [`Watch::item`] (see
    /// [`Watch::items_alike`]). It stops after the last such item; the
    /// token-by-token reading takes the comma and the item after it, or,
    /// when that item may wait (see [`Incremental::hold_items`]), the
    /// `feed` stops there.
    fn items_through(
        &mut self,
        text: &str,
        watch: &mut dyn Watch,
        depth: usize,
    ) -> Result<(), Stop> {
        let bytes = text.as_bytes();
        // The bracket the last item closed with says how the next opens.
        let open = match self.pos.checked_sub(1).and_then(|at| bytes.get(at)) {
            Some(b'}') => b'{',
            Some(b']') => b'[',
            _ => return Ok(()),
        };
        let mut within = self.within(text, depth);
        let outcome = loop {
            let comma = skip_whitespace(bytes, self.pos);
            if bytes.get(comma) != Some(&b',') {
                break Ok(());
            }
            let start = skip_whitespace(bytes, comma + 1);
            if bytes.get(start) != Some(&open) {
                break Ok(());
            }
            // It may wait (see `hold_items`) when it begins within `hold`
            // bytes of the end and the item before it was no longer than
            // that: the next `feed` most likely holds it whole.
            let left = text.len() - start;
            let may_wait = left < self.hold && self.silent_len <= self.hold;
            // Shorter than the item before it, it is most likely cut: it
            // waits if it may (one that was whole is read through then),
            // and is otherwise read token by token from its comma.
            if left < self.silent_len {
                self.held = may_wait;
                break Ok(());
            }
            let (entries, keys, redirects) = within.tape();
            let before = (entries.len(), keys.len(), redirects.len());
            let read = within.container(start);
            let (entries, keys, redirects) = within.tape();
            let Some(end) = read else {
                // Cut by the text's end (or in error): it waits for the
                // next `feed` if it may (see `hold_items`); otherwise the
                // token-by-token reading takes it from its comma, without
                // reading it through again.
                entries.truncate(before.0);
                keys.truncate(before.1);
                redirects.truncate(before.2);
                if may_wait {
                    self.held = true;
                } else {
                    self.silent_ok = false;
                }
                break Ok(());
            };
            if redirects.len() != before.2 {
                // As `read_through` keeps them.
                redirects.sort_unstable_by_key(|&(key, _)| key);
            }
            self.pos = end;
            self.silent_len = end - start;
            let mut lend = Lend {
                src: text,
                entries,
                redirects,
                stack: &self.stack,
                keys,
                pos: end,
            };
            if watch
                .item(&mut lend, offset(before.0), depth, start)
                .is_break()
            {
                break Err(Stop::Watcher);
            }
            self.value_done();
        };
        self.take_back(within);
        outcome
    }

    /// The tape's buffers lent to a parser of containers within `text`,
    /// inside `depth` containers (see [`Within`]), until
    /// [`Incremental::take_back`].
    #[inline(always)]
    fn within<'t>(&mut self, text: &'t str, depth: usize) -> Within<'t> {
        let tape = (
            std::mem::take(&mut self.entries),
            std::mem::take(&mut self.keys),
            std::mem::take(&mut self.redirects),
        );
        Within::new(text, depth, tape, std::mem::take(&mut self.scratch))
    }

    /// The buffers lent by [`Incremental::within`], back.
    #[inline(always)]
    fn take_back(&mut self, within: Within<'_>) {
        ((self.entries, self.keys, self.redirects), self.scratch) = within.into_tape();
    }

    /// The member name whose quote is at `pos`, when the text holds the
    /// whole of it: onto the tape and the object's keys, and its entry's
    /// index (the colon is next).
    fn whole_name(&mut self, bytes: &[u8], pos: usize) -> Option<u32> {
        let start = pos + 1;
        let (end, flags) = whole_string(bytes, start)?;
        let len = offset(end - start);
        let index = offset(self.entries.len());
        self.entries.push(Entry {
            kind: Kind::String,
            flags,
            a: offset(start),
            b: len,
        });
        self.keys.push(Key {
            prefix: prefix_at(bytes, start, len as usize),
            index,
            len,
            escaped: flags & ESCAPED != 0,
        });
        self.pos = end + 1;
        self.expect = Expect::Colon;
        Some(index)
    }

    /// Closes the innermost container on the tape; its entry's index.
    fn close_tape(&mut self, text: &str) -> Result<u32, Stop> {
        let Some(frame) = self.stack.pop() else {
            return Err(Stop::Syntax {
                at: self.pos,
                escape: false,
            });
        };
        let end = offset(self.entries.len());
        let mut count = frame.count;
        if frame.object {
            let start = frame.keys_start as usize;
            let keys = self.keys.get(start..).unwrap_or(&[]);
            if keys.len() > 1 {
                let before = self.redirects.len();
                count = dedupe(text, &mut self.entries, &mut self.redirects, keys);
                // Objects close inner first; the tape looks redirects up by
                // key index, so they are kept in that order.
                if self.redirects.len() != before {
                    self.redirects.sort_unstable_by_key(|&(key, _)| key);
                }
            }
            self.keys.truncate(start);
        }
        if let Some(entry) = self.entries.get_mut(frame.index as usize) {
            entry.a = count;
            entry.b = end;
        }
        Ok(frame.index)
    }

    /// Reads string content; `true` once the string is complete.
    fn string(&mut self, text: &str, watch: &mut dyn Watch) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        loop {
            if self.token.escape != Escape::None {
                let Some(&byte) = bytes.get(self.pos) else {
                    return self.string_paused(text, watch);
                };
                self.escape_byte(byte)?;
                continue;
            }
            self.pos = skip_plain(bytes, self.pos);
            match bytes.get(self.pos) {
                None => return self.string_paused(text, watch),
                Some(b'"') => {
                    let start = self.token.start;
                    let len = offset(self.pos - start as usize);
                    self.pos += 1;
                    let flags = self.token.flags;
                    if self.token.key {
                        let index = offset(self.entries.len());
                        self.entries.push(Entry {
                            kind: Kind::String,
                            flags,
                            a: start,
                            b: len,
                        });
                        self.keys.push(Key {
                            prefix: prefix_at(bytes, start as usize, len as usize),
                            index,
                            len,
                            escaped: flags & ESCAPED != 0,
                        });
                        self.expect = Expect::Colon;
                        if watch.name(&mut self.lend(text), index).is_break() {
                            return Err(Stop::Watcher);
                        }
                    } else {
                        let entry = Entry {
                            kind: Kind::String,
                            flags,
                            a: start,
                            b: len,
                        };
                        self.scalar_done(text, watch, entry)?;
                    }
                    return Ok(true);
                }
                Some(b'\\') => {
                    self.token.escape_start = offset(self.pos);
                    self.token.flags = ESCAPED;
                    self.token.escape = Escape::Backslash;
                    self.pos += 1;
                }
                Some(_) => {
                    return Err(Stop::Syntax {
                        at: self.pos,
                        escape: false,
                    })
                }
            }
        }
    }

    /// The text ran out inside a string: a watched one is reported.
    fn string_paused(&mut self, text: &str, watch: &mut dyn Watch) -> Result<bool, Stop> {
        if self.token.watched {
            let complete = if self.token.escape == Escape::None {
                self.pos
            } else {
                self.token.escape_start as usize
            };
            let start = self.token.start as usize;
            let counted = self.token.counted as usize;
            // Whole characters and escapes lie between the last count and
            // `complete`, so the count goes on from where it stopped.
            let fresh = text.get(counted.max(start)..complete).unwrap_or("");
            self.token.chars += strings::char_count(
                fresh,
                Entry {
                    flags: ESCAPED,
                    ..Entry::NULL
                },
            ) as u64;
            self.token.counted = offset(complete);
            let raw = text.get(start..complete).unwrap_or("");
            let chars = self.token.chars;
            if watch
                .partial(&mut self.lend(text), Partial { raw, chars })
                .is_break()
            {
                return Err(Stop::Watcher);
            }
        }
        Ok(false)
    }

    /// One byte of an escape, as `parse` reads escapes.
    fn escape_byte(&mut self, byte: u8) -> Result<(), Stop> {
        let at = self.pos;
        self.pos += 1;
        let bad = Err(Stop::Syntax {
            at,
            escape: matches!(self.token.escape, Escape::Hex { .. }),
        });
        self.token.escape = match (self.token.escape, byte) {
            (Escape::Backslash, b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                Escape::None
            }
            (Escape::Backslash, b'u') => Escape::Hex {
                digits: 0,
                value: 0,
                low: false,
            },
            (Escape::Hex { digits, value, low }, _) => {
                let Some(digit) = hex_value(byte) else {
                    return bad;
                };
                let value = (value << 4) | digit;
                if digits < 3 {
                    Escape::Hex {
                        digits: digits + 1,
                        value,
                        low,
                    }
                } else if low {
                    if !(0xDC00..=0xDFFF).contains(&value) {
                        return bad;
                    }
                    Escape::None
                } else if (0xDC00..=0xDFFF).contains(&value) {
                    return bad;
                } else if (0xD800..=0xDBFF).contains(&value) {
                    Escape::LowBackslash
                } else {
                    Escape::None
                }
            }
            (Escape::LowBackslash, b'\\') => Escape::LowU,
            (Escape::LowU, b'u') => Escape::Hex {
                digits: 0,
                value: 0,
                low: true,
            },
            _ => return bad,
        };
        Ok(())
    }

    fn literal(&mut self, text: &str, watch: &mut dyn Watch) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        while let Some((&expected, rest)) = self.token.rest.split_first() {
            match bytes.get(self.pos) {
                None => return Ok(false),
                Some(&byte) if byte == expected => {
                    self.pos += 1;
                    self.token.rest = rest;
                }
                Some(_) => {
                    return Err(Stop::Syntax {
                        at: self.pos,
                        escape: false,
                    })
                }
            }
        }
        let entry = Entry {
            kind: self.token.kind,
            flags: 0,
            a: self.token.start,
            b: 0,
        };
        self.scalar_done(text, watch, entry)?;
        Ok(true)
    }

    /// A number is read to the first byte no number can hold, then
    /// decided as `parse` decides it.
    fn number(&mut self, text: &str, watch: &mut dyn Watch) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        self.pos = number_run(bytes, self.pos);
        let start = self.token.start;
        if self.pos >= bytes.len() {
            // Every prefix of a number is one, or is one with a `0` more;
            // a run that is neither can only get worse.
            let run = text.get(start as usize..).unwrap_or("");
            if number_flags(run).is_none() && number_flags(&format!("{run}0")).is_none() {
                return Err(Stop::Syntax {
                    at: self.pos.saturating_sub(1),
                    escape: false,
                });
            }
            return Ok(false);
        }
        let literal = text.get(start as usize..self.pos).unwrap_or("");
        let Some(flags) = number_flags(literal) else {
            return Err(Stop::Syntax {
                at: self.pos,
                escape: false,
            });
        };
        let entry = Entry {
            kind: Kind::Number,
            flags,
            a: start,
            b: offset(literal.len()),
        };
        self.scalar_done(text, watch, entry)?;
        Ok(true)
    }
}

/// The parser's tape and open containers, lent to a [`Watch`].
pub struct Lend<'p> {
    src: &'p str,
    entries: &'p mut Vec<Entry>,
    redirects: &'p mut Vec<(u32, u32)>,
    stack: &'p [Frame],
    keys: &'p [Key],
    pos: usize,
}

impl<'p> Lend<'p> {
    /// Bytes of the text read so far.
    pub fn read(&self) -> usize {
        self.pos
    }

    /// Runs `f` on the tape so far, whose complete values are final.
    pub fn with_tape<R>(&mut self, f: impl FnOnce(&Tape<'_>) -> R) -> R {
        let mut tape = Tape {
            src: self.src,
            entries: std::mem::take(self.entries),
            redirects: std::mem::take(self.redirects),
            fallback: Entry::NULL,
        };
        let result = f(&tape);
        *self.entries = std::mem::take(&mut tape.entries);
        *self.redirects = std::mem::take(&mut tape.redirects);
        result
    }

    /// Entries `start..end` as a tape of their own (the first one its root).
    fn copy(&self, start: u32, end: u32, extra: Option<Entry>) -> Tape<'p> {
        let mut entries: Vec<Entry> = self
            .entries
            .get(start as usize..end as usize)
            .unwrap_or(&[])
            .to_vec();
        for entry in &mut entries {
            if matches!(entry.kind, Kind::Array | Kind::Object) {
                entry.b = entry.b.saturating_sub(start);
            }
        }
        entries.extend(extra);
        let redirects = self
            .redirects
            .iter()
            .filter(|(key, _)| (start..end).contains(key))
            .map(|&(key, value)| (key - start, value.saturating_sub(start)))
            .collect();
        Tape {
            src: self.src,
            entries,
            redirects,
            fallback: Entry::NULL,
        }
    }

    /// The complete value at `index` as a tape of its own.
    pub fn value(&self, index: u32) -> Tape<'p> {
        let entry = self
            .entries
            .get(index as usize)
            .copied()
            .unwrap_or(Entry::NULL);
        let end = match entry.kind {
            Kind::Array | Kind::Object => entry.b,
            _ => index.saturating_add(1),
        };
        self.copy(index, end, None)
    }

    /// The open array at `depth` as a complete one: its items so far and
    /// one `null` more (the item that is beginning).
    pub fn open_array_and_one(&self, depth: usize) -> Option<Tape<'p>> {
        let frame = self.stack.get(depth).filter(|frame| !frame.object)?;
        let end = offset(self.entries.len());
        let mut tape = self.copy(frame.index, end, Some(Entry::NULL));
        let len = offset(tape.entries.len());
        let root = tape.entries.first_mut()?;
        root.a = frame.count.saturating_add(1);
        root.b = len;
        Some(tape)
    }

    /// What the value at `index` is.
    pub fn kind(&self, index: u32) -> Kind {
        self.entries
            .get(index as usize)
            .map_or(Kind::Null, |entry| entry.kind)
    }

    /// Where the raw text of the name whose entry is `key` lies: its first
    /// byte (after the opening quote) and its length.
    pub fn name_span(&self, key: u32) -> (usize, usize) {
        let entry = self
            .entries
            .get(key as usize)
            .copied()
            .unwrap_or(Entry::NULL);
        (entry.a as usize, entry.b as usize)
    }

    /// The decoded text of the name whose entry is `key`.
    pub fn name(&self, key: u32) -> Cow<'p, str> {
        let entry = self
            .entries
            .get(key as usize)
            .copied()
            .unwrap_or(Entry::NULL);
        let start = entry.a as usize;
        let raw: &'p str = self
            .src
            .get(start..start.saturating_add(entry.b as usize))
            .unwrap_or("");
        strings::string_of(raw, entry)
    }

    /// The JSON Pointer of the value in progress at `depth`: the member or
    /// item each open container below it is at.
    pub fn pointer(&self, depth: usize) -> String {
        let mut pointer = String::new();
        let frames = self.stack.get(..depth).unwrap_or(self.stack);
        for (level, frame) in frames.iter().enumerate() {
            pointer.push('/');
            if frame.object {
                let next = self
                    .stack
                    .get(level + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .find(|inner| inner.object)
                    .map_or(self.keys.len(), |inner| inner.keys_start as usize);
                if let Some(key) = next
                    .checked_sub(1)
                    .filter(|&last| last >= frame.keys_start as usize)
                    .and_then(|last| self.keys.get(last))
                {
                    let name = self.name(key.index);
                    pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
                }
            } else {
                pointer.push_str(&frame.count.to_string());
            }
        }
        pointer
    }
}

#[cfg(test)]
mod tests;
