//! structured-output-guard: decides, deterministically and before any side
//! effect, whether a language model's structured response may be accepted.
//!
//! Every decision lives here as a pure function over `serde_json::Value`, so it
//! is tested natively; `wasm/` is the only module that knows about JavaScript.
//!
//! The hot path (the tape parser, schema compilation and validation, the
//! streaming check's watcher, the hashing and redaction they use, usage
//! normalisation and the JSON writing of results) is the workspace member
//! `crates/hot-path` (library `hot_path`) and the two crates beneath it,
//! `crates/tape` and `crates/schema`, which it re-exports: the tape is built
//! for speed, the others (jsonschema's validators among them) and this crate
//! for size. This crate names their modules by hot-path's name
//! (`hot_path::schema`, `hot_path::tape`, ...), so `crate::x` is always a file
//! in `src/`; every schema the guard compiles goes through
//! [`dialect::compile`], which reads the schema's dialect first.

/// Check programs: a compiled schema's keywords for the JavaScript side to
/// check parsed values with (see js/check-program.mjs).
pub mod check_program;

/// The dialects a schema may be written in (JSON Schema with OpenAPI's
/// `nullable`, Gemini's `Schema`), told apart and translated into the JSON
/// Schema they mean.
pub mod dialect;

/// A buffer kept in a thread-local slot from one use to the next.
mod buffer_pool;

/// The contract's names and defaults (failure classes, stop reasons, issue
/// codes, default options) and the caller-error type: the bottom layer the
/// other modules build on.
pub mod error;
pub mod finish;
/// Read-only access to a JSON document, as a `serde_json::Value` or a tape.
pub mod json_view;
/// The lanes: checks answered with a status instead of a result text.
pub mod lane;
/// Decoding of the options objects callers pass: the top layer, over the
/// modules whose settings it builds.
pub mod options;
pub mod policy;
/// Schemas for providers' native structured-output modes, and what they leave unenforced.
pub mod provider_schema;
/// Where requests and responses of each provider shape keep what the guard reads.
pub mod providers;
/// What was last read from a text, kept by the whole text.
pub mod read_memo;
pub mod repair;
pub mod rescue;
pub mod response;
pub mod rules;
/// A guarded call's state, stepped once per attempt.
pub mod session;
pub mod standard;
/// The numbers the boundary's calls answer with (generated for JavaScript).
pub mod status;
pub mod stream;
pub mod verdict;

/// This crate and the JSON Schema engine inside it, as audit records name
/// them (the engine version is checked against Cargo.lock by a test).
pub const VALIDATOR_VERSION: &str = concat!(
    "structured-output-guard/",
    env!("CARGO_PKG_VERSION"),
    " jsonschema/0.61.2"
);

#[cfg(target_arch = "wasm32")]
mod wasm;

/// The wasm heap (talc, counted: see `heap.rs`).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod heap;

#[cfg(test)]
mod module_graph_tests;
#[cfg(test)]
mod repository_tests;

#[cfg(test)]
mod tests;
