//! Guarded calls (`RawSession`): each export reads its arguments, steps
//! the session (`crate::session`) and writes the result as
//! `crate::session::wire` says.

use std::sync::Arc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::check::leave_offsets;
use super::schemas::RawValidator;
use super::stream::RawStream;
use super::usage::RawUsageProgram;
use super::{argument_error, coded_error, parse_argument, schema_error, INPUT};
use crate::session::wire::{lean_status, step_json, Reads};
use crate::session::{Output, Session, Setup, SetupError, StreamFacts};
use crate::status;
use crate::verdict::SchemaInput;
use hot_path::schema::parse_schema_text;

/// A guarded call's state (`crate::session`), one per running call: the
/// wrapper steps it once per attempt (a first attempt the lane accepts
/// needs no step, see `laneAccepts`), and when the call ends frees it or
/// keeps it, restarted if it was stepped, for a call with the same setup.
#[wasm_bindgen(js_name = RawSession)]
pub struct RawSession {
    session: Session,
    /// Whether step results carry the attempt's usage, and summaries each
    /// attempt (see `Setup::step_usage`).
    reads: Reads,
    /// What `stepLean` left for `takeStep`.
    pending: String,
}

fn setup_error(e: SetupError) -> JsValue {
    match e {
        SetupError::Argument(e) => argument_error(e),
        SetupError::Schema(e) => schema_error(e),
    }
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

/// The usage reports a stream's events carried, as the wrapper lists them.
fn reports_of(value: Value) -> Vec<Value> {
    match value {
        Value::Array(reports) => reports,
        _ => Vec::new(),
    }
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
            let output = Output {
                copy,
                texts: texts.clone(),
            };
            let step = self
                .session
                .step_normalized(output, usage, aborted, deadline_passed)
                .map_err(schema_error)?;
            if lean {
                let answer = lean_status(
                    &self.session,
                    self.reads,
                    &step,
                    &texts,
                    write_usage,
                    &mut self.pending,
                );
                if let Some(answer) = answer {
                    if let Some((start, end)) = answer.offsets {
                        leave_offsets(start, end);
                    }
                    return Ok(answer.status);
                }
            }
            self.pending = step_json(&self.session, self.reads, step, &texts);
            Ok(status::FAILED)
        })
    }
}

#[wasm_bindgen(js_class = RawSession)]
impl RawSession {
    /// A session (see `Setup::read`) compiling `schema_json` itself (""
    /// for a schema that could not be read, which degrades or throws as the
    /// options say), or, when it is not given, one that `useValidator`
    /// gives its schema.
    #[wasm_bindgen(constructor)]
    pub fn new(setup_json: &str, schema_json: Option<String>) -> Result<RawSession, JsValue> {
        let setup = Setup::read(setup_json).map_err(argument_error)?;
        let reads = Reads {
            step_usage: setup.step_usage,
            summary_attempts: setup.summary_attempts,
        };
        let made = match schema_json {
            None => Session::new(setup, Ok(SchemaInput::None)),
            Some(text) => {
                let value = parse_schema_text(&text);
                let schema = value.as_ref().map(SchemaInput::Json).map_err(Clone::clone);
                Session::new(setup, schema)
            }
        };
        let session = made.map_err(setup_error)?;
        Ok(RawSession {
            session,
            reads,
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
        !self.reads.step_usage
            && !self.reads.summary_attempts
            && self.session.accepts_first_accepted()
    }

    /// Checks against `validator` from now on (a session made without a schema).
    #[wasm_bindgen(js_name = useValidator)]
    pub fn use_validator(&mut self, validator: &RawValidator) {
        self.session.use_compiled(Arc::clone(&validator.compiled));
    }

    /// Checks the response the wrapper wrote into the input buffer (see
    /// `crate::providers::read::read_step`) and decides; the result as
    /// `crate::session::wire::step_json` writes it. With `unchecked`, only
    /// counts the usage there, of an attempt whose response will not be
    /// checked, and returns "".
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
    /// as the lanes do (`crate::status`): for the lean case (see
    /// `crate::session::wire::lean_status`) the lane's code with the text's
    /// index and the finish reason's length, the offsets then in
    /// `laneStart`/`laneEnd`, and `takeStep` gives the reason followed by
    /// the summary's usage as JSON text. Any other step is `status::FAILED`,
    /// and `takeStep` gives its result as `step` does; so is every step
    /// without `lean` (a wrapper that lacks the schema's hash).
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
        let usage = program
            .apply(counts)
            .ok_or_else(|| coded_error("internal", "the usage's counts do not fit its program"))?;
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
        Ok(RawStream::new(check, false))
    }

    /// Whether the wrapper stops a stream at a definite rejection.
    #[wasm_bindgen(js_name = stopsStreamsEarly)]
    pub fn stops_streams_early(&self) -> bool {
        self.session.stops_streams_early()
    }

    /// Steps the session with a streamed attempt's verdict as the stream
    /// check gave it (`crate::session::Session::stream_verdict`), the usage
    /// reports its events carried (a JSON list, oldest first) and what it
    /// received; the result as `step_json` writes it. With `state_json`
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
        let reports = reports_of(parse_argument("the usage reports", reports_json)?);
        let facts = StreamFacts {
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
        Ok(step_json(&self.session, self.reads, step, &[]))
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
            let reports = serde_json::from_slice::<Value>(reports.as_bytes())
                .map_err(|_| unreadable_input())?;
            let facts = StreamFacts {
                bytes,
                stopped_early,
                usage_reported,
            };
            let output = Output {
                copy,
                texts: texts.clone(),
            };
            let step = self
                .session
                .step_stream_text(
                    output,
                    &reports_of(reports),
                    facts,
                    aborted,
                    deadline_passed,
                )
                .map_err(schema_error)?;
            Ok(step_json(&self.session, self.reads, step, &texts))
        })
    }

    /// `crate::session::Session::summary_at`: with `deadline_ms` (the
    /// option as JavaScript writes it) and `running` (the attempt still
    /// waiting), the summary of a call whose deadline passed.
    pub fn summary(&self, deadline_ms: Option<String>, running: u32) -> Result<String, JsValue> {
        let running = usize::try_from(running).unwrap_or(usize::MAX);
        Ok(self.session.summary_at(deadline_ms.as_deref(), running))
    }
}
