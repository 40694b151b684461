//! The JavaScript boundary: the only file that knows about wasm-bindgen.
//!
//! Values come in as JSON text that the JS facade made with `JSON.stringify`
//! (or that the caller already had); a response comes as the copy the
//! facade's reader made of it along a read plan (`crate::providers::read`),
//! and on the lanes as bytes the facade encoded into the input buffer.
//! Parsing text here is cheaper than walking JS objects through js-sys, and
//! serde_json's recursion limit turns hostile nesting into a clear error
//! instead of a stack overflow. Results leave as
//! JSON text too, which the facade turns into plain objects with one
//! `JSON.parse`: measured, that is several times cheaper than building the
//! object one property at a time through wasm-bindgen imports.
//!
//! These exports are the raw layer; the modules in `js/` give them their public
//! names, shapes and error classes.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::options::{
    check_options, compile_options, max_errors, reject_unknown, ArgumentError, CHECK_OPTION_NAMES,
    COMPILE_OPTION_NAMES, GUARD_OPTION_NAMES, STREAM_OPTION_NAMES,
};
use crate::verdict::{
    check_content, check_output, push_json_opt, push_json_str, push_usize, CheckOptions,
    SchemaInput, Verdict,
};
use hot_path::redact::redact_secrets;
use hot_path::schema;
use hot_path::schema::{parse_schema_text, CompiledSchema, SchemaError};

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
    // The schema cache weighs each validator by the heap its compilation keeps.
    #[cfg(not(target_feature = "atomics"))]
    schema::set_memory_meter(crate::heap::in_use);
}

/// An `Error` carrying a stable `code` the facade maps to its error classes.
fn coded_error(code: &str, message: &str) -> JsValue {
    // Made safe to print: an error's message may quote a schema or an option.
    let error = js_sys::Error::new(&hot_path::display::escape_for_display(message));
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

// Both messages may quote a schema or an option value: they are redacted
// like everything else that can reach a log.
fn argument_error(e: ArgumentError) -> JsValue {
    coded_error("invalid_argument", &redact_secrets(&e.message))
}

fn schema_error(e: SchemaError) -> JsValue {
    coded_error("invalid_schema", &redact_secrets(&e.message))
}

/// A result as JSON text, for the facade to `JSON.parse`.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    serde_json::to_string(value)
        .map(|text| JsValue::from_str(&text))
        .map_err(|e| coded_error("internal", &format!("could not build the result: {e}")))
}

fn parse_argument(what: &str, text: &str) -> Result<Value, JsValue> {
    serde_json::from_str(text).map_err(|e| {
        coded_error(
            "invalid_argument",
            &format!("{what} could not be read as JSON ({e})"),
        )
    })
}

/// An instance the facade serialised, read as a tape.
fn read_instance(text: &str) -> Result<hot_path::tape::Tape<'_>, JsValue> {
    hot_path::tape::parse(text).map_err(|e| {
        coded_error(
            "invalid_argument",
            &format!("the instance could not be read as JSON ({e})"),
        )
    })
}

#[wasm_bindgen(js_name = detectTruncation)]
pub fn detect_truncation(source_json: &str) -> Result<JsValue, JsValue> {
    let source = parse_argument("the source", source_json)?;
    let t = crate::finish::detect_truncation(&source);
    to_js(&serde_json::json!({ "truncated": t.truncated, "finishReason": t.finish_reason }))
}

#[wasm_bindgen(js_name = rescueJson)]
pub fn rescue_json(text: &str) -> Result<JsValue, JsValue> {
    let r = crate::rescue::rescue_code_fence(text);
    to_js(&serde_json::json!({ "text": r.text, "rescue": r.rescue.as_str() }))
}

/// A compiled schema. Cheap to clone on the Rust side: the compiled form is
/// shared with the cache.
#[wasm_bindgen(js_name = RawValidator)]
pub struct RawValidator {
    compiled: Arc<CompiledSchema>,
    /// Its check program, made on first request (see `checkProgram`).
    program: std::cell::OnceCell<Option<crate::check_program::CheckProgram>>,
}

impl RawValidator {
    fn program(&self) -> Option<&crate::check_program::CheckProgram> {
        self.program
            .get_or_init(|| crate::check_program::program_of(&self.compiled))
            .as_ref()
    }
}

#[wasm_bindgen(js_class = RawValidator)]
impl RawValidator {
    pub fn validate(&self, instance_json: &str, options_json: &str) -> Result<JsValue, JsValue> {
        let options = parse_argument("options", options_json)?;
        reject_unknown(&options, &[&["maxErrors"]], "Validator.validate")
            .map_err(argument_error)?;
        let cap = max_errors(&options).map_err(argument_error)?;
        let instance = read_instance(instance_json)?;
        to_js(&self.compiled.validate_tape(&instance, cap))
    }

    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self, instance_json: &str) -> Result<bool, JsValue> {
        let instance = read_instance(instance_json)?;
        Ok(self.compiled.is_valid_tape(&instance))
    }

    /// `validate` of the instance whose JSON text the facade encoded into
    /// the first `len` bytes of the input buffer (see `inputBuffer`), with
    /// at most `max_errors` issues. A status, as the lane's: `LANE_OK` for a
    /// valid instance, which costs no result text; `LANE_FAILED` with the
    /// report waiting as JSON text for `laneTakeVerdict`; `LANE_UNAVAILABLE`
    /// when the bytes are not UTF-8 or not JSON the tape reads, which
    /// `validate` then reports. Encoding the text with `encodeInto` and
    /// answering a valid instance with a number made a Standard Schema
    /// `validate` of a small object several times cheaper than passing the
    /// text as a string argument and the report back as text.
    #[wasm_bindgen(js_name = validateInput)]
    pub fn validate_input(&self, len: usize, max_errors: u32) -> u32 {
        with_input(len, |text| {
            let Ok(instance) = hot_path::tape::parse(text) else {
                return LANE_UNAVAILABLE;
            };
            let cap = usize::try_from(max_errors).unwrap_or(usize::MAX);
            let report = self.compiled.validate_tape(&instance, cap);
            if report.valid {
                return LANE_OK;
            }
            let json = report.to_json();
            LANE.with(|lane| lane.borrow_mut().2 = Some(json));
            LANE_FAILED
        })
    }

    /// `isValid` of the instance in the first `len` bytes of the input
    /// buffer, as `validateInput` reads it: 1 valid, 0 not,
    /// `LANE_UNAVAILABLE` when `isValid` must read the text itself.
    #[wasm_bindgen(js_name = isValidInput)]
    pub fn is_valid_input(&self, len: usize) -> u32 {
        with_input(len, |text| match hot_path::tape::parse(text) {
            Ok(instance) => u32::from(self.compiled.is_valid_tape(&instance)),
            Err(_) => LANE_UNAVAILABLE,
        })
    }

    /// The schema's check program as JSON text (see src/check_program.rs),
    /// or undefined when the core checks it alone.
    #[wasm_bindgen(js_name = checkProgram)]
    pub fn check_program(&self) -> Option<String> {
        self.program().map(|program| program.text.clone())
    }

    /// Judges the program's string checks for the batch in the first `len`
    /// bytes of the input buffer (see `CheckProgram::judge_strings`): their
    /// verdicts, a byte a string, are written over the start of the buffer,
    /// and the number that failed is returned; `u32::MAX` when the core
    /// must check the whole value instead.
    #[wasm_bindgen(js_name = judgeStrings)]
    pub fn judge_strings(&self, len: usize) -> u32 {
        let Some(program) = self.program() else {
            return u32::MAX;
        };
        let mut verdicts = Vec::new();
        let judged = INPUT.with(|input| {
            let input = input.borrow();
            let text = std::str::from_utf8(input.get(..len)?).ok()?;
            program.judge_strings(text, &mut verdicts)
        });
        let Some(failed) = judged.and_then(|n| u32::try_from(n).ok()) else {
            return u32::MAX;
        };
        INPUT.with(|input| {
            if let Some(start) = input.borrow_mut().get_mut(..verdicts.len()) {
                start.copy_from_slice(&verdicts);
            }
        });
        failed
    }

    #[wasm_bindgen(getter, js_name = schemaHash)]
    pub fn schema_hash(&self) -> String {
        self.compiled.schema_hash().to_owned()
    }

    /// The memory the compiled schema holds, in bytes (what the schema
    /// cache's memory bound weighs).
    #[wasm_bindgen(getter, js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> u32 {
        u32::try_from(self.compiled.memory_bytes()).unwrap_or(u32::MAX)
    }

    /// The dialect the schema was read in.
    #[wasm_bindgen(getter)]
    pub fn dialect(&self) -> String {
        self.compiled.dialect().as_str().to_owned()
    }

    /// What of the schema the guard cannot enforce, as JSON text (a list of
    /// `{ path, keyword }`).
    #[wasm_bindgen(getter)]
    pub fn unenforced(&self) -> Result<JsValue, JsValue> {
        to_js(self.compiled.unenforced())
    }
}

