#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::assertions_on_constants
)]

use super::*;

#[test]
fn codes_are_distinct_and_fit_under_the_flags() {
    let codes = [OK, OK_FENCE, FAILED, UNAVAILABLE, OK_WHOLE];
    for (i, a) in codes.iter().enumerate() {
        assert_eq!(a & CODE_MASK, *a);
        assert_eq!(a & HAS_REASON, 0);
        for b in &codes[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert!(HAS_REASON > CODE_MASK && HAS_REASON < 1 << TEXT_SHIFT);
    assert_eq!(TEXT_SHIFT + FIELD_LIMIT.trailing_zeros(), REASON_SHIFT);
    assert!(REASON_SHIFT + FIELD_LIMIT.trailing_zeros() <= 32);
}

#[test]
fn an_accepted_code_says_whether_the_json_is_whole_or_fenced() {
    assert_eq!(accepted(Rescue::None, true), OK_WHOLE);
    assert_eq!(accepted(Rescue::None, false), OK);
    assert_eq!(accepted(Rescue::CodeFence, true), OK_FENCE);
    assert_eq!(accepted(Rescue::CodeFence, false), OK_FENCE);
}

#[test]
fn fields_decode_as_they_were_packed() {
    for code in [OK, OK_FENCE, FAILED, OK_WHOLE] {
        for text in [0, 1, 7, 4095] {
            for reason in [None, Some(0), Some(6), Some(4095)] {
                let status = with_fields(code, text, reason).unwrap();
                let reason = reason.map(|n| u32::try_from(n).unwrap());
                assert_eq!(decode(status), (code, u32::try_from(text).unwrap(), reason));
            }
        }
    }
}

#[test]
fn a_field_too_large_gives_no_status() {
    assert_eq!(with_fields(OK, 4096, None), None);
    assert_eq!(with_fields(OK, 0, Some(4096)), None);
    assert_eq!(with_fields(OK, usize::MAX, Some(1)), None);
}
