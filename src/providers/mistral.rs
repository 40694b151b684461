//! Mistral's chat API: OpenAI Chat's shape (see `openai_chat.rs`), with
//! its own word for the token limit, `model_length`, beside `length`.

use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["choices"],
    truncated_examples: &[
        r#"{"choices":[{"finish_reason":"model_length","message":{"content":"{"}}]}"#,
        r#"{"choices":[{"finish_reason":"length","message":{"content":"{"}}]}"#,
    ],
    token_limit_reasons: &["length", "model_length"],
    usage_keys: &[&keys::OPENAI_CHAT_KEYS],
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"]],
    ..provider("mistral")
};

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 1] = [at(&["tools"], Leaf::Collection)];