fn schema_from_text(schema_json: &str) -> Result<Value, JsValue> {
    parse_schema_text(schema_json).map_err(schema_error)
}

#[wasm_bindgen(js_name = compileSchema)]
pub fn compile_schema(schema_json: &str, options_json: &str) -> Result<RawValidator, JsValue> {
    let options = parse_argument("options", options_json)?;
    reject_unknown(&options, &[&COMPILE_OPTION_NAMES], "compileSchema").map_err(argument_error)?;
    let compile = compile_options(&options).map_err(argument_error)?;
    let schema = schema_from_text(schema_json)?;
    // A response-format wrapper compiles to its schema, as checkOutput reads
    // it: taken as a schema itself it would accept everything.
    let (inner, _) = crate::verdict::unwrap_response_format(&schema);
    let compiled = crate::dialect::compile(inner, &compile).map_err(schema_error)?;
    Ok(RawValidator {
        compiled,
        program: std::cell::OnceCell::new(),
    })
}

/// Runs the check. A plain string output is checked in place, and the JSON's
/// position in it comes back as UTF-16 offsets (`textStart`, `textEnd`) for
/// the facade to slice: copying the text back out of wasm would cost as much
/// as the check. Content read out of a response object comes back as `text`.
/// The check options of `checkOutput` or `createStreamCheck` (`what`),
/// compile options allowed beside them.
fn read_check_options(options_json: &str, what: &str) -> Result<CheckOptions, JsValue> {
    let options = parse_argument("options", options_json)?;
    reject_unknown(
        &options,
        &[&COMPILE_OPTION_NAMES, &CHECK_OPTION_NAMES],
        what,
    )
    .map_err(argument_error)?;
    check_options(&options).map_err(argument_error)
}

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
    Ok(JsValue::from_str(&shaped_with_text(&verdict, offsets)))
}

/// The verdict as JSON text plus where its JSON text is: UTF-16 offsets
/// into the caller's string when there are any, else the text itself when
/// it was read out of a response object here.
fn shaped_with_text(verdict: &Verdict, offsets: Option<(usize, Option<usize>)>) -> String {
    let mut out = String::new();
    let Some((start, end)) = offsets else {
        verdict.write_json(&mut out, verdict.text.as_deref());
        return out;
    };
    verdict.write_json(&mut out, None);
    // The verdict is an object: its closing brace makes way for the offsets.
    out.pop();
    out.push_str(",\"textStart\":");
    push_usize(&mut out, start);
    if let Some(end) = end {
        out.push_str(",\"textEnd\":");
        push_usize(&mut out, end);
    }
    out.push('}');
    out
}

/// The length of `text` in UTF-16 code units, which is how JavaScript
/// strings are indexed.
fn utf16_units(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().map(char::len_utf16).sum()
    }
}

/// A byte range of `text` as UTF-16 code unit offsets.
fn utf16_range(text: &str, span: std::ops::Range<usize>) -> (usize, usize) {
    let before = text.get(..span.start).map_or(0, utf16_units);
    let inside = text.get(span).map_or(0, utf16_units);
    (before, before + inside)
}

/// [`utf16_range`] for a result's `textStart`/`textEnd`, without the end
/// when the range runs to the end of the text: the facade's
/// `slice(textStart)` then reads to the end, and a large rejected response
/// is not walked through again just to count its UTF-16 units.
fn utf16_offsets(text: &str, span: std::ops::Range<usize>) -> (usize, Option<usize>) {
    if span.end == text.len() {
        (text.get(..span.start).map_or(0, utf16_units), None)
    } else {
        let (start, end) = utf16_range(text, span);
        (start, Some(end))
    }
}

/// Schema text as read (none given, a schema, or why it could not be read)
/// as a check takes it.
fn schema_input(read: Option<&Result<Value, SchemaError>>) -> SchemaInput<'_> {
    match read {
        None => SchemaInput::None,
        Some(Ok(value)) => SchemaInput::Json(value),
        Some(Err(e)) => SchemaInput::Unreadable(e.clone()),
    }
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
    /// The lean lane's side results: the accepted JSON's UTF-16 offsets, or
    /// the failed verdict as JSON text until the facade takes it.
    static LANE: std::cell::RefCell<(u32, u32, Option<String>)> =
        const { std::cell::RefCell::new((0, 0, None)) };
}

/// Accepted, JSON not rescued / rescued from a code fence; not accepted (the
/// verdict waits in `LANE`); not checked here, so the facade takes the
/// general path; accepted, and the JSON is the whole response (the common
/// case), so the facade needs neither the offsets nor a slice.
const LANE_OK: u32 = 0;
const LANE_OK_FENCE: u32 = 1;
const LANE_FAILED: u32 = 2;
const LANE_UNAVAILABLE: u32 = 3;
const LANE_OK_WHOLE: u32 = 4;

thread_local! {
    /// Where the facade encodes a response for the lane (see `inputBuffer`).
    static INPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A buffer of at least `capacity` bytes for the facade to encode the next
/// response into with `TextEncoder.encodeInto`: the browser's native encoder
/// is several times faster than copying a string in byte by byte. The
/// pointer is valid until the next call into the module.
#[wasm_bindgen(js_name = inputBuffer)]
pub fn input_buffer(capacity: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut buffer = input.borrow_mut();
        if buffer.len() < capacity {
            buffer.resize(capacity, 0);
        }
        buffer.as_mut_ptr()
    })
}

/// The hot path: a string output against a compiled validator, with the
/// default options but `maxErrors` and `requireObject`, or with the check
/// options in `options_json` (see [`LaneOptions`]). The response is the first `len`
/// bytes of the input buffer. Returns a status instead of a result object,
/// so an accepted response costs no result string at all; the offsets are
/// read with `laneStart`/`laneEnd` (unless the JSON is the whole response),
/// a failed verdict with `laneTakeVerdict`.
#[wasm_bindgen(js_name = checkInputLane)]
pub fn check_input_lane(
    len: usize,
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
    with_input(len, |text| {
        check_text_lane(text, None, validator, options, false)
    })
}

/// `lane` over the first `len` bytes of the input buffer as text, or
/// `LANE_UNAVAILABLE` when they are not there or not UTF-8. encodeInto
/// writes well-formed UTF-8; anything else is refused. simdutf8 checks it
/// with simd128, several times faster than core's check, which goes a
/// 32-bit word at a time in wasm: on a 425 KB response the check was about
/// 6% of the call.
fn with_input(len: usize, lane: impl FnOnce(&str) -> u32) -> u32 {
    INPUT.with(
        |input| match input.borrow().get(..len).map(simdutf8::basic::from_utf8) {
            Some(Ok(text)) => lane(text),
            _ => LANE_UNAVAILABLE,
        },
    )
}

/// The lane for a response object whose read the facade already has: the
/// core answered `checkReadLane` for the same copy before (see
/// `readLane` in js/check.mjs, which remembers what it answered). The
/// answer's text is the first `len` bytes of the input buffer and the finish
/// reason the `reason_len` bytes after it; the status is `checkInputLane`'s.
#[wasm_bindgen(js_name = checkInputLaneWithReason)]
pub fn check_input_lane_with_reason(
    len: usize,
    reason_len: usize,
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
    with_input(len.saturating_add(reason_len), |both| {
        match both.split_at_checked(len) {
            Some((text, reason)) => check_text_lane(text, Some(reason), validator, options, true),
            None => LANE_UNAVAILABLE,
        }
    })
}

/// Set in a lane status when the response gave a finish reason: its UTF-8
/// bytes are then at the start of the input buffer, and their length above
/// `LANE_REASON_SHIFT`.
const LANE_HAS_REASON: u32 = 8;

/// How far a lane status shifts the index of the text the answer is (see
/// `checkReadLane`), and the length of the finish reason; each has 12 bits.
const LANE_TEXT_SHIFT: u32 = 4;
const LANE_REASON_SHIFT: u32 = 16;
const LANE_FIELD_LIMIT: u32 = 1 << 12;

