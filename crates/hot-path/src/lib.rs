//! The hot path of structured-output-guard: the watcher that rejects a
//! streamed response early ([`stream`]) and the normalisation of every
//! attempt's usage ([`usage`]), over the tape parser and its helpers
//! (crates/tape: [`tape`], [`hash`], [`redact`], [`display`],
//! [`json_text`]) and JSON Schema compilation and validation over the tape
//! (crates/schema: [`schema`]), which this crate re-exports so that the
//! main crate names them all by this crate's name (`hot_path::tape`).
//!
//! The tape is built for speed (`opt-level = "s"` in the workspace's
//! Cargo.toml, where the reason for each level is measured); this crate, the
//! schema crate (which holds jsonschema's validators) and the rest of the
//! guard for size (`"z"`): the watcher's own work is a small share of a
//! stream's, next to the tape's and the validators'.

pub use guard_schema::schema;
pub use guard_tape::{display, hash, json_text, redact, tape};

pub mod stream;
pub mod usage;
