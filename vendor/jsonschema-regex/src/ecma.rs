//! ECMA-262 patterns, with the `u` flag's meaning, written for the Rust engines.
//!
//! JSON Schema's `pattern`, `patternProperties` and `format: "regex"` are ECMA-262 regular
//! expressions. [`translate`] reads one as `new RegExp(pattern, "u")` does (and, as patterns
//! written without the `u` flag allow, a backslash before any other non-alphanumeric character
//! as that character) and writes a pattern fancy-regex matches the same strings with: every
//! character class spelled out (`\d`, `\w` and `\b` are ASCII, `\s` and `.` ECMA-262's), literals
//! as code points, `[^]` and `[]` as the classes they are, named groups numbered, and a
//! back-reference to a group that has not matched matching the empty string. What reads
//! differently in the two engines and cannot be written for fancy-regex is refused with a
//! [`Refusal`] saying what: pattern modifiers; a back-reference to a group a repeated group may
//! skip (ECMA-262 clears a repeated group's captures on every repetition), to a group in a
//! lookbehind or a negative look-ahead, or inside a lookbehind (matched backwards in ECMA-262); a
//! look-around inside a lookbehind (which fancy-regex's lookbehinds of varying length do not
//! match as ECMA-262 does); and a group name used twice.
//!
//! The subject strings are Unicode scalar values, so a lone surrogate in a pattern (or a class
//! range of surrogates only) matches nothing.

use std::fmt::Write;

/// Why a syntactically valid pattern is not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// ECMA-262 `\s`: `WhiteSpace` and `LineTerminator`.
const WHITESPACE: &str = r"\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const WORD: &str = "A-Za-z0-9_";
const DIGIT: &str = "0-9";
/// `.`: anything but an ECMA-262 `LineTerminator`.
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";
/// A class that matches no character.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
/// A class that matches every character.
const ANYTHING: &str = r"[\x{0}-\x{10FFFF}]";

/// The pattern written for fancy-regex; the caller has checked its syntax.
///
/// # Errors
///
/// A [`Refusal`] for a pattern the engines would read differently (see the module documentation).
pub fn translate(pattern: &str) -> Result<String, Refusal> {
    let groups = scan_groups(pattern)?;
    let mut translator = Translator {
        chars: pattern.chars().collect(),
        at: 0,
        out: String::with_capacity(pattern.len() * 2),
        groups,
        open: Vec::new(),
        references: Vec::new(),
        next_group: 0,
    };
    translator.disjunction()?;
    if translator.at < translator.chars.len() {
        return Err(Refusal("has an unmatched closing parenthesis".to_owned()));
    }
    translator.check_references()?;
    Ok(translator.out)
}

/// What the translator knows of a capturing group.
#[derive(Debug, Default, Clone)]
struct Group {
    name: Option<String>,
    /// Inside a quantified atom that may repeat, which may skip it in a repetition.
    repeated: bool,
    /// Inside a negative look-around or a lookbehind.
    in_negative_or_behind: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Group,
    Lookahead { negative: bool },
    Lookbehind { negative: bool },
}

struct Translator {
    chars: Vec<char>,
    at: usize,
    out: String,
    groups: Vec<Group>,
    /// The groups open around the cursor, and the first capture number each holds.
    open: Vec<(Open, usize)>,
    /// Each back-reference: the group's number.
    references: Vec<usize>,
    next_group: usize,
}

/// Capturing groups in order, with their names, read ahead so that `\k<name>` may come first.
fn scan_groups(pattern: &str) -> Result<Vec<Group>, Refusal> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut groups = Vec::new();
    let mut at = 0;
    let mut in_class = false;
    while let Some(&c) = chars.get(at) {
        at += 1;
        match c {
            '\\' => at += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                if chars.get(at) != Some(&'?') {
                    groups.push(Group::default());
                } else if chars.get(at + 1) == Some(&'<')
                    && !matches!(chars.get(at + 2), Some('=' | '!'))
                {
                    let start = at + 2;
                    let mut end = start;
                    while chars.get(end).is_some_and(|c| *c != '>') {
                        end += 1;
                    }
                    let name: String = chars.get(start..end).unwrap_or_default().iter().collect();
                    if name.contains('\\') {
                        return Err(Refusal(
                            "names a group with an escape sequence, which is not supported"
                                .to_owned(),
                        ));
                    }
                    if groups
                        .iter()
                        .any(|group: &Group| group.name.as_deref() == Some(name.as_str()))
                    {
                        return Err(Refusal(format!(
                            "names two groups \"{name}\", which is not supported"
                        )));
                    }
                    groups.push(Group {
                        name: Some(name),
                        ..Group::default()
                    });
                }
            }
            _ => {}
        }
    }
    Ok(groups)
}