/// The lane for a response object, read by the facade's reader along
/// `readPlans().output`. The input buffer holds the strings under the
/// plan's text nodes, one after another, and then, at `copy_start`, the
/// reader's copy as JSON text: `[[byte length of each string], copy]`, where
/// the copy has `["\u0000", i]` in place of string `i`. When the answer is
/// exactly one of those strings (the common case: no parts to join), it is
/// checked where it lies, and the status carries its index above
/// `LANE_TEXT_SHIFT` so the facade slices its own string; anything else
/// (no answer, parts to join, a copy that cannot be read) is
/// `LANE_UNAVAILABLE`.
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
        let Some((texts, copy_text)) = crate::providers::read::split_texts(whole, copy_start)
        else {
            return LANE_UNAVAILABLE;
        };
        let Some((index, reason)) = crate::providers::read::answer_of(copy_text, texts.len())
        else {
            return LANE_UNAVAILABLE;
        };
        let Some(text) = texts.get(index).copied() else {
            return LANE_UNAVAILABLE;
        };
        let reason_len = reason.as_ref().map_or(0, |reason| reason.len());
        let (Ok(index), Ok(reason_bits)) = (u32::try_from(index), u32::try_from(reason_len)) else {
            return LANE_UNAVAILABLE;
        };
        if index >= LANE_FIELD_LIMIT || reason_bits >= LANE_FIELD_LIMIT {
            return LANE_UNAVAILABLE;
        }
        let status = check_text_lane(text, reason.as_deref(), validator, options, true);
        if status == LANE_UNAVAILABLE {
            return status;
        }
        let Some(reason) = reason else {
            return status | (index << LANE_TEXT_SHIFT);
        };
        reason_read = Some(reason);
        status | LANE_HAS_REASON | (index << LANE_TEXT_SHIFT) | (reason_bits << LANE_REASON_SHIFT)
    });
    // The texts are read by now; the reason takes their place.
    if let Some(reason) = reason_read {
        INPUT.with(|input| {
            if let Some(start) = input.borrow_mut().get_mut(..reason.len()) {
                start.copy_from_slice(reason.as_bytes());
            }
        });
    }
    status
}

/// A lane's check options as they cross: the defaults but `max_errors` and
/// `require_object` (options that small cross as numbers and booleans), or
/// the check options in `json` as checkOutput reads them.
#[derive(Clone, Copy)]
struct LaneOptions<'a> {
    max_errors: u32,
    require_object: bool,
    json: Option<&'a str>,
}

impl LaneOptions<'_> {
    /// The check options; `None` when they cannot be read (the general
    /// path then says why) or, for a response object's lane, name
    /// `toolName`, whose answer is a tool call's arguments, which the lane
    /// does not read.
    fn read(self, from_object: bool) -> Option<CheckOptions> {
        let Some(json) = self.json else {
            return Some(CheckOptions {
                max_errors: usize::try_from(self.max_errors).unwrap_or(usize::MAX),
                require_object: self.require_object,
                ..Default::default()
            });
        };
        crate::read_memo::remembered(
            &LANE_OPTIONS,
            json,
            |_| true,
            || read_check_options(json, "checkOutput"),
        )
        .ok()
        .filter(|options| !from_object || options.tool_name.is_none())
    }
}

/// The lane over the response text; with `from_object`, the text is the
/// answer read from a response object.
fn check_text_lane(
    text: &str,
    finish_reason: Option<&str>,
    validator: &RawValidator,
    lane: LaneOptions<'_>,
    from_object: bool,
) -> u32 {
    // The check reads the finish reason only to tell a token limit; any
    // other reason is only written into a failed verdict, below, and an
    // accepted one costs no copy of it.
    let limit = finish_reason.filter(|reason| crate::finish::is_token_limit(reason));
    // With the default options but two numbers (what the lanes are called
    // with most), an accepted text needs no options and no verdict made.
    let mut prepared = None;
    if limit.is_none() && lane.json.is_none() {
        match crate::verdict::accepted(text, &validator.compiled, lane.require_object) {
            Ok((span, rescue)) => return lane_accepted(text, span, rescue),
            Err(parsed) => prepared = parsed,
        }
    }
    let Some(options) = lane.read(from_object) else {
        return LANE_UNAVAILABLE;
    };
    let mut verdict = if limit.is_none() && options.rules.is_empty() {
        let compiled = Some(Arc::clone(&validator.compiled));
        crate::verdict::check_prepared(Some(text), None, compiled, false, &[], &options, prepared)
    } else {
        let input = SchemaInput::Compiled(Arc::clone(&validator.compiled));
        // A compiled validator cannot fail to compile, so this errs only for
        // rules that do not compile, which the general path reports.
        let Ok(verdict) = check_content(text, limit, input, &options) else {
            return LANE_UNAVAILABLE;
        };
        verdict
    };
    if from_object && verdict.failure == Some(crate::error::Failure::Empty) {
        // An empty answer's message names the response's tool calls, if it
        // has any (see `check_output`), which only the general path reads.
        return LANE_UNAVAILABLE;
    }
    if verdict.ok() {
        return lane_accepted(text, verdict.span.unwrap_or(0..0), verdict.rescue);
    }
    if verdict.finish_reason.is_none() {
        verdict.finish_reason = finish_reason.map(str::to_owned);
    }
    let offsets = verdict.span.clone().map(|span| utf16_offsets(text, span));
    let shaped = shaped_with_text(&verdict, offsets);
    LANE.with(|lane| lane.borrow_mut().2 = Some(shaped));
    LANE_FAILED
}

