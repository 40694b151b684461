//! `multipleOf` with a fractional divisor is decided on the decimals the
//! number and the divisor print as (jsonschema-value's
//! `is_multiple_of_float`, patched by
//! patches/jsonschema-value-*-exact-decimal-multiple.patch): exactly, also
//! where the two scaled mantissas leave `i128`. These tests hold it to a
//! big-integer reference, for random pairs of decimals far apart in
//! magnitude.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use num_bigint::BigInt;
use serde_json::{json, Value};

use super::{compile, CompileOptions};
use guard_tape::test_rng::Rng;

/// The decimal a finite double prints as (Rust's shortest round-trip
/// form): its digits as an integer and the power of ten it is divided by.
fn decimal(value: f64) -> (BigInt, i64) {
    let text = format!("{value:e}");
    let (body, exponent) = text.split_once('e').unwrap();
    let exponent: i64 = exponent.parse().unwrap();
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    let digits: BigInt = format!("{whole}{fraction}").parse().unwrap();
    (digits, i64::try_from(fraction.len()).unwrap() - exponent)
}

/// Whether `value / multiple` is whole, in big integers.
fn reference(value: f64, multiple: f64) -> bool {
    let ((vm, vd), (mm, md)) = (decimal(value), decimal(multiple));
    let shared = vd.min(md);
    let ten = BigInt::from(10);
    let dividend = vm * ten.pow(u32::try_from(md - shared).unwrap());
    let divisor = mm * ten.pow(u32::try_from(vd - shared).unwrap());
    (dividend % divisor) == BigInt::from(0)
}

fn accepts(multiple: f64, value: f64) -> bool {
    let schema = json!({ "multipleOf": multiple });
    compile(&schema, &CompileOptions::default())
        .unwrap()
        .is_valid(&Value::from(value))
}

#[test]
fn a_multiple_past_i128_is_decided_on_its_decimals() {
    // 1070468.14 / 7e-33 = 15292402 * 10^33, whole; the dividend's mantissa
    // times 10^31 leaves i128. A rational read from about 16 digits of the
    // binary value (1070468.1399999998) divides into no whole number.
    assert!(accepts(7e-33, 1_070_468.14));
    assert!(!accepts(7e-33, 1_070_468.15));
    // 10^308 / 0.123456789 = 10^317 / 123456789, and 123456789 = 3^2 * 3607 * 3803.
    assert!(!accepts(0.123_456_789, 1e308));
    assert!(accepts(0.1, 1e300));
    assert!(accepts(3e-20, 9e30));
    assert!(!accepts(1.7e-14, 1e25));
}

#[test]
fn fractional_multiples_match_the_big_integer_reference() {
    let mut checked = 0;
    let mut rng = Rng(0x6d75_6c74_6970_6c65);
    let digits = [
        1.0,
        3.0,
        7.0,
        12.5,
        0.3,
        2.675,
        123_456_789.0,
        1_070_468.14,
        9_007_199_254_740_993.0,
    ];
    for _ in 0..4000 {
        let unit = digits[rng.below(digits.len())];
        let multiple = unit * 10f64.powi(i32::try_from(rng.below(60)).unwrap() - 45);
        // A whole number of units (often a multiple) or a nearby decimal.
        let times = f64::from(u32::try_from(rng.below(100_000)).unwrap() + 1);
        let mut value = multiple * times * 10f64.powi(i32::try_from(rng.below(50)).unwrap());
        if rng.below(3) == 0 {
            value += multiple / 3.0;
        }
        if rng.below(2) == 0 {
            value = -value;
        }
        // A whole divisor takes jsonschema's integer rule, not this one.
        if !value.is_finite()
            || !multiple.is_normal()
            || multiple.fract() == 0.0
            || value.abs() < multiple
        {
            continue;
        }
        assert_eq!(
            accepts(multiple, value),
            reference(value, multiple),
            "{value} multipleOf {multiple}"
        );
        checked += 1;
    }
    assert!(checked > 2000, "only {checked} pairs checked");
}
