//! The credential kinds that are redacted, as data.
//!
//! Where gitleaks has a rule for a kind, the rule here follows it and names
//! its `id` (gitleaks v8.30.1, `config/gitleaks.toml`; MIT licence,
//! Copyright (c) 2019 Zachary Rice, see `LICENSE-gitleaks` beside this
//! file): the same prefixes, alphabets and keywords, so that a new gitleaks
//! release can be compared rule by rule. They are converted to the `regex`
//! crate's syntax and to where this crate meets credentials:
//! - Text quoted from a regular expression source escapes `/`, `.` and `+`
//!   (`\/`, `\.`), and JSON quoting doubles each backslash, so `\\{0,2}` may
//!   stand before such a character.
//! - gitleaks' capture groups and trailing context, which report a finding
//!   exactly, are left out: here the whole match is replaced.
//! - Where the rule used here before was broader (a wider alphabet, a lower
//!   minimum length, more prefixes), the broader form stays, and gitleaks'
//!   allowlists (`…EXAMPLE` keys) and entropy thresholds are not applied: a
//!   redactor errs on the side of redacting.
//!
//! Kinds gitleaks has no rule for say so. Order matters: a rule sees the
//! text as the rules before it left it.

/// One kind of credential.
pub(super) struct Rule {
    /// The kind's name in tests: the gitleaks rule id it follows, or a
    /// name of this crate's own (left out of the build, which never reads it).
    #[cfg(test)]
    pub id: &'static str,
    /// Every match contains one of these (compared ignoring ASCII case);
    /// the regular expression only runs on text that does. Empty: always.
    pub keywords: &'static [&'static str],
    pub regex: &'static str,
    /// Replacement text; `${label}` keeps a label such as `api_key=`.
    /// Empty: the match is a `key` group replaced only where it looks
    /// random (see `redact_random_keys`).
    pub replacement: &'static str,
}

const R: &str = super::REDACTED;