/// The lane's status for an accepted `text` whose JSON is at `span`.
fn lane_accepted(text: &str, span: std::ops::Range<usize>, rescue: crate::rescue::Rescue) -> u32 {
    if rescue == crate::rescue::Rescue::None && span.start == 0 && span.end == text.len() {
        return LANE_OK_WHOLE;
    }
    let (start, end) = utf16_range(text, span);
    let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    LANE.with(|lane| *lane.borrow_mut() = (narrow(start), narrow(end), None));
    if rescue == crate::rescue::Rescue::CodeFence {
        LANE_OK_FENCE
    } else {
        LANE_OK
    }
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

/// A streamed response being checked as it arrives (see `crate::stream`).
/// The facade writes pieces into `staging` with `TextEncoder.encodeInto`
/// and hands them over with `push`: the text crosses once, into the
/// check's own copy, and the facade keeps none.
#[wasm_bindgen(js_name = RawStream)]
pub struct RawStream {
    check: crate::stream::StreamCheck,
    staging: Vec<u8>,
    /// The accepted JSON's place in the text, after `end`.
    accepted: Option<std::ops::Range<usize>>,
}

fn open_stream(input: SchemaInput<'_>, options_json: &str) -> Result<RawStream, JsValue> {
    let options = parse_argument("options", options_json)?;
    reject_unknown(
        &options,
        &[
            &COMPILE_OPTION_NAMES,
            &CHECK_OPTION_NAMES,
            &crate::options::STREAM_CHECK_OPTION_NAMES,
        ],
        "createStreamCheck",
    )
    .map_err(argument_error)?;
    crate::options::partial_option(&options).map_err(argument_error)?;
    let check = check_options(&options).map_err(argument_error)?;
    let check = crate::stream::StreamCheck::new(input, check).map_err(schema_error)?;
    Ok(RawStream {
        check,
        staging: crate::buffer_pool::take(&SPARE_STAGING),
        accepted: None,
    })
}

/// The largest staging buffer kept for the next stream check: 4 MiB, so
/// that what stays held after a long response is bounded.
const SPARE_STAGING_BYTES: usize = 4 << 20;

thread_local! {
    /// The staging buffer of the last stream check freed, for the next
    /// one, which would otherwise grow its own from nothing, copying and
    /// zeroing on the way (see `crate::spare`; the lane keeps its input
    /// buffer too). Kept as it is: what it holds is written over before
    /// it is read.
    static SPARE_STAGING: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for RawStream {
    fn drop(&mut self) {
        let staging = std::mem::take(&mut self.staging);
        if (1..=SPARE_STAGING_BYTES).contains(&staging.capacity()) {
            crate::buffer_pool::keep(&SPARE_STAGING, staging, Vec::capacity);
        }
    }
}

/// A stream check against schema text, read as `checkOutput` reads it
/// (undefined: no schema).
#[wasm_bindgen(js_name = streamOpen)]
pub fn stream_open(schema_json: Option<String>, options_json: &str) -> Result<RawStream, JsValue> {
    let schema = schema_json.map(|text| parse_schema_text(&text));
    open_stream(schema_input(schema.as_ref()), options_json)
}

/// The same against an already compiled validator.
#[wasm_bindgen(js_name = streamOpenWith)]
pub fn stream_open_with(
    validator: &RawValidator,
    options_json: &str,
) -> Result<RawStream, JsValue> {
    open_stream(
        SchemaInput::Compiled(Arc::clone(&validator.compiled)),
        options_json,
    )
}

#[wasm_bindgen(js_class = RawStream)]
impl RawStream {
    /// A buffer of at least `capacity` bytes for the pieces still to be
    /// pushed (what was written there before stays). The pointer is valid
    /// until the next call into the module.
    pub fn staging(&mut self, capacity: usize) -> *mut u8 {
        hot_path::stream::grow_zeroed(&mut self.staging, capacity);
        self.staging.as_mut_ptr()
    }

    /// The next piece of the response: the first `len` staged bytes, an
    /// array item cut within `hold` bytes of the end waiting for the next
    /// piece (see `StreamCheck::hold_items`; 0: none waits).
    /// 0: nothing definite yet; 1: rejected (now or before; the state is
    /// read with `rejection`).
    pub fn push(&mut self, len: usize, hold: usize) -> u32 {
        self.check.hold_items(hold);
        let bytes = self.staging.get(..len).unwrap_or_default();
        // encodeInto writes well-formed UTF-8, checked as the lane checks it.
        let rejected = match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => self.check.push_str(text),
            Err(_) => self.check.push(bytes),
        };
        u32::from(rejected.is_some())
    }

    /// The rejected state as JSON text, once there is one.
    pub fn rejection(&self) -> Option<String> {
        self.check.rejection().map(|r| r.to_json().to_string())
    }

    /// The whole response's verdict, as `checkOutput` shapes it (without
    /// the value: see `json_at`); after a rejection the caller was shown
    /// (`reported`), that rejection (see `StreamCheck::end`).
    pub fn end(
        &mut self,
        finish_reason: Option<String>,
        reported: bool,
    ) -> Result<JsValue, JsValue> {
        if !reported {
            self.check.set_aside_rejection();
        }
        let verdict = self.check.end(finish_reason.as_deref());
        self.accepted = verdict.span.clone().filter(|_| verdict.ok());
        let mut out = String::new();
        verdict.write_json(&mut out, None);
        // A stream that ended after its rejection says where it was decided.
        if let Some(rejection) = self.check.rejection() {
            out.pop();
            out.push_str(",\"atByte\":");
            out.push_str(&rejection.at_byte.to_string());
            out.push('}');
        }
        Ok(JsValue::from_str(&out))
    }

    /// Where the accepted JSON text lies in wasm memory, for the facade to
    /// decode and `JSON.parse` once, without a copy of it made here: its
    /// address (null when the verdict was not accepted), valid until the
    /// next call into the module; `json_length` gives its bytes.
    #[wasm_bindgen(js_name = jsonAt)]
    pub fn json_at(&self) -> *const u8 {
        self.accepted_json().map_or(std::ptr::null(), str::as_ptr)
    }

    /// A tool call the stream carries, by its name, as it begins (see
    /// `StreamCheck::note_tool_call`).
    #[wasm_bindgen(js_name = noteToolCall)]
    pub fn note_tool_call(&mut self, name: &str) {
        self.check.note_tool_call(name);
    }

    /// Asks the check to note what `valueParts` needs, before the first
    /// push (see `StreamCheck::note_outline`).
    #[wasm_bindgen(js_name = noteOutline)]
    pub fn note_outline(&mut self) {
        self.check.note_outline();
    }

    /// The plan for reading the accepted JSON text in parts of about
    /// `part` bytes (see `hot_path::stream::outline`), its offsets from
    /// `json_at`; undefined when it is to be read whole.
    #[wasm_bindgen(js_name = valueParts)]
    pub fn value_parts(&self, part: usize) -> Option<String> {
        self.check.value_parts(self.accepted.clone()?, part)
    }

    /// The first `len` staged bytes kept (not yet checked: the next `push`
    /// checks them, see `StreamCheck::append`), and what changed in the
    /// partial value of the text since the last call, as JSON text (see
    /// `StreamCheck::partial_delta`).
    #[wasm_bindgen(js_name = partialDelta)]
    pub fn partial_delta(&mut self, len: usize) -> String {
        let bytes = self.staging.get(..len).unwrap_or_default();
        self.check.append(bytes);
        self.check.partial_delta()
    }

    /// The bytes of the accepted JSON text (see `json_at`); 0 when the
    /// verdict was not accepted.
    #[wasm_bindgen(js_name = jsonLength)]
    pub fn json_length(&self) -> usize {
        self.accepted_json().map_or(0, str::len)
    }
}

impl RawStream {
    /// The accepted JSON text, in the text the check keeps, after `end`.
    fn accepted_json(&self) -> Option<&str> {
        let span = self.accepted.clone()?;
        self.check.text().get(span)
    }
}

/// The strict flag a response-format wrapper carries, if `schema_json` is one.
#[wasm_bindgen(js_name = wrapperStrict)]
pub fn wrapper_strict(schema_json: &str) -> Option<bool> {
    let schema: Value = serde_json::from_str(schema_json).ok()?;
    crate::verdict::unwrap_response_format(&schema).1
}

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

/// Every option name `guardedCall` takes, as JSON text: `{ own, check }`,
/// its own and those it hands to each check (`checkOutput`'s).
#[wasm_bindgen(js_name = guardOptionNames)]
pub fn guard_option_names() -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Names {
        own: &'static [&'static str],
        check: Vec<&'static str>,
        stream: &'static [&'static str],
    }
    let check = CHECK_OPTION_NAMES
        .iter()
        .chain(&COMPILE_OPTION_NAMES)
        .copied()
        .collect();
    to_js(&Names {
        own: &GUARD_OPTION_NAMES,
        check,
        stream: &STREAM_OPTION_NAMES,
    })
}

/// Where each provider's stream events keep the text, the finish reason and
/// the usage (`crate::providers::stream_events`), as JSON text.
#[wasm_bindgen(js_name = streamReaders)]
pub fn stream_readers() -> String {
    crate::providers::stream_events::stream_readers_json()
}

/// Which members of a response the reader copies
/// (`crate::providers::read`), as JSON text.
#[wasm_bindgen(js_name = readPlans)]
pub fn read_plans() -> String {
    crate::providers::read::plans_json()
}

/// The tool calls in a response read along `readPlans().output`, as JSON
/// text: `{ finishReason, calls: [{ id, name, arguments }] }`, the
/// arguments as JSON text (written here when the SDK had parsed them), ""
/// when the call has none.
#[wasm_bindgen(js_name = readToolCalls)]
pub fn read_tool_calls(response_json: &str) -> Result<JsValue, JsValue> {
    let response = parse_argument("the response", response_json)?;
    Ok(JsValue::from_str(
        &tool_calls_read((&response).into(), 0).to_json(),
    ))
}

/// The calls `readToolCalls` and `readToolCallsAt` give, with the finish
/// reason: each call's arguments as text, or, when they are a reference to
/// one of `texts` strings, its index (`text`).
fn tool_calls_read(response: crate::json_view::JsonRef<'_>, texts: usize) -> CallsRead {
    let calls = crate::response::read_tool_calls(response)
        .into_iter()
        .map(|call| {
            let text = text_reference(&call.arguments, texts);
            let arguments = match text {
                Some(_) => None,
                None => Some(call.arguments.text().unwrap_or_default()),
            };
            CallRead {
                id: call.id,
                name: call.name,
                text,
                arguments,
            }
        })
        .collect();
    CallsRead {
        finish_reason: crate::finish::finish_reason_of(response),
        calls,
    }
}

/// What `tool_calls_read` gives, written as the facade reads it.
struct CallsRead {
    finish_reason: Option<String>,
    calls: Vec<CallRead>,
}

struct CallRead {
    id: Option<String>,
    name: String,
    text: Option<usize>,
    arguments: Option<String>,
}

impl CallsRead {
    /// As JSON text: `{ finishReason, calls: [{ id, name, text | arguments }] }`,
    /// written by hand (serde_json's writer cost more than reading the calls).
    fn to_json(&self) -> String {
        use crate::verdict::{push_json_str, push_usize};
        let string_or_null = |out: &mut String, value: &Option<String>| match value {
            Some(text) => push_json_str(out, text),
            None => out.push_str("null"),
        };
        let mut out = String::with_capacity(64 + 48 * self.calls.len());
        out.push_str("{\"finishReason\":");
        string_or_null(&mut out, &self.finish_reason);
        out.push_str(",\"calls\":[");
        for (i, call) in self.calls.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"id\":");
            string_or_null(&mut out, &call.id);
            out.push_str(",\"name\":");
            push_json_str(&mut out, &call.name);
            if let Some(index) = call.text {
                out.push_str(",\"text\":");
                push_usize(&mut out, index);
            }
            if let Some(arguments) = &call.arguments {
                out.push_str(",\"arguments\":");
                push_json_str(&mut out, arguments);
            }
            out.push('}');
        }
        out.push_str("]}");
        out
    }
}

