//! Redaction of things that look like credentials.
//!
//! Messages, thrown errors and repair feedback travel into logs and back
//! into prompts. Everything they quote comes from a schema, a rule or an
//! instance path, never from an instance value — but a path segment is an
//! object key the model wrote, and a schema's title or enum may hold a key
//! someone pasted there. Whatever is quoted passes through here first.
//!
//! The kinds of credential are data, in `rules.rs`, following gitleaks'
//! maintained rules where it has one for the kind; each kind has a test
//! below. Each kind's keywords are looked for in a lower-case copy of the
//! text before its regular expression runs, so text without a credential
//! costs a substring search per keyword and the one rule that has none.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

/// What a redacted credential becomes.
pub const REDACTED: &str = "[redacted]";

mod rules;

struct Pattern {
    #[cfg(test)]
    id: &'static str,
    regex: Regex,
    keywords: &'static [&'static str],
    replacement: &'static str,
}

/// The rules of `rules.rs`, compiled once.
fn patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        rules::RULES
            .iter()
            .filter_map(|rule| {
                Regex::new(rule.regex).ok().map(|regex| Pattern {
                    #[cfg(test)]
                    id: rule.id,
                    regex,
                    keywords: rule.keywords,
                    replacement: rule.replacement,
                })
            })
            .collect()
    })
}

/// Whether `lower`, text in ASCII lower case, holds one of `keywords`: a
/// scan much cheaper than the regular expression it stands before.
fn mentions(lower: &str, keywords: &[&str]) -> bool {
    keywords.is_empty() || keywords.iter().any(|keyword| lower.contains(keyword))
}

/// `text` with everything that looks like a credential replaced by
/// `[redacted]`. Borrowed when nothing matched, which is the common case.
/// JSON Pointers inside the text are also checked segment by segment,
/// unescaped (see `redact_pointer`).
pub fn redact_secrets(text: &str) -> Cow<'_, str> {
    let out = redact_plain(text);
    if !out.contains('~') {
        return out;
    }
    let Some(pointers) = pointer_tokens() else {
        return out;
    };
    if !pointers.is_match(&out) {
        return out;
    }
    let replaced = pointers
        .replace_all(&out, |caps: &regex::Captures<'_>| {
            let token = caps.get(0).map_or("", |m| m.as_str());
            redact_pointer(token).into_owned()
        })
        .into_owned();
    if replaced == *out {
        out
    } else {
        Cow::Owned(replaced)
    }
}

/// Words that hold a JSON Pointer escape (`~0` or `~1`).
fn pointer_tokens() -> Option<&'static Regex> {
    static POINTERS: OnceLock<Option<Regex>> = OnceLock::new();
    POINTERS
        .get_or_init(|| Regex::new(r#"[^\s"'()\[\],;]*~[01][^\s"'()\[\],;]*"#).ok())
        .as_ref()
}

fn redact_plain(text: &str) -> Cow<'_, str> {
    if !may_hold_secret(text) {
        return Cow::Borrowed(text);
    }
    redact_every_rule(text)
}

/// `text` through every rule in turn (see `redact_plain`, which looks
/// first whether any rule can match at all).
fn redact_every_rule(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    let mut lower = text.to_ascii_lowercase();
    for pattern in patterns() {
        if let Some(replaced) = pattern.apply(&out, &lower) {
            lower = replaced.to_ascii_lowercase();
            out = Cow::Owned(replaced);
        }
    }
    out
}

impl Pattern {
    /// `text` with this kind of credential replaced; `None` if it holds
    /// none. `lower` is `text` in ASCII lower case.
    fn apply(&self, text: &str, lower: &str) -> Option<String> {
        if !mentions(lower, self.keywords) || !self.regex.is_match(text) {
            return None;
        }
        if self.replacement.is_empty() {
            redact_random_keys(&self.regex, text)
        } else {
            Some(self.regex.replace_all(text, self.replacement).into_owned())
        }
    }
}

/// The keywords of every rule (ASCII lower case), and a set of the pairs
/// of bytes they start with (a one-byte keyword's byte paired with every
/// byte), one bit per pair: most positions of a text start no keyword's
/// pair, and are passed over by one look-up.
struct Keywords {
    list: Vec<&'static [u8]>,
    pairs: Vec<u64>,
}

fn keywords() -> &'static Keywords {
    static KEYWORDS: OnceLock<Keywords> = OnceLock::new();
    KEYWORDS.get_or_init(|| {
        let list: Vec<&'static [u8]> = rules::RULES
            .iter()
            .flat_map(|rule| rule.keywords.iter().map(|keyword| keyword.as_bytes()))
            .collect();
        let mut pairs = vec![0_u64; 65536 / 64];
        let mut set = |pair: usize| {
            if let Some(word) = pairs.get_mut(pair / 64) {
                *word |= 1 << (pair % 64);
            }
        };
        for keyword in &list {
            match *keyword {
                [first, second, ..] => set(usize::from(*first) << 8 | usize::from(*second)),
                [only] => (0..256).for_each(|second| set(usize::from(*only) << 8 | second)),
                [] => {}
            }
        }
        Keywords { list, pairs }
    })
}

/// The characters a key of the rule without keywords is made of (see
/// `rules.rs`: forty of `[A-Za-z0-9/+]`, each maybe after backslashes, or
/// `%2B`/`%2F`), and how many of them it takes in a row.
fn key_character(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'/' | b'+' | b'\\' | b'%')
}
const KEY_RUN: usize = 40;

