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
    let own = rule(id).apply(&quoted, &quoted.to_ascii_lowercase());
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
fn the_rule_without_keywords_needs_a_run_of_key_characters() {
    // `may_hold_secret` stands for the keyword-free rules by a run of
    // `KEY_RUN` key characters: that rule, and no other, has none.
    let free: Vec<&str> = rules::RULES
        .iter()
        .filter(|rule| rule.keywords.is_empty())
        .map(|rule| rule.id)
        .collect();
    assert_eq!(free, ["aws-secret-access-key"]);
    let rule = rules::RULES
        .iter()
        .find(|rule| rule.keywords.is_empty())
        .map(|rule| rule.regex)
        .unwrap_or_default();
    assert!(
        rule.contains(&format!(
            "(?:\\\\{{0,2}}[A-Za-z0-9/+]|%2[BbFf]){{{KEY_RUN}}}"
        )),
        "{rule}"
    );
    let key = "WKOh3ZbUSm00QDJHvKrN6ycV1ogT+a9Zx2Lp0QrS";
    assert!(may_hold_secret(key));
    assert!(!may_hold_secret(key.get(1..).unwrap_or_default()));
}

/// Text made of pieces that come near a rule: keywords in changed
/// case, planted credentials and their parts, key characters, pointer
/// escapes, separators and ordinary words.
fn seeded_texts(count: usize) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    for rule in &rules::RULES {
        for keyword in rule.keywords {
            pieces.push((*keyword).to_owned());
            pieces.push(keyword.to_ascii_uppercase());
        }
    }
    for planted in PLANTED {
        pieces.push(planted.to_owned());
        pieces.push(
            planted
                .get(..planted.len() / 2)
                .unwrap_or_default()
                .to_owned(),
        );
        pieces.push(
            planted
                .get(planted.len() / 3..)
                .unwrap_or_default()
                .to_owned(),
        );
    }
    for piece in [
        "/",
        "~1",
        "~0",
        "~",
        " ",
        "=",
        ": ",
        "\"",
        "\\",
        "%2F",
        "+",
        "a",
        "Zq8fK2mN4pR7",
        "0123456789",
        "The value at ",
        "must be one of",
    ] {
        pieces.push(piece.to_owned());
    }
    let mut state: u32 = 0x2545_f491;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as usize
    };
    (0..count)
        .map(|_| {
            let len = 1 + next() % 8;
            (0..len)
                .map(|_| pieces.get(next() % pieces.len()).map_or("", String::as_str))
                .collect()
        })
        .collect()
}

#[test]
fn looking_first_changes_no_redaction() {
    for text in seeded_texts(20_000) {
        assert_eq!(redact_plain(&text), redact_every_rule(&text), "{text}");
        let pointer = format!("/a/{}/b", text.replace('~', "~0").replace('/', "~1"));
        let slow = if pointer.split('/').any(|segment| {
            let plain = segment.replace("~1", "/").replace("~0", "~");
            !matches!(redact_every_rule(&plain), Cow::Borrowed(_))
        }) {
            "changed"
        } else {
            "kept"
        };
        let fast = if matches!(redact_pointer(&pointer), Cow::Borrowed(_)) {
            "kept"
        } else {
            "changed"
        };
        assert_eq!(fast, slow, "{pointer}");
        let plain_pointer = format!("/a/{text}");
        if !plain_pointer.contains('~') && !may_hold_secret(&plain_pointer) {
            assert!(
                plain_pointer
                    .split('/')
                    .all(|segment| matches!(redact_every_rule(segment), Cow::Borrowed(_))),
                "{plain_pointer}"
            );
        }
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
    assert!(!mentions("nothing here", &["xapp", "whsec_"]));
    assert!(mentions("anything", &[]));
}

#[test]
fn several_credentials_in_one_text() {
    let text = format!("{} then {} then {}", PLANTED[0], PLANTED[3], PLANTED[4]);
    let out = redact_secrets(&text);
    assert_eq!(out.matches(REDACTED).count(), 3, "{out}");
}