/// `readToolCalls` of a response the facade read as `checkReadLane` reads
/// one (see `encodeCopy`), with every string that stands at a tool call's
/// `arguments` (or `input`) or id among the strings: the input buffer holds
/// the strings, then at `copy_start` the `copy_len` bytes of
/// `[[byte length of each string], copy]`. A call whose arguments are one
/// of the strings gives its index as `text` instead of the text, so that
/// arguments are neither parsed here nor written back: the facade checks
/// its own string. An id stands in the copy as the facade wrote it (see
/// `call_id` in src/providers/read.rs) and is given back so, which makes
/// the answer a function of the copy alone. `None` when the bytes cannot be
/// read so; the facade then reads the response as `readToolCalls` does.
#[wasm_bindgen(js_name = readToolCallsAt)]
pub fn read_tool_calls_at(copy_start: usize, copy_len: usize) -> Option<String> {
    INPUT.with(|input| {
        let input = input.borrow();
        let whole =
            simdutf8::basic::from_utf8(input.get(..copy_start.checked_add(copy_len)?)?).ok()?;
        let (texts, copy_text) = crate::providers::read::split_texts(whole, copy_start)?;
        // Read in place: a `Value` of the copy cost several times the reading.
        let copy = hot_path::tape::parse(copy_text).ok()?;
        let root = hot_path::tape::TapeNode::full(&copy);
        Some(tool_calls_read(root.into(), texts.len()).to_json())
    })
}

/// The string a call's arguments refer to, where the facade put a
/// reference (it never sends a value of that form as it is, see
/// js/tool-calls.mjs).
fn text_reference(arguments: &crate::response::ToolArguments, count: usize) -> Option<usize> {
    match arguments {
        crate::response::ToolArguments::Value(value) => {
            crate::providers::read::reference_index(value, count)
        }
        _ => None,
    }
}

/// A compiled schema's source as Standard JSON Schema's `jsonSchema.input`
/// and `output` give it: the JSON Schema it means in its dialect, written
/// for `target` ("draft-2020-12" or "draft-07"), as JSON text. `options_json` holds the compile options the
/// schema was compiled with (their `draft` says which draft the schema is
/// written in when its `$schema` does not).
#[wasm_bindgen(js_name = standardJsonSchema)]
pub fn standard_json_schema(
    schema_json: &str,
    target: &str,
    options_json: &str,
) -> Result<JsValue, JsValue> {
    let schema = parse_schema_text(schema_json).map_err(schema_error)?;
    let options = parse_argument("the options", options_json)?;
    let draft = options.get("draft").and_then(Value::as_str);
    // The JSON Schema the validator checks: a dialect's schema (Gemini's,
    // or OpenAPI's `nullable`) translated, as a framework reads a draft.
    let inner = crate::verdict::unwrap_response_format(&schema).0;
    let dialect = options
        .get("dialect")
        .and_then(Value::as_str)
        .and_then(hot_path::schema::Dialect::parse)
        .unwrap_or_else(|| crate::dialect::detect(inner));
    let meant = crate::dialect::translate(inner, dialect).map_err(schema_error)?;
    let schema = meant.map_or(schema, |t| t.schema);
    let out = crate::standard::for_target(&schema, target, draft).map_err(argument_error)?;
    to_js(&out)
}

/// The repair feedback for each refused call of a `checkToolCalls` verdict,
/// as JSON text `[{ id, text }]`; `schemas_json` maps tool names to their
/// input schemas.
#[wasm_bindgen(js_name = toolCallsFeedback)]
pub fn tool_calls_feedback(verdict_json: &str, schemas_json: &str) -> Result<JsValue, JsValue> {
    let verdict = parse_argument("the verdict", verdict_json)?;
    let schemas = parse_argument("the tools' schemas", schemas_json)?;
    let empty = serde_json::Map::new();
    let schemas = schemas.as_object().unwrap_or(&empty);
    let feedback: Vec<Value> = crate::repair::tool_calls_feedback(&verdict, schemas)
        .map_err(argument_error)?
        .into_iter()
        .map(|(id, text)| serde_json::json!({ "id": id, "text": text }))
        .collect();
    to_js(&feedback)
}

/// Starts one check made of the calls until `endCheck`: checking the tool
/// calls of one response is one check, with one pattern budget for all of
/// them (see `schema::one_check`), although each call is checked by a call
/// of its own.
#[wasm_bindgen(js_name = beginCheck)]
pub fn begin_check() {
    hot_path::schema::begin_check();
}

#[wasm_bindgen(js_name = endCheck)]
pub fn end_check() {
    hot_path::schema::end_check();
}

/// The error hash of a failure that carries no issues (a call of a tool
/// nobody declared), as a verdict's `errorHash` would be.
#[wasm_bindgen(js_name = failureHash)]
pub fn failure_hash(failure: &str) -> String {
    hot_path::hash::hex_digest(failure.as_bytes())
}

/// The tools declared in `tools_json` (declarations in any shape, or a
/// whole request), as JSON text: `[{ name, schemaPointer }]`, the pointer
/// null for a tool that takes no arguments.
#[wasm_bindgen(js_name = declaredTools)]
pub fn declared_tools(tools_json: &str) -> Result<JsValue, JsValue> {
    let tools = parse_argument("the tools", tools_json)?;
    declared_json(crate::providers::declarations::declared_tools(&tools))
}

/// `declaredTools` of a list or record found at one of a request's
/// declaration paths (see `requestPlan`), its pointers into the list.
#[wasm_bindgen(js_name = declaredToolsIn)]
pub fn declared_tools_in(list_json: &str) -> Result<JsValue, JsValue> {
    let list = parse_argument("the tools", list_json)?;
    declared_json(crate::providers::declarations::declared_in(&list))
}

fn declared_json(
    declared: Vec<crate::providers::declarations::Declared>,
) -> Result<JsValue, JsValue> {
    let declared: Vec<Value> = declared
        .into_iter()
        .map(|d| serde_json::json!({ "name": d.name, "schemaPointer": d.schema_pointer }))
        .collect();
    to_js(&declared)
}

/// What the wrapper reads of a request, as JSON text: `{ tools: [{ path:
/// string[], leaf }], shape: { members: [name], text: name }, declarations:
/// [path], declarationRules, schemas: [source] }`, where requests declare tools
/// (`crate::providers::tools::TOOL_PATHS`), the members the provider guess
/// for repair feedback reads, in the order the session's `shape` codes
/// follow, with the one whose string it wants (`crate::session::SHAPE_MEMBERS`,
/// `SHAPE_TEXT`), and where checkToolCalls finds a request's declarations
/// (`crate::providers::declarations::DECLARATION_PATHS`) and how it reads
/// each declaration (`crate::providers::declarations::RULES`), and where a
/// request keeps its schema (`crate::providers::request_schema::SCHEMA_SOURCES`).
#[wasm_bindgen(js_name = requestPlan)]
pub fn request_plan() -> Result<JsValue, JsValue> {
    // Written around the two lists' own JSON: `json!` would serialise the
    // tool paths into a Value first, a serialiser the wasm has no other use for.
    let text =
        |e: serde_json::Error| coded_error("internal", &format!("could not build the result: {e}"));
    let tools = serde_json::to_string(&crate::providers::tools::TOOL_PATHS).map_err(text)?;
    let members = serde_json::to_string(&crate::session::SHAPE_MEMBERS).map_err(text)?;
    let declarations =
        serde_json::to_string(&crate::providers::declarations::DECLARATION_PATHS).map_err(text)?;
    let rules = serde_json::to_string(&crate::providers::declarations::RULES).map_err(text)?;
    let schemas =
        serde_json::to_string(&crate::providers::request_schema::SCHEMA_SOURCES).map_err(text)?;
    Ok(JsValue::from_str(&format!(
        "{{\"tools\":{tools},\"shape\":{{\"members\":{members},\"text\":\"{}\"}},\"declarations\":{declarations},\"declarationRules\":{rules},\"schemas\":{schemas}}}",
        crate::session::SHAPE_TEXT
    )))
}

/// The telemetry names of a request, as JSON text `{"provider","operation"}`
/// (see `FeedbackShape::telemetry_names`), from the kinds of its
/// `SHAPE_MEMBERS` (the codes of the session's `shape`) and its model;
/// undefined for a request of no shape the core knows.
#[wasm_bindgen(js_name = requestTelemetryNames)]
pub fn request_telemetry_names(kinds: &[u8], model: Option<String>) -> Option<String> {
    use crate::session::{feedback_shape_for, Kind, RequestShape};
    let mut request = RequestShape {
        model,
        ..RequestShape::default()
    };
    for (kind, code) in request.kinds.iter_mut().zip(kinds) {
        *kind = Kind::from_code(*code);
    }
    let (provider, operation) = feedback_shape_for(&request)?.telemetry_names();
    Some(format!(
        "{{\"provider\":\"{provider}\",\"operation\":\"{operation}\"}}"
    ))
}

