//! `idn-hostname` and `idn-email` are checked by the vendored jsonschema's
//! IDNA2008 module (its idna2008 patch), whose Unicode tables are packed in
//! its source. These tests hold the tables to ICU4X's Unicode data, the
//! data the `idna` crate reads, its lowercase table to the standard
//! library's `char::to_lowercase`, and the checks to the `idna` crate's on
//! the names both define alike.
//!
//! To write the tables again (after an ICU4X or a Rust update):
//! `IDNA2008_TABLES=vendor/jsonschema/src/idna2008/tables.rs cargo test -p
//! guard-schema idna2008_tables` from the repository root,
//! then regenerate the patch (see scripts/vendor-jsonschema.sh).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use icu_properties::props::{
    BidiClass, CanonicalCombiningClass, ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint,
    GeneralCategory, HangulSyllableType, JoiningType, NoncharacterCodePoint, WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};
use jsonschema::idna2008::{self, Bidi, Joining, Property};

use guard_tape::test_rng::Rng;

/// RFC 5892 section 3's derivation of a code point's property, from ICU4X's
/// data, in the RFC's order.
fn derived_property(cp: u32) -> Property {
    let gc = CodePointMapData::<GeneralCategory>::new();
    let exception = match cp {
        0xDF | 0x3C2 | 0x6FD | 0x6FE | 0xF0B | 0x3007 => Some(true),
        0xB7 | 0x375 | 0x5F3 | 0x5F4 | 0x30FB | 0x660..=0x669 | 0x6F0..=0x6F9 => {
            return Property::ContextO
        }
        0x640 | 0x7FA | 0x302E | 0x302F | 0x3031..=0x3035 | 0x303B => Some(false),
        _ => None,
    };
    let g = gc.get32(cp);
    let valid = exception.unwrap_or_else(|| {
        if g == GeneralCategory::Unassigned
            && !CodePointSetData::new::<NoncharacterCodePoint>().contains32(cp)
        {
            false
        } else if matches!(cp, 0x61..=0x7A | 0x30..=0x39 | 0x2D | 0x200C | 0x200D) {
            true
        } else if CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains32(cp)
            || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains32(cp)
            || CodePointSetData::new::<WhiteSpace>().contains32(cp)
            || CodePointSetData::new::<NoncharacterCodePoint>().contains32(cp)
            || matches!(cp, 0x20D0..=0x20FF | 0x1D100..=0x1D1FF | 0x1D200..=0x1D24F)
            || matches!(
                CodePointMapData::<HangulSyllableType>::new().get32(cp),
                HangulSyllableType::LeadingJamo
                    | HangulSyllableType::VowelJamo
                    | HangulSyllableType::TrailingJamo
            )
        {
            false
        } else {
            matches!(
                g,
                GeneralCategory::LowercaseLetter
                    | GeneralCategory::UppercaseLetter
                    | GeneralCategory::OtherLetter
                    | GeneralCategory::DecimalNumber
                    | GeneralCategory::ModifierLetter
                    | GeneralCategory::NonspacingMark
                    | GeneralCategory::SpacingMark
            )
        }
    });
    if !valid {
        Property::Disallowed
    } else if matches!(cp, 0x200C | 0x200D) {
        Property::ContextJ
    } else if CodePointMapData::<CanonicalCombiningClass>::new().get32(cp)
        == CanonicalCombiningClass::Virama
    {
        Property::Virama
    } else if g == GeneralCategory::NonspacingMark {
        Property::NonspacingMark
    } else if g == GeneralCategory::SpacingMark {
        Property::SpacingMark
    } else {
        Property::Letter
    }
}

fn bidi_of(cp: u32) -> Bidi {
    match CodePointMapData::<BidiClass>::new().get32(cp) {
        BidiClass::LeftToRight => Bidi::L,
        BidiClass::RightToLeft | BidiClass::ArabicLetter => Bidi::R,
        BidiClass::ArabicNumber => Bidi::AN,
        BidiClass::EuropeanNumber => Bidi::EN,
        BidiClass::NonspacingMark => Bidi::NSM,
        BidiClass::EuropeanSeparator
        | BidiClass::CommonSeparator
        | BidiClass::EuropeanTerminator
        | BidiClass::OtherNeutral
        | BidiClass::BoundaryNeutral => Bidi::Neutral,
        _ => Bidi::Other,
    }
}

