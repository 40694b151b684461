//! The bottom of structured-output-guard's hot path: the tape parser (whole
//! and resumable, [`tape`]) and what every result needs beside it: hashing
//! ([`hash`]), redaction ([`redact`]), text made safe to show ([`display`])
//! and the hand-written JSON of results ([`json_text`]).
//!
//! A crate of its own so that it is built for speed (`opt-level = "s"` in
//! the workspace's Cargo.toml, where the reason is measured) beneath
//! crates/schema, which instantiates jsonschema's validators for the tape,
//! and crates/hot-path, which are built for size. The other crates name these modules through
//! hot-path (`hot_path::tape`).

pub mod display;
pub mod hash;
pub mod json_text;
pub mod redact;
pub mod tape;
/// The generated-input tests' generator, shared with the other crates' tests.
#[cfg(any(test, feature = "test-support"))]
pub mod test_rng;
