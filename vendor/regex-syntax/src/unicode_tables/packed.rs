// The Unicode tables as the compiled library holds them: each table of ranges
// is packed by the compiler into bytes (for each range, its distance from the
// end of the previous one and its length, as LEB128 numbers), about a quarter
// of the size of its `(char, char)` pairs and a half of it compressed. The
// generated tables beside this module are read only while compiling. Lookups
// decode a table front to back, which costs a few microseconds when a pattern
// is compiled and nothing when it is matched.

#[cfg(all(feature = "unicode-case", feature = "std"))]
use alloc::vec::Vec;

/// A generated `BY_NAME` table: range tables by canonical name, sorted.
type Named = &'static [(&'static str, &'static [(char, char)])];

const fn leb128_len(mut n: u32) -> usize {
    let mut len = 1;
    while n >= 0x80 {
        n >>= 7;
        len += 1;
    }
    len
}

const fn put_leb128(out: &mut [u8], mut at: usize, mut n: u32) -> usize {
    while n >= 0x80 {
        out[at] = (n & 0x7F) as u8 | 0x80;
        n >>= 7;
        at += 1;
    }
    out[at] = n as u8;
    at + 1
}

/// The packed size of `ranges`: their count, then each range.
pub(crate) const fn ranges_len(ranges: &[(char, char)]) -> usize {
    let mut len = leb128_len(ranges.len() as u32);
    let mut previous = 0;
    let mut i = 0;
    while i < ranges.len() {
        let (start, end) = (ranges[i].0 as u32, ranges[i].1 as u32);
        len += leb128_len(start - previous) + leb128_len(end - start);
        previous = end;
        i += 1;
    }
    len
}

const fn put_ranges(out: &mut [u8], mut at: usize, ranges: &[(char, char)]) -> usize {
    at = put_leb128(out, at, ranges.len() as u32);
    let mut previous = 0;
    let mut i = 0;
    while i < ranges.len() {
        let (start, end) = (ranges[i].0 as u32, ranges[i].1 as u32);
        at = put_leb128(out, at, start - previous);
        at = put_leb128(out, at, end - start);
        previous = end;
        i += 1;
    }
    at
}

/// `ranges` packed (`N` is [`ranges_len`]).
pub(crate) const fn pack_ranges<const N: usize>(ranges: &[(char, char)]) -> [u8; N] {
    let mut out = [0; N];
    let end = put_ranges(&mut out, 0, ranges);
    assert!(end == N);
    out
}

/// The packed size of a named table: for each entry, the length of its name,
/// the name, the packed length of its ranges and the packed ranges.
pub(crate) const fn named_len(table: Named) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < table.len() {
        let ranges = ranges_len(table[i].1);
        len += 1 + table[i].0.len() + leb128_len(ranges as u32) + ranges;
        i += 1;
    }
    len
}

/// `table` packed (`N` is [`named_len`]).
pub(crate) const fn pack_named<const N: usize>(table: Named) -> [u8; N] {
    let mut out = [0; N];
    let mut at = 0;
    let mut i = 0;
    while i < table.len() {
        let name = table[i].0.as_bytes();
        assert!(name.len() < 0x100);
        out[at] = name.len() as u8;
        at += 1;
        let mut j = 0;
        while j < name.len() {
            out[at] = name[j];
            at += 1;
            j += 1;
        }
        at = put_leb128(&mut out, at, ranges_len(table[i].1) as u32);
        at = put_ranges(&mut out, at, table[i].1);
        i += 1;
    }
    assert!(at == N);
    out
}

/// Reads a LEB128 number at the front of `bytes`, which it advances.
fn take_leb128(bytes: &mut &[u8]) -> u32 {
    let mut n = 0;
    let mut shift = 0;
    while let Some((&byte, rest)) = bytes.split_first() {
        *bytes = rest;
        n |= u32::from(byte & 0x7F) << shift;
        if byte < 0x80 {
            break;
        }
        shift += 7;
    }
    n
}

/// The ranges of a packed table, in order.
pub(crate) struct Ranges {
    bytes: &'static [u8],
    left: u32,
    previous: u32,
}

