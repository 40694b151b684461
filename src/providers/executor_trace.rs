//! An agent executor's trace: one time segment per call (`type: "model"`
//! or a tool's), in `timing.timeSegments` or `timeSegments`, each model
//! segment with the AI SDK's `finishReason`; the last model segment is the
//! call whose output is judged, and outranks every other finish reason.
//! Its usage is already the common Usage shape (`tokens`, `cost`,
//! `timing`).

use super::read::{node, Node, LEAF};
use super::{provider, Provider};

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["timing", "timeSegments"],
    truncated_examples: &[
        r#"{"timing":{"timeSegments":[{"type":"model","finishReason":"length"},{"type":"tool"}]}}"#,
        r#"{"timeSegments":[{"type":"model","finishReason":{"unified":"length","raw":"max_tokens"}}]}"#,
    ],
    token_limit_reasons: &["length"],
    ..provider("executor_trace")
};

// The read plan's nodes for its own shapes (see `super::read`).

/// An executor's time segment: which kind of call, and how it ended.
pub static SEGMENT: Node = Node {
    members: &[
        ("type", &LEAF),
        ("finishReason", &super::ai_sdk::SDK_REASON),
    ],
    ..node()
};

pub static SEGMENTS: Node = Node {
    each: Some(&SEGMENT),
    ..node()
};

pub static TIMING: Node = Node {
    members: &[("timeSegments", &SEGMENTS)],
    ..node()
};