/// Whether a rule could match `text`: it holds a rule's keyword (in any
/// ASCII case), or `KEY_RUN` key characters in a row. Every rule with
/// keywords matches only text that holds one of them, and the one without
/// only such a run, so text for which this is false holds no credential
/// the rules know: one pass over its bytes instead of a search per keyword.
pub fn may_hold_secret(text: &str) -> bool {
    let keywords = keywords();
    let bytes = text.as_bytes();
    let mut run = 0;
    for (at, &b) in bytes.iter().enumerate() {
        if key_character(b) {
            run += 1;
            if run >= KEY_RUN {
                return true;
            }
        } else {
            run = 0;
        }
        let next = bytes.get(at + 1).copied().unwrap_or(0);
        let pair =
            usize::from(b.to_ascii_lowercase()) << 8 | usize::from(next.to_ascii_lowercase());
        if keywords
            .pairs
            .get(pair / 64)
            .is_none_or(|word| word & (1 << (pair % 64)) == 0)
        {
            continue;
        }
        let rest = bytes.get(at..).unwrap_or_default();
        if keywords.list.iter().any(|keyword| {
            rest.get(..keyword.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(keyword))
        }) {
            return true;
        }
    }
    false
}

/// What [`may_hold_secret`] looks for, for a check program to look for the
/// same in the sentences it writes (see src/check_program.rs): every
/// rule's keywords (ASCII lower case), and a regular expression source
/// matching a run of key characters as long as the rule without keywords
/// needs.
#[must_use]
pub fn secret_signs() -> (Vec<&'static str>, String) {
    let mut words: Vec<&'static str> = rules::RULES
        .iter()
        .flat_map(|rule| rule.keywords.iter().copied())
        .collect();
    guard_sort::sort(&mut words);
    words.dedup();
    (words, format!("[A-Za-z0-9/+\\\\%]{{{KEY_RUN}}}"))
}

/// A JSON Pointer with every segment that holds a credential replaced by
/// `[redacted]`. Segments are checked unescaped (`~1` is `/`), so a URL or
/// a key with a slash in it is seen as written.
pub fn redact_pointer(pointer: &str) -> Cow<'_, str> {
    // Unescaped, a segment holds what the pointer holds, but for a `~`
    // that may join two runs of key characters.
    if !pointer.contains('~') && !may_hold_secret(pointer) {
        return Cow::Borrowed(pointer);
    }
    if !pointer.split('/').any(|segment| {
        let plain = segment.replace("~1", "/").replace("~0", "~");
        !matches!(redact_plain(&plain), Cow::Borrowed(_))
    }) {
        return Cow::Borrowed(pointer);
    }
    let segments: Vec<String> = pointer
        .split('/')
        .map(|segment| {
            let plain = segment.replace("~1", "/").replace("~0", "~");
            match redact_plain(&plain) {
                Cow::Borrowed(_) => segment.to_owned(),
                Cow::Owned(_) => REDACTED.to_owned(),
            }
        })
        .collect();
    Cow::Owned(segments.join("/"))
}

/// Replaces the `key` group of every match that looks random (mixed case
/// and digits), keeping the delimiters around it; `None` if none does.
fn redact_random_keys(regex: &Regex, text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut at = 0;
    while let Some(caps) = regex.captures_at(text, at) {
        let Some(key) = caps.name("key") else { break };
        if looks_random(key.as_str()) {
            out.push_str(text.get(last..key.start()).unwrap_or_default());
            out.push_str(REDACTED);
            last = key.end();
        }
        // Continue from the key's end so a delimiter can start the next match.
        at = key.end();
        if at >= text.len() {
            break;
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(text.get(last..).unwrap_or_default());
    Some(out)
}

/// Mixed case and digits, changing between them at least 12 times. A
/// random 40-character base64 string changes about 25 times (fewer than 12
/// times in about 3 of 10,000); forty characters of a path of camelCase
/// names and indices (`lineItems/3/unitPrice`) rarely reach 12.
fn looks_random(token: &str) -> bool {
    let class = |b: u8| match b {
        b'A'..=b'Z' => 1,
        b'a'..=b'z' => 2,
        b'0'..=b'9' => 3,
        _ => 0,
    };
    let (mut seen, mut changes, mut last) = ([false; 4], 0, 0);
    for b in token.bytes().map(class).filter(|&c| c != 0) {
        if let Some(flag) = seen.get_mut(b) {
            *flag = true;
        }
        if last != 0 && b != last {
            changes += 1;
        }
        last = b;
    }
    seen.iter().skip(1).all(|&s| s) && changes >= 12
}

/// Test data shared with the main crate's tests, which reach it through
/// the `test-support` feature.
#[cfg(any(test, feature = "test-support"))]
pub mod planted {
    /// Credentials of every kind redacted here, as they appear in the wild
    /// (made up, with the real shapes).
    pub const PLANTED: [&str; 18] = [
        "sk-proj-Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ",
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
        "sk_live_51HqLyjWDarjtT1zdp7dcXzQ9",
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "xoxb-1234567890-0987654321-AbCdEfGhIjKl",
        "xapp-1-A0123456789-1234567890123-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b",
        "https://hooks.slack.com/services/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",
        "whsec_Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ",
        "redis://:Zq8fK2mN4pR7tV1x@cache.internal.example:6379",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "Bearer abc.DEF-123_456~789+xyz/0",
        "https://admin:hunter2hunter2@db.internal.example",
        "api_key=Q2xpZW50U2VjcmV0VmFsdWU",
        "password: correct-horse-battery",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    ];
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests;