fn joining_of(cp: u32) -> Joining {
    match CodePointMapData::<JoiningType>::new().get32(cp) {
        JoiningType::DualJoining => Joining::D,
        JoiningType::RightJoining => Joining::R,
        JoiningType::LeftJoining => Joining::L,
        JoiningType::JoinCausing => Joining::C,
        JoiningType::Transparent => Joining::T,
        _ => Joining::U,
    }
}

/// The tables as the vendored module packs them: for each run of code
/// points with one value (other than 0), its gap from the end of the
/// previous run and its length less one, in LEB128, then the value. `None`
/// (a code point the module never asks about) takes the value before it.
fn pack(values: &[Option<u8>]) -> Vec<u8> {
    fn leb(out: &mut Vec<u8>, mut n: u32) {
        while n >= 0x80 {
            out.push(u8::try_from(n & 0x7F).unwrap() | 0x80);
            n >>= 7;
        }
        out.push(u8::try_from(n).unwrap());
    }
    let mut filled = Vec::with_capacity(values.len());
    let mut last = 0;
    for v in values {
        last = v.unwrap_or(last);
        filled.push(last);
    }
    let mut out = Vec::new();
    let (mut next, mut cp) = (0, 0);
    while cp < filled.len() {
        let start = cp;
        while cp < filled.len() && filled[cp] == filled[start] {
            cp += 1;
        }
        if filled[start] != 0 {
            leb(&mut out, u32::try_from(start - next).unwrap());
            leb(&mut out, u32::try_from(cp - 1 - start).unwrap());
            out.push(filled[start]);
            next = cp;
        }
    }
    out
}

fn rust_table(name: &str, doc: &str, bytes: &[u8]) -> String {
    let mut s = format!("{doc}\npub(crate) static {name}: [u8; {}] = [", bytes.len());
    for (i, byte) in bytes.iter().enumerate() {
        if i % 20 == 0 {
            s.push_str("\n   ");
        }
        s.push_str(&format!(" {byte},"));
    }
    s.push_str("\n];\n");
    s
}