impl Ranges {
    /// The ranges packed at the front of `bytes` (as by [`pack_ranges`]).
    pub(crate) fn new(mut bytes: &'static [u8]) -> Ranges {
        let left = take_leb128(&mut bytes);
        Ranges { bytes, left, previous: 0 }
    }
}

impl Iterator for Ranges {
    type Item = (char, char);

    fn next(&mut self) -> Option<(char, char)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let start = self.previous + take_leb128(&mut self.bytes);
        let end = start + take_leb128(&mut self.bytes);
        self.previous = end;
        // Packed from `char`s, so both are scalar values.
        Some((char::from_u32(start)?, char::from_u32(end)?))
    }
}

/// The ranges named `name` in a packed named table (as by [`pack_named`]).
pub(crate) fn find(mut table: &'static [u8], name: &str) -> Option<Ranges> {
    while let Some((&name_len, rest)) = table.split_first() {
        let (entry_name, mut rest) = rest.split_at(usize::from(name_len));
        let len = take_leb128(&mut rest) as usize;
        if entry_name == name.as_bytes() {
            return Some(Ranges::new(rest));
        }
        table = &rest[len..];
    }
    None
}

#[cfg(feature = "unicode-gencat")]
pub(crate) static GENERAL_CATEGORY: [u8; named_len(
    super::general_category::BY_NAME,
)] = pack_named(super::general_category::BY_NAME);

#[cfg(feature = "unicode-bool")]
pub(crate) static PROPERTY_BOOL: [u8; named_len(
    super::property_bool::BY_NAME,
)] = pack_named(super::property_bool::BY_NAME);

#[cfg(feature = "unicode-script")]
pub(crate) static SCRIPT: [u8; named_len(super::script::BY_NAME)] =
    pack_named(super::script::BY_NAME);

#[cfg(feature = "unicode-script")]
pub(crate) static SCRIPT_EXTENSION: [u8; named_len(
    super::script_extension::BY_NAME,
)] = pack_named(super::script_extension::BY_NAME);

/// `\w` stays a sorted slice: matching a Unicode word boundary looks its
/// characters up in it by binary search. A static, so that the class and
/// the lookups share one copy.
#[cfg(feature = "unicode-perl")]
pub(crate) static PERL_WORD: &[(char, char)] = super::perl_word::PERL_WORD;

#[cfg(all(feature = "unicode-perl", not(feature = "unicode-gencat")))]
pub(crate) static PERL_DECIMAL: [u8; ranges_len(
    super::perl_decimal::DECIMAL_NUMBER,
)] = pack_ranges(super::perl_decimal::DECIMAL_NUMBER);

#[cfg(all(feature = "unicode-perl", not(feature = "unicode-bool")))]
pub(crate) static PERL_SPACE: [u8; ranges_len(
    super::perl_space::WHITE_SPACE,
)] = pack_ranges(super::perl_space::WHITE_SPACE);

/// The packed size of a case folding table: its length, then for each entry
/// its distance from the previous one's character, the number of characters
/// it maps to and each of them as a signed distance from its own.
#[cfg(all(feature = "unicode-case", feature = "std"))]
pub(crate) const fn folds_len(table: &[(char, &[char])]) -> usize {
    let mut len = leb128_len(table.len() as u32);
    let mut previous = 0;
    let mut i = 0;
    while i < table.len() {
        let (c, to) = (table[i].0 as u32, table[i].1);
        len += leb128_len(c - previous) + 1;
        let mut j = 0;
        while j < to.len() {
            len += leb128_len(zigzag(to[j] as u32, c));
            j += 1;
        }
        previous = c;
        i += 1;
    }
    len
}

/// `to - from` with its sign in the lowest bit.
#[cfg(all(feature = "unicode-case", feature = "std"))]
const fn zigzag(to: u32, from: u32) -> u32 {
    if to >= from {
        (to - from) << 1
    } else {
        ((from - to) << 1) - 1
    }
}

