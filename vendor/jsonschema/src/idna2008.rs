//! Internationalized host names as IDNA2008 defines them (RFC 5890, 5891,
//! 5892 and 5893), for the `idn-hostname` and `idn-email` formats and the
//! A-labels of `hostname`.
//!
//! The Unicode data it needs, RFC 5892's derived property of each code point
//! and the Bidi_Class and Joining_Type of those it admits, is in `tables`:
//! ranges packed as LEB128 numbers, unpacked once, on first use, into sorted
//! arrays that a lookup searches by halves; and the lowercase form of each
//! uppercase letter, as runs of code points that one difference maps, each
//! letter or every other one.
//!
//! What a host name is mapped through before it is checked is the part of
//! UTS 46 that keeps a name's meaning: the label separators U+3002, U+FF0E
//! and U+FF61 read as `.`, and an uppercase letter as its lowercase form. A
//! U-label is checked as written, not normalized.

use std::sync::OnceLock;

mod tables;

/// RFC 5892's derived property of a code point, with the distinctions the
/// contextual rules and the leading-mark rule draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// DISALLOWED or UNASSIGNED.
    Disallowed,
    /// PVALID: a letter, a digit or `-`.
    Letter,
    /// PVALID: a nonspacing mark other than a virama.
    NonspacingMark,
    /// PVALID: a virama (canonical combining class 9), a nonspacing mark.
    Virama,
    /// PVALID: a spacing mark.
    SpacingMark,
    /// CONTEXTO: valid where RFC 5892's Appendix A rule for it holds.
    ContextO,
    /// CONTEXTJ (ZWNJ, ZWJ): valid where RFC 5892's Appendix A rule holds.
    ContextJ,
}

/// The Bidi_Class of a code point, as far as RFC 5893's rule tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bidi {
    L,
    /// R or AL.
    R,
    AN,
    EN,
    NSM,
    /// ES, CS, ET, ON or BN.
    Neutral,
    /// Any other class, which no label may hold in a Bidi domain name.
    Other,
}

/// The Joining_Type of a code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joining {
    U,
    D,
    R,
    L,
    C,
    T,
}

struct Table {
    starts: Box<[u32]>,
    ends: Box<[u32]>,
    values: Box<[u8]>,
}