/// Feedback for a failed verdict; `schema_json` is undefined without a schema.
#[wasm_bindgen(js_name = repairFeedback)]
pub fn repair_feedback(verdict_json: &str, schema_json: Option<String>) -> Result<String, JsValue> {
    let verdict = parse_argument("the verdict", verdict_json)?;
    let schema = match schema_json {
        None => None,
        Some(text) => Some(parse_schema_text(&text).map_err(schema_error)?),
    };
    crate::repair::repair_feedback(&verdict, schema.as_ref()).map_err(argument_error)
}

/// Text as the package shows it. With `pointer`, `text` is a JSON Pointer
/// whose segments that look like a credential are redacted (an issue's path
/// names the output's own keys, which the model wrote: the audit's tables
/// keep them so). With `escape`, every character a terminal or log viewer
/// would act on (C0 and C1 controls, DEL, the bidirectional overrides and
/// isolates) is then written as `\uXXXX`: the one function every message
/// of the package passes through (see `hot_path::display`), for the facade's
/// own messages, the matchers and the command line. One export for both,
/// as each export's glue costs the package's size budget.
#[wasm_bindgen(js_name = shownText)]
pub fn shown_text(text: &str, pointer: bool, escape: bool) -> String {
    let text = if pointer {
        hot_path::redact::redact_pointer(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    if escape {
        hot_path::display::escape_for_display(&text)
    } else {
        text.into_owned()
    }
}

/// What checked a response, for audit records.
#[wasm_bindgen(js_name = validatorVersion)]
pub fn validator_version() -> String {
    crate::VALIDATOR_VERSION.to_owned()
}

#[wasm_bindgen(js_name = clearSchemaCache)]
pub fn clear_schema_cache() {
    schema::clear_cache();
}

#[wasm_bindgen(js_name = setSchemaCacheCapacity)]
pub fn set_schema_cache_capacity(capacity: u32) {
    schema::set_cache_capacity(usize::try_from(capacity).unwrap_or(usize::MAX));
}

/// Bounds the schema cache by the memory its validators hold, in bytes.
#[wasm_bindgen(js_name = setSchemaCacheMemory)]
pub fn set_schema_cache_memory(bytes: u32) {
    schema::set_cache_memory(usize::try_from(bytes).unwrap_or(usize::MAX));
}

#[wasm_bindgen(js_name = schemaCacheSize)]
pub fn schema_cache_size() -> u32 {
    u32::try_from(schema::cache_len()).unwrap_or(u32::MAX)
}

/// The memory the cached validators hold, in bytes, as each was weighed.
#[wasm_bindgen(js_name = schemaCacheBytes)]
pub fn schema_cache_bytes() -> u32 {
    u32::try_from(schema::cache_bytes()).unwrap_or(u32::MAX)
}

/// The schema cache's default memory bound, in bytes.
#[wasm_bindgen(js_name = schemaCacheDefaultBytes)]
pub fn schema_cache_default_bytes() -> u32 {
    u32::try_from(schema::DEFAULT_CACHE_BYTES).unwrap_or(u32::MAX)
}

/// The schema to send in a provider's structured-output mode, with what that
/// mode leaves unenforced. An unknown provider is misuse; a schema that
/// cannot be read, compiled or expressed in the mode is a schema error.
#[wasm_bindgen(js_name = toProviderSchema)]
pub fn to_provider_schema(schema_json: &str, provider: &str) -> Result<JsValue, JsValue> {
    use crate::provider_schema::Provider;
    let provider = Provider::parse(provider).map_err(argument_error)?;
    let schema = schema_from_text(schema_json)?;
    let converted =
        crate::provider_schema::to_provider_schema(&schema, provider).map_err(schema_error)?;
    to_js(&converted)
}

/// A guarded call's state (`crate::session`), one per running call: the
/// wrapper steps it once per attempt (a first attempt the lane accepts
/// needs no step, see `laneAccepts`), and when the call ends frees it or
/// keeps it, restarted if it was stepped, for a call with the same setup.
#[wasm_bindgen(js_name = RawSession)]
pub struct RawSession {
    session: crate::session::Session,
    /// Whether step results carry the attempt's usage, and summaries each
    /// attempt (see `Setup::step_usage`).
    step_usage: bool,
    summary_attempts: bool,
    /// What `stepLean` left for `takeStep`.
    pending: String,
}

/// The program of a usage shape (see `hot_path::usage::UsageProgram`), which
/// the wrapper keeps by the shape and hands to `stepCounted` with a
/// response's counts.
#[wasm_bindgen(js_name = RawUsageProgram)]
pub struct RawUsageProgram {
    program: hot_path::usage::UsageProgram,
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

/// A lean step's status for a step that is not the lean case: its result,
/// as [`step_json`] writes it, waits in `takeStep`.
const STEP_WRITTEN: u32 = LANE_FAILED;

fn setup_error(e: crate::session::SetupError) -> JsValue {
    match e {
        crate::session::SetupError::Argument(e) => argument_error(e),
        crate::session::SetupError::Schema(e) => schema_error(e),
    }
}

/// What the wrapper read of the request and the options, for a session,
/// as JSON text: `{ check, strict, hasTools, retry, budgets }` as the
/// caller gave them; `tools`, what the reader found at each of
/// `requestPlan().tools`: 0 nothing, 1 tools, 2 could not be read, 3 the
/// text of a nested request, which is the string at the same index of
/// `toolTexts`; `shape`, the kind of each of `requestPlan().shape.members`
/// as `crate::session::Kind` codes (empty when no guess is needed) and
/// `model` the string of its `text` member; `wrapperStrict`;
/// `appendFeedback`; and `feedbackSchema`, the schema's source when the
/// call repairs.
fn read_setup(setup_json: &str) -> Result<crate::session::Setup, JsValue> {
    crate::read_memo::remembered(&SETUPS, setup_json, |_| true, || parse_setup(setup_json))
}

thread_local! {
    /// The last setups read (4, of up to 4 KiB): an agent's guarded calls
    /// repeat the same options and request shape call after call.
    static SETUPS: std::cell::RefCell<crate::read_memo::ReadMemo<crate::session::Setup>> =
        const { std::cell::RefCell::new(crate::read_memo::ReadMemo::new(4, 4096)) };
    /// The last check options the lanes read (4, of up to 4 KiB).
    static LANE_OPTIONS: std::cell::RefCell<crate::read_memo::ReadMemo<CheckOptions>> =
        const { std::cell::RefCell::new(crate::read_memo::ReadMemo::new(4, 4096)) };
}

/// [`read_setup`] of a setup not read before.
fn parse_setup(setup_json: &str) -> Result<crate::session::Setup, JsValue> {
    use crate::providers::tools::Found;
    use crate::session::{Kind, RequestShape, Setup};
    let mut setup = parse_argument("the guarded call's setup", setup_json)?;
    let mut take = |key: &str| setup.get_mut(key).map_or(Value::Null, Value::take);
    let texts = take("toolTexts");
    let mut found = Vec::new();
    for (i, code) in take("tools").as_array().into_iter().flatten().enumerate() {
        found.push(match code.as_u64() {
            Some(0) => Found::Nothing,
            Some(1) => Found::Tools,
            Some(3) => match texts.get(i).and_then(Value::as_str) {
                Some(text) => Found::Text(text.to_owned()),
                None => Found::Unreadable,
            },
            _ => Found::Unreadable,
        });
    }
    let mut request = RequestShape {
        model: take("model").as_str().map(str::to_owned),
        ..RequestShape::default()
    };
    let shape = take("shape");
    for (kind, code) in request
        .kinds
        .iter_mut()
        .zip(shape.as_array().into_iter().flatten())
    {
        *kind = Kind::from_code(
            code.as_u64()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(4),
        );
    }
    Ok(Setup {
        check: take("check"),
        strict: take("strict"),
        has_tools: take("hasTools"),
        retry: take("retry"),
        budgets: take("budgets"),
        wrapper_strict: take("wrapperStrict").as_bool(),
        tools: found,
        request,
        append_feedback: take("appendFeedback").as_bool().unwrap_or(false),
        feedback_schema: take("feedbackSchema")
            .as_str()
            .and_then(|text| parse_schema_text(text).ok()),
        step_usage: take("stepUsage").as_bool().unwrap_or(true),
        summary_attempts: take("summaryAttempts").as_bool().unwrap_or(true),
    })
}

/// A step's result for the wrapper, as JSON text: `{ verdict, action,
/// stoppedBy, usage?, at?, textStart?, textEnd?, text?, message?, warning?,
/// lenientValue?, feedback?, appender?, summary? }`, where `at` is the index of the
/// text the verdict's JSON lies in (at `textStart`..`textEnd`, UTF-16
/// offsets, no end meaning the end), `usage` comes when the setup asked for
/// it (`stepUsage`), and `summary` with a final decision (its `attempts`
/// when the setup asked, `summaryAttempts`).
fn step_json(raw: &RawSession, step: crate::session::Step, texts: &[&str]) -> String {
    let session = &raw.session;
    use crate::error::Action;
    let offsets = match (step.text, step.verdict.span.clone()) {
        (Some(index), Some(span)) => texts
            .get(index)
            .map(|text| (index, utf16_offsets(text, span))),
        _ => None,
    };
    // Written as it is built: a guarded call takes this once per attempt,
    // and building it as a `Value` first cost more than the check.
    let mut out = String::from("{\"verdict\":");
    let text = match offsets {
        None => step.verdict.text.as_deref(),
        Some(_) => None,
    };
    step.verdict.write_json(&mut out, text);
    if let Some((index, (start, end))) = offsets {
        out.push_str(",\"at\":");
        push_usize(&mut out, index);
        out.push_str(",\"textStart\":");
        push_usize(&mut out, start);
        if let Some(end) = end {
            out.push_str(",\"textEnd\":");
            push_usize(&mut out, end);
        }
    }
    out.push_str(",\"action\":");
    push_json_str(&mut out, step.decision.action.as_str());
    out.push_str(",\"stoppedBy\":");
    push_json_opt(&mut out, step.decision.stopped_by.map(|r| r.as_str()));
    // The step's usage is the ledger's last, written when it was recorded.
    if raw.step_usage {
        out.push_str(",\"usage\":");
        out.push_str(session.last_usage_json());
    }
    // With feedback, the built-in appender's name, when the caller gave none.
    let appender = step
        .feedback
        .as_ref()
        .and(session.feedback_shape())
        .map(|shape| shape.as_str().to_owned());
    for (key, value) in [
        ("message", step.message),
        ("warning", step.warning),
        ("feedback", step.feedback),
        ("appender", appender),
    ] {
        if let Some(value) = value {
            out.push_str(",\"");
            out.push_str(key);
            out.push_str("\":");
            push_json_str(&mut out, &value);
        }
    }
    if step.lenient_value {
        out.push_str(",\"lenientValue\":true");
    }
    if !matches!(step.decision.action, Action::Resample | Action::Repair) {
        out.push_str(",\"summary\":");
        out.push_str(&session.summary_json(step.decision.stopped_by, raw.summary_attempts));
    }
    out.push('}');
    out
}

/// The error of a step whose input is not as the wrapper writes it (see
/// `crate::providers::read::read_step`).
fn unreadable_input() -> JsValue {
    coded_error(
        "internal",
        "the response could not be read from the input buffer",
    )
}

/// `f` over the step the wrapper wrote into the input buffer's first
/// `copy_start + copy_len` bytes: the response's texts, its copy and the
/// last text (a usage, or a stream's usage reports), as
/// `crate::providers::read::read_step` splits them.
fn with_step_input<T>(
    copy_start: usize,
    copy_len: usize,
    f: impl FnOnce(Vec<&str>, &str, &str) -> Result<T, JsValue>,
) -> Result<T, JsValue> {
    INPUT.with(|input| {
        let buffer = input.borrow();
        let whole = buffer
            .get(..copy_start.saturating_add(copy_len))
            .and_then(|bytes| simdutf8::basic::from_utf8(bytes).ok())
            .ok_or_else(unreadable_input)?;
        let (texts, copy, last) =
            crate::providers::read::read_step(whole, copy_start).ok_or_else(unreadable_input)?;
        f(texts, copy, last)
    })
}

impl RawSession {
    /// `stepLean`, with the usage read from the input buffer's last text,
    /// or `stepCounted`, with it already made (`counted`); `step`, never
    /// lean, takes the written result from `pending`.
    fn step_with(
        &mut self,
        copy_start: usize,
        copy_len: usize,
        aborted: bool,
        deadline_passed: bool,
        lean: bool,
        counted: Option<hot_path::usage::Usage>,
    ) -> Result<u32, JsValue> {
        with_step_input(copy_start, copy_len, |texts, copy, usage_text| {
            let write_usage = counted.is_none();
            let usage = match counted {
                Some(usage) => usage,
                None => hot_path::usage::normalize_usage_text(usage_text)
                    .ok_or_else(unreadable_input)?,
            };
            let output = crate::session::Output {
                copy,
                texts: texts.clone(),
            };
            let step = self
                .session
                .step_normalized(output, usage, aborted, deadline_passed)
                .map_err(schema_error)?;
            if let Some(status) = lean
                .then(|| self.lean_status(&step, &texts, write_usage))
                .flatten()
            {
                return Ok(status);
            }
            self.pending = step_json(self, step, &texts);
            Ok(STEP_WRITTEN)
        })
    }

    /// The status of a lean step (see `stepLean`), with its reason and,
    /// with `write_usage`, the summary's usage left in `pending`; `None`
    /// when the step is not the lean case.
    fn lean_status(
        &mut self,
        step: &crate::session::Step,
        texts: &[&str],
        write_usage: bool,
    ) -> Option<u32> {
        use crate::error::{Action, StopReason};
        use crate::rescue::Rescue;
        let verdict = &step.verdict;
        let lean = step.decision.action == Action::Accept
            && step.decision.stopped_by == Some(StopReason::Accepted)
            && self.session.attempts() == 1
            && !self.step_usage
            && !self.summary_attempts
            && !verdict.degraded;
        if !lean {
            return None;
        }
        let index = step.text?;
        let text = texts.get(index)?;
        let span = verdict.span.clone()?;
        let reason = verdict.finish_reason.as_deref();
        let reason_len = reason.map_or(0, str::len);
        let index_bits = u32::try_from(index)
            .ok()
            .filter(|&i| i < LANE_FIELD_LIMIT)?;
        let reason_bits = u32::try_from(reason_len)
            .ok()
            .filter(|&n| n < LANE_FIELD_LIMIT)?;
        if !reason.is_none_or(str::is_ascii) {
            return None;
        }
        let code = match verdict.rescue {
            Rescue::None if span.start == 0 && span.end == text.len() => LANE_OK_WHOLE,
            Rescue::None => LANE_OK,
            Rescue::CodeFence => LANE_OK_FENCE,
        };
        if code != LANE_OK_WHOLE {
            let (start, end) = utf16_range(text, span);
            let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            LANE.with(|lane| *lane.borrow_mut() = (narrow(start), narrow(end), None));
        }
        self.pending.clear();
        self.pending.push_str(reason.unwrap_or(""));
        if write_usage {
            self.session.write_usage_json(&mut self.pending);
        }
        let mut status = code | (index_bits << LANE_TEXT_SHIFT);
        if reason.is_some() {
            status |= LANE_HAS_REASON | (reason_bits << LANE_REASON_SHIFT);
        }
        Some(status)
    }
}

#[wasm_bindgen(js_class = RawSession)]
impl RawSession {
    /// A session (see [`read_setup`]) compiling `schema_json` itself (""
    /// for a schema that could not be read, which degrades or throws as the
    /// options say), or, when it is not given, one that `useValidator`
    /// gives its schema.
    #[wasm_bindgen(constructor)]
    pub fn new(setup_json: &str, schema_json: Option<String>) -> Result<RawSession, JsValue> {
        let setup = read_setup(setup_json)?;
        let (step_usage, summary_attempts) = (setup.step_usage, setup.summary_attempts);
        let made = match schema_json {
            None => crate::session::Session::new(setup, Ok(SchemaInput::None)),
            Some(text) => {
                let value = parse_schema_text(&text);
                let schema = value.as_ref().map(SchemaInput::Json).map_err(Clone::clone);
                crate::session::Session::new(setup, schema)
            }
        };
        let session = made.map_err(setup_error)?;
        Ok(RawSession {
            session,
            step_usage,
            summary_attempts,
            pending: String::new(),
        })
    }

    /// The session as it was made, for another call with the same setup
    /// and schema (see `idleSessions` in js/session.mjs).
    pub fn restart(&mut self) {
        self.session.restart();
        self.pending.clear();
    }

    /// Whether a call's first attempt that the lane (`checkReadLane`,
    /// `checkInputLane`, with this session's schema and check options)
    /// accepts ends the call accepted, with a result the wrapper builds
    /// without stepping the session: the policy accepts such an attempt
    /// whatever the situation (see `Session::accepts_first_accepted`), and
    /// the setup asks for neither the step's usage nor each attempt's
    /// (`stepUsage`, `summaryAttempts`), as `stepLean`'s lean case.
    #[wasm_bindgen(js_name = laneAccepts)]
    pub fn lane_accepts(&self) -> bool {
        !self.step_usage && !self.summary_attempts && self.session.accepts_first_accepted()
    }

    /// Checks against `validator` from now on (a session made without a schema).
    #[wasm_bindgen(js_name = useValidator)]
    pub fn use_validator(&mut self, validator: &RawValidator) {
        self.session.use_compiled(Arc::clone(&validator.compiled));
    }

    /// Checks the response the wrapper wrote into the input buffer (see
    /// `crate::providers::read::read_step`) and decides; the result as
    /// [`step_json`] writes it. With `unchecked`, only counts the usage
    /// there, of an attempt whose response will not be checked, and
    /// returns "".
    pub fn step(
        &mut self,
        copy_start: usize,
        copy_len: usize,
        aborted: bool,
        deadline_passed: bool,
        unchecked: bool,
    ) -> Result<String, JsValue> {
        if unchecked {
            return with_step_input(copy_start, copy_len, |_, _, usage| {
                let usage =
                    hot_path::usage::normalize_usage_text(usage).ok_or_else(unreadable_input)?;
                self.session.record_normalized(usage);
                Ok(String::new())
            });
        }
        // Never lean: the result is always written, and handed back here.
        self.step_with(copy_start, copy_len, aborted, deadline_passed, false, None)?;
        Ok(std::mem::take(&mut self.pending))
    }

    /// [`RawSession::step`] of a response to check, answering with a status
    /// as the lanes do. The lean case is a call's first attempt accepted,
    /// with the JSON one of the texts as it is or in a code fence, and a
    /// setup that asks for neither the step's usage nor each attempt's
    /// (`stepUsage`, `summaryAttempts`): the wrapper then builds the result
    /// from what it holds, so no result text is written or parsed. Its
    /// status is the lane's code (`LANE_OK_WHOLE`, `LANE_OK` or
    /// `LANE_OK_FENCE`, the offsets then in `laneStart`/`laneEnd`), the
    /// text's index above `LANE_TEXT_SHIFT`, and, when the response gave a
    /// finish reason (ASCII, as every provider's is), `LANE_HAS_REASON` and
    /// its length above `LANE_REASON_SHIFT`; `takeStep` gives the reason
    /// followed by the summary's usage as JSON text. Any other step is
    /// `STEP_WRITTEN`, and `takeStep` gives its result as `step` does; so is
    /// every step without `lean` (a wrapper that lacks the schema's hash).
    #[wasm_bindgen(js_name = stepLean)]
    pub fn step_lean(
        &mut self,
        copy_start: usize,
        copy_len: usize,
        aborted: bool,
        deadline_passed: bool,
        lean: bool,
    ) -> Result<u32, JsValue> {
        self.step_with(copy_start, copy_len, aborted, deadline_passed, lean, None)
    }

    /// `stepLean` with the attempt's usage given as `program`'s counts (see
    /// `hot_path::usage::UsageProgram`), read from the response in their
    /// order; the usage text in the input buffer is not read. The lean
    /// case's `takeStep` then gives only the finish reason: the wrapper
    /// builds the usage from the program's template and the counts.
    #[wasm_bindgen(js_name = stepCounted)]
    #[allow(clippy::too_many_arguments)]
    pub fn step_counted(
        &mut self,
        copy_start: usize,
        copy_len: usize,
        aborted: bool,
        deadline_passed: bool,
        lean: bool,
        program: &RawUsageProgram,
        counts: &[f64],
    ) -> Result<u32, JsValue> {
        let unreadable = || coded_error("internal", "the usage's counts do not fit its program");
        let mut whole = Vec::with_capacity(counts.len());
        for &count in counts {
            // Integers within ±(2^53 - 1), which the program checks again: exact as i64.
            if count.fract() != 0.0 || !count.is_finite() {
                return Err(unreadable());
            }
            #[allow(clippy::cast_possible_truncation)]
            whole.push(count as i64);
        }
        let usage = program.program.apply(&whole).ok_or_else(unreadable)?;
        self.step_with(
            copy_start,
            copy_len,
            aborted,
            deadline_passed,
            lean,
            Some(usage),
        )
    }

    /// What `stepLean` or `stepCounted` left: see there.
    #[wasm_bindgen(js_name = takeStep)]
    pub fn take_step(&mut self) -> String {
        std::mem::take(&mut self.pending)
    }

    /// A check of a streamed response with the session's schema and options.
    #[wasm_bindgen(js_name = openStream)]
    pub fn open_stream(&self) -> Result<RawStream, JsValue> {
        let check = self.session.stream_check().map_err(schema_error)?;
        Ok(RawStream {
            check,
            staging: Vec::new(),
            accepted: None,
        })
    }

    /// Whether the wrapper stops a stream at a definite rejection.
    #[wasm_bindgen(js_name = stopsStreamsEarly)]
    pub fn stops_streams_early(&self) -> bool {
        self.session.stops_streams_early()
    }

    /// Steps the session with a streamed attempt's verdict as the stream
    /// check gave it (`crate::session::Session::stream_verdict`), the usage
    /// reports its events carried (a JSON list, oldest first) and what it
    /// received; the result as [`step_json`] writes it. With `state_json`
    /// undefined, only records the attempt, which has no verdict, and
    /// returns "".
    #[wasm_bindgen(js_name = stepStream)]
    #[allow(clippy::too_many_arguments)]
    pub fn step_stream(
        &mut self,
        state_json: Option<String>,
        reports_json: &str,
        bytes: usize,
        stopped_early: bool,
        usage_reported: bool,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<String, JsValue> {
        let reports = match parse_argument("the usage reports", reports_json)? {
            Value::Array(reports) => reports,
            _ => Vec::new(),
        };
        let facts = crate::session::StreamFacts {
            bytes,
            stopped_early,
            usage_reported,
        };
        let Some(state_json) = state_json else {
            self.session.record_stream_unchecked(&reports, facts);
            return Ok(String::new());
        };
        let state = parse_argument("the stream's verdict", &state_json)?;
        let verdict = self
            .session
            .stream_verdict(&state)
            .map_err(argument_error)?;
        let step = self
            .session
            .step_stream(verdict, &reports, facts, aborted, deadline_passed)
            .map_err(schema_error)?;
        Ok(step_json(self, step, &[]))
    }

    /// Steps the session with a streamed attempt's whole text, written into
    /// the input buffer as for `step` with the usage reports (a JSON list)
    /// in the usage's place (`crate::session::Session::step_stream_text`).
    #[wasm_bindgen(js_name = stepStreamText)]
    #[allow(clippy::too_many_arguments)]
    pub fn step_stream_text(
        &mut self,
        copy_start: usize,
        copy_len: usize,
        bytes: usize,
        stopped_early: bool,
        usage_reported: bool,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<String, JsValue> {
        with_step_input(copy_start, copy_len, |texts, copy, reports| {
            let reports = serde_json::from_str::<Value>(reports).map_err(|_| unreadable_input())?;
            let reports = match reports {
                Value::Array(reports) => reports,
                _ => Vec::new(),
            };
            let facts = crate::session::StreamFacts {
                bytes,
                stopped_early,
                usage_reported,
            };
            let output = crate::session::Output {
                copy,
                texts: texts.clone(),
            };
            let step = self
                .session
                .step_stream_text(output, &reports, facts, aborted, deadline_passed)
                .map_err(schema_error)?;
            Ok(step_json(self, step, &texts))
        })
    }

    /// `crate::session::Session::summary_json`. With `deadline_ms`
    /// (the option as JavaScript writes it) and `running` (the attempt
    /// still waiting), the summary of a call whose deadline passed: stopped
    /// by the deadline, with the rejection's `message`.
    pub fn summary(&self, deadline_ms: Option<String>, running: u32) -> Result<String, JsValue> {
        let stopped_by = deadline_ms
            .as_ref()
            .map(|_| crate::error::StopReason::Deadline);
        let mut summary = self.session.summary_json(stopped_by, true);
        if let Some(ms) = deadline_ms {
            let running = usize::try_from(running).unwrap_or(usize::MAX);
            // The summary is an object: its closing brace makes way for the message.
            summary.pop();
            summary.push_str(",\"message\":");
            push_json_str(&mut summary, &self.session.deadline_message(&ms, running));
            summary.push('}');
        }
        Ok(summary)
    }
}