/// `c`'s lowercase form by the standard library, where it is one character.
fn std_lowercase(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// The `LOWERCASE` table: the code points `std_lowercase` changes, in runs
/// of one difference over consecutive code points or every other one (with
/// none between that it changes), as `(start | length << 21 | every other
/// << 31, difference)`.
fn lowercase_table() -> String {
    let changed: Vec<(u32, i32)> = (0..0x11_0000u32)
        .filter_map(char::from_u32)
        .filter(|&c| std_lowercase(c) != c)
        .map(|c| {
            let (cp, lower) = (u32::from(c), u32::from(std_lowercase(c)));
            (cp, i32::try_from(i64::from(lower) - i64::from(cp)).unwrap())
        })
        .collect();
    let is_changed = |cp: u32| changed.binary_search_by_key(&cp, |&(c, _)| c).is_ok();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < changed.len() {
        let (start, difference) = changed[i];
        let (mut best_step, mut best_len) = (1, 1);
        for step in [1u32, 2] {
            let mut len = 1u32;
            while changed.get(i + len as usize) == Some(&(start + len * step, difference))
                && !(step == 2 && is_changed(start + len * step - 1))
                && len < 0x3FF
            {
                len += 1;
            }
            if len > best_len {
                (best_step, best_len) = (step, len);
            }
        }
        runs.push((
            start | best_len << 21 | u32::from(best_step == 2) << 31,
            difference,
        ));
        i += best_len as usize;
    }
    let mut s = format!(
        "/// Lowercase forms: runs of code points that one difference maps to their\n\
         /// lowercase form (the standard library's, where it is one character), as\n\
         /// (first code point | length << 21 | every other code point << 31,\n\
         /// difference), in code point order.\n\
         pub(crate) static LOWERCASE: [(u32, i32); {}] = [",
        runs.len()
    );
    for (i, (run, difference)) in runs.iter().enumerate() {
        if i % 4 == 0 {
            s.push_str("\n   ");
        }
        s.push_str(&format!(" (0x{run:08X}, {difference}),"));
    }
    s.push_str("\n];\n");
    s
}

#[test]
fn idna2008_lowercase_is_the_standard_librarys() {
    let wrong: Vec<String> = (0..0x11_0000u32)
        .filter_map(char::from_u32)
        .filter(|&c| idna2008::lowercase(c) != std_lowercase(c))
        .map(|c| {
            format!(
                "U+{:04X} lowercases to U+{:04X}, the standard library's is U+{:04X}",
                u32::from(c),
                u32::from(idna2008::lowercase(c)),
                u32::from(std_lowercase(c))
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} code points differ from the standard library's lowercase, first: {:?} (IDNA2008_TABLES writes the tables again, see this file's header)",
        wrong.len(),
        wrong.first()
    );
}

#[test]
fn idna2008_tables_are_icu4x_unicode_data() {
    let mut properties = Vec::with_capacity(0x11_0000);
    let (mut bidis, mut joinings) = (Vec::new(), Vec::new());
    let mut wrong = Vec::new();
    for cp in 0..0x11_0000u32 {
        let expected = derived_property(cp);
        let Some(c) = char::from_u32(cp) else {
            properties.push(Some(0));
            bidis.push(None);
            joinings.push(None);
            continue;
        };
        if idna2008::property(c) != expected {
            wrong.push(format!(
                "U+{cp:04X} is {:?}, ICU4X's data says {expected:?}",
                idna2008::property(c)
            ));
        }
        properties.push(Some(match expected {
            Property::Disallowed => 0,
            Property::Letter => 1,
            Property::NonspacingMark => 2,
            Property::Virama => 3,
            Property::SpacingMark => 4,
            Property::ContextO => 5,
            Property::ContextJ => 6,
        }));
        if expected == Property::Disallowed {
            bidis.push(None);
            joinings.push(None);
            continue;
        }
        let (bidi, joining) = (bidi_of(cp), joining_of(cp));
        if idna2008::bidi(c) != bidi {
            wrong.push(format!(
                "U+{cp:04X}'s Bidi_Class is {:?}, ICU4X's data says {bidi:?}",
                idna2008::bidi(c)
            ));
        }
        if idna2008::joining(c) != joining {
            wrong.push(format!(
                "U+{cp:04X}'s Joining_Type is {:?}, ICU4X's data says {joining:?}",
                idna2008::joining(c)
            ));
        }
        bidis.push(Some(match bidi {
            Bidi::L => 0,
            Bidi::R => 1,
            Bidi::AN => 2,
            Bidi::EN => 3,
            Bidi::NSM => 4,
            Bidi::Neutral => 5,
            Bidi::Other => 6,
        }));
        let default_t = matches!(
            expected,
            Property::NonspacingMark | Property::Virama | Property::ContextJ
        );
        let value = match joining {
            Joining::U => 1,
            Joining::D => 2,
            Joining::R => 3,
            Joining::L => 4,
            Joining::C => 5,
            Joining::T => 6,
        };
        joinings.push(Some(if value == if default_t { 6 } else { 1 } {
            0
        } else {
            value
        }));
    }
    if let Ok(path) = std::env::var("IDNA2008_TABLES") {
        let source = [
            rust_table(
                "PROPERTY",
                "/// RFC 5892's derived property: 1 PVALID letter or digit, 2 PVALID nonspacing\n/// mark, 3 PVALID virama, 4 PVALID spacing mark, 5 CONTEXTO, 6 CONTEXTJ;\n/// any other code point is DISALLOWED or UNASSIGNED.",
                &pack(&properties),
            ),
            rust_table(
                "BIDI",
                "/// Bidi_Class, of the code points `PROPERTY` admits: 1 R or AL, 2 AN,\n/// 3 EN, 4 NSM, 5 ES, CS, ET, ON or BN, 6 any other class; L elsewhere.",
                &pack(&bidis),
            ),
            rust_table(
                "JOINING",
                "/// Joining_Type, of the code points `PROPERTY` admits, where it is not T\n/// (nonspacing marks, ZWNJ, ZWJ) or U (the others) by default: 1 U, 2 D,\n/// 3 R, 4 L, 5 C, 6 T.",
                &pack(&joinings),
            ),
            lowercase_table(),
        ]
        .concat();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        std::fs::write(&path, source).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    assert!(
        wrong.is_empty(),
        "{} code points differ from ICU4X's data, first: {:?} (IDNA2008_TABLES writes the tables again, see this file's header)",
        wrong.len(),
        wrong.first()
    );
}

/// The check jsonschema made with the `idna` crate: UTS 46 (nontransitional,
/// with the STD3 rules, the hyphen rules and DNS lengths), then, of each
/// label, RFC 5892 Appendix A's CONTEXTO rules and the general categories of
/// its code points (letters, marks and digits, no mark first), but for the
/// exceptions and the code points its contextual rules looked at.
fn uts46(hostname: &str) -> bool {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    let Ok(ascii) = Uts46::new().to_ascii(
        hostname.as_bytes(),
        AsciiDenyList::STD3,
        Hyphens::Check,
        DnsLength::Verify,
    ) else {
        return false;
    };
    let (unicode, result) =
        Uts46::new().to_unicode(ascii.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow);
    result.is_ok()
        && unicode.split('.').all(|label| {
            !label.is_empty() && contexto_rules_hold(label) && categories_allowed(label)
        })
}

fn categories_allowed(label: &str) -> bool {
    let gc = CodePointMapData::<GeneralCategory>::new();
    let mark = |c: char| {
        matches!(
            gc.get(c),
            GeneralCategory::NonspacingMark
                | GeneralCategory::SpacingMark
                | GeneralCategory::EnclosingMark
        )
    };
    !label.chars().next().is_some_and(mark)
        && label.chars().all(|c| match c {
            '\u{0640}'
            | '\u{07FA}'
            | '\u{302E}'
            | '\u{302F}'
            | '\u{3031}'..='\u{3035}'
            | '\u{303B}' => false,
            '\u{200C}'
            | '\u{200D}'
            | '\u{00B7}'
            | '\u{0375}'
            | '\u{05F3}'
            | '\u{05F4}'
            | '\u{06FD}'
            | '\u{06FE}'
            | '\u{0F0B}'
            | '\u{3007}'
            | '\u{30FB}'
            | '\u{0660}'..='\u{0669}'
            | '\u{06F0}'..='\u{06F9}'
            | '\u{3040}'..='\u{309F}'
            | '\u{30A0}'..='\u{30FF}'
            | '\u{4E00}'..='\u{9FFF}' => true,
            c if c.is_ascii() => true,
            c => matches!(
                gc.get(c),
                GeneralCategory::UppercaseLetter
                    | GeneralCategory::LowercaseLetter
                    | GeneralCategory::TitlecaseLetter
                    | GeneralCategory::ModifierLetter
                    | GeneralCategory::OtherLetter
                    | GeneralCategory::NonspacingMark
                    | GeneralCategory::SpacingMark
                    | GeneralCategory::DecimalNumber
            ),
        })
}

/// RFC 5892 Appendix A's CONTEXTO rules, as the vendored module reads them.
fn contexto_rules_hold(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    let han_kana = |c: char| matches!(c, '\u{3040}'..='\u{309F}' | '\u{30A0}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}');
    chars.iter().enumerate().all(|(i, &c)| match c {
        '\u{00B7}' => i > 0 && chars[i - 1] == 'l' && chars.get(i + 1) == Some(&'l'),
        '\u{0375}' => chars
            .get(i + 1)
            .is_some_and(|n| ('\u{0370}'..='\u{03FF}').contains(n)),
        '\u{05F3}' | '\u{05F4}' => i > 0 && ('\u{0590}'..='\u{05FF}').contains(&chars[i - 1]),
        '\u{30FB}' => chars.iter().any(|&o| o != '\u{30FB}' && han_kana(o)),
        _ => true,
    }) && !(chars.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c))
        && chars.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c)))
}

