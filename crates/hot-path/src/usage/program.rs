//! A usage's normalisation as a program over its counts. An agent's calls
//! to one provider give usages that differ only in their counts: the same
//! members, nested the same way. What [`normalize_usage_text`] makes of
//! such a usage depends on its counts only through sums (an input made of
//! uncached, cache-read and cache-written tokens, a total of input and
//! output), so each count of the normalised usage is the sum of some of
//! the usage's own counts, the same ones whatever they are. The program
//! says which, found once per shape by probing: every count replaced by
//! its own power of two, the probe normalised, and each count of the
//! result read back as the set of bits it is made of. The wrapper keeps a
//! usage's program by its shape and hands over only the counts, read from
//! the live object, instead of writing the usage as JSON text for the core
//! to parse and normalise.

use serde_json::Number;

use super::{add_numbers, normalize_usage_text, Built, Name, Usage};

/// At most this many counts: each is probed with its own bit, and the sum
/// of every probe stays below 2^53, where JavaScript's numbers are exact.
pub const MOST_COUNTS: usize = 50;

/// The largest count a program takes: JavaScript's largest safe integer.
const LARGEST_COUNT: i64 = (1 << 53) - 1;

/// What each count of a normalised usage is made of: see the module's doc.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageProgram {
    counts: usize,
    out: Vec<(Name, Step)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// The sum of these counts of the usage, in their order there.
    Sum(Vec<u8>),
    Object(Vec<(Name, Step)>),
}

impl UsageProgram {
    /// The program of the usage in `text` (JSON text), whose numbers, in the
    /// text's order, are its counts. `None` when a number is not an integer
    /// written as one (no fraction, no exponent) within ±(2^53 - 1), when
    /// there are more than [`MOST_COUNTS`], when the normalised usage keeps
    /// a value as it is (an array of counts, an executor's `timing`) or
    /// has a member named like an array index (which JavaScript objects
    /// put first, whatever the order), and when the program does not give
    /// back, for the usage's own counts, what normalising the usage gives.
    #[must_use]
    pub fn of(text: &str) -> Option<UsageProgram> {
        let (probe, counts) = probed(text)?;
        let probed = normalize_usage_text(&probe)?;
        let out = steps(&probed.0, counts.len())?;
        let program = UsageProgram {
            counts: counts.len(),
            out,
        };
        let own = normalize_usage_text(text)?;
        (program.apply(&counts)? == own).then_some(program)
    }

    /// How many counts the program takes.
    #[must_use]
    pub fn counts(&self) -> usize {
        self.counts
    }

    /// The normalised usage of a usage of the program's shape with these
    /// counts; `None` for a wrong number of counts or a count out of range.
    #[must_use]
    pub fn apply(&self, counts: &[i64]) -> Option<Usage> {
        if counts.len() != self.counts || counts.iter().any(|c| c.abs() > LARGEST_COUNT) {
            return None;
        }
        Some(Usage(apply_members(&self.out, counts)))
    }

    /// The normalised usage's members as JSON text, each count as the list
    /// of the counts it sums: `{"tokens":{"input":[0,3],"output":[1]}}`.
    pub fn write_template(&self, out: &mut String) {
        write_template_members(out, &self.out);
    }
}

/// `text` with its i-th number replaced by 2^i, and the numbers; `None` as
/// [`UsageProgram::of`] says.
fn probed(text: &str) -> Option<(String, Vec<i64>)> {
    let bytes = text.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let mut probe = String::with_capacity(text.len() + 64);
    let mut counts = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    while let Some(byte) = at(i) {
        match byte {
            b'"' => {
                // Past the string, escapes and all.
                i += 1;
                while let Some(inside) = at(i).filter(|&b| b != b'"') {
                    i += if inside == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while at(i).is_some_and(|b| b.is_ascii_digit()) {
                    i += 1;
                }
                if matches!(at(i), Some(b'.' | b'e' | b'E')) || counts.len() >= MOST_COUNTS {
                    return None;
                }
                let count: i64 = text.get(start..i)?.parse().ok()?;
                if count.abs() > LARGEST_COUNT {
                    return None;
                }
                probe.push_str(text.get(copied..start)?);
                probe.push_str(itoa::Buffer::new().format(1u64 << counts.len()));
                copied = i;
                counts.push(count);
            }
            _ => i += 1,
        }
    }
    probe.push_str(text.get(copied..)?);
    Some((probe, counts))
}

/// The steps of a probed usage's members: see the module's doc.
fn steps(members: &[(Name, Built)], counts: usize) -> Option<Vec<(Name, Step)>> {
    let mut out = Vec::with_capacity(members.len());
    for (name, built) in members {
        if is_array_index(name) {
            return None;
        }
        let step = match built {
            Built::Number(number) => {
                let bits = number
                    .as_u64()
                    .filter(|&bits| bits != 0 && bits >> counts == 0)?;
                Step::Sum((0..64u8).filter(|bit| bits >> bit & 1 == 1).collect())
            }
            Built::Object(inner) => Step::Object(steps(inner, counts)?),
            Built::Copied(_) => return None,
        };
        out.push((name.clone(), step));
    }
    Some(out)
}

/// Whether JavaScript orders the member `name` as an array index: before
/// every other member, whatever the order it was written in.
fn is_array_index(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_digit())
        && (name == "0" || !name.starts_with('0'))
        && name.parse::<u64>().is_ok_and(|n| n < u64::from(u32::MAX))
}

/// The members `steps` make of `counts`, which [`UsageProgram::apply`]
/// checked are as many as the program takes (a sum's index past them reads
/// as 0, which cannot happen).
fn apply_members(steps: &[(Name, Step)], counts: &[i64]) -> Vec<(Name, Built)> {
    steps
        .iter()
        .map(|(name, step)| {
            let built = match step {
                Step::Sum(indices) => {
                    let mut terms = indices
                        .iter()
                        .map(|&i| number_of(counts.get(usize::from(i)).copied().unwrap_or(0)));
                    let first = terms.next().unwrap_or_else(|| Number::from(0u64));
                    Built::Number(terms.fold(first, |sum, term| add_numbers(&sum, &term)))
                }
                Step::Object(inner) => Built::Object(apply_members(inner, counts)),
            };
            (name.clone(), built)
        })
        .collect()
}

/// A count as the number its JSON text reads as.
fn number_of(count: i64) -> Number {
    u64::try_from(count).map_or_else(|_| Number::from(count), Number::from)
}

fn write_template_members(out: &mut String, steps: &[(Name, Step)]) {
    crate::json_text::push_json_members(out, steps, |out, step| match step {
        Step::Sum(indices) => {
            out.push('[');
            for (k, index) in indices.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                out.push_str(itoa::Buffer::new().format(*index));
            }
            out.push(']');
        }
        Step::Object(inner) => write_template_members(out, inner),
    });
}

#[cfg(test)]
mod tests;
