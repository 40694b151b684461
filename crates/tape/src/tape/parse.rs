//! A strict, iterative JSON parser that accepts exactly what
//! `serde_json::from_str::<Value>` accepts and fails with the same message
//! at the same line and column.
//!
//! It never recurses: open containers live on an explicit stack, capped at
//! [`MAX_DEPTH`], so hostile nesting is an error, not a stack overflow.

use std::borrow::Cow;
use std::fmt;

use super::strings;
use super::{hex_value, Entry, Kind, Tape, DUP_REDIRECT, DUP_SKIP, ESCAPED, INTEGER};

/// serde_json's recursion limit: its depth counter starts here and an open
/// container that brings it to zero is an error, so values nest at most
/// `MAX_DEPTH - 1` (127) containers deep.
pub const MAX_DEPTH: usize = 128;

/// Objects with more members than this find repeated names by sorting
/// instead of comparing every pair.
const PAIRWISE_KEYS: usize = 16;

/// Why a text is not JSON, phrased and positioned as serde_json reports it.
/// The message never quotes the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    /// 1-based.
    pub line: usize,
    /// Bytes from the start of the line to the offending byte, inclusive,
    /// as serde_json counts.
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for ParseError {}

#[derive(Debug, Clone, Copy)]
enum Code {
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
    InputTooLarge,
}

impl Code {
    fn message(self) -> &'static str {
        match self {
            Code::EofWhileParsingList => "EOF while parsing a list",
            Code::EofWhileParsingObject => "EOF while parsing an object",
            Code::EofWhileParsingString => "EOF while parsing a string",
            Code::EofWhileParsingValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ExpectedListCommaOrEnd => "expected `,` or `]`",
            Code::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedSomeIdent => "expected ident",
            Code::ExpectedSomeValue => "expected value",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::NumberOutOfRange => "number out of range",
            Code::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            Code::KeyMustBeAString => "key must be a string",
            Code::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            Code::RecursionLimitExceeded => "recursion limit exceeded",
            Code::InputTooLarge => "input too large",
        }
    }
}

/// Parses `text` into a tape. Accepts exactly what
/// `serde_json::from_str::<serde_json::Value>` accepts.
///
/// # Errors
///
/// Returns the error serde_json would return for the same text (message,
/// line and column), plus "input too large" for texts of 4 GiB or more,
/// which the 32-bit offsets of the tape cannot address.
pub fn parse(text: &str) -> Result<Tape<'_>, ParseError> {
    let spare = SPARE.with(|spare| spare.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)));
    let Spare {
        mut entries,
        mut stack,
        mut keys,
    } = spare.unwrap_or_default();
    entries.clear();
    stack.clear();
    keys.clear();
    let mut parser = Parser::new(text, 0, (entries, keys, Vec::new()), stack, false);
    if u32::try_from(text.len()).map_or(true, |len| len == u32::MAX) {
        return Err(parser.error_at(Code::InputTooLarge, 0));
    }
    // Roughly one entry per eight bytes of typical output; growth covers the rest.
    parser.entries.reserve(text.len() / 8 + 1);
    let outcome = parser.run();
    let Parser {
        entries,
        mut redirects,
        stack,
        keys,
        ..
    } = parser;
    SPARE.with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut() {
            spare.stack = stack;
            spare.keys = keys;
        }
    });
    if let Err(error) = outcome {
        recycle(entries);
        return Err(error);
    }
    guard_sort::sort_by_key(&mut redirects, |&(key, _)| key);
    Ok(Tape {
        src: text,
        entries,
        redirects,
        fallback: Entry::NULL,
    })
}

/// The entry flags of `literal` when it is exactly one number the parser
/// accepts (the same scan and the same range checks), else `None`: the
/// resumable parser reads a number's bytes first and decides here once
/// they end.
pub(super) fn number_flags(literal: &str) -> Option<u8> {
    let mut parser = Parser::new(literal, 0, Buffers::default(), Vec::new(), false);
    let flags = parser.parse_number().ok()?;
    (parser.pos == literal.len()).then_some(flags)
}