/// Pieces of host names on the boundaries the checks draw: letters of
/// several scripts, both directions, digits of three kinds, marks, a
/// virama, the joiners, the CONTEXTO characters, hyphens, separators,
/// A-labels, and code points IDNA2008 disallows.
const PIECES: &[&str] = &[
    "a",
    "z",
    "0",
    "9",
    "-",
    "--",
    "xn--",
    "xn--nxasmq6b",
    "xn--mgbh0fb",
    "xn--9n2bp8q",
    "xn--bcher-kva",
    "xn--ls8h",
    "xn--X",
    "é",
    "e\u{301}",
    "ß",
    "ς",
    "α",
    "β",
    "ж",
    "한",
    "실",
    "ぁ",
    "ァ",
    "丈",
    "\u{30FB}",
    "क",
    "ष",
    "\u{94D}",
    "\u{200C}",
    "\u{200D}",
    "א",
    "ב",
    "\u{5B4}",
    "\u{5F3}",
    "\u{5F4}",
    "ب",
    "ي",
    "ا",
    "\u{660}",
    "\u{661}",
    "\u{6F0}",
    "\u{6F1}",
    "\u{6FD}",
    "\u{640}",
    "\u{B7}",
    "l",
    "\u{375}",
    "\u{300}",
    "\u{903}",
    "\u{488}",
    "\u{302E}",
    "\u{3007}",
    "\u{F0B}",
    "_",
    " ",
    "!",
    ".",
    ".",
    "\u{3002}",
    "A",
    "Ä",
    "\u{2160}",
    "\u{FF41}",
    "\u{1F600}",
    "\u{E0001}",
    "\u{10FFFF}",
];