impl Translator {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.at + offset).copied()
    }

    fn bump(&mut self) -> Result<char, Refusal> {
        let c = self.peek().ok_or_else(|| Refusal("ends early".to_owned()))?;
        self.at += 1;
        Ok(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn disjunction(&mut self) -> Result<(), Refusal> {
        loop {
            self.alternative()?;
            if self.eat('|') {
                self.out.push('|');
            } else {
                return Ok(());
            }
        }
    }

    fn alternative(&mut self) -> Result<(), Refusal> {
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                return Ok(());
            }
            self.term()?;
        }
        Ok(())
    }

    fn term(&mut self) -> Result<(), Refusal> {
        let first_group = self.next_group;
        let start = self.out.len();
        let quantifiable = self.atom()?;
        if quantifiable {
            self.quantifier(start, first_group)?;
        }
        Ok(())
    }

    /// One atom or assertion, written out; whether a quantifier may follow.
    fn atom(&mut self) -> Result<bool, Refusal> {
        let c = self.bump()?;
        match c {
            '^' => self.out.push('^'),
            '$' => self.out.push('$'),
            '.' => self.out.push_str(DOT),
            '[' => self.class()?,
            '(' => return self.group(),
            '\\' => return self.atom_escape(),
            c => self.literal(u32::from(c)),
        }
        Ok(c != '^' && c != '$')
    }

    fn group(&mut self) -> Result<bool, Refusal> {
        let kind = if self.eat('?') {
            match self.bump()? {
                ':' => {
                    self.out.push_str("(?:");
                    None
                }
                '=' => {
                    self.out.push_str("(?=");
                    Some(Open::Lookahead { negative: false })
                }
                '!' => {
                    self.out.push_str("(?!");
                    Some(Open::Lookahead { negative: true })
                }
                '<' if matches!(self.peek(), Some('=' | '!')) => {
                    let negative = self.bump()? == '!';
                    self.out.push_str(if negative { "(?<!" } else { "(?<=" });
                    Some(Open::Lookbehind { negative })
                }
                '<' => {
                    while self.bump()? != '>' {}
                    self.capture();
                    Some(Open::Group)
                }
                _ => {
                    return Err(Refusal(
                        "uses pattern modifiers ((?i:…)), which are not supported".to_owned(),
                    ))
                }
            }
        } else {
            self.capture();
            Some(Open::Group)
        };
        if matches!(kind, Some(Open::Lookahead { .. } | Open::Lookbehind { .. }))
            && self
                .open
                .iter()
                .any(|(open, _)| matches!(open, Open::Lookbehind { .. }))
        {
            return Err(Refusal(
                "has a look-around inside a lookbehind, which is not supported".to_owned(),
            ));
        }
        if let Some(open) = kind {
            self.open.push((open, self.next_group));
        }
        self.disjunction()?;
        if !self.eat(')') {
            return Err(Refusal("has an unclosed group".to_owned()));
        }
        if kind.is_some() {
            self.open.pop();
        }
        self.out.push(')');
        // ECMA-262 refuses a quantified look-around under the `u` flag.
        Ok(!matches!(
            kind,
            Some(Open::Lookahead { .. } | Open::Lookbehind { .. })
        ))
    }

    /// Opens a capturing group (named groups are numbered: the names stay here).
    fn capture(&mut self) {
        let inside = self.open.iter().any(|(open, _)| {
            matches!(
                open,
                Open::Lookahead { negative: true } | Open::Lookbehind { .. }
            )
        });
        if let Some(group) = self.groups.get_mut(self.next_group) {
            group.in_negative_or_behind = inside;
        }
        self.next_group += 1;
        self.out.push('(');
    }

    fn quantifier(&mut self, atom_start: usize, first_group: usize) -> Result<(), Refusal> {
        let (written, repeats) = match self.peek() {
            Some('*') => ("*".to_owned(), true),
            Some('+') => ("+".to_owned(), true),
            Some('?') => ("?".to_owned(), false),
            Some('{') => match self.braces() {
                Some((text, repeats)) => (text, repeats),
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        if !written.starts_with('{') {
            self.at += 1;
        }
        // The atom as one unit for the quantifier.
        let atom = self.out.split_off(atom_start);
        // A capturing group repeated itself captures on every repetition, so what ECMA-262
        // clears is always captured again; the groups inside it may be skipped in one.
        let repeated_from = if atom.starts_with('(') && !atom.starts_with("(?") {
            first_group + 1
        } else {
            first_group
        };
        // fancy-regex refuses to repeat what it reads as nothing or as a
        // look-around alone (`(?:)`, `(?:(?=a))`), which ECMA-262 repeats: a
        // character repeated no times matches nothing too, and makes the atom
        // one fancy-regex repeats.
        let atom = if repeats_nothing(&atom) {
            format!("(?:{atom}\\x{{0}}{{0}})")
        } else {
            atom
        };
        let _ = write!(self.out, "(?:{atom}){written}");
        if self.eat('?') {
            self.out.push('?');
        }
        if repeats {
            for group in self.groups.iter_mut().take(self.next_group).skip(repeated_from) {
                group.repeated = true;
            }
        }
        Ok(())
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor, consumed: the text and whether it may repeat.
    fn braces(&mut self) -> Option<(String, bool)> {
        let mut at = self.at + 1;
        let number = |at: &mut usize, chars: &[char]| -> Option<u64> {
            let start = *at;
            let mut value: u64 = 0;
            while let Some(digit) = chars.get(*at).and_then(|c| c.to_digit(10)) {
                value = value.saturating_mul(10).saturating_add(u64::from(digit));
                *at += 1;
            }
            (*at > start).then_some(value)
        };
        let low = number(&mut at, &self.chars)?;
        let mut high = Some(low);
        if self.chars.get(at) == Some(&',') {
            at += 1;
            high = number(&mut at, &self.chars);
        }
        if self.chars.get(at) != Some(&'}') {
            return None;
        }
        self.at = at + 1;
        let text = match high {
            Some(high) if high == low => format!("{{{low}}}"),
            Some(high) => format!("{{{low},{high}}}"),
            None => format!("{{{low},}}"),
        };
        Some((text, high.map_or(true, |high| high > 1)))
    }

    fn atom_escape(&mut self) -> Result<bool, Refusal> {
        let c = self.bump()?;
        match c {
            'b' => {
                let _ = write!(
                    self.out,
                    "(?:(?<=[{WORD}])(?![{WORD}])|(?<![{WORD}])(?=[{WORD}]))"
                );
                return Ok(false);
            }
            'B' => {
                let _ = write!(
                    self.out,
                    "(?:(?<=[{WORD}])(?=[{WORD}])|(?<![{WORD}])(?![{WORD}]))"
                );
                return Ok(false);
            }
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P' => {
                let set = self.class_escape(c)?;
                self.out.push('[');
                self.out.push_str(&set);
                self.out.push(']');
            }
            'k' => {
                self.eat('<');
                let mut name = String::new();
                loop {
                    match self.bump()? {
                        '>' => break,
                        c => name.push(c),
                    }
                }
                let number = self
                    .groups
                    .iter()
                    .position(|group| group.name.as_deref() == Some(name.as_str()))
                    .ok_or_else(|| Refusal(format!("refers to no group named \"{name}\"")))?;
                self.reference(number + 1)?;
            }
            '1'..='9' => {
                let mut number = u64::from(c) - u64::from('0');
                while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
                    self.at += 1;
                    number = number.saturating_mul(10).saturating_add(u64::from(digit));
                }
                self.reference(usize::try_from(number).unwrap_or(usize::MAX))?;
            }
            c => {
                let code = self.character_escape(c)?;
                self.literal(code);
            }
        }
        Ok(true)
    }

    /// A back-reference to group `number`: what it captured, or the empty string when it has
    /// not taken part in the match.
    fn reference(&mut self, number: usize) -> Result<(), Refusal> {
        if number == 0 || number > self.groups.len() {
            return Err(Refusal(format!("refers to group {number}, which it does not have")));
        }
        if self
            .open
            .iter()
            .any(|(open, _)| matches!(open, Open::Lookbehind { .. }))
        {
            return Err(Refusal(
                "has a back-reference inside a lookbehind, which is not supported".to_owned(),
            ));
        }
        self.references.push(number);
        let _ = write!(self.out, "(?:(?({number})\\{number}))");
        Ok(())
    }

    fn check_references(&self) -> Result<(), Refusal> {
        for &number in &self.references {
            let Some(group) = self.groups.get(number - 1) else {
                continue;
            };
            if group.repeated {
                return Err(Refusal(format!(
                    "refers back to group {number}, which sits in a repeated group (whose \
                     captures ECMA-262 clears on every repetition); this is not supported"
                )));
            }
            if group.in_negative_or_behind {
                return Err(Refusal(format!(
                    "refers back to group {number}, which sits in a lookbehind or a negative \
                     look-ahead; this is not supported"
                )));
            }
        }
        Ok(())
    }

    /// `CharacterEscape` after its first character; the code point it stands for.
    fn character_escape(&mut self, c: char) -> Result<u32, Refusal> {
        Ok(match c {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'c' => u32::from(self.bump()?) % 32,
            '0' => 0,
            'x' => {
                let high = self.hex_digit()?;
                let low = self.hex_digit()?;
                high * 16 + low
            }
            'u' => self.unicode_escape()?,
            c => u32::from(c),
        })
    }

    fn hex_digit(&mut self) -> Result<u32, Refusal> {
        self.bump()?
            .to_digit(16)
            .ok_or_else(|| Refusal("has a malformed escape".to_owned()))
    }

    fn unicode_escape(&mut self) -> Result<u32, Refusal> {
        if self.eat('{') {
            let mut value: u32 = 0;
            while !self.eat('}') {
                value = value.saturating_mul(16).saturating_add(self.hex_digit()?);
            }
            return Ok(value);
        }
        let lead = self.hex4()?;
        if (0xD800..=0xDBFF).contains(&lead) && self.peek() == Some('\\') && self.peek_at(1) == Some('u') {
            let at = self.at;
            self.at += 2;
            match self.hex4() {
                Ok(trail) if (0xDC00..=0xDFFF).contains(&trail) => {
                    return Ok(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00));
                }
                _ => self.at = at,
            }
        }
        Ok(lead)
    }

    fn hex4(&mut self) -> Result<u32, Refusal> {
        let mut value = 0;
        for _ in 0..4 {
            value = value * 16 + self.hex_digit()?;
        }
        Ok(value)
    }

    fn literal(&mut self, code: u32) {
        match char::from_u32(code) {
            Some(c) if c.is_ascii_alphanumeric() => self.out.push(c),
            Some(_) => {
                let _ = write!(self.out, "\\x{{{code:X}}}");
            }
            // A lone surrogate: no subject string holds one.
            None => self.out.push_str(NOTHING),
        }
    }

    /// The members a class escape stands for, to write inside brackets.
    fn class_escape(&mut self, c: char) -> Result<String, Refusal> {
        Ok(match c {
            'd' => DIGIT.to_owned(),
            'D' => format!("[^{DIGIT}]"),
            'w' => WORD.to_owned(),
            'W' => format!("[^{WORD}]"),
            's' => WHITESPACE.to_owned(),
            'S' => format!("[^{WHITESPACE}]"),
            'p' | 'P' => {
                self.eat('{');
                let mut text = String::new();
                loop {
                    match self.bump()? {
                        '}' => break,
                        c => text.push(c),
                    }
                }
                let property = property(&text).ok_or_else(|| {
                    Refusal(format!("names the Unicode property \"{text}\", which ECMA-262 does not have"))
                })?;
                format!("\\{c}{{{property}}}")
            }
            _ => return Err(Refusal("has a malformed class escape".to_owned())),
        })
    }

    /// A class; the opening bracket is consumed.
    fn class(&mut self) -> Result<(), Refusal> {
        let negated = self.eat('^');
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        let mut sets: Vec<String> = Vec::new();
        loop {
            if self.eat(']') {
                break;
            }
            let start = self.class_atom(&mut sets)?;
            if self.peek() == Some('-') && self.peek_at(1) != Some(']') && self.peek_at(1).is_some() {
                if let Some(start) = start {
                    let at = self.at;
                    self.at += 1;
                    let mut ignored = Vec::new();
                    match self.class_atom(&mut ignored)? {
                        Some(end) if ignored.is_empty() => {
                            ranges.push((start, end));
                            continue;
                        }
                        _ => self.at = at,
                    }
                }
            }
            if let Some(code) = start {
                ranges.push((code, code));
            }
        }
        // Surrogates match nothing here: the subjects are Unicode scalar values.
        let mut members = String::new();
        for (start, end) in ranges {
            for (low, high) in [(start, end.min(0xD7FF)), (start.max(0xE000), end)] {
                if low <= high {
                    let _ = write!(members, "\\x{{{low:X}}}-\\x{{{high:X}}}");
                }
            }
        }
        for set in sets {
            if set.starts_with('[') || set.starts_with('\\') {
                members.push_str(&set);
            } else {
                let _ = write!(members, "[{set}]");
            }
        }
        match (members.is_empty(), negated) {
            (true, false) => self.out.push_str(NOTHING),
            (true, true) => self.out.push_str(ANYTHING),
            (false, negated) => {
                let _ = write!(self.out, "[{}{members}]", if negated { "^" } else { "" });
            }
        }
        Ok(())
    }

    /// One class atom: `Some` code point, or `None` after adding a class escape's set to `sets`.
    fn class_atom(&mut self, sets: &mut Vec<String>) -> Result<Option<u32>, Refusal> {
        let c = self.bump()?;
        if c != '\\' {
            return Ok(Some(u32::from(c)));
        }
        let escaped = self.bump()?;
        Ok(match escaped {
            'b' => Some(0x08),
            '-' => Some(u32::from('-')),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P' => {
                sets.push(self.class_escape(escaped)?);
                None
            }
            c => Some(self.character_escape(c)?),
        })
    }
}