/// Reads objects and arrays within a larger text, each as `parse` reads it
/// inside `depth` containers, onto the buffers of a tape being built
/// (offsets into the whole `text`; the stack is only scratch): the
/// resumable parser reads a container the text at hand holds whole this
/// way. One parser holds the buffers for a run of containers, as
/// containers a few hundred bytes long are read by the thousand, and
/// setting a parser up for each cost the stream check a few percent. The
/// buffers go back with [`Within::into_tape`].
pub(super) struct Within<'s> {
    parser: Parser<'s>,
}

/// A tape's buffers being built: entries, the open objects' keys, redirects.
pub(super) type Buffers = (Vec<Entry>, Vec<Key>, Vec<(u32, u32)>);

impl<'s> Within<'s> {
    /// A run inside `depth` containers of `text`, onto these buffers
    /// (`stack` only scratch).
    pub(super) fn new(text: &'s str, depth: usize, tape: Buffers, stack: Vec<Frame>) -> Self {
        Within {
            parser: Parser::new(text, depth, tape, stack, true),
        }
    }

    /// The container whose bracket is at `pos`: the offset past it, when
    /// the text holds the whole of it and it is well formed. `None` for
    /// anything else, the buffers then holding whatever was read, for the
    /// caller to cut back; no error is worded.
    pub(super) fn container(&mut self, pos: usize) -> Option<usize> {
        if !matches!(self.parser.bytes.get(pos), Some(b'{' | b'[')) {
            return None;
        }
        self.parser.stack.clear();
        self.parser.pos = pos;
        self.parser.run().ok().map(|()| self.parser.pos)
    }

    /// The tape's buffers, as the run has them so far.
    pub(super) fn tape(&mut self) -> (&mut Vec<Entry>, &mut Vec<Key>, &mut Vec<(u32, u32)>) {
        (
            &mut self.parser.entries,
            &mut self.parser.keys,
            &mut self.parser.redirects,
        )
    }

    /// The buffers back: the tape's, and the scratch stack.
    pub(super) fn into_tape(self) -> (Buffers, Vec<Frame>) {
        let parser = self.parser;
        (
            (parser.entries, parser.keys, parser.redirects),
            parser.stack,
        )
    }
}

/// The parser's buffers, kept from one parse to the next: most calls check
/// a response of a similar size to the last, and allocating and freeing
/// three buffers cost a small response as much as parsing it.
#[derive(Default)]
struct Spare {
    entries: Vec<Entry>,
    stack: Vec<Frame>,
    keys: Vec<Key>,
}

/// Tapes up to this many entries (768 KiB) hand their buffer back for the
/// next parse; a larger one is freed, so one huge response does not keep
/// its memory.
pub const SPARE_ENTRIES: usize = 1 << 16;

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::default();
}

/// The capacity of the entry buffer the next parse starts from.
#[cfg(test)]
pub fn spare_capacity() -> usize {
    SPARE.with(|spare| spare.borrow().entries.capacity())
}

/// The entry buffer a dropped tape left, empty, for a tape built
/// elsewhere (the resumable parser's): a new buffer grown from nothing
/// would be copied each time it doubled.
pub fn spare_entries() -> Vec<Entry> {
    let mut entries = SPARE
        .try_with(|spare| {
            spare
                .try_borrow_mut()
                .map(|mut spare| std::mem::take(&mut spare.entries))
                .unwrap_or_default()
        })
        .unwrap_or_default();
    entries.clear();
    entries
}

/// Keeps a dropped tape's entry buffer for the next parse.
pub fn recycle(entries: Vec<Entry>) {
    if entries.capacity() == 0 || entries.capacity() > SPARE_ENTRIES {
        return;
    }
    // During thread teardown the spare may be gone; the buffer is then freed.
    let _ = SPARE.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut() {
            if spare.entries.capacity() < entries.capacity() {
                spare.entries = entries;
            }
        }
    });
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// Entry index of the container.
    pub(super) index: u32,
    /// Values (for objects, members) seen so far.
    pub(super) count: u32,
    /// For objects: where this object's key indices start in `Parser::keys`.
    pub(super) keys_start: u32,
    pub(super) object: bool,
}

