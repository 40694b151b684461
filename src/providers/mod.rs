//! What each provider and SDK is, as the guard reads it: one module per
//! provider (`openai_chat.rs`, `anthropic.rs`, ...) holds that provider's
//! facts as data, and the shared tables the readers walk are built from
//! [`PROVIDERS`], in its order.
//!
//! A provider's module gives a [`Provider`]: the members of its responses
//! the output plan reads (and the plan nodes of its own shapes), where its
//! finish reason is and which of its words mean "stopped at a token limit",
//! the tables of usage keys it reports, its stream events, where its
//! requests declare tools and keep their schema. The machinery that walks
//! those facts lives in the modules named for it:
//! - [`read`]: the read plans, the tree of members the JavaScript reader
//!   copies of a live response (the root lists every provider's
//!   `response_members`, in the order the answer is looked for);
//! - [`stream_events`]: the stream-event table ([`stream_events::READERS`],
//!   every provider's `stream_readers` in turn);
//! - [`tools`]: where a request declares tools ([`tools::TOOL_PATHS`]);
//! - [`declarations`]: where a request keeps its tool declarations
//!   ([`declarations::DECLARATION_PATHS`]) and how one is read;
//! - [`request_schema`]: where a request keeps its schema
//!   ([`request_schema::SCHEMA_SOURCES`]);
//! - `crate::finish`: reads the finish reason, and asks [`is_token_limit`];
//! - `hot_path::usage`: normalises usage. It lives in the hot-path crate,
//!   which is built for speed, so the usage-key tables are defined there
//!   (`hot_path::usage::keys`, one table per provider shape) and each
//!   provider names its tables in `usage_keys`; a test here holds that
//!   every table there is some provider's.
//!
//! Adding a provider is adding its module and one line in [`PROVIDERS`]
//! (and, when its response keeps the answer or the finish reason in a root
//! member no other provider uses, that member in `read::OUTPUT_PLAN` and in
//! `crate::finish`, where the order of precedence is decided).

pub mod declarations;
pub mod read;
pub mod request_schema;
pub mod stream_events;
pub mod tools;

pub mod ai_sdk;
pub mod anthropic;
pub mod bedrock;
pub mod cohere;
pub mod executor_trace;
pub mod gemini;
pub mod mistral;
pub mod ollama;
pub mod openai_chat;
pub mod openai_responses;

use request_schema::SchemaSource;
use stream_events::Reader;
use tools::ToolPath;

