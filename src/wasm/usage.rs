//! Usage: normalising and merging a response's token counts, and the usage
//! programs the wrapper keeps by the shape of a response's usage.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{parse_argument, to_js};

#[wasm_bindgen(js_name = normalizeUsage)]
pub fn normalize_usage(usage_json: &str) -> Result<JsValue, JsValue> {
    let usage = parse_argument("the usage", usage_json)?;
    to_js(&hot_path::usage::normalize_usage(&usage))
}

#[wasm_bindgen(js_name = mergeUsage)]
pub fn merge_usage(usages_json: &str) -> Result<JsValue, JsValue> {
    let usages = parse_argument("the usages", usages_json)?;
    let list = match usages {
        Value::Array(items) => items,
        other => vec![other],
    };
    to_js(&hot_path::usage::merge_usage(&list))
}

/// The program of a usage shape (see `hot_path::usage::UsageProgram`), which
/// the wrapper keeps by the shape and hands to `stepCounted` with a
/// response's counts.
#[wasm_bindgen(js_name = RawUsageProgram)]
pub struct RawUsageProgram {
    program: hot_path::usage::UsageProgram,
}

impl RawUsageProgram {
    /// The usage of `counts`, JavaScript numbers read from a response in
    /// the program's order; `None` when they do not fit the program.
    pub(super) fn apply(&self, counts: &[f64]) -> Option<hot_path::usage::Usage> {
        let mut whole = Vec::with_capacity(counts.len());
        for &count in counts {
            // Integers within ±(2^53 - 1), which the program checks again: exact as i64.
            if count.fract() != 0.0 || !count.is_finite() {
                return None;
            }
            #[allow(clippy::cast_possible_truncation)]
            whole.push(count as i64);
        }
        self.program.apply(&whole)
    }
}

/// The program of the usage in `usage_json` (the usage plan's copy of a
/// response, as JSON text), or undefined when it has none.
#[wasm_bindgen(js_name = usageProgram)]
pub fn usage_program(usage_json: &str) -> Option<RawUsageProgram> {
    hot_path::usage::UsageProgram::of(usage_json).map(|program| RawUsageProgram { program })
}

#[wasm_bindgen(js_class = RawUsageProgram)]
impl RawUsageProgram {
    /// The normalised usage with each count as the list of the counts it
    /// sums, as JSON text (see `UsageProgram::write_template`).
    pub fn template(&self) -> String {
        let mut out = String::new();
        self.program.write_template(&mut out);
        out
    }
}