/// A member name of an open object: its entry, its raw length, whether it
/// has an escape, and its first eight raw bytes (zero-padded) as a number,
/// so that finding repeated names compares two numbers for most pairs
/// instead of two byte slices.
#[derive(Debug, Clone, Copy)]
pub(super) struct Key {
    pub(super) prefix: u64,
    pub(super) index: u32,
    pub(super) len: u32,
    pub(super) escaped: bool,
}

impl Key {
    /// Whether two unescaped names can be equal: they are when this holds
    /// and, past eight bytes, their remaining bytes agree.
    #[inline(always)]
    fn may_equal(&self, other: &Key) -> bool {
        self.prefix == other.prefix && self.len == other.len
    }

    /// What `may_equal` compares, hashed (see [`name_hash`]).
    #[inline(always)]
    fn hash(&self) -> u64 {
        name_hash(self.prefix, self.len)
    }
}

/// A name's first eight bytes (see [`prefix_at`]) and its length, hashed
/// to a number below 256: names that may be equal hash alike.
#[inline(always)]
pub(super) fn name_hash(prefix: u64, len: u32) -> u64 {
    (prefix ^ u64::from(len).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56
}

/// Whether the names' hashes (see [`Key::hash`]) are all different, so
/// that no two names may be equal. One pass over the names, against the
/// pairs' comparisons (for the nine names of a small extraction, 36 of
/// them, which cost the parse of its 250 bytes a tenth of its time); two
/// different names share a hash rarely (nine of them, about one object in
/// eight), and are then compared pair by pair.
pub(super) fn hash_apart(keys: &[Key]) -> bool {
    let mut seen = [0_u64; 4];
    for key in keys {
        let hash = key.hash();
        let bit = 1_u64 << (hash & 63);
        let Some(word) = seen.get_mut((hash >> 6) as usize) else {
            return false;
        };
        if *word & bit != 0 {
            return false;
        }
        *word |= bit;
    }
    true
}

/// The first eight bytes of the `len` bytes at `start`, zero-padded,
/// little-endian. A name is nearly always followed by at least eight more
/// bytes of text, so this is one load and a mask, without a copy.
#[inline(always)]
pub fn prefix_at(bytes: &[u8], start: usize, len: usize) -> u64 {
    let word = match bytes
        .get(start..start.saturating_add(8))
        .map(<[u8; 8]>::try_from)
    {
        Some(Ok(word)) => u64::from_le_bytes(word),
        _ => {
            let mut word = [0_u8; 8];
            for (to, from) in word.iter_mut().zip(bytes.get(start..).unwrap_or(&[])) {
                *to = *from;
            }
            u64::from_le_bytes(word)
        }
    };
    if len >= 8 {
        word
    } else {
        word & ((1_u64 << (8 * len)) - 1)
    }
}

struct Parser<'s> {
    src: &'s str,
    bytes: &'s [u8],
    /// Index of the next byte to read.
    pos: usize,
    entries: Vec<Entry>,
    stack: Vec<Frame>,
    /// The keys of every open object, innermost last.
    keys: Vec<Key>,
    redirects: Vec<(u32, u32)>,
    /// Containers around the value read (see [`Within`]).
    depth: usize,
    /// Reading one container within a larger text: it ends where the
    /// container closes, and its errors are not worded.
    within: bool,
}