/// ECMA-262's binary Unicode properties, by name and alias (its table-binary-unicode-properties).
const BINARY_PROPERTIES: &[&str] = &[
    "ASCII", "ASCII_Hex_Digit", "AHex", "Alphabetic", "Alpha", "Any", "Assigned",
    "Bidi_Control", "Bidi_C", "Bidi_Mirrored", "Bidi_M", "Case_Ignorable", "CI", "Cased",
    "Changes_When_Casefolded", "CWCF", "Changes_When_Casemapped", "CWCM",
    "Changes_When_Lowercased", "CWL", "Changes_When_NFKC_Casefolded", "CWKCF",
    "Changes_When_Titlecased", "CWT", "Changes_When_Uppercased", "CWU", "Dash",
    "Default_Ignorable_Code_Point", "DI", "Deprecated", "Dep", "Diacritic", "Dia", "Emoji",
    "Emoji_Component", "EComp", "Emoji_Modifier", "EMod", "Emoji_Modifier_Base", "EBase",
    "Emoji_Presentation", "EPres", "Extended_Pictographic", "ExtPict", "Extender", "Ext",
    "Grapheme_Base", "Gr_Base", "Grapheme_Extend", "Gr_Ext", "Hex_Digit", "Hex",
    "IDS_Binary_Operator", "IDSB", "IDS_Trinary_Operator", "IDST", "ID_Continue", "IDC",
    "ID_Start", "IDS", "Ideographic", "Ideo", "Join_Control", "Join_C",
    "Logical_Order_Exception", "LOE", "Lowercase", "Lower", "Math", "Noncharacter_Code_Point",
    "NChar", "Pattern_Syntax", "Pat_Syn", "Pattern_White_Space", "Pat_WS", "Quotation_Mark",
    "QMark", "Radical", "Regional_Indicator", "RI", "Sentence_Terminal", "STerm", "Soft_Dotted",
    "SD", "Terminal_Punctuation", "Term", "Unified_Ideograph", "UIdeo", "Uppercase", "Upper",
    "Variation_Selector", "VS", "White_Space", "space", "XID_Continue", "XIDC", "XID_Start",
    "XIDS",
];

