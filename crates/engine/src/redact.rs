//! Redaction of things that look like credentials.
//!
//! Messages, thrown errors and repair feedback travel into logs and back
//! into prompts. Everything they quote comes from a schema, a rule or an
//! instance path, never from an instance value — but a path segment is an
//! object key the model wrote, and a schema's title or enum may hold a key
//! someone pasted there. Whatever is quoted passes through here first.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

/// What a redacted credential becomes.
pub const REDACTED: &str = "[redacted]";

struct Pattern {
    regex: Regex,
    /// Replacement text; `$label` keeps a label such as `api_key=`.
    replacement: &'static str,
}

fn patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let sources: [(&str, &str); 12] = [
            // PEM private key blocks, whole.
            (
                r"(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?-----END [A-Z0-9 ]*PRIVATE KEY-----",
                REDACTED,
            ),
            // JSON Web Tokens: header.payload.signature, header and payload
            // being base64url JSON objects.
            // (A `\.` as a regular expression source writes it counts too.)
            (
                r"eyJ[A-Za-z0-9_\-]{4,}\\{0,2}\.eyJ[A-Za-z0-9_\-]{4,}\\{0,2}\.[A-Za-z0-9_\-]*",
                REDACTED,
            ),
            // Authorization header values.
            (
                r"(?i)(?P<label>\b(?:bearer|basic|token)\s+)(?:\\{0,2}[A-Za-z0-9._~+/\-]){8,}=*",
                "${label}[redacted]",
            ),
            // OpenAI, Anthropic and other `sk-` keys.
            (r"\bsk-[A-Za-z0-9_\-]{16,}", REDACTED),
            // Stripe secret, restricted and publishable keys.
            (r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", REDACTED),
            // AWS access key ids.
            (
                r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b",
                REDACTED,
            ),
            // Google API keys.
            (r"\bAIza[0-9A-Za-z_\-]{35}", REDACTED),
            // GitHub tokens.
            (
                r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
                REDACTED,
            ),
            // Slack tokens.
            (r"\bxox[abprs]-[A-Za-z0-9\-]{10,}", REDACTED),
            // Credentials inside URLs: scheme://user:password@host.
            (r"(?P<label>://)[^/\s:@]+:[^/\s@]+@", "${label}[redacted]@"),
            // A value given under a label that says it is secret.
            (
                r#"(?i)(?P<label>\b(?:api[_\-]?key|apikey|secret(?:[_\-]?access)?[_\-]?key|client[_\-]?secret|secret|password|passwd|pwd|access[_\-]?token|refresh[_\-]?token|auth[_\-]?token|private[_\-]?key)["']?\s*[:=]\s*["']?)[^\s"',;}]{6,}"#,
                "${label}[redacted]",
            ),
            // Forty-character base64 secrets (AWS secret access keys and
            // the like); `looks_random` below keeps ordinary words out.
            // Backslashes are skipped: a key written into a regular
            // expression source escapes its `+` and `/`.
            (r"(?:^|[^A-Za-z0-9/+=\\])(?P<key>(?:\\{0,2}[A-Za-z0-9/+]){40})(?:$|[^A-Za-z0-9/+=\\])", ""),
        ];
        sources
            .into_iter()
            .filter_map(|(source, replacement)| {
                Regex::new(source)
                    .ok()
                    .map(|regex| Pattern { regex, replacement })
            })
            .collect()
    })
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
    for pattern in patterns() {
        if !pattern.regex.is_match(&out) {
            continue;
        }
        let replaced = if pattern.replacement.is_empty() {
            match redact_random_keys(&pattern.regex, &out) {
                Some(changed) => changed,
                None => continue,
            }
        } else {
            pattern
                .regex
                .replace_all(&out, pattern.replacement)
                .into_owned()
        };
        out = Cow::Owned(replaced);
    }
    out
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

fn looks_random(token: &str) -> bool {
    let upper = token.bytes().any(|b| b.is_ascii_uppercase());
    let lower = token.bytes().any(|b| b.is_ascii_lowercase());
    let digit = token.bytes().any(|b| b.is_ascii_digit());
    upper && lower && digit
}

/// Test data shared with the main crate's tests, which reach it through
/// the `test-support` feature.
#[cfg(any(test, feature = "test-support"))]
pub mod planted {
    /// Credentials of every kind redacted here, as they appear in the wild
    /// (made up, with the real shapes).
    pub const PLANTED: [&str; 14] = [
        "sk-proj-Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ",
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
        "sk_live_51HqLyjWDarjtT1zdp7dcXzQ9",
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "xoxb-1234567890-0987654321-AbCdEfGhIjKl",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "Bearer abc.DEF-123_456~789+xyz/0",
        "https://admin:hunter2hunter2@db.internal.example",
        "api_key=Q2xpZW50U2VjcmV0VmFsdWU",
        "password: correct-horse-battery",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    ];
}

#[cfg(test)]
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
        let text = format!("alternative 1 at {pointer}: must be a string; the schema is invalid at {pointer}/type");
        let out = redact_secrets(&text);
        assert!(!out.contains("wJalrXUtnFEMI"), "{out}");
        assert_eq!(out.matches("/o/[redacted]").count(), 2, "{out}");
        assert!(matches!(redact_secrets("at /a~1b/c ~ fine"), Cow::Borrowed(_)));
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

    #[test]
    fn several_credentials_in_one_text() {
        let text = format!("{} then {} then {}", PLANTED[0], PLANTED[3], PLANTED[4]);
        let out = redact_secrets(&text);
        assert_eq!(out.matches(REDACTED).count(), 3, "{out}");
    }
}