/// Whether a byte ends a run of plain string content.
#[inline(always)]
fn is_special(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// Index of the first quote, backslash or control byte at or after `pos`:
/// sixteen bytes a step with wasm's 128-bit vectors, then eight at a time.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub(super) fn skip_plain(bytes: &[u8], mut pos: usize) -> usize {
    use core::arch::wasm32::{u8x16, u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128_or};
    let quote = u8x16_splat(b'"');
    let backslash = u8x16_splat(b'\\');
    let control = u8x16_splat(0x20);
    while let Some(chunk) = bytes.get(pos..pos.saturating_add(16)) {
        let Ok(c) = <[u8; 16]>::try_from(chunk) else {
            break;
        };
        let v = u8x16(
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13],
            c[14], c[15],
        );
        let found = v128_or(
            v128_or(u8x16_eq(v, quote), u8x16_eq(v, backslash)),
            u8x16_lt(v, control),
        );
        let mask = u8x16_bitmask(found);
        if mask != 0 {
            return pos + mask.trailing_zeros() as usize;
        }
        pos += 16;
    }
    skip_plain_words(bytes, pos)
}

/// Index of the first quote, backslash or control byte at or after `pos`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub(super) fn skip_plain(bytes: &[u8], pos: usize) -> usize {
    skip_plain_words(bytes, pos)
}

