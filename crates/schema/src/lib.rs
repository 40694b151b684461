//! JSON Schema compilation and validation over structured-output-guard's
//! tape ([`schema`]): jsonschema's validators are monomorphised over
//! [`guard_tape::tape::TapeJson`] here.
//!
//! A crate of its own so that those validators, most of the module's code,
//! are built for size (`opt-level = "z"`, the release profile's) while the
//! tape parser beneath it is built for speed (see the workspace's
//! Cargo.toml). The other crates name it through
//! hot-path (`hot_path::schema`).

use guard_tape::{display, hash, json_text, redact, tape};

pub mod schema;
