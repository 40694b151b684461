//! structured-output-guard: decides, deterministically and before any side
//! effect, whether a language model's structured response may be accepted.
//!
//! Every decision lives here as a pure function over `serde_json::Value`, so it
//! is tested natively; `wasm.rs` is the only file that knows about JavaScript.

pub mod finish;
pub mod hash;
pub mod options;
pub mod policy;
pub mod rescue;
pub mod response;
pub mod schema;
pub mod tape;
pub mod usage;
pub mod verdict;

#[cfg(target_arch = "wasm32")]
mod wasm;
