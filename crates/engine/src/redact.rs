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
/// scan much cheaper than the regular expression it stands before. Only a
/// keyword whose first two bytes `pairs` has seen in the text is searched
/// for (see `Pairs`).
fn mentions(lower: &str, pairs: &Pairs, keywords: &[&str]) -> bool {
    keywords.is_empty()
        || keywords
            .iter()
            .any(|keyword| pairs.may_hold(keyword) && lower.contains(keyword))
}

/// The pairs of adjacent bytes a text holds, hashed into 1,024 bits: one
/// pass over the text tells which keywords cannot be in it, so that most
/// of the forty keyword searches a clean text would cost are never made.
struct Pairs([u64; 16]);

impl Pairs {
    fn of(lower: &str) -> Pairs {
        let mut bits = [0_u64; 16];
        for pair in lower.as_bytes().windows(2) {
            if let [a, b] = pair {
                let h = Self::hash(*a, *b);
                if let Some(word) = bits.get_mut(h >> 6) {
                    *word |= 1 << (h & 63);
                }
            }
        }
        Pairs(bits)
    }

    fn hash(a: u8, b: u8) -> usize {
        (usize::from(a) * 31 + usize::from(b)) & 1023
    }

    /// False only when the keyword's first two bytes are nowhere in the text.
    fn may_hold(&self, keyword: &str) -> bool {
        match keyword.as_bytes() {
            [a, b, ..] => {
                let h = Self::hash(*a, *b);
                self.0.get(h >> 6).is_some_and(|word| word & (1 << (h & 63)) != 0)
            }
            _ => true,
        }
    }
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
    let mut out = Cow::Borrowed(text);
    let mut lower = text.to_ascii_lowercase();
    let mut pairs = Pairs::of(&lower);
    for pattern in patterns() {
        if let Some(replaced) = pattern.apply(&out, &lower, &pairs) {
            lower = replaced.to_ascii_lowercase();
            pairs = Pairs::of(&lower);
            out = Cow::Owned(replaced);
        }
    }
    out
}

impl Pattern {
    /// `text` with this kind of credential replaced; `None` if it holds
    /// none. `lower` is `text` in ASCII lower case.
    fn apply(&self, text: &str, lower: &str, pairs: &Pairs) -> Option<String> {
        // The random-key rule (the one without keywords) matches only a run
        // of forty key characters; most text has none, and finding that out
        // costs far less than its regular expression.
        if self.replacement.is_empty() && !has_key_run(text) {
            return None;
        }
        if !mentions(lower, pairs, self.keywords) || !self.regex.is_match(text) {
            return None;
        }
        if self.replacement.is_empty() {
            redact_random_keys(&self.regex, text)
        } else {
            Some(self.regex.replace_all(text, self.replacement).into_owned())
        }
    }
}

