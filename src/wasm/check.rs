//! The checks: `checkOutput` and its lanes, which answer with a status
//! (`crate::status`) and leave their side results here for the facade to
//! take (`laneStart`, `laneEnd`, `laneTakeVerdict`).

use std::sync::Arc;

use wasm_bindgen::prelude::*;

use super::schemas::RawValidator;
use super::{argument_error, parse_argument, schema_error, schema_input, with_input, write_input};
use crate::lane::{Answer, LaneOptions};
use crate::options::check_options_of;
use crate::status;
use crate::verdict::{
    check_content, check_output, utf16_offsets, write_with_offsets, CheckOptions, SchemaInput,
};
use hot_path::schema::parse_schema_text;

#[wasm_bindgen(js_name = detectTruncation)]
pub fn detect_truncation(source_json: &str) -> Result<JsValue, JsValue> {
    let source = parse_argument("the source", source_json)?;
    let t = crate::finish::detect_truncation(&source);
    super::to_js(&serde_json::json!({ "truncated": t.truncated, "finishReason": t.finish_reason }))
}

#[wasm_bindgen(js_name = rescueJson)]
pub fn rescue_json(text: &str) -> Result<JsValue, JsValue> {
    let r = crate::rescue::rescue_code_fence(text);
    super::to_js(&serde_json::json!({ "text": r.text, "rescue": r.rescue.as_str() }))
}

/// The check options of `checkOutput` or `createStreamCheck` (`what`),
/// compile options allowed beside them.
pub(super) fn read_check_options(options_json: &str, what: &str) -> Result<CheckOptions, JsValue> {
    let options = parse_argument("options", options_json)?;
    check_options_of(&options, what).map_err(argument_error)
}

/// Runs the check. A plain string output is checked in place, and the JSON's
/// position in it comes back as UTF-16 offsets (`textStart`, `textEnd`) for
/// the facade to slice: copying the text back out of wasm would cost as much
/// as the check. Content read out of a response object comes back as `text`.
fn run_check(
    output_json: &str,
    output_is_text: bool,
    input: SchemaInput<'_>,
    options_json: &str,
) -> Result<JsValue, JsValue> {
    let check = read_check_options(options_json, "checkOutput")?;
    let (verdict, offsets) = if output_is_text {
        let verdict = check_content(output_json, None, input, &check).map_err(schema_error)?;
        let offsets = verdict
            .span
            .clone()
            .map(|span| utf16_offsets(output_json, span));
        (verdict, offsets)
    } else {
        let output = parse_argument("the output", output_json)?;
        (
            check_output(&output, input, &check).map_err(schema_error)?,
            None,
        )
    };
    Ok(JsValue::from_str(&write_with_offsets(&verdict, offsets)))
}

/// `output_json` is the output as JSON text, except that when `output_is_text`
/// it is the content string itself (so any text, however odd, reaches the
/// check unchanged). `schema_json` is undefined for no schema.
#[wasm_bindgen(js_name = checkOutput)]
pub fn check_output_js(
    output_json: &str,
    output_is_text: bool,
    schema_json: Option<String>,
    options_json: &str,
) -> Result<JsValue, JsValue> {
    let schema = schema_json.map(|text| parse_schema_text(&text));
    run_check(
        output_json,
        output_is_text,
        schema_input(schema.as_ref()),
        options_json,
    )
}

/// The same check against an already compiled validator.
#[wasm_bindgen(js_name = checkOutputWith)]
pub fn check_output_with(
    output_json: &str,
    output_is_text: bool,
    validator: &RawValidator,
    options_json: &str,
) -> Result<JsValue, JsValue> {
    let input = SchemaInput::Compiled(Arc::clone(&validator.compiled));
    run_check(output_json, output_is_text, input, options_json)
}

thread_local! {
    /// The lanes' side results: the accepted JSON's UTF-16 offsets, or
    /// the failed verdict as JSON text until the facade takes it.
    static LANE: std::cell::RefCell<(u32, u32, Option<String>)> =
        const { std::cell::RefCell::new((0, 0, None)) };
}

/// Leaves an accepted JSON's UTF-16 offsets for `laneStart`/`laneEnd`.
pub(super) fn leave_offsets(start: usize, end: usize) {
    let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    LANE.with(|lane| *lane.borrow_mut() = (narrow(start), narrow(end), None));
}

