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
//! own names, but for `stream`, which this crate's `stream` wraps, and
//! `schema`, whose `compile` reads a schema's dialect first.

pub use guard_engine::{display, hash, redact, tape, usage};

/// JSON Schema compilation and validation (the engine's), with `compile`
/// reading a schema's dialect first (see [`dialect`]): every schema the
/// guard compiles, a response's, a rule's or a tool's, goes through it.
pub mod schema {
    pub use crate::dialect::compile;
    pub use guard_engine::schema::*;
}

/// The dialects a schema may be written in (JSON Schema with OpenAPI's
/// `nullable`, Gemini's `Schema`), told apart and translated into the JSON
/// Schema they mean.
pub mod dialect;

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
mod repository_tests;

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

    /// The repository holds everything its code, tests and documents read
    /// or cite: no path reaches outside the checkout, and the documents it
    /// once cited from outside are its own `docs/` pages now.
    #[test]
    fn nothing_reads_or_cites_a_file_outside_the_repository() {
        use std::path::{Path, PathBuf};
        // Third-party material kept as published (vendored crates, the test
        // suites and the SchemaStore corpus) is not the project's writing.
        const SKIP: [&str; 8] = [".git", "target", "node_modules", "pkg", "test-results", "vendor", "json-schema-test-suite", "schemastore"];
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            for entry in entries.flatten() {
                let path = entry.path();
                let name = entry.file_name();
                if SKIP.iter().any(|s| name == *s) {
                    continue;
                }
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.push(path);
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        walk(root, &mut files);
        let outside = ["../shared", "shared/json-schema-test-suite", "reference/providers.md", "/work/"];
        let mut found = Vec::new();
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else { continue };
            for (n, line) in text.lines().enumerate() {
                // The repository's API reference is docs/api.md; any other `API.md`
                // names a file the repository does not hold.
                let cites_api = line.match_indices("API.md").any(|(i, _)| !line[..i].ends_with("docs/"));
                if cites_api || outside.iter().any(|o| line.contains(o)) {
                    found.push(format!("{}:{}", file.strip_prefix(root).unwrap_or(file).display(), n + 1));
                }
            }
        }
        // This test names the patterns it looks for.
        found.retain(|place| !place.starts_with("src/lib.rs:"));
        assert!(found.is_empty(), "outside the repository: {found:?}");
    }
}