/// Whether `text` holds forty bytes in a row that a random key's characters
/// (with their escapes: `\\`, `%2F`) can be: what every match of the
/// random-key rule contains.
fn has_key_run(text: &str) -> bool {
    let mut run = 0;
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'/' | b'+' | b'%' | b'\\') {
            run += 1;
            if run >= 40 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// A JSON Pointer with every segment that holds a credential replaced by
/// `[redacted]`. Segments are checked unescaped (`~1` is `/`), so a URL or
/// a key with a slash in it is seen as written.
pub fn redact_pointer(pointer: &str) -> Cow<'_, str> {
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
mod tests {
    use super::planted::PLANTED;
    use super::*;

    /// The part of each planted credential that must never survive.
    fn secret_part(planted: &str) -> &str {
        planted
            .rsplit([' ', '=', ':', '\n'])
            .find(|s| s.len() >= 6 && !s.starts_with("KEY-----") && !s.contains("//"))
            .unwrap_or(planted)
    }

    #[test]
    fn every_planted_credential_is_redacted() {
        for planted in PLANTED {
            let text = format!("The title says {planted} and more.");
            let out = redact_secrets(&text);
            assert!(out.contains(REDACTED), "{planted} was not redacted: {out}");
            assert!(
                !out.contains(secret_part(planted)),
                "{planted} survived: {out}"
            );
        }
        let url = redact_secrets("see https://admin:hunter2hunter2@db.internal.example/x");
        assert!(!url.contains("hunter2"), "{url}");
        assert!(url.contains("db.internal.example"), "{url}");
    }

    #[test]
    fn labels_are_kept_values_are_not() {
        assert_eq!(
            redact_secrets("api_key=Q2xpZW50U2VjcmV0VmFsdWU and more"),
            "api_key=[redacted] and more"
        );
        assert_eq!(
            redact_secrets("Authorization: Bearer abcdefghijklmnop"),
            "Authorization: Bearer [redacted]"
        );
        assert_eq!(
            redact_secrets("post to https://hooks.slack.com/services/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 now"),
            "post to https://hooks.slack.com/services/[redacted] now"
        );
        assert_eq!(
            redact_secrets("redis://:Zq8fK2mN4pR7tV1x@cache.internal.example:6379/0"),
            "redis://[redacted]@cache.internal.example:6379/0"
        );
        assert_eq!(
            redact_secrets(r"^postgres:\/\/svc:Zq8fK2mN4pR7tV1x@db\.example$"),
            r"^postgres:\/\/[redacted]@db\.example$"
        );
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        for text in [
            "The value at /observations/0/type must be one of: \"fact\", \"decision\", \"question\".",
            "must match the pattern ^[a-z]+$",
            "The response is missing the required property \"summary\".",
            "skip-this-one is fine",
            "a token count of 1234",
            "abcdefghijabcdefghijabcdefghijabcdefghij",
        ] {
            assert!(
                matches!(redact_secrets(text), Cow::Borrowed(_)),
                "{text} was changed to {}",
                redact_secrets(text)
            );
        }
    }

    #[test]
    fn pointer_segments_are_checked_unescaped() {
        let key = "https://admin:hunter2hunter2@db.internal.example";
        let pointer = format!("/config/{}/port", key.replace('~', "~0").replace('/', "~1"));
        assert_eq!(redact_pointer(&pointer), "/config/[redacted]/port");
        assert!(matches!(redact_pointer("/rows/0/name"), Cow::Borrowed(_)));
    }

    #[test]
    fn pointers_inside_messages_are_checked_unescaped() {
        let key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        let pointer = format!("/o/{}", key.replace('/', "~1"));
        let text = format!(
            "alternative 1 at {pointer}: must be a string; the schema is invalid at {pointer}/type"
        );
        let out = redact_secrets(&text);
        assert!(!out.contains("wJalrXUtnFEMI"), "{out}");
        assert_eq!(out.matches("/o/[redacted]").count(), 2, "{out}");
        assert!(matches!(
            redact_secrets("at /a~1b/c ~ fine"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn escaped_dots_of_a_pattern_source_still_read_as_a_jwt() {
        // As a pattern source (one backslash) and quoted as JSON (two).
        for pattern in [
            r"^eyJhbGciOiJIUzI1NiJ9\.eyJzdWIiOiIxMjM0NTY3ODkwIn0\.dozjgNryP4J3jVmNHl0w5N$",
            r"^eyJhbGciOiJIUzI1NiJ9\\.eyJzdWIiOiIxMjM0NTY3ODkwIn0\\.dozjgNryP4J3jVmNHl0w5N$",
        ] {
            assert_eq!(redact_secrets(pattern), "^[redacted]$", "{pattern}");
        }
    }

    #[test]
    fn escaped_characters_of_a_pattern_source_do_not_hide_a_key() {
        for text in [
            r"must match the pattern ^wJalrXUtnFEMI\/K7MDENG\/bPxRfiCYEXAMPLEKEY$",
            r"must match the pattern ^WKOh3ZbUSm00QDJHvKrN6ycV1ogT\+a9Zx2Lp0QrS$",
            r"must match the pattern ^Bearer FXqRA\.\+/rD\+0gjLCbL/WQ4_Mu$",
        ] {
            let out = redact_secrets(text);
            assert!(out.ends_with("[redacted]$"), "{text} -> {out}");
        }
    }

    /// The compiled rule named `id`.
    fn rule(id: &str) -> &'static Pattern {
        let found = patterns().iter().find(|p| p.id == id);
        found.unwrap_or_else(|| panic!("no rule named {id}"))
    }

    /// `text` as a schema author writes it into a regular expression source.
    fn escape_regex(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if r"\^$.*+?()[]{}|/".contains(c) {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }

    /// `planted`, of the kind `id`, is redacted by that kind's own rule
    /// and by `redact_secrets` wherever text can quote it: as plain text,
    /// as a regular expression source and that source quoted as JSON, and
    /// as a JSON Pointer segment, alone or inside a message. `secret` is
    /// the part that must never survive.
    fn assert_kind(id: &str, planted: &str, secret: &str) {
        assert!(
            planted.contains(secret),
            "{id}: the secret is not part of {planted}"
        );
        let quoted = format!("The title says {planted} and more.");
        let lower = quoted.to_ascii_lowercase();
        let own = rule(id).apply(&quoted, &lower, &Pairs::of(&lower));
        let own = own.unwrap_or_else(|| panic!("{id}: its own rule left {planted} alone"));
        assert!(
            !own.contains(secret),
            "{id}: its own rule kept {secret}: {own}"
        );

        let source = escape_regex(planted);
        let pointer = planted.replace('~', "~0").replace('/', "~1");
        let texts = [
            format!("The title says {planted} and more."),
            planted.to_owned(),
            format!("must match the pattern ^{source}$"),
            format!(
                r#"{{"pattern":{}}}"#,
                serde_json::Value::from(format!("^{source}$"))
            ),
            format!("The value at /config/{pointer}/port must be an integer."),
        ];
        for text in &texts {
            let out = redact_secrets(text);
            assert!(
                out.contains(REDACTED),
                "{id}: not redacted in {text:?}: {out}"
            );
            for part in [secret, &escape_regex(secret)] {
                assert!(
                    !out.contains(part),
                    "{id}: {part} survived in {text:?}: {out}"
                );
            }
        }
        let path = format!("/config/{pointer}/port");
        assert_eq!(redact_pointer(&path), "/config/[redacted]/port", "{id}");
    }

    /// One test per kind of credential, and a check that every rule has one.
    macro_rules! kinds {
        ($($test:ident: $id:literal => [$($planted:literal => $secret:literal),+ $(,)?];)+) => {
            const TESTED: &[&str] = &[$($id),+];
            $(
                #[test]
                fn $test() {
                    $(assert_kind($id, $planted, $secret);)+
                }
            )+
        };
    }

    kinds! {
        private_key: "private-key" => [
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----" => "MIIEowIBAAKCAQEA",
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGXq8fK2mN4p\n-----END PGP PRIVATE KEY BLOCK-----" => "lQOYBGXq8fK2mN4p",
            // Cut short, as a shortened quotation leaves it.
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU" => "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
        ];
        jwt: "jwt" => [
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U" => "dozjgNryP4J3jVmNHl0w5N",
        ];
        authorization_header: "authorization-header" => [
            "Bearer abc.DEF-123_456~789+xyz/0" => "DEF-123_456",
            "Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==" => "dXNlcjpodW50ZXIy",
        ];
        sk_api_key: "sk-api-key" => [
            "sk-proj-Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ" => "Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ",
            "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345" => "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
        ];
        stripe_access_token: "stripe-access-token" => [
            "sk_live_51HqLyjWDarjtT1zdp7dcXzQ9" => "51HqLyjWDarjtT1zdp7dcXzQ9",
            "rk_prod_Zq8fK2mN4pR7" => "Zq8fK2mN4pR7",
        ];
        stripe_webhook_secret: "stripe-webhook-secret" => [
            "whsec_Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ" => "Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ",
        ];
        aws_access_token: "aws-access-token" => [
            "AKIAIOSFODNN7EXAMPLE" => "IOSFODNN7EXAMPLE",
            "A3TXZQ8FK2MN4PR7TV1X" => "ZQ8FK2MN4PR7TV1X",
        ];
        gcp_api_key: "gcp-api-key" => [
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY" => "SyD-9tSrke72PouQMnMX",
        ];
        github_token: "github-token" => [
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a" => "16C7e42F292c6912E7710c838347Ae178B4a",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab" => "11ABCDEFG0123456789_abcdefghij",
        ];
        slack_token: "slack-token" => [
            "xoxb-1234567890-0987654321-AbCdEfGhIjKl" => "0987654321-AbCdEfGhIjKl",
            "xoxe.xoxp-1-Mi0yLTEyMzQ1Njc4OTAtMTIzNDU2Nzg5MDEy" => "Mi0yLTEyMzQ1Njc4OTAtMTIzNDU2Nzg5MDEy",
            "xoxe-1-My0xLTEyMzQ1Njc4OTAtMTIzNDU2" => "My0xLTEyMzQ1Njc4OTAtMTIzNDU2",
        ];
        slack_app_token: "slack-app-token" => [
            "xapp-1-A0123456789-1234567890123-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b" => "1234567890123-0a1b2c3d4e5f",
        ];
        slack_webhook_url: "slack-webhook-url" => [
            "https://hooks.slack.com/services/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" => "T0123ABCD/B0456EFGH/Zq8fK2mN4pR7tV1xY3bC5dE9",
            "https://hooks.slack.com/workflows/T0123ABCD/A0456EFGH/123456789012345678/Zq8fK2mN4pR7tV1xY3bC5dE9" => "Zq8fK2mN4pR7tV1xY3bC5dE9",
        ];
        url_password: "url-password" => [
            "https://admin:hunter2hunter2@db.internal.example" => "hunter2hunter2",
            "redis://:Zq8fK2mN4pR7tV1x@cache.internal.example:6379" => "Zq8fK2mN4pR7tV1x",
        ];
        labelled_secret: "labelled-secret" => [
            "api_key=Q2xpZW50U2VjcmV0VmFsdWU" => "Q2xpZW50U2VjcmV0VmFsdWU",
            "password: correct-horse-battery" => "correct-horse-battery",
        ];
        aws_secret_access_key: "aws-secret-access-key" => [
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" => "bPxRfiCYEXAMPLEKEY",
            "WKOh3ZbUSm00QDJHvKrN6ycV1ogT+a9Zx2Lp0QrS" => "WKOh3ZbUSm00QDJHvKrN6ycV1ogT",
        ];
    }

    #[test]
    fn every_rule_compiles_and_has_a_test() {
        assert_eq!(
            patterns().len(),
            rules::RULES.len(),
            "a rule did not compile"
        );
        for rule in &rules::RULES {
            assert!(TESTED.contains(&rule.id), "{} has no test", rule.id);
        }
    }

    #[test]
    fn a_secret_access_key_in_a_ref_pointer_is_redacted() {
        let key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        let encoded = key.replace('/', "%2F");
        for text in [
            format!("the schema is invalid: Pointer '/$defs/{key}' does not exist"),
            format!("the schema is invalid: Pointer '/$defs/{key}/properties/a' does not exist"),
            format!("the schema is invalid: Pointer '/$defs/{encoded}' does not exist"),
            format!("Resource 'https://x.example/{key}' is not present in a registry"),
            format!("Resource 'https://x.example/{key}.json' is not present in a registry"),
            format!(
                r"must match the pattern ^#\/\$defs\/{}\/a$",
                escape_regex(key)
            ),
        ] {
            let out = redact_secrets(&text);
            assert!(!out.contains("bPxRfiCYEXAMPLEKEY"), "{text} -> {out}");
            assert!(!out.contains("wJalrXUtnFEMI"), "{text} -> {out}");
        }
    }

    #[test]
    fn paths_of_ordinary_names_are_not_taken_for_keys() {
        // Forty characters between slashes, mixed case and digits, but
        // words and indices: not random enough to be a key.
        for text in [
            "The value at /rows/12/lineItems/3/unitPrice/amountCts1 must be a number.",
            "The value at /observations/12/evidence/3/sourceDocumen/x must be a string.",
            "the schema is invalid at /properties/customerAddress/billingZip2/type",
            "a digest 0123456789abcdef0123456789abcdef01234567 and 0123456789ABCDEF0123456789ABCDEF01234567",
        ] {
            assert!(
                matches!(redact_secrets(text), Cow::Borrowed(_)),
                "{text} was changed to {}",
                redact_secrets(text)
            );
        }
    }

    #[test]
    fn keywords_are_lower_case_and_found_whatever_the_case_of_the_text() {
        for rule in &rules::RULES {
            for keyword in rule.keywords {
                assert_eq!(*keyword, keyword.to_ascii_lowercase(), "{}", rule.id);
            }
        }
        assert_eq!(
            redact_secrets("XAPP-1-A0123-1234567890123-ABCDEF0123"),
            REDACTED
        );
        assert_eq!(
            redact_secrets("a BEARER abcdefghijklmnop"),
            "a BEARER [redacted]"
        );
        let pairs = |text: &str| Pairs::of(text);
        assert!(!mentions("nothing here", &pairs("nothing here"), &["xapp", "whsec_"]));
        assert!(mentions("anything", &pairs("anything"), &[]));
        assert!(mentions("say xapp", &pairs("say xapp"), &["xapp", "whsec_"]));
    }

    #[test]
    fn several_credentials_in_one_text() {
        let text = format!("{} then {} then {}", PLANTED[0], PLANTED[3], PLANTED[4]);
        let out = redact_secrets(&text);
        assert_eq!(out.matches(REDACTED).count(), 3, "{out}");
    }
}