/// `table` packed (`N` is [`folds_len`]).
#[cfg(all(feature = "unicode-case", feature = "std"))]
pub(crate) const fn pack_folds<const N: usize>(table: &[(char, &[char])]) -> [u8; N] {
    let mut out = [0; N];
    let mut at = put_leb128(&mut out, 0, table.len() as u32);
    let mut previous = 0;
    let mut i = 0;
    while i < table.len() {
        let (c, to) = (table[i].0 as u32, table[i].1);
        at = put_leb128(&mut out, at, c - previous);
        assert!(to.len() < 0x80);
        out[at] = to.len() as u8;
        at += 1;
        let mut j = 0;
        while j < to.len() {
            at = put_leb128(&mut out, at, zigzag(to[j] as u32, c));
            j += 1;
        }
        previous = c;
        i += 1;
    }
    assert!(at == N);
    out
}

#[cfg(all(feature = "unicode-case", feature = "std"))]
static CASE_FOLDING_SIMPLE: [u8; folds_len(
    super::case_folding_simple::CASE_FOLDING_SIMPLE,
)] = pack_folds(super::case_folding_simple::CASE_FOLDING_SIMPLE);

/// The simple case folding table, unpacked when a pattern first asks for it
/// (a case-insensitive pattern) and kept for the life of the process.
#[cfg(all(feature = "unicode-case", feature = "std"))]
pub(crate) fn case_folding_simple() -> &'static [(char, &'static [char])] {
    use std::sync::OnceLock;

    static TABLE: OnceLock<&'static [(char, &'static [char])]> =
        OnceLock::new();
    TABLE.get_or_init(|| {
        let mut bytes: &[u8] = &CASE_FOLDING_SIMPLE;
        let len = take_leb128(&mut bytes) as usize;
        let mut keys = Vec::with_capacity(len);
        let mut chars = Vec::new();
        let mut previous = 0;
        for _ in 0..len {
            let c = previous + take_leb128(&mut bytes);
            previous = c;
            let count = take_leb128(&mut bytes) as usize;
            keys.push((c, chars.len(), count));
            for _ in 0..count {
                let delta = take_leb128(&mut bytes);
                let to = if delta & 1 == 0 {
                    c + (delta >> 1)
                } else {
                    c - ((delta + 1) >> 1)
                };
                chars.extend(char::from_u32(to));
            }
        }
        let chars: &'static [char] = Vec::leak(chars);
        let table: Vec<(char, &'static [char])> = keys
            .into_iter()
            .filter_map(|(c, at, count)| {
                Some((char::from_u32(c)?, chars.get(at..at + count)?))
            })
            .collect();
        Vec::leak(table)
    })
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    fn same_as_generated(packed: &'static [u8], table: Named) {
        for &(name, ranges) in table {
            let unpacked: Vec<(char, char)> =
                find(packed, name).expect(name).collect();
            assert_eq!(unpacked, ranges, "{name}");
        }
        assert!(find(packed, "Not_A_Name").is_none());
    }

    #[cfg(feature = "unicode-gencat")]
    #[test]
    fn general_category_unpacks_as_generated() {
        same_as_generated(
            &GENERAL_CATEGORY,
            super::super::general_category::BY_NAME,
        );
    }

    #[cfg(feature = "unicode-bool")]
    #[test]
    fn binary_properties_unpack_as_generated() {
        same_as_generated(&PROPERTY_BOOL, super::super::property_bool::BY_NAME);
    }

    #[cfg(feature = "unicode-script")]
    #[test]
    fn scripts_unpack_as_generated() {
        same_as_generated(&SCRIPT, super::super::script::BY_NAME);
        same_as_generated(
            &SCRIPT_EXTENSION,
            super::super::script_extension::BY_NAME,
        );
    }

    #[test]
    fn ranges_unpack_as_packed() {
        const RANGES: &[(char, char)] =
            &[('\0', '\0'), ('a', 'z'), ('\u{80}', '\u{10FFFF}')];
        static PACKED: [u8; ranges_len(RANGES)] = pack_ranges(RANGES);
        assert_eq!(Ranges::new(&PACKED).collect::<Vec<_>>(), RANGES);
    }

    #[cfg(all(feature = "unicode-case", feature = "std"))]
    #[test]
    fn case_folding_unpacks_as_generated() {
        assert_eq!(
            case_folding_simple(),
            super::super::case_folding_simple::CASE_FOLDING_SIMPLE
        );
    }
}
