//! structured-output-guard: decides, deterministically and before any side
//! effect, whether a language model's structured response may be accepted.
//!
//! Every decision lives here as a pure function over `serde_json::Value`, so it
//! is tested natively; `wasm.rs` is the only file that knows about JavaScript.
//!
//! The hot path (the tape parser, schema compilation and validation, the
//! streaming check's watcher, the hashing and redaction they use, usage
//! normalisation and the JSON writing of results) is the
//! workspace member `crates/engine` (`guard_engine`), built for speed while
//! this crate is built for size; its modules are re-exported here under their
//! own names, but for `stream`, which this crate's `stream` wraps.

pub use guard_engine::{hash, redact, schema, tape, usage};

/// The contract's names and defaults (failure classes, stop reasons, issue
/// codes, default options) and the caller-error type: the bottom layer the
/// other modules build on.
pub mod error;
pub mod finish;
/// Decoding of the options objects callers pass: the top layer, over the
/// modules whose settings it builds.
pub mod options;
pub mod policy;
/// Schemas for providers' native structured-output modes, and what they leave unenforced.
pub mod provider_schema;
/// Where requests and responses of each provider shape keep what the guard reads.
pub mod providers;
pub mod recent;
pub mod repair;
pub mod rescue;
pub mod response;
pub mod rules;
/// A guarded call's state, stepped once per attempt.
pub mod session;
mod spare;
pub mod standard;
pub mod stream;
pub mod verdict;
pub mod view;

/// This crate and the JSON Schema engine inside it, as audit records name
/// them (the engine version is checked against Cargo.lock by a test).
pub const VALIDATOR_VERSION: &str = concat!(
    "structured-output-guard/",
    env!("CARGO_PKG_VERSION"),
    " jsonschema/0.61.2"
);

#[cfg(target_arch = "wasm32")]
mod wasm;

/// The wasm heap: talc instead of the default dlmalloc, for a smaller module
/// (4.7 KB gzip) at the same speed (hot and cold paths measured side by side).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(test)]
mod tests {
    #[test]
    fn validator_version_names_the_locked_engine() {
        let lock = include_str!("../Cargo.lock");
        let engine = super::VALIDATOR_VERSION
            .split(' ')
            .find_map(|part| part.strip_prefix("jsonschema/"))
            .unwrap_or_default();
        assert!(
            lock.contains(&format!("name = \"jsonschema\"\nversion = \"{engine}\"\n")),
            "Cargo.lock does not lock jsonschema {engine}"
        );
        assert!(super::VALIDATOR_VERSION.starts_with(&format!("structured-output-guard/{} ", env!("CARGO_PKG_VERSION"))));
    }
}
