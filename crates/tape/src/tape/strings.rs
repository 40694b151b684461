//! Decoding string contents the parser has already validated.
//!
//! The parser rejects every malformed escape (and every lone surrogate), so
//! the walk below never meets one; if it did, it would produce U+FFFD rather
//! than panic.

use std::borrow::Cow;

use super::{Entry, ESCAPED};

/// A run of the decoded string: a slice of the source, or one escaped char.
pub enum Piece<'s> {
    Str(&'s str),
    Char(char),
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at.checked_add(4)?)?;
    let mut value = 0_u32;
    for &digit in digits {
        value = value * 16 + char::from(digit).to_digit(16)?;
    }
    Some(value)
}

/// One escape at the start of `tail` (which begins with a backslash): the
/// char it stands for and the bytes it takes.
fn escape(tail: &[u8]) -> (char, usize) {
    let simple = match tail.get(1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => {
            let Some(high) = hex4(tail, 2) else {
                return (char::REPLACEMENT_CHARACTER, tail.len());
            };
            if (0xD800..=0xDBFF).contains(&high)
                && tail.get(6) == Some(&b'\\')
                && tail.get(7) == Some(&b'u')
            {
                if let Some(low) = hex4(tail, 8) {
                    if (0xDC00..=0xDFFF).contains(&low) {
                        let code = 0x1_0000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        return (
                            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER),
                            12,
                        );
                    }
                }
            }
            return (
                char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER),
                6,
            );
        }
        _ => return (char::REPLACEMENT_CHARACTER, tail.len()),
    };
    (simple, 2)
}

/// Calls `f` with each run of the decoded string until it returns `false`;
/// returns whether every call returned `true`.
pub fn for_each_piece<'s>(raw: &'s str, mut f: impl FnMut(Piece<'s>) -> bool) -> bool {
    let mut rest = raw;
    loop {
        let Some(at) = rest.find('\\') else {
            return rest.is_empty() || f(Piece::Str(rest));
        };
        let plain = rest.get(..at).unwrap_or("");
        let tail = rest.get(at..).unwrap_or("");
        if !plain.is_empty() && !f(Piece::Str(plain)) {
            return false;
        }
        let (ch, taken) = escape(tail.as_bytes());
        if !f(Piece::Char(ch)) {
            return false;
        }
        rest = tail.get(taken..).unwrap_or("");
    }
}

/// The decoded content of a raw string.
pub fn decode(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for_each_piece(raw, |piece| {
        match piece {
            Piece::Str(s) => out.push_str(s),
            Piece::Char(c) => out.push(c),
        }
        true
    });
    out
}

/// The string an entry holds: borrowed when it has no escapes.
#[inline]
pub fn string_of(raw: &str, entry: Entry) -> Cow<'_, str> {
    if entry.has(ESCAPED) {
        Cow::Owned(decode(raw))
    } else {
        Cow::Borrowed(raw)
    }
}

/// Whether the decoded `raw` equals `other`, without allocating.
pub fn decoded_eq(raw: &str, other: &str) -> bool {
    let other = other.as_bytes();
    let mut offset = 0_usize;
    let all = for_each_piece(raw, |piece| {
        let mut buffer = [0_u8; 4];
        let bytes = match piece {
            Piece::Str(s) => s.as_bytes(),
            Piece::Char(c) => c.encode_utf8(&mut buffer).as_bytes(),
        };
        let end = offset.saturating_add(bytes.len());
        if other.get(offset..end) == Some(bytes) {
            offset = end;
            true
        } else {
            false
        }
    });
    all && offset == other.len()
}

/// Whether the string entry equals `other`.
#[inline]
pub fn entry_eq(raw: &str, entry: Entry, other: &str) -> bool {
    if entry.has(ESCAPED) {
        decoded_eq(raw, other)
    } else {
        raw == other
    }
}

/// Whether two string entries hold the same string.
pub fn entries_eq(left_raw: &str, left: Entry, right_raw: &str, right: Entry) -> bool {
    match (left.has(ESCAPED), right.has(ESCAPED)) {
        (false, false) => left_raw == right_raw,
        (true, false) => decoded_eq(left_raw, right_raw),
        (false, true) => decoded_eq(right_raw, left_raw),
        (true, true) => decoded_eq(left_raw, &decode(right_raw)),
    }
}

/// Length in Unicode code points of the decoded string.
pub fn char_count(raw: &str, entry: Entry) -> usize {
    if !entry.has(ESCAPED) {
        return raw.chars().count();
    }
    let mut count = 0_usize;
    for_each_piece(raw, |piece| {
        count += match piece {
            Piece::Str(s) => s.chars().count(),
            Piece::Char(_) => 1,
        };
        true
    });
    count
}

/// Length in bytes of the decoded string.
pub fn byte_len(raw: &str, entry: Entry) -> usize {
    if !entry.has(ESCAPED) {
        return raw.len();
    }
    let mut len = 0_usize;
    for_each_piece(raw, |piece| {
        len += match piece {
            Piece::Str(s) => s.len(),
            Piece::Char(c) => c.len_utf8(),
        };
        true
    });
    len
}
