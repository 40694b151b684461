//! The usage keys each provider's usage reports are recognised by, one
//! table per shape: the data `normalize_usage` dispatches on, in the order
//! it tries them. They live here, beside the normaliser, because usage is
//! read on every attempt and this crate is built for speed; each
//! provider's module in the main crate (`src/providers/<provider>.rs`)
//! names the tables of its shape in its `usage_keys`, and a test there
//! holds that every table in [`ALL`] is some provider's.

/// Gemini's `usageMetadata`.
pub const GEMINI_KEYS: [&str; 5] = [
    "promptTokenCount",
    "candidatesTokenCount",
    "totalTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
];
/// OpenAI Chat's usage (and the compatible APIs': Mistral, OpenRouter).
pub const OPENAI_CHAT_KEYS: [&str; 4] = [
    "prompt_tokens",
    "completion_tokens",
    "prompt_tokens_details",
    "completion_tokens_details",
];
/// OpenAI Responses' usage, and Anthropic's without cache members.
pub const SNAKE_KEYS: [&str; 7] = [
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "input_tokens_details",
    "output_tokens_details",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
];
/// Anthropic's cache members, whose `input_tokens` leaves the cache out.
pub const ANTHROPIC_CACHE_KEYS: [&str; 2] =
    ["cache_read_input_tokens", "cache_creation_input_tokens"];
/// The Vercel AI SDK's usage before v5.
pub const AI_SDK_V4_KEYS: [&str; 2] = ["promptTokens", "completionTokens"];
/// Bedrock Converse's usage and the Vercel AI SDK's since v5.
pub const CAMEL_KEYS: [&str; 9] = [
    "inputTokens",
    "outputTokens",
    "totalTokens",
    "cacheReadInputTokens",
    "cacheWriteInputTokens",
    "cachedInputTokens",
    "reasoningTokens",
    "inputTokenDetails",
    "outputTokenDetails",
];
/// Ollama's native counts, top-level members of its response.
pub const OLLAMA_KEYS: [&str; 2] = ["prompt_eval_count", "eval_count"];

/// Every table above. (Cohere v2's usage is recognised by its shape, a
/// `tokens` member beside `billed_units`, not by a table of keys.)
pub const ALL: [&[&str]; 7] = [
    &GEMINI_KEYS,
    &OPENAI_CHAT_KEYS,
    &SNAKE_KEYS,
    &ANTHROPIC_CACHE_KEYS,
    &AI_SDK_V4_KEYS,
    &CAMEL_KEYS,
    &OLLAMA_KEYS,
];