/// [`skip_plain`] eight bytes at a time.
#[inline(always)]
fn skip_plain_words(bytes: &[u8], mut pos: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    while let Some(chunk) = bytes.get(pos..pos.saturating_add(8)) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        // Each test flags a byte's high bit; the lowest flag is exact.
        let control = word.wrapping_sub(ONES * 0x20) & !word;
        let quote = word ^ (ONES * u64::from(b'"'));
        let quote = quote.wrapping_sub(ONES) & !quote;
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let backslash = backslash.wrapping_sub(ONES) & !backslash;
        let found = (control | quote | backslash) & HIGH;
        if found != 0 {
            return pos + (found.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while let Some(&byte) = bytes.get(pos) {
        if is_special(byte) {
            break;
        }
        pos += 1;
    }
    pos
}

impl<'s> Parser<'s> {
    /// A parser at the start of `src` inside `depth` containers, onto
    /// these buffers; `within` as its field says.
    fn new(src: &'s str, depth: usize, tape: Buffers, stack: Vec<Frame>, within: bool) -> Self {
        let (entries, keys, redirects) = tape;
        Parser {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            entries,
            stack,
            keys,
            redirects,
            depth,
            within,
        }
    }
}

impl Parser<'_> {
    // ---- errors, positioned as serde_json's `SliceRead` positions them ----

    fn error_at(&self, code: Code, index: usize) -> ParseError {
        if self.within {
            return ParseError {
                message: String::new(),
                line: 0,
                column: 0,
            };
        }
        let before = self.bytes.get(..index).unwrap_or(self.bytes);
        let start_of_line = before
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |newline| newline + 1);
        let line = 1 + before
            .get(..start_of_line)
            .unwrap_or(before)
            .iter()
            .filter(|&&byte| byte == b'\n')
            .count();
        ParseError {
            message: code.message().to_owned(),
            line,
            column: index - start_of_line,
        }
    }

    /// serde_json's `error`: the byte just consumed.
    fn error(&self, code: Code) -> ParseError {
        self.error_at(code, self.pos)
    }

    /// serde_json's `peek_error`: the byte about to be consumed.
    fn peek_error(&self, code: Code) -> ParseError {
        self.error_at(code, self.bytes.len().min(self.pos + 1))
    }

    // ---- input ----

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips whitespace and returns the next byte without consuming it.
    #[inline(always)]
    fn peek_past_whitespace(&mut self) -> Option<u8> {
        while let Some(byte) = self.peek() {
            if matches!(byte, b' ' | b'\n' | b'\t' | b'\r') {
                self.pos += 1;
            } else {
                return Some(byte);
            }
        }
        None
    }

    #[inline(always)]
    fn offset(index: usize) -> u32 {
        // `parse` refused texts whose offsets do not fit.
        u32::try_from(index).unwrap_or(u32::MAX)
    }

    #[inline(always)]
    fn next_index(&self) -> u32 {
        u32::try_from(self.entries.len()).unwrap_or(u32::MAX)
    }

    #[inline(always)]
    fn push(&mut self, kind: Kind, flags: u8, a: u32, b: u32) {
        self.entries.push(Entry { kind, flags, a, b });
    }

    // ---- the value loop ----

    fn run(&mut self) -> Result<(), ParseError> {
        'value: loop {
            // A value is expected here.
            let Some(peek) = self.peek_past_whitespace() else {
                return Err(self.peek_error(Code::EofWhileParsingValue));
            };
            match peek {
                b'[' | b'{' => {
                    if self.depth + self.stack.len() + 1 >= MAX_DEPTH {
                        return Err(self.peek_error(Code::RecursionLimitExceeded));
                    }
                    self.pos += 1;
                    let object = peek == b'{';
                    let index = self.next_index();
                    let kind = if object { Kind::Object } else { Kind::Array };
                    self.push(kind, 0, 0, 0);
                    self.stack.push(Frame {
                        index,
                        count: 0,
                        keys_start: u32::try_from(self.keys.len()).unwrap_or(u32::MAX),
                        object,
                    });
                    let next = self.peek_past_whitespace();
                    if object {
                        match next {
                            None => return Err(self.peek_error(Code::EofWhileParsingObject)),
                            Some(b'}') => self.pos += 1,
                            Some(b'"') => {
                                self.parse_key()?;
                                continue 'value;
                            }
                            Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                        }
                    } else {
                        match next {
                            None => return Err(self.peek_error(Code::EofWhileParsingList)),
                            Some(b']') => self.pos += 1,
                            Some(_) => continue 'value,
                        }
                    }
                    // Empty container: closed at once.
                    self.close();
                }
                b'"' => {
                    self.pos += 1;
                    let (start, len, flags) = self.parse_string()?;
                    self.push(Kind::String, flags, start, len);
                }
                b'n' | b't' | b'f' => {
                    let start = Self::offset(self.pos);
                    self.pos += 1;
                    let (rest, kind): (&[u8], Kind) = match peek {
                        b'n' => (b"ull", Kind::Null),
                        b't' => (b"rue", Kind::True),
                        _ => (b"alse", Kind::False),
                    };
                    for &expected in rest {
                        let Some(byte) = self.peek() else {
                            return Err(self.error(Code::EofWhileParsingValue));
                        };
                        self.pos += 1;
                        if byte != expected {
                            return Err(self.error(Code::ExpectedSomeIdent));
                        }
                    }
                    self.push(kind, 0, start, 0);
                }
                b'-' | b'0'..=b'9' => {
                    let start = self.pos;
                    let flags = self.parse_number()?;
                    let len = Self::offset(self.pos - start);
                    self.push(Kind::Number, flags, Self::offset(start), len);
                }
                _ => return Err(self.peek_error(Code::ExpectedSomeValue)),
            }

            // A value just ended: what may follow it.
            loop {
                let Some(frame) = self.stack.last_mut() else {
                    if self.within {
                        return Ok(());
                    }
                    return match self.peek_past_whitespace() {
                        Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
                        None => Ok(()),
                    };
                };
                frame.count = frame.count.saturating_add(1);
                let object = frame.object;
                let next = self.peek_past_whitespace();
                if object {
                    match next {
                        None => return Err(self.peek_error(Code::EofWhileParsingObject)),
                        Some(b'}') => {
                            self.pos += 1;
                            self.close();
                        }
                        Some(b',') => {
                            self.pos += 1;
                            return match self.peek_past_whitespace() {
                                Some(b'"') => {
                                    self.parse_key()?;
                                    continue 'value;
                                }
                                Some(b'}') => Err(self.peek_error(Code::TrailingComma)),
                                Some(_) => Err(self.peek_error(Code::KeyMustBeAString)),
                                None => Err(self.peek_error(Code::EofWhileParsingValue)),
                            };
                        }
                        Some(_) => return Err(self.peek_error(Code::ExpectedObjectCommaOrEnd)),
                    }
                } else {
                    match next {
                        None => return Err(self.peek_error(Code::EofWhileParsingList)),
                        Some(b']') => {
                            self.pos += 1;
                            self.close();
                        }
                        Some(b',') => {
                            self.pos += 1;
                            return match self.peek_past_whitespace() {
                                Some(b']') => Err(self.peek_error(Code::TrailingComma)),
                                Some(_) => continue 'value,
                                None => Err(self.peek_error(Code::EofWhileParsingValue)),
                            };
                        }
                        Some(_) => return Err(self.peek_error(Code::ExpectedListCommaOrEnd)),
                    }
                }
            }
        }
    }

    /// A member name and its colon; `pos` is at the opening quote.
    fn parse_key(&mut self) -> Result<(), ParseError> {
        self.pos += 1;
        let (start, len, flags) = self.parse_string()?;
        let index = self.next_index();
        self.push(Kind::String, flags, start, len);
        let prefix = prefix_at(self.bytes, start as usize, len as usize);
        self.keys.push(Key {
            prefix,
            index,
            len,
            escaped: flags & ESCAPED != 0,
        });
        match self.peek_past_whitespace() {
            Some(b':') => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.peek_error(Code::ExpectedColon)),
            None => Err(self.peek_error(Code::EofWhileParsingObject)),
        }
    }

    /// Closes the innermost container, whose closing bracket was consumed.
    fn close(&mut self) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let end = self.next_index();
        let mut count = frame.count;
        if frame.object {
            let start = frame.keys_start as usize;
            let keys = self.keys.get(start..).unwrap_or(&[]);
            if keys.len() > 1 {
                count = dedupe(self.src, &mut self.entries, &mut self.redirects, keys);
            }
            self.keys.truncate(start);
        }
        if let Some(entry) = self.entries.get_mut(frame.index as usize) {
            entry.a = count;
            entry.b = end;
        }
    }

    /// A string's content; `pos` is just past the opening quote and ends just
    /// past the closing one. Returns the content's offset, raw length and
    /// flags.
    fn parse_string(&mut self) -> Result<(u32, u32, u8), ParseError> {
        let start = self.pos;
        let mut flags = 0;
        loop {
            self.pos = skip_plain(self.bytes, self.pos);
            match self.peek() {
                None => return Err(self.error(Code::EofWhileParsingString)),
                Some(b'"') => {
                    let len = Self::offset(self.pos - start);
                    self.pos += 1;
                    return Ok((Self::offset(start), len, flags));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    flags = ESCAPED;
                    self.parse_escape()?;
                }
                Some(_) => {
                    self.pos += 1;
                    return Err(self.error(Code::ControlCharacterWhileParsingString));
                }
            }
        }
    }

    /// One escape; `pos` is just past the backslash.
    fn parse_escape(&mut self) -> Result<(), ParseError> {
        let Some(byte) = self.peek() else {
            return Err(self.error(Code::EofWhileParsingString));
        };
        self.pos += 1;
        match byte {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Ok(()),
            b'u' => self.parse_unicode_escape(),
            _ => Err(self.error(Code::InvalidEscape)),
        }
    }

    fn hex4(&mut self) -> Result<u16, ParseError> {
        let Some(digits) = self.bytes.get(self.pos..self.pos.saturating_add(4)) else {
            self.pos = self.bytes.len();
            return Err(self.error(Code::EofWhileParsingString));
        };
        self.pos += 4;
        let mut value = 0_u16;
        for &digit in digits {
            match hex_value(digit) {
                Some(digit) => value = (value << 4) | digit,
                None => return Err(self.error(Code::InvalidEscape)),
            }
        }
        Ok(value)
    }

    /// `\u` and its four digits, and the low half when they are a high
    /// surrogate; `pos` is just past the `u`.
    fn parse_unicode_escape(&mut self) -> Result<(), ParseError> {
        let first = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&first) {
            return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
        }
        if !(0xD800..=0xDBFF).contains(&first) {
            return Ok(());
        }
        for expected in [b'\\', b'u'] {
            match self.peek() {
                None => return Err(self.error(Code::EofWhileParsingString)),
                Some(byte) => {
                    self.pos += 1;
                    if byte != expected {
                        return Err(self.error(Code::UnexpectedEndOfHexEscape));
                    }
                }
            }
        }
        let second = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&second) {
            return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
        }
        Ok(())
    }

    #[inline(always)]
    fn digits(&mut self) -> (usize, bool) {
        let mut count = 0;
        let mut nonzero = false;
        while let Some(byte @ b'0'..=b'9') = self.peek() {
            nonzero |= byte != b'0';
            count += 1;
            self.pos += 1;
        }
        (count, nonzero)
    }

    /// A number literal, following serde_json's scan and its error positions;
    /// `pos` is at the sign or first digit. Returns the entry flags. Not
    /// inlined: the resumable parser calls it too, and one copy of it in the
    /// wasm module is enough (a call per number costs nothing measurable).
    #[inline(never)]
    fn parse_number(&mut self) -> Result<u8, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let Some(first) = self.peek() else {
            return Err(self.error(Code::EofWhileParsingValue));
        };
        self.pos += 1;
        let mut integer_digits = 1;
        let mut nonzero = false;
        match first {
            b'0' => {
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            b'1'..=b'9' => {
                let (count, _) = self.digits();
                integer_digits += count;
                nonzero = true;
            }
            _ => return Err(self.error(Code::InvalidNumber)),
        }

        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            integer = false;
            let (count, fraction_nonzero) = self.digits();
            if count == 0 {
                return Err(match self.peek() {
                    Some(_) => self.peek_error(Code::InvalidNumber),
                    None => self.peek_error(Code::EofWhileParsingValue),
                });
            }
            nonzero |= fraction_nonzero;
        }

        let mut exponent = false;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            integer = false;
            exponent = true;
            let positive = match self.peek() {
                Some(b'+') => {
                    self.pos += 1;
                    true
                }
                Some(b'-') => {
                    self.pos += 1;
                    false
                }
                _ => true,
            };
            let Some(first) = self.peek() else {
                return Err(self.error(Code::EofWhileParsingValue));
            };
            self.pos += 1;
            if !first.is_ascii_digit() {
                return Err(self.error(Code::InvalidNumber));
            }
            // serde_json accumulates the exponent in an `i32`; on overflow a
            // nonzero number with a positive exponent is out of range right
            // there, and anything else is zero.
            let mut value = i32::from(first - b'0');
            while let Some(byte @ b'0'..=b'9') = self.peek() {
                self.pos += 1;
                let digit = i32::from(byte - b'0');
                match value.checked_mul(10).and_then(|v| v.checked_add(digit)) {
                    Some(next) => value = next,
                    None => {
                        if nonzero && positive {
                            return Err(self.error(Code::NumberOutOfRange));
                        }
                        self.digits();
                        return Ok(0);
                    }
                }
            }
        }

        // Without an exponent, fewer than 309 integer digits stay below
        // `f64::MAX`; anything else is checked by converting it.
        if exponent || integer_digits > 308 {
            let literal = self.src.get(start..self.pos).unwrap_or("0");
            if literal.parse::<f64>().map_or(true, f64::is_infinite) {
                return Err(self.error(Code::NumberOutOfRange));
            }
        }
        Ok(if integer { INTEGER } else { 0 })
    }
}

