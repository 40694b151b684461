//! The hot part of the streaming check: the watcher that reads a response's
//! JSON as it arrives and rejects it early ([`json`]), the per-location
//! plan of the schema it checks against ([`plan`]), and the outline of
//! where the values near the root begin, for reading an accepted value in
//! parts ([`outline`]). They live here, beside
//! the resumable tape parser they drive, so that they are built for speed;
//! the main crate's `stream` module wraps them (finish reasons, code fences,
//! rules, the final verdict).

pub mod json;
pub mod outline;
pub mod partial;
pub mod plan;

/// Grows `bytes` to at least `len`, the new bytes zero: the buffer a
/// streamed response's pieces are staged in (see `RawStream::staging` in
/// the main crate). Here, built for speed, the zeroing is one fill; built
/// for size, `resize` zeroes one byte at a time (174 µs of a 480 KB push
/// on Node 20).
pub fn grow_zeroed(bytes: &mut Vec<u8>, len: usize) {
    if bytes.len() < len {
        bytes.resize(len, 0);
    }
}