/// One provider's or SDK's facts; see the module documentation.
#[derive(Debug)]
pub struct Provider {
    /// How tests and people name it.
    pub name: &'static str,
    /// The root members of its responses that the output plan reads
    /// (`read::OUTPUT_PLAN`): its answer, finish reason and tool calls.
    pub response_members: &'static [&'static str],
    /// Responses of its own shape that stopped at a token limit, as JSON
    /// text: where its finish reason is, as `crate::finish` reads it.
    pub truncated_examples: &'static [&'static str],
    /// Its finish reasons that mean "stopped at a token limit" (compared
    /// trimmed and case-insensitively).
    pub token_limit_reasons: &'static [&'static str],
    /// The tables of `hot_path::usage::keys` its usage reports are
    /// recognised by.
    pub usage_keys: &'static [&'static [&'static str]],
    /// Its stream events' readers, in the order they are tried.
    pub stream_readers: &'static [Reader],
    /// Where its requests declare tools.
    pub tool_paths: &'static [ToolPath],
    /// Where its requests keep tool declarations, in the order read.
    pub declaration_paths: &'static [&'static [&'static str]],
    /// Where its requests keep the schema of the answer, in the order tried.
    pub schema_sources: &'static [SchemaSource],
}

/// A provider with a name and no facts yet.
pub const fn provider(name: &'static str) -> Provider {
    Provider {
        name,
        response_members: &[],
        truncated_examples: &[],
        token_limit_reasons: &[],
        usage_keys: &[],
        stream_readers: &[],
        tool_paths: &[],
        declaration_paths: &[],
        schema_sources: &[],
    }
}

/// Every provider and SDK shape the guard reads. The order is the order in
/// which the shared tables list them: stream readers are tried in it, and a
/// place shared by several providers is listed where the first names it.
pub const PROVIDERS: [&Provider; 10] = [
    &openai_chat::PROVIDER,
    &openai_responses::PROVIDER,
    &anthropic::PROVIDER,
    &gemini::PROVIDER,
    &ai_sdk::PROVIDER,
    &bedrock::PROVIDER,
    &cohere::PROVIDER,
    &mistral::PROVIDER,
    &ollama::PROVIDER,
    &executor_trace::PROVIDER,
];

/// Every provider's words for a token limit, each once (ignoring case).
pub const TOKEN_LIMIT_REASONS: [&str; token_limit_count()] = token_limit_reasons();

/// True when the reason means "stopped at a token limit" for some
/// provider (case-insensitive, trimmed): one of [`TOKEN_LIMIT_REASONS`]
/// (length, max_tokens, max_output_tokens, model_context_window_exceeded,
/// model_length; MAX_TOKENS too).
pub fn is_token_limit(reason: &str) -> bool {
    let reason = reason.trim();
    TOKEN_LIMIT_REASONS
        .iter()
        .any(|known| known.eq_ignore_ascii_case(reason))
}

// The shared tables are built at compile time by the functions below, over
// [`PROVIDERS`]. They index arrays, which in a constant is checked by the
// compiler: an index out of range fails the build, never a run.

/// How many stream readers the providers have.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn stream_reader_count() -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        count += PROVIDERS[i].stream_readers.len();
        i += 1;
    }
    count
}

