//! The numbers the boundary's calls answer with instead of a result text,
//! defined here once: the JavaScript side reads them from
//! `js/generated/contract.mjs` (`LANE_STATUS`, `INPUT_STATUS`), which the
//! tests write from these constants (see `src/error/tests.rs`), and decodes
//! a lane status in one function, `decodeLaneStatus` in js/check.mjs.
//!
//! A lane status (the lanes, `validateInput`, a session's lean step) is a
//! code in its low three bits; above them, for a response object's lane
//! and a lean step, [`HAS_REASON`], the index of the text the answer is
//! from [`TEXT_SHIFT`] and the finish reason's byte length from
//! [`REASON_SHIFT`], each field under [`FIELD_LIMIT`].

use crate::rescue::Rescue;

/// Accepted; the JSON is the slice at the lane's offsets.
pub const OK: u32 = 0;
/// Accepted; the JSON was rescued from a code fence, at the lane's offsets.
pub const OK_FENCE: u32 = 1;
/// Not accepted: the verdict (or `validateInput`'s report) waits as JSON
/// text; for a session's lean step, the step's result was written instead.
pub const FAILED: u32 = 2;
/// Not checked here: the caller takes the general path.
pub const UNAVAILABLE: u32 = 3;
/// Accepted, and the JSON is the whole text (the common case): no offsets.
pub const OK_WHOLE: u32 = 4;
/// The bits of a status that hold its code.
pub const CODE_MASK: u32 = 7;
/// Set when the response gave a finish reason, whose length is then above
/// [`REASON_SHIFT`].
pub const HAS_REASON: u32 = 8;
/// Where a status holds the index of the text the answer is.
pub const TEXT_SHIFT: u32 = 4;
/// Where a status holds the finish reason's length in bytes.
pub const REASON_SHIFT: u32 = 16;
/// Each field's bound (12 bits); a larger one is not answered by a status.
pub const FIELD_LIMIT: u32 = 1 << 12;

/// `isValidInput`: the instance is valid, or not; a text it did not read
/// is [`UNAVAILABLE`].
pub const VALID: u32 = 1;
pub const INVALID: u32 = 0;
/// A stream push: nothing definite yet, or rejected (now or before).
pub const PUSH_PENDING: u32 = 0;
pub const PUSH_REJECTED: u32 = 1;
/// `judgeStrings` when the core must check the whole value instead.
pub const NOT_JUDGED: u32 = u32::MAX;

/// The code of an accepted answer: whole, or a slice, rescued or not.
pub fn accepted(rescue: Rescue, whole: bool) -> u32 {
    match rescue {
        Rescue::CodeFence => OK_FENCE,
        Rescue::None if whole => OK_WHOLE,
        Rescue::None => OK,
    }
}

/// `code` with the index of the text it answers and the finish reason's
/// length, when there is one; `None` when either does not fit its field.
pub fn with_fields(code: u32, text: usize, reason_len: Option<usize>) -> Option<u32> {
    let fits = |n: usize| u32::try_from(n).ok().filter(|&n| n < FIELD_LIMIT);
    let mut status = code | (fits(text)? << TEXT_SHIFT);
    if let Some(len) = reason_len {
        status |= HAS_REASON | (fits(len)? << REASON_SHIFT);
    }
    Some(status)
}

/// A status's code, text index and finish reason length, as the JavaScript
/// side decodes it.
pub fn decode(status: u32) -> (u32, u32, Option<u32>) {
    let reason = (status & HAS_REASON != 0).then_some(status >> REASON_SHIFT);
    (
        status & CODE_MASK,
        (status >> TEXT_SHIFT) & (FIELD_LIMIT - 1),
        reason,
    )
}

#[cfg(test)]
mod tests;