/// Finds repeated member names among `keys` (the key entry indices of one
/// object, in order): every later occurrence is marked [`DUP_SKIP`], the
/// first is marked [`DUP_REDIRECT`] to the last occurrence's value. Returns
/// the number of distinct names.
pub(super) fn dedupe(
    src: &str,
    entries: &mut [Entry],
    redirects: &mut Vec<(u32, u32)>,
    keys: &[Key],
) -> u32 {
    let source = src.as_bytes();
    let entry_at = |entries: &[Entry], index: u32| -> Entry {
        entries.get(index as usize).copied().unwrap_or(Entry::NULL)
    };
    let bytes_of = |entry: Entry| -> &[u8] {
        let start = entry.a as usize;
        source
            .get(start..start.saturating_add(entry.b as usize))
            .unwrap_or(&[])
    };
    let raw = |entries: &[Entry], index: u32| -> (&str, Entry) {
        let entry = entry_at(entries, index);
        let start = entry.a as usize;
        let text = src
            .get(start..start.saturating_add(entry.b as usize))
            .unwrap_or("");
        (text, entry)
    };
    // Nearly every object repeats no name. Without escapes, names that
    // differ in raw length or in their first eight bytes differ, so when no
    // two agree in both, nothing below needs to run. Names whose length and
    // first bytes hash apart (see `hash_apart`) differ in them; only when
    // two share a hash are they compared pair by pair.
    if keys.len() <= PAIRWISE_KEYS && keys.iter().all(|key| !key.escaped) {
        let distinct = hash_apart(keys)
            || keys.iter().enumerate().all(|(position, later)| {
                keys.get(..position)
                    .unwrap_or(&[])
                    .iter()
                    .all(|earlier| !earlier.may_equal(later))
            });
        if distinct {
            return u32::try_from(keys.len()).unwrap_or(u32::MAX);
        }
    }
    // (first occurrence, last occurrence) of each repeated name.
    let mut groups: Vec<(u32, u32)> = Vec::new();
    let mut skipped = 0_usize;
    if keys.len() <= PAIRWISE_KEYS {
        for (position, later_key) in keys.iter().enumerate() {
            let later = later_key.index;
            let later_entry = entry_at(entries, later);
            for earlier_key in keys.get(..position).unwrap_or(&[]) {
                let earlier = earlier_key.index;
                let earlier_entry = entry_at(entries, earlier);
                if earlier_entry.has(DUP_SKIP) {
                    continue;
                }
                let same = if earlier_key.escaped || later_key.escaped {
                    let (earlier_raw, _) = raw(entries, earlier);
                    let (later_raw, _) = raw(entries, later);
                    strings::entries_eq(earlier_raw, earlier_entry, later_raw, later_entry)
                } else {
                    // Most names differ in length or in their first eight
                    // bytes; only longer names with the same start compare
                    // every byte.
                    earlier_key.may_equal(later_key)
                        && (earlier_key.len <= 8
                            || bytes_of(earlier_entry) == bytes_of(later_entry))
                };
                if same {
                    if let Some(entry) = entries.get_mut(later as usize) {
                        entry.flags |= DUP_SKIP;
                    }
                    skipped += 1;
                    match groups.iter_mut().find(|(first, _)| *first == earlier) {
                        Some(group) => group.1 = later,
                        None => groups.push((earlier, later)),
                    }
                    break;
                }
            }
        }
    } else {
        let mut names: Vec<(Cow<'_, str>, u32)> = keys
            .iter()
            .map(|&Key { index, .. }| {
                let (text, entry) = raw(entries, index);
                (strings::string_of(text, entry), index)
            })
            .collect();
        // Stable: equal names stay in document order.
        guard_sort::sort_by(&mut names, |left, right| left.0.cmp(&right.0));
        let mut start = 0;
        while let Some((name, first)) = names.get(start) {
            let mut end = start + 1;
            while names.get(end).is_some_and(|(other, _)| other == name) {
                end += 1;
            }
            if end - start > 1 {
                let mut last = *first;
                for &(_, later) in names.get(start + 1..end).unwrap_or(&[]) {
                    if let Some(entry) = entries.get_mut(later as usize) {
                        entry.flags |= DUP_SKIP;
                    }
                    skipped += 1;
                    last = later;
                }
                groups.push((*first, last));
            }
            start = end;
        }
    }
    for &(first, last) in &groups {
        if let Some(entry) = entries.get_mut(first as usize) {
            entry.flags |= DUP_REDIRECT;
        }
        redirects.push((first, last.saturating_add(1)));
    }
    u32::try_from(keys.len() - skipped).unwrap_or(u32::MAX)
}