/// Every provider's stream readers, in the order of [`PROVIDERS`].
#[allow(clippy::indexing_slicing)]
pub(crate) const fn stream_readers() -> [Reader; stream_reader_count()] {
    let mut out = [stream_events::reader("", &[]); stream_reader_count()];
    let mut at = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let readers = PROVIDERS[i].stream_readers;
        let mut j = 0;
        while j < readers.len() {
            out[at] = readers[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

#[allow(clippy::indexing_slicing)]
const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether two words are the same but for ASCII case.
#[allow(clippy::indexing_slicing)]
const fn same_word(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !a[i].eq_ignore_ascii_case(&b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether provider `i`'s token-limit word `j` is named before it.
#[allow(clippy::indexing_slicing)]
const fn token_limit_named_before(i: usize, j: usize) -> bool {
    let word = PROVIDERS[i].token_limit_reasons[j];
    let mut p = 0;
    while p <= i {
        let words = PROVIDERS[p].token_limit_reasons;
        let end = if p == i { j } else { words.len() };
        let mut q = 0;
        while q < end {
            if same_word(words[q], word) {
                return true;
            }
            q += 1;
        }
        p += 1;
    }
    false
}

/// How many words for a token limit the providers have, each counted once.
#[allow(clippy::indexing_slicing)]
const fn token_limit_count() -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let mut j = 0;
        while j < PROVIDERS[i].token_limit_reasons.len() {
            if !token_limit_named_before(i, j) {
                count += 1;
            }
            j += 1;
        }
        i += 1;
    }
    count
}

/// Every provider's words for a token limit, each once, as the first
/// provider that names it spells it.
#[allow(clippy::indexing_slicing)]
const fn token_limit_reasons() -> [&'static str; token_limit_count()] {
    let mut out = [""; token_limit_count()];
    let mut at = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let mut j = 0;
        while j < PROVIDERS[i].token_limit_reasons.len() {
            if !token_limit_named_before(i, j) {
                out[at] = PROVIDERS[i].token_limit_reasons[j];
                at += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

#[allow(clippy::indexing_slicing)]
const fn same_path(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !same_str(a[i], b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether provider `i`'s tool path `j` is named by an earlier provider
/// (or earlier in its own list).
#[allow(clippy::indexing_slicing)]
const fn tool_path_named_before(i: usize, j: usize) -> bool {
    let path = PROVIDERS[i].tool_paths[j];
    let mut p = 0;
    while p <= i {
        let paths = PROVIDERS[p].tool_paths;
        let end = if p == i { j } else { paths.len() };
        let mut q = 0;
        while q < end {
            if same_path(paths[q].path, path.path) {
                return true;
            }
            q += 1;
        }
        p += 1;
    }
    false
}

/// How many places the providers declare tools at, each counted once.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn tool_path_count() -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let mut j = 0;
        while j < PROVIDERS[i].tool_paths.len() {
            if !tool_path_named_before(i, j) {
                count += 1;
            }
            j += 1;
        }
        i += 1;
    }
    count
}

/// Every place the providers declare tools at, each once, where the first
/// provider that names it lists it.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn tool_paths() -> [ToolPath; tool_path_count()] {
    let mut out = [tools::at(&[], tools::Leaf::Collection); tool_path_count()];
    let mut at = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let mut j = 0;
        while j < PROVIDERS[i].tool_paths.len() {
            if !tool_path_named_before(i, j) {
                out[at] = PROVIDERS[i].tool_paths[j];
                at += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// Whether provider `i`'s declaration path `j` is named before it.
#[allow(clippy::indexing_slicing)]
const fn declaration_path_named_before(i: usize, j: usize) -> bool {
    let path = PROVIDERS[i].declaration_paths[j];
    let mut p = 0;
    while p <= i {
        let paths = PROVIDERS[p].declaration_paths;
        let end = if p == i { j } else { paths.len() };
        let mut q = 0;
        while q < end {
            if same_path(paths[q], path) {
                return true;
            }
            q += 1;
        }
        p += 1;
    }
    false
}

/// How many places the providers keep tool declarations at, each once.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn declaration_path_count() -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let mut j = 0;
        while j < PROVIDERS[i].declaration_paths.len() {
            if !declaration_path_named_before(i, j) {
                count += 1;
            }
            j += 1;
        }
        i += 1;
    }
    count
}

/// Every place the providers keep tool declarations at, each once, where
/// the first provider that names it lists it.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn declaration_paths() -> [&'static [&'static str]; declaration_path_count()] {
    let mut out: [&'static [&'static str]; declaration_path_count()] =
        [&[]; declaration_path_count()];
    let mut at = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        let mut j = 0;
        while j < PROVIDERS[i].declaration_paths.len() {
            if !declaration_path_named_before(i, j) {
                out[at] = PROVIDERS[i].declaration_paths[j];
                at += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// How many places the providers keep a request's schema at.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn schema_source_count() -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < PROVIDERS.len() {
        count += PROVIDERS[i].schema_sources.len();
        i += 1;
    }
    count
}

/// Every place the providers keep a request's schema at, in the order they
/// are tried: every forced tool first (its call, not the text, carries the
/// output), then every response format, each in the order of [`PROVIDERS`].
#[allow(clippy::indexing_slicing)]
pub(crate) const fn schema_sources() -> [SchemaSource; schema_source_count()] {
    let mut out = [request_schema::member("", &[], None, hot_path::schema::Dialect::JsonSchema);
        schema_source_count()];
    let mut at = 0;
    let mut forced_pass = 0;
    while forced_pass < 2 {
        let want_forced = forced_pass == 0;
        let mut i = 0;
        while i < PROVIDERS.len() {
            let sources = PROVIDERS[i].schema_sources;
            let mut j = 0;
            while j < sources.len() {
                if sources[j].forced.is_some() == want_forced {
                    out[at] = sources[j];
                    at += 1;
                }
                j += 1;
            }
            i += 1;
        }
        forced_pass += 1;
    }
    out
}

#[cfg(test)]
mod tests;
