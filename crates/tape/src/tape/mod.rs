//! The response text as a flat tape, validated in place.
//!
//! `serde_json::from_str::<Value>` allocates a node per value, a `String` per
//! string and a map per object; for a response of a few thousand rows that
//! parse costs more than the validation that follows. [`parse()`] instead
//! checks the text once, strictly and exactly as `serde_json` would, and
//! records one fixed-size entry ([`ENTRY_SIZE`] bytes) per value in a single `Vec`:
//!
//! * containers hold their member count and the index just past their last
//!   descendant, so a subtree is skipped in O(1);
//! * strings and numbers hold their byte range in the source: strings without
//!   escapes are borrowed from it, strings with escapes are decoded on
//!   demand, numbers are converted on demand;
//! * object members are laid out as a key entry followed by the value's
//!   entries.
//!
//! [`TapeJson`] and [`TapeNode`] implement jsonschema's custom-instance
//! traits over the tape, so validators built with
//! `jsonschema::options_for::<TapeJson>()` validate it directly. Like
//! `schema/view.rs`, a node may be a *prefix view* that iterates at most
//! `limit` elements of each array and members of each object while reporting
//! true lengths (see [`TapeNode::prefix`]).
//!
//! Everything observable agrees with a `serde_json::Value` parsed from the
//! same text (features `preserve_order` and `float_roundtrip`): which texts
//! are accepted, error messages and positions, number conversions, and
//! duplicate keys (the last value wins, at the first occurrence's position).

mod incremental;
mod node;
mod number;
mod parse;
pub mod strings;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub use incremental::{offset, skip_whitespace};
pub use incremental::{Fed, Flow, Incremental, Lend, Partial, Stop, Watch};
pub use node::{TapeArray, TapeElements, TapeJson, TapeMembers, TapeNode, TapeObject};
pub use number::TapeNumber;
pub use parse::prefix_at;
pub use parse::{parse, ParseError, MAX_DEPTH};

/// The string a raw string literal's content (escapes and all) stands for.
pub fn decode_string(raw: &str) -> String {
    strings::decode(raw)
}

/// Bytes per tape entry.
pub const ENTRY_SIZE: usize = std::mem::size_of::<Entry>();

const _: () = assert!(ENTRY_SIZE == 12);

/// What a value of the tape is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    Null,
    False,
    True,
    Number,
    String,
    Array,
    Object,
}

/// String: the raw text holds at least one backslash escape.
pub const ESCAPED: u8 = 1;
/// Number: written with neither a fraction nor an exponent.
pub const INTEGER: u8 = 1 << 1;
/// Object key: an earlier member has the same name, so this member is not
/// one of the object's (its value went to the first occurrence).
pub const DUP_SKIP: u8 = 1 << 2;
/// Object key: first occurrence of a repeated name; its value is that of the
/// last occurrence, found in [`Tape::redirects`].
pub const DUP_REDIRECT: u8 = 1 << 3;

/// One value on the tape.
///
/// | kind            | `a`                          | `b`                              |
/// |-----------------|------------------------------|----------------------------------|
/// | null/true/false | source offset                | unused                           |
/// | number          | source offset of the literal | literal length in bytes          |
/// | string          | offset after the open quote  | raw length (escapes undecoded)   |
/// | array           | element count                | index just past the last descendant |
/// | object          | member count (distinct names)| index just past the last descendant |
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub kind: Kind,
    pub flags: u8,
    pub a: u32,
    pub b: u32,
}

impl Kind {
    /// The JSON Schema type of a value of this kind.
    #[inline(always)]
    pub fn json_type(self) -> jsonschema::types::JsonType {
        use jsonschema::types::JsonType;
        match self {
            Kind::Null => JsonType::Null,
            Kind::False | Kind::True => JsonType::Boolean,
            Kind::Number => JsonType::Number,
            Kind::String => JsonType::String,
            Kind::Array => JsonType::Array,
            Kind::Object => JsonType::Object,
        }
    }
}

/// The value of one hex digit, as a `\\u` escape's four are read.
pub fn hex_value(byte: u8) -> Option<u16> {
    char::from(byte)
        .to_digit(16)
        .and_then(|digit| u16::try_from(digit).ok())
}

impl Entry {
    pub const NULL: Entry = Entry {
        kind: Kind::Null,
        flags: 0,
        a: 0,
        b: 0,
    };

