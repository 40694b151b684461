//! The hot path of structured-output-guard: the tape parser, JSON Schema
//! compilation and validation over the tape (jsonschema's validators are
//! monomorphised over [`tape::TapeJson`] here), the watcher that rejects
//! a streamed response early ([`stream`]), the hashing and redaction
//! the validator's results need, the normalisation of every attempt's
//! usage ([`usage`]) and the hand-written JSON of results ([`json_text`]).
//!
//! A crate of its own so that it can be built for speed (`opt-level = "s"`
//! in the workspace's Cargo.toml, where the reason for that level is
//! measured) while the rest of the guard is built for size (`"z"`). The
//! main crate names these modules by this crate's name (`hot_path::tape`).

pub mod display;
pub mod hash;
pub mod json_text;
pub mod redact;
pub mod schema;
pub mod stream;
pub mod tape;
pub mod usage;