fn generated(rng: &mut Rng) -> String {
    match rng.below(4) {
        // Anything from the pieces.
        0 => (0..rng.below(10)).map(|_| rng.pick(PIECES)).collect(),
        // Long labels, near the 63-octet limits of a label and of an A-label.
        1 => {
            let piece = rng.pick(&["a", "é", "한", "ب", "α"]);
            let n = 10 + rng.below(60);
            format!("{}.{}", piece.repeat(n), rng.pick(&["com", "x", "ب"]))
        }
        // Several short labels.
        _ => (0..1 + rng.below(4))
            .map(|_| {
                (0..1 + rng.below(4))
                    .map(|_| rng.pick(PIECES))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("."),
    }
}

/// Whether UTS 46 maps nothing in `hostname` (no case, no compatibility
/// forms, nothing left out, no normalization): there IDNA2008 and UTS 46
/// should decide alike.
fn unmapped(hostname: &str) -> bool {
    use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
    let (unicode, _) =
        Uts46::new().to_unicode(hostname.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow);
    let plain: String = hostname
        .chars()
        .map(|c| {
            if matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}') {
                '.'
            } else {
                c
            }
        })
        .collect();
    // A-labels come back decoded; compare label by label.
    unicode.split('.').count() == plain.split('.').count()
        && unicode
            .split('.')
            .zip(plain.split('.'))
            .all(|(u, p)| u == p || (p.is_ascii() && p.to_ascii_lowercase().starts_with("xn--")))
}

#[test]
fn idn_hostname_decides_as_the_idna_crate_where_uts46_maps_nothing() {
    let mut rng = Rng(0x1D4A_2008);
    let mut compared = 0;
    let mut differ = Vec::new();
    for _ in 0..60_000 {
        let hostname = generated(&mut rng);
        if !unmapped(&hostname) {
            continue;
        }
        compared += 1;
        let (ours, theirs) = (idna2008::is_valid_idn_hostname(&hostname), uts46(&hostname));
        if ours != theirs {
            differ.push(format!(
                "{hostname:?}: IDNA2008 {ours}, the idna crate {theirs}"
            ));
        }
    }
    assert!(
        compared > 10_000,
        "only {compared} generated names were compared"
    );
    assert!(
        differ.is_empty(),
        "{} of {compared} differ: {:#?}",
        differ.len(),
        &differ[..differ.len().min(20)]
    );
}

#[test]
fn idn_hostname_maps_case_and_label_separators_as_uts46_does() {
    for (hostname, valid) in [
        ("Example.COM", true),
        ("ÄBC.de", true),
        ("bücher。example", true),
        ("bücher．example", true),
        ("bücher｡example", true),
        ("bücher.example.", false),
        ("XN--BCHER-KVA.example", true),
        // Compatibility forms map under UTS 46 but are not IDNA2008 labels.
        ("\u{FF41}bc.example", false),
    ] {
        assert_eq!(
            idna2008::is_valid_idn_hostname(hostname),
            valid,
            "{hostname:?}"
        );
    }
}