    #[inline(always)]
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// A parsed document: the source text and its tape. Immutable once built.
#[derive(Clone)]
pub struct Tape<'a> {
    pub src: &'a str,
    pub entries: Vec<Entry>,
    /// `(key index, value index)` for every [`DUP_REDIRECT`] key, sorted by
    /// key index. Empty unless some object repeats a name.
    pub redirects: Vec<(u32, u32)>,
    /// What [`Tape::entry`] answers past the end: null for a parsed tape, the
    /// whole source as a string for [`Tape::of_string`].
    pub fallback: Entry,
}

/// The entry buffer goes back to the parser for the next response. A tape
/// whose buffer was taken back (see `Lend::with_tape`, once per item of a
/// streamed array) has none, and is dropped without the call.
impl Drop for Tape<'_> {
    #[inline]
    fn drop(&mut self) {
        if self.entries.capacity() != 0 {
            parse::recycle(std::mem::take(&mut self.entries));
        }
    }
}

/// Sizes only: the text is the model's output and stays out of logs.
impl std::fmt::Debug for Tape<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tape")
            .field("bytes", &self.src.len())
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Tape<'a> {
    /// The text this tape was parsed from.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// Number of entries (values, object keys included).
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// The whole document, for `Validator::is_valid` and friends.
    pub fn root(&self) -> TapeNode<'_> {
        TapeNode::full(self)
    }

    /// The document as a `serde_json::Value`, equal to `serde_json::from_str`
    /// of the same text. A cold path: it allocates the whole tree.
    pub fn to_value(&self) -> Value {
        self.value_at(0)
    }

    /// A tape of one string, `string` itself, without allocating: it has no
    /// entries and answers every index with its fallback.
    pub fn of_string(string: &'a str) -> Tape<'a> {
        Tape {
            src: string,
            entries: Vec::new(),
            redirects: Vec::new(),
            fallback: Entry {
                kind: Kind::String,
                flags: 0,
                a: 0,
                b: u32::try_from(string.len()).unwrap_or(u32::MAX),
            },
        }
    }

    #[inline(always)]
    pub fn entry(&self, index: u32) -> Entry {
        match self.entries.get(index as usize) {
            Some(entry) => *entry,
            None => self.fallback,
        }
    }

    /// Index just past the value at `index` and its descendants.
    #[inline(always)]
    pub fn skip(&self, index: u32) -> u32 {
        let entry = self.entry(index);
        match entry.kind {
            Kind::Array | Kind::Object => entry.b,
            _ => index.saturating_add(1),
        }
    }

    /// The raw source slice of a string or number entry.
    #[inline(always)]
    pub fn raw(&self, entry: Entry) -> &'a str {
        let start = entry.a as usize;
        let end = start.saturating_add(entry.b as usize);
        self.src.get(start..end).unwrap_or("")
    }

    /// The value index of the member whose key is at `key`.
    #[inline(always)]
    pub fn member_value(&self, key: u32, entry: Entry) -> u32 {
        if entry.has(DUP_REDIRECT) {
            if let Ok(found) = self.redirects.binary_search_by_key(&key, |&(k, _)| k) {
                if let Some(&(_, value)) = self.redirects.get(found) {
                    return value;
                }
            }
        }
        key.saturating_add(1)
    }

    pub fn value_at(&self, index: u32) -> Value {
        let entry = self.entry(index);
        match entry.kind {
            Kind::Null => Value::Null,
            Kind::False => Value::Bool(false),
            Kind::True => Value::Bool(true),
            Kind::Number => Value::Number(
                TapeNumber::from_literal(self.raw(entry), entry.has(INTEGER)).to_serde(),
            ),
            Kind::String => Value::String(strings::string_of(self.raw(entry), entry).into_owned()),
            Kind::Array => {
                let mut items = Vec::with_capacity(entry.a as usize);
                let mut child = index.saturating_add(1);
                while child < entry.b {
                    items.push(self.value_at(child));
                    child = self.skip(child);
                }
                Value::Array(items)
            }
            Kind::Object => {
                // Insert every member in order, as serde_json's visitor does:
                // a repeated name keeps its first position and takes the
                // later value.
                let mut map = serde_json::Map::with_capacity(entry.a as usize);
                let mut key = index.saturating_add(1);
                while key < entry.b {
                    let key_entry = self.entry(key);
                    let value = key.saturating_add(1);
                    map.insert(
                        strings::string_of(self.raw(key_entry), key_entry).into_owned(),
                        self.value_at(value),
                    );
                    key = self.skip(value);
                }
                Value::Object(map)
            }
        }
    }
}
