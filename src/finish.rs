//! Whether a model response stopped at a token limit.
//!
//! A response cut at the limit can still parse (the cut may land just after a
//! closing brace), so the guard trusts the provider's own finish signal rather
//! than guessing from the text. Every provider spells that signal differently
//! and puts it somewhere else; this module knows where to look, and in which
//! order when a response has several of the places. Each provider's module
//! (`src/providers/<provider>.rs`) shows its place in `truncated_examples`,
//! which `src/providers/tests.rs` reads here, and its words for a token
//! limit in `token_limit_reasons`.

use serde_json::Value;

use crate::json_view::JsonRef;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncation {
    pub truncated: bool,
    pub finish_reason: Option<String>,
}

/// True when the reason means "stopped at a token limit" (case-insensitive,
/// trimmed): one of the providers' words, each kept in its provider's
/// module (`src/providers/<provider>.rs`, its `token_limit_reasons`).
/// Compared case-insensitively because Gemini and Cohere say MAX_TOKENS
/// while Anthropic and Bedrock say max_tokens.
pub fn is_token_limit(reason: &str) -> bool {
    crate::providers::is_token_limit(reason)
}

/// The finish reason a source carries, exactly as read (not lower-cased).
///
/// A string is the reason itself; an array is an executor's timing segments;
/// an object is a provider response, a `{ content, finishReason }` pair or an
/// executor trace. Anything unreadable yields `None`.
pub fn finish_reason_of<'a>(source: impl Into<JsonRef<'a>>) -> Option<String> {
    reason_of(source.into())
}

fn reason_of(source: JsonRef<'_>) -> Option<String> {
    if let Some(reason) = source.string() {
        non_blank(&reason)
    } else if source.is_array() {
        last_model_segment_reason(source)
    } else if source.is_object() {
        object_reason(source)
    } else {
        None
    }
}

/// Reads the finish reason of `source` and decides whether it is a token limit.
pub fn detect_truncation(source: &Value) -> Truncation {
    let finish_reason = finish_reason_of(source);
    let truncated = finish_reason.as_deref().is_some_and(is_token_limit);
    Truncation {
        truncated,
        finish_reason,
    }
}

fn object_reason<'a>(object: JsonRef<'a>) -> Option<String> {
    // An executor records one segment per model call, and the response it hands
    // back may still carry the keys of an earlier call; the last model segment
    // is the call whose output is being judged, so it outranks everything else.
    let segments = object
        .at_path(&["timing", "timeSegments"])
        .or_else(|| object.member("timeSegments"))
        .filter(|segments| segments.is_array());
    if let Some(reason) = segments.and_then(|segments| last_model_segment_reason(segments)) {
        return Some(reason);
    }

    // Most specific locations first: `choices` and `candidates` only exist in
    // their own provider's shape, while `status` is a word many objects use.
    let choice = object.member("choices").and_then(|choices| choices.item(0));
    let candidate = object
        .member("candidates")
        .and_then(|candidates| candidates.item(0));
    string_at(choice, "finish_reason")
        // OpenRouter leaves finish_reason null for some upstreams and keeps
        // only the upstream's own word.
        .or_else(|| string_at(choice, "native_finish_reason"))
        .or_else(|| string_at(candidate, "finishReason"))
        .or_else(|| string_at(Some(object), "stop_reason"))
        .or_else(|| string_at(Some(object), "stopReason"))
        .or_else(|| string_at(Some(object), "finish_reason"))
        .or_else(|| string_at(Some(object), "native_finish_reason"))
        .or_else(|| string_at(Some(object), "done_reason"))
        .or_else(|| sdk_reason(object.member("finishReason")))
        .or_else(|| responses_reason(object))
}

fn last_model_segment_reason<'a>(segments: JsonRef<'a>) -> Option<String> {
    // Tool segments after the last model call say nothing about how that
    // call's output ended; an earlier model call's reason is stale.
    let last_model = segments
        .items()?
        .filter(|segment| {
            segment.member("type").and_then(JsonRef::string).as_deref() == Some("model")
        })
        .last()?;
    sdk_reason(last_model.member("finishReason"))
}

/// The Vercel AI SDK reports either a plain string or `{ unified, raw }`, where
/// `unified` is the SDK's normalised word and `raw` the provider's.
fn sdk_reason<'a>(value: Option<JsonRef<'a>>) -> Option<String> {
    let value = value?;
    if let Some(reason) = value.string() {
        non_blank(&reason)
    } else if value.is_object() {
        string_at(Some(value), "unified").or_else(|| string_at(Some(value), "raw"))
    } else {
        None
    }
}

fn responses_reason<'a>(object: JsonRef<'a>) -> Option<String> {
    let status = object.member("status")?.string()?;
    // "incomplete" alone does not say why: a token limit and a content filter
    // both end that way, and only the latter is not a truncation.
    if status.trim().eq_ignore_ascii_case("incomplete") {
        if let Some(reason) = string_at(object.member("incomplete_details"), "reason") {
            return Some(reason);
        }
    }
    non_blank(&status)
}

fn string_at<'a>(object: Option<JsonRef<'a>>, key: &str) -> Option<String> {
    object?
        .member(key)?
        .string()
        .and_then(|reason| non_blank(&reason))
}

// Streaming chunks and some compatible servers send "" where they mean "no
// reason yet"; echoing it would claim a reason that was never given.
fn non_blank(reason: &str) -> Option<String> {
    if reason.trim().is_empty() {
        None
    } else {
        Some(reason.to_owned())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests;