/// ECMA-262's `General_Category` values, by name and alias.
const GENERAL_CATEGORIES: &[&str] = &[
    "Cased_Letter", "LC", "Close_Punctuation", "Pe", "Connector_Punctuation", "Pc", "Control",
    "Cc", "cntrl", "Currency_Symbol", "Sc", "Dash_Punctuation", "Pd", "Decimal_Number", "Nd",
    "digit", "Enclosing_Mark", "Me", "Final_Punctuation", "Pf", "Format", "Cf",
    "Initial_Punctuation", "Pi", "Letter", "L", "Letter_Number", "Nl", "Line_Separator", "Zl",
    "Lowercase_Letter", "Ll", "Mark", "M", "Combining_Mark", "Math_Symbol", "Sm",
    "Modifier_Letter", "Lm", "Modifier_Symbol", "Sk", "Nonspacing_Mark", "Mn", "Number", "N",
    "Open_Punctuation", "Ps", "Other", "C", "Other_Letter", "Lo", "Other_Number", "No",
    "Other_Punctuation", "Po", "Other_Symbol", "So", "Paragraph_Separator", "Zp", "Private_Use",
    "Co", "Punctuation", "P", "punct", "Separator", "Z", "Space_Separator", "Zs", "Spacing_Mark",
    "Mc", "Surrogate", "Cs", "Symbol", "S", "Titlecase_Letter", "Lt", "Unassigned", "Cn",
    "Uppercase_Letter", "Lu",
];