impl Table {
    fn unpack(mut packed: &[u8]) -> Table {
        fn take(bytes: &mut &[u8]) -> u32 {
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
        // Each range: its gap from the end of the previous one, its length
        // less one, its value.
        let (mut starts, mut ends, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let mut next = 0;
        while !packed.is_empty() {
            let start = next + take(&mut packed);
            let end = start + take(&mut packed);
            let Some((&value, rest)) = packed.split_first() else {
                break;
            };
            packed = rest;
            next = end + 1;
            starts.push(start);
            ends.push(end);
            values.push(value);
        }
        Table {
            starts: starts.into(),
            ends: ends.into(),
            values: values.into(),
        }
    }

    fn get(&self, c: char) -> u8 {
        let c = u32::from(c);
        let i = self.starts.partition_point(|&start| start <= c);
        match i.checked_sub(1) {
            Some(i) if self.ends.get(i).is_some_and(|&end| c <= end) => {
                self.values.get(i).copied().unwrap_or(0)
            }
            _ => 0,
        }
    }
}

fn tables() -> &'static [Table; 3] {
    static TABLES: OnceLock<[Table; 3]> = OnceLock::new();
    TABLES.get_or_init(|| {
        [
            Table::unpack(&tables::PROPERTY),
            Table::unpack(&tables::BIDI),
            Table::unpack(&tables::JOINING),
        ]
    })
}

/// RFC 5892's derived property of `c`.
#[must_use]
pub fn property(c: char) -> Property {
    match tables()[0].get(c) {
        1 => Property::Letter,
        2 => Property::NonspacingMark,
        3 => Property::Virama,
        4 => Property::SpacingMark,
        5 => Property::ContextO,
        6 => Property::ContextJ,
        _ => Property::Disallowed,
    }
}

/// The lowercase form of `c` where the standard library's
/// `char::to_lowercase` gives one character, else `c` itself (as for U+0130,
/// whose lowercase form is two).
#[must_use]
pub fn lowercase(c: char) -> char {
    let cp = u32::from(c);
    let runs = &tables::LOWERCASE;
    let i = runs.partition_point(|&(run, _)| run & 0x1F_FFFF <= cp);
    let Some(&(run, difference)) = i.checked_sub(1).and_then(|i| runs.get(i)) else {
        return c;
    };
    let offset = cp - (run & 0x1F_FFFF);
    let step = if run >> 31 == 1 { 2 } else { 1 };
    if offset % step != 0 || offset / step >= (run >> 21) & 0x3FF {
        return c;
    }
    cp.checked_add_signed(difference)
        .and_then(char::from_u32)
        .unwrap_or(c)
}

/// The Bidi_Class of `c`, for a `c` that [`property`] does not disallow.
#[must_use]
pub fn bidi(c: char) -> Bidi {
    match tables()[1].get(c) {
        0 => Bidi::L,
        1 => Bidi::R,
        2 => Bidi::AN,
        3 => Bidi::EN,
        4 => Bidi::NSM,
        5 => Bidi::Neutral,
        _ => Bidi::Other,
    }
}

/// The Joining_Type of `c`, for a `c` that [`property`] does not disallow.
#[must_use]
pub fn joining(c: char) -> Joining {
    match tables()[2].get(c) {
        1 => Joining::U,
        2 => Joining::D,
        3 => Joining::R,
        4 => Joining::L,
        5 => Joining::C,
        6 => Joining::T,
        _ if matches!(
            property(c),
            Property::NonspacingMark | Property::Virama | Property::ContextJ
        ) =>
        {
            Joining::T
        }
        _ => Joining::U,
    }
}

/// Whether `c` is a combining mark IDNA2008 admits, which no label starts with.
pub(crate) fn is_mark(c: char) -> bool {
    matches!(
        property(c),
        Property::NonspacingMark | Property::Virama | Property::SpacingMark
    )
}

/// Whether ZERO WIDTH NON-JOINER at `at` of `label` meets RFC 5892's
/// Appendix A.1: after a virama, or between a left- or dual-joining and a
/// right- or dual-joining character, with only transparent ones between.
pub(crate) fn zwnj_allowed(label: &[char], at: usize) -> bool {
    let before = label.get(..at).unwrap_or_default();
    if before.last().is_some_and(|&c| property(c) == Property::Virama) {
        return true;
    }
    let joins_left = before
        .iter()
        .rev()
        .map(|&c| joining(c))
        .find(|&j| j != Joining::T)
        .is_some_and(|j| matches!(j, Joining::L | Joining::D));
    let joins_right = label
        .get(at + 1..)
        .unwrap_or_default()
        .iter()
        .map(|&c| joining(c))
        .find(|&j| j != Joining::T)
        .is_some_and(|j| matches!(j, Joining::R | Joining::D));
    joins_left && joins_right
}

/// Whether ZERO WIDTH JOINER at `at` of `label` meets RFC 5892's Appendix
/// A.2: after a virama.
pub(crate) fn zwj_allowed(label: &[char], at: usize) -> bool {
    at.checked_sub(1)
        .and_then(|i| label.get(i))
        .is_some_and(|&c| property(c) == Property::Virama)
}

/// RFC 5893's rule for one label of a Bidi domain name.
fn satisfies_bidi_rule(label: &[char]) -> bool {
    let Some(&first) = label.first() else {
        return false;
    };
    let last = label
        .iter()
        .rev()
        .map(|&c| bidi(c))
        .find(|&b| b != Bidi::NSM);
    match bidi(first) {
        // Rules 2, 3 and 4: a right-to-left label.
        Bidi::R => {
            let mut numbers = (false, false);
            for &c in label {
                match bidi(c) {
                    Bidi::R | Bidi::Neutral | Bidi::NSM => {}
                    Bidi::AN => numbers.0 = true,
                    Bidi::EN => numbers.1 = true,
                    Bidi::L | Bidi::Other => return false,
                }
            }
            matches!(last, Some(Bidi::R | Bidi::EN | Bidi::AN)) && !(numbers.0 && numbers.1)
        }
        // Rules 5 and 6: a left-to-right label.
        Bidi::L => {
            label
                .iter()
                .all(|&c| matches!(bidi(c), Bidi::L | Bidi::EN | Bidi::Neutral | Bidi::NSM))
                && matches!(last, Some(Bidi::L | Bidi::EN))
        }
        // Rule 1: a label starts with L, R or AL.
        _ => false,
    }
}

const LABEL_SEPARATORS: [char; 4] = ['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'];

/// A label's characters as they are checked: ASCII and other uppercase
/// letters lowercased where their lowercase form is valid and the uppercase
/// one is not. `None` for a character that neither is nor maps to one
/// IDNA2008 admits.
fn mapped(label: &str) -> Option<Vec<char>> {
    label
        .chars()
        .map(|c| {
            if c.is_ascii() {
                let lower = c.to_ascii_lowercase();
                return (property(lower) != Property::Disallowed).then_some(lower);
            }
            if property(c) != Property::Disallowed {
                return Some(c);
            }
            let lower = lowercase(c);
            (property(lower) != Property::Disallowed).then_some(lower)
        })
        .collect()
}

/// The hyphen rules of RFC 5891 section 4.2.3.1: no `-` first or last, and
/// not in both the third and the fourth position.
fn hyphens_allowed(label: &[char]) -> bool {
    label.first() != Some(&'-')
        && label.last() != Some(&'-')
        && !(label.get(2) == Some(&'-') && label.get(3) == Some(&'-'))
}

/// A U-label's rules (RFC 5891 section 5.4): the hyphen rules, and the
/// code point rules of `hostname`'s A-labels, every code point valid in its
/// place and no combining mark first.
fn u_label_allowed(label: &[char]) -> bool {
    if label.is_empty() || !hyphens_allowed(label) {
        return false;
    }
    let text: String = label.iter().collect();
    crate::keywords::format::validate_unicode_label(&text)
}

/// Whether `hostname` is an internationalized host name: labels of ASCII
/// letters, digits and hyphens, A-labels and U-labels, separated by `.` (or
/// an ideographic, fullwidth or halfwidth full stop), at most 63 octets a
/// label and 253 in all when written in ASCII, and meeting the Bidi rule
/// when one of them holds right-to-left characters.
#[must_use]
pub fn is_valid_idn_hostname(hostname: &str) -> bool {
    if hostname.is_empty() {
        return false;
    }
    let mut ascii_len = 0;
    let mut labels = Vec::new();
    for label in hostname.split(LABEL_SEPARATORS) {
        let Some(chars) = mapped(label) else {
            return false;
        };
        let (chars, a_label_len) = if chars.iter().all(char::is_ascii) {
            let text: String = chars.iter().collect();
            if let Some(payload) = text.strip_prefix("xn--") {
                // An A-label: Punycode whose decoding is a U-label that is
                // not all ASCII and encodes back to the same text.
                let Some(decoded) = crate::keywords::format::decode_punycode(payload) else {
                    return false;
                };
                let decoded: Vec<char> = decoded.chars().collect();
                if decoded.iter().all(char::is_ascii)
                    || encode_punycode(&decoded).as_deref() != Some(payload)
                    || !u_label_allowed(&decoded)
                {
                    return false;
                }
                (decoded, text.len())
            } else {
                if !hyphens_allowed(&chars) {
                    return false;
                }
                let len = chars.len();
                (chars, len)
            }
        } else {
            if !u_label_allowed(&chars) {
                return false;
            }
            let Some(encoded) = encode_punycode(&chars) else {
                return false;
            };
            let len = "xn--".len() + encoded.len();
            (chars, len)
        };
        if a_label_len == 0 || a_label_len > 63 {
            return false;
        }
        ascii_len += a_label_len + usize::from(!labels.is_empty());
        labels.push(chars);
    }
    if ascii_len > 253 {
        return false;
    }
    let bidi_domain = labels
        .iter()
        .flatten()
        .any(|&c| matches!(bidi(c), Bidi::R | Bidi::AN));
    !bidi_domain || labels.iter().all(|label| satisfies_bidi_rule(label))
}

// RFC 3492's parameters for the Punycode of IDNA.
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 128;

fn adapt(mut delta: u32, count: u32, first: bool) -> u32 {
    delta /= if first { DAMP } else { 2 };
    delta += delta / count;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + ((BASE - T_MIN + 1) * delta) / (delta + SKEW)
}

fn digit(d: u32) -> char {
    // 0-25 are a-z, 26-35 are 0-9.
    char::from_u32(if d < 26 { d + u32::from(b'a') } else { d - 26 + u32::from(b'0') })
        .unwrap_or('a')
}

/// RFC 3492 section 6.3: the Punycode of `input` (without `xn--`); `None`
/// on overflow.
fn encode_punycode(input: &[char]) -> Option<String> {
    let mut output: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = u32::try_from(output.len()).ok()?;
    if basic > 0 {
        output.push('-');
    }
    let mut n = INITIAL_N;
    let mut delta: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut handled = basic;
    let total = u32::try_from(input.len()).ok()?;
    while handled < total {
        let m = input
            .iter()
            .map(|&c| u32::from(c))
            .filter(|&c| c >= n)
            .min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in input {
            let c = u32::from(c);
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        T_MIN
                    } else if k >= bias + T_MAX {
                        T_MAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    output.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                output.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(output)
}
