//! Numbers, converted from their literal on demand as serde_json converts
//! them (`float_roundtrip`, no `arbitrary_precision`), but for integers
//! past 2^53, which are checked as JavaScript reads them.

use std::borrow::Cow;

use jsonschema::json::JsonNumber;
use serde_json::Number;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Repr {
    PosInt(u64),
    /// Always negative.
    NegInt(i64),
    /// Always finite.
    Float(f64),
}

/// 2^53: every integer up to it is exactly a double.
const MAX_SAFE_MAGNITUDE: u64 = 1 << 53;

/// A number of the tape, holding the value serde_json's `Number` would hold
/// for the same literal, except that integers past 2^53 hold the double
/// JavaScript reads them as.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TapeNumber(Repr);

impl TapeNumber {
    /// `literal` is a number the parser accepted; `integer` says it has no
    /// fraction and no exponent.
    pub fn from_literal(literal: &str, integer: bool) -> TapeNumber {
        if integer {
            let bytes = literal.as_bytes();
            let negative = bytes.first() == Some(&b'-');
            let digits = bytes.get(usize::from(negative)..).unwrap_or(&[]);
            let mut significand = 0_u64;
            let mut fits = true;
            for &digit in digits {
                match significand
                    .checked_mul(10)
                    .and_then(|value| value.checked_add(u64::from(digit.wrapping_sub(b'0'))))
                {
                    Some(value) => significand = value,
                    None => {
                        fits = false;
                        break;
                    }
                }
            }
            // Past 2^53 an integer is checked as the double JavaScript's
            // JSON.parse turns it into, because that double is the value the
            // caller gets back: checking the exact integer could accept
            // `[9007199254740993, 9007199254740992]` as unique items and hand
            // back two equal numbers.
            if fits && significand > MAX_SAFE_MAGNITUDE {
                let rounded = significand as f64;
                return TapeNumber(Repr::Float(if negative { -rounded } else { rounded }));
            }
            if fits {
                if !negative {
                    return TapeNumber(Repr::PosInt(significand));
                }
                // serde_json's own rule: past `i64::MIN`, and `-0`, become floats.
                let negated = (significand as i64).wrapping_neg();
                return TapeNumber(if negated >= 0 {
                    Repr::Float(-(significand as f64))
                } else {
                    Repr::NegInt(negated)
                });
            }
        }
        // Correctly rounded, as serde_json's `float_roundtrip` parse is. The
        // parser has already rejected literals that round to infinity.
        TapeNumber(Repr::Float(literal.parse::<f64>().unwrap_or(0.0)))
    }

    /// The serde_json `Number` holding the same value.
    pub fn to_serde(self) -> Number {
        match self.0 {
            Repr::PosInt(value) => Number::from(value),
            Repr::NegInt(value) => Number::from(value),
            Repr::Float(value) => Number::from_f64(value).unwrap_or_else(|| Number::from(0_u64)),
        }
    }
}

impl JsonNumber for TapeNumber {
    fn as_u64(&self) -> Option<u64> {
        match self.0 {
            Repr::PosInt(value) => Some(value),
            _ => None,
        }
    }

    fn as_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::PosInt(value) => i64::try_from(value).ok(),
            Repr::NegInt(value) => Some(value),
            Repr::Float(_) => None,
        }
    }

    fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            Repr::PosInt(value) => value as f64,
            Repr::NegInt(value) => value as f64,
            Repr::Float(value) => value,
        })
    }

    /// serde_json's rendering of the value, not the literal: the keywords
    /// that read it (`multipleOf` near zero and past 2^53) then answer as
    /// they do for a `serde_json::Value`.
    fn as_str(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_serde().to_string())
    }

    fn to_number(&self) -> Cow<'_, Number> {
        Cow::Owned(self.to_serde())
    }

    fn is_integer(&self) -> bool {
        match self.0 {
            Repr::PosInt(_) | Repr::NegInt(_) => true,
            Repr::Float(value) => value.fract() == 0.0,
        }
    }

    /// As serde_json's `Number` answers, which reads its own rendering: a
    /// float is "written as an integer" only when at least 2^63 in magnitude
    /// (so `-0`, which serde_json holds as `-0.0`, is not, and `1.5e19` is).
    fn is_written_as_integer(&self) -> bool {
        match self.0 {
            Repr::PosInt(_) | Repr::NegInt(_) => true,
            Repr::Float(value) => Number::from_f64(value)
                .is_some_and(|number| JsonNumber::is_written_as_integer(&number)),
        }
    }
}