/// The `\p{…}` body written for regex-syntax, when ECMA-262 has the property: a binary property
/// or general category by its ECMA-262 name, or `General_Category`, `Script` or
/// `Script_Extensions` (or `gc`, `sc`, `scx`) with a value. Script names are checked against
/// regex-syntax's tables, with ECMA-262's case (every script name and alias starts with a
/// capital letter).
#[must_use]
pub fn property(text: &str) -> Option<String> {
    let written = match text.split_once('=') {
        None if BINARY_PROPERTIES.contains(&text) || GENERAL_CATEGORIES.contains(&text) => {
            text.to_owned()
        }
        None => return None,
        Some(("General_Category" | "gc", value)) if GENERAL_CATEGORIES.contains(&value) => {
            format!("gc={value}")
        }
        Some((key @ ("Script" | "sc" | "Script_Extensions" | "scx"), value))
            if value.starts_with(|c: char| c.is_ascii_uppercase())
                && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            let key = if key.starts_with("Script_") || key == "scx" { "scx" } else { "sc" };
            format!("{key}={value}")
        }
        Some(_) => return None,
    };
    // regex-syntax must know it too (a script newer than its tables is refused).
    regex_syntax::Parser::new()
        .parse(&format!("\\p{{{written}}}"))
        .ok()
        .map(|_| written)
}

/// Whether fancy-regex reads `atom`, written out, as nothing or as one
/// look-around: non-capturing groups around no text, or around a single
/// look-around.
fn repeats_nothing(atom: &str) -> bool {
    let mut inner = atom;
    loop {
        if inner.is_empty() {
            return true;
        }
        let look = ["(?=", "(?!", "(?<=", "(?<!"]
            .iter()
            .any(|open| inner.starts_with(open));
        if !look && !inner.starts_with("(?:") {
            return false;
        }
        if closing(inner) != Some(inner.len() - 1) {
            return false;
        }
        if look {
            return true;
        }
        inner = inner.get(3..inner.len() - 1).unwrap_or_default();
    }
}

/// The byte index of the parenthesis that closes the group `text` opens,
/// past escapes and character classes.
fn closing(text: &str) -> Option<usize> {
    let mut depth = 0_usize;
    let mut class = 0_usize;
    let mut bytes = text.bytes().enumerate();
    while let Some((at, byte)) = bytes.next() {
        match byte {
            b'\\' => {
                bytes.next();
            }
            b'[' => class += 1,
            b']' if class > 0 => class -= 1,
            b'(' if class == 0 => depth += 1,
            b')' if class == 0 => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}
