//! The hot path of structured-output-guard: the tape parser, JSON Schema
//! compilation and validation over the tape (jsonschema's validators are
//! monomorphised over [`tape::TapeJson`] here), the watcher that rejects
//! a streamed response early ([`stream`]), the hashing and redaction
//! the validator's results need, the normalisation of every attempt's
//! usage ([`usage`]) and the hand-written JSON of results ([`json_text`]).
//!
//! A crate of its own so that it can be optimised for speed
//! (`opt-level = 3` in the workspace's Cargo.toml) while the rest of the
//! guard is optimised for size. The main crate re-exports these modules
//! under the same names, so `crate::tape`, `crate::schema` and so on mean
//! the same there as here.

pub mod display;
pub mod hash;
pub mod json_text;
pub mod redact;
pub mod schema;
pub mod stream;
pub mod tape;
pub mod usage;