pub(super) const RULES: [Rule; 15] = [
    Rule {
        // gitleaks: private-key (without its minimum of 64 characters, and
        // a block cut short is redacted to where its base64 ends).
        #[cfg(test)]
        id: "private-key",
        keywords: &["-----begin"],
        regex: r"(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?s:.*?KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\r\n\\]*)",
        replacement: R,
    },
    Rule {
        // gitleaks: jwt (header and payload of 4 characters or more, not 17).
        #[cfg(test)]
        id: "jwt",
        keywords: &["eyj"],
        regex: r"eyJ[A-Za-z0-9_\-]{4,}\\{0,2}\.ey[A-Za-z0-9_\-/\\]{4,}\\{0,2}\.[A-Za-z0-9_\-/\\]*={0,2}",
        replacement: R,
    },
    Rule {
        // Not in gitleaks outside a curl command line: Authorization
        // header values.
        #[cfg(test)]
        id: "authorization-header",
        keywords: &["bearer", "basic", "token"],
        regex: r"(?i)(?P<label>\b(?:bearer|basic|token)\s+)(?:\\{0,2}[A-Za-z0-9._~+/\-]){8,}=*",
        replacement: "${label}[redacted]",
    },
    Rule {
        // gitleaks: openai-api-key, anthropic-api-key,
        // anthropic-admin-api-key — all `sk-` keys, whatever follows.
        #[cfg(test)]
        id: "sk-api-key",
        keywords: &["sk-"],
        regex: r"\bsk-[A-Za-z0-9_\-]{16,}",
        replacement: R,
    },
    Rule {
        // gitleaks: stripe-access-token (also publishable `pk_` keys).
        #[cfg(test)]
        id: "stripe-access-token",
        keywords: &["_live_", "_test_", "_prod_"],
        regex: r"\b(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,}",
        replacement: R,
    },
    Rule {
        // Not in gitleaks: Stripe's webhook signing secrets.
        #[cfg(test)]
        id: "stripe-webhook-secret",
        keywords: &["whsec_"],
        regex: r"\bwhsec_[A-Za-z0-9+/=]{16,}",
        replacement: R,
    },
    Rule {
        // gitleaks: aws-access-token (with the other unique-id prefixes).
        #[cfg(test)]
        id: "aws-access-token",
        keywords: &[
            "a3t", "akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "abia", "acca",
        ],
        regex: r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b",
        replacement: R,
    },
    Rule {
        // gitleaks: gcp-api-key.
        #[cfg(test)]
        id: "gcp-api-key",
        keywords: &["aiza"],
        regex: r"\bAIza[0-9A-Za-z_\-]{35}",
        replacement: R,
    },
    Rule {
        // gitleaks: github-pat, github-oauth, github-app-token,
        // github-refresh-token, github-fine-grained-pat.
        #[cfg(test)]
        id: "github-token",
        keywords: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        regex: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        replacement: R,
    },
    Rule {
        // gitleaks: slack-bot-token, slack-user-token, slack-legacy-token,
        // slack-legacy-bot-token, slack-legacy-workspace-token,
        // slack-config-access-token, slack-config-refresh-token.
        #[cfg(test)]
        id: "slack-token",
        keywords: &["xox"],
        regex: r"\bxox[abeoprs](?:\.xox[bp])?-[A-Za-z0-9\-]{10,}",
        replacement: R,
    },
    Rule {
        // gitleaks: slack-app-token.
        #[cfg(test)]
        id: "slack-app-token",
        keywords: &["xapp"],
        regex: r"(?i)xapp-\d-[A-Z0-9]+-\d+-[A-Z0-9]+",
        replacement: R,
    },
    Rule {
        // gitleaks: slack-webhook-url (the whole path after the kind of
        // hook, however long; the host is kept).
        #[cfg(test)]
        id: "slack-webhook-url",
        keywords: &["hooks"],
        regex: r"(?P<label>(?:https?:(?:\\{0,2}/){2})?hooks\\{0,2}\.slack\\{0,2}\.com\\{0,2}/(?:services|workflows|triggers)\\{0,2}/)(?:\\{0,2}[A-Za-z0-9+/]){43,}",
        replacement: "${label}[redacted]",
    },
    Rule {
        // Not in gitleaks: a password inside a URL, with a user name or
        // none (`redis://:password@host`); the scheme and host are kept.
        #[cfg(test)]
        id: "url-password",
        keywords: &["@"],
        regex: r"(?P<label>:(?:\\{0,2}/){2})[^/\s:@]*:[^/\s@]+@",
        replacement: "${label}[redacted]@",
    },
    Rule {
        // Not in gitleaks as such (its generic-api-key needs an entropy
        // check): a value under a label that says it is secret.
        #[cfg(test)]
        id: "labelled-secret",
        keywords: &["key", "secret", "pass", "pwd", "token"],
        regex: r#"(?i)(?P<label>\b(?:api[_\-]?key|apikey|secret(?:[_\-]?access)?[_\-]?key|client[_\-]?secret|secret|password|passwd|pwd|access[_\-]?token|refresh[_\-]?token|auth[_\-]?token|private[_\-]?key)["']?\s*[:=]\s*["']?)[^\s"',;}]{6,}"#,
        replacement: "${label}[redacted]",
    },
    Rule {
        // Not in gitleaks (no key prefix to find): forty-character base64
        // secrets, AWS secret access keys and the like, replaced where they
        // look random. A key may stand between slashes (a `$ref` pointer
        // or a URL path naming it), have its `+` and `/` escaped by a
        // regular expression source, or percent-encoded by a URI.
        #[cfg(test)]
        id: "aws-secret-access-key",
        keywords: &[],
        regex: r"(?:^|[^A-Za-z0-9+=\\%])(?P<key>(?:\\{0,2}[A-Za-z0-9/+]|%2[BbFf]){40})(?:$|[^A-Za-z0-9+=\\%]|\\{1,2}/)",
        replacement: "",
    },
];