/// Leaves a verdict or report, as JSON text, for `laneTakeVerdict`.
pub(super) fn leave_verdict(json: String) {
    LANE.with(|lane| lane.borrow_mut().2 = Some(json));
}

/// A lane's answer as its status, its side results left here.
fn answered(answer: Answer) -> u32 {
    let code = answer.code();
    match answer {
        Answer::Slice { start, end, .. } => leave_offsets(start, end),
        Answer::Failed(json) => leave_verdict(json),
        Answer::Whole | Answer::Unavailable => {}
    }
    code
}

/// The hot path: a string output against a compiled validator, with the
/// default options but `maxErrors` and `requireObject`, or with the check
/// options in `options_json` (see `crate::lane::LaneOptions`). The response
/// is the first `len` bytes of the input buffer; with `reason_len`, the
/// answer read from a response object, whose finish reason is the
/// `reason_len` bytes after it (see `readLane` in js/check.mjs, which
/// remembers what `checkReadLane` answered for a copy). Returns a status
/// (`crate::status`) instead of a result object, so an accepted response
/// costs no result string at all; the offsets are read with
/// `laneStart`/`laneEnd` (unless the JSON is the whole response), a failed
/// verdict with `laneTakeVerdict`.
#[wasm_bindgen(js_name = checkInputLane)]
pub fn check_input_lane(
    len: usize,
    reason_len: Option<u32>,
    validator: &RawValidator,
    max_errors: u32,
    require_object: bool,
    options_json: Option<String>,
) -> u32 {
    let options = LaneOptions {
        max_errors,
        require_object,
        json: options_json.as_deref(),
    };
    let compiled = &validator.compiled;
    let Some(reason_len) = reason_len else {
        return with_input(len, |text| {
            answered(crate::lane::check_text(
                text, None, compiled, options, false,
            ))
        });
    };
    let reason_len = usize::try_from(reason_len).unwrap_or(usize::MAX);
    with_input(len.saturating_add(reason_len), |both| {
        match both.split_at_checked(len) {
            Some((text, reason)) => answered(crate::lane::check_text(
                text,
                Some(reason),
                compiled,
                options,
                true,
            )),
            None => status::UNAVAILABLE,
        }
    })
}

/// The lane for a response object, read by the facade's reader along
/// `readPlans().output` (see `crate::lane::check_copy`): the input buffer
/// holds the strings under the plan's text nodes, and at `copy_start` the
/// `copy_len` bytes of the reader's copy. Its status carries the index of
/// the text the answer is and, when the response gave a finish reason, its
/// length, with the reason's bytes then at the start of the input buffer.
/// A separate export from `checkInputLane`, whose input is one text, not
/// texts and a copy to find the answer in.
#[wasm_bindgen(js_name = checkReadLane)]
pub fn check_read_lane(
    copy_start: usize,
    copy_len: usize,
    validator: &RawValidator,
    max_errors: u32,
    require_object: bool,
    options_json: Option<String>,
) -> u32 {
    let options = LaneOptions {
        max_errors,
        require_object,
        json: options_json.as_deref(),
    };
    let mut reason_read = None;
    let status = with_input(copy_start.saturating_add(copy_len), |whole| {
        let Some(read) = crate::lane::check_copy(whole, copy_start, &validator.compiled, options)
        else {
            return status::UNAVAILABLE;
        };
        answered(read.answer);
        reason_read = read.reason;
        read.status
    });
    // The texts are read by now; the reason takes their place.
    if let Some(reason) = reason_read {
        write_input(reason.as_bytes());
    }
    status
}

/// Whether a finish reason says the model stopped at its token limit (the
/// check programs' lane for a response object asks once per reason).
#[wasm_bindgen(js_name = isTokenLimit)]
pub fn is_token_limit(reason: &str) -> bool {
    crate::finish::is_token_limit(reason)
}

#[wasm_bindgen(js_name = laneStart)]
pub fn lane_start() -> u32 {
    LANE.with(|lane| lane.borrow().0)
}

#[wasm_bindgen(js_name = laneEnd)]
pub fn lane_end() -> u32 {
    LANE.with(|lane| lane.borrow().1)
}

#[wasm_bindgen(js_name = laneTakeVerdict)]
pub fn lane_take_verdict() -> Option<String> {
    LANE.with(|lane| lane.borrow_mut().2.take())
}
