//! A guarded call's state: what `guardedCall` decided before the first model
//! call (the options, the schema, whether the request carries tools, which
//! shape repair feedback takes), and what it recorded since (each attempt's
//! verdict and usage). The JavaScript wrapper awaits the model, runs the
//! timers and the caller's callbacks, and hands each response to
//! [`Session::step`], which checks it, records it and decides what happens
//! next, with the words the caller will read. [`Session::summary_json`] is the
//! usage of every paid attempt, merged, and the audit record.

use std::sync::Arc;

pub mod wire;

use serde_json::Value;

use crate::error::{Action, Failure, StopReason};
use crate::options::{budgets, check_options, ArgumentError};
use crate::policy::{next_action, Attempt, Budgets, Decision, RetryMode, Situation};
use crate::providers::read::text_index;
use crate::providers::tools::{carries_tools, Found};
use crate::repair::repair_feedback_in;
use crate::rescue::Rescue;
use crate::response::read_tool_calls;
use crate::stream::StreamCheck;
use crate::verdict::{
    check_content, check_output, push_json_opt, push_json_str, push_json_value, resolve_schema,
    tool_calls_message, CheckOptions, OnInvalidSchema, SchemaInput, Verdict,
};
use hot_path::schema::{CompiledSchema, Issue, SchemaError};
use hot_path::usage::{merge_normalized, overlay_usage, Usage};

/// The request shapes the built-in feedback appenders know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedbackShape {
    OpenAiChat,
    OpenAiResponses,
    Anthropic,
    Gemini,
}

impl FeedbackShape {
    /// The name the wrapper maps to its appender.
    pub fn as_str(self) -> &'static str {
        match self {
            FeedbackShape::OpenAiChat => "openai_chat",
            FeedbackShape::OpenAiResponses => "openai_responses",
            FeedbackShape::Anthropic => "anthropic",
            FeedbackShape::Gemini => "gemini",
        }
    }

    /// The provider and the operation the OpenTelemetry GenAI semantic
    /// conventions name for a request of this shape (`gen_ai.provider.name`,
    /// `gen_ai.operation.name`): the API the request is written for, which
    /// the conventions accept for servers that speak another's API (an
    /// OpenAI-compatible server is "openai"); Gemini's shape is any Google
    /// endpoint's, Gemini API or Vertex AI.
    pub fn telemetry_names(self) -> (&'static str, &'static str) {
        match self {
            FeedbackShape::OpenAiChat | FeedbackShape::OpenAiResponses => ("openai", "chat"),
            FeedbackShape::Anthropic => ("anthropic", "chat"),
            FeedbackShape::Gemini => ("gcp.gen_ai", "generate_content"),
        }
    }
}

/// What a request member is, as the wrapper's reader saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    /// Absent, or `undefined`.
    #[default]
    Missing,
    Null,
    String,
    Array,
    /// Anything else that is present (an object, a number, a boolean).
    Other,
}

impl Kind {
    /// The wrapper's code for a kind: 0 missing, 1 null, 2 string, 3 array, 4 other.
    pub fn from_code(code: u8) -> Kind {
        match code {
            0 => Kind::Missing,
            1 => Kind::Null,
            2 => Kind::String,
            3 => Kind::Array,
            _ => Kind::Other,
        }
    }
}

/// The request members the provider guess reads, in the order the wrapper
/// reports their kinds.
pub const SHAPE_MEMBERS: [&str; 7] = [
    "contents",
    "input",
    "messages",
    "anthropic_version",
    "model",
    "system",
    "max_tokens",
];

/// The one of [`SHAPE_MEMBERS`] whose text the guess reads, when it is a string.
pub const SHAPE_TEXT: &str = "model";

/// What the wrapper read of a request's [`SHAPE_MEMBERS`]: each one's kind,
/// and [`SHAPE_TEXT`]'s text when it is a string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestShape {
    pub kinds: [Kind; SHAPE_MEMBERS.len()],
    pub model: Option<String>,
}

impl RequestShape {
    fn kind(&self, name: &str) -> Kind {
        SHAPE_MEMBERS
            .iter()
            .position(|member| *member == name)
            .and_then(|i| self.kinds.get(i).copied())
            .unwrap_or_default()
    }

    fn present(&self, name: &str) -> bool {
        self.kind(name) != Kind::Missing
    }
}

/// The appender for a request of a known shape: `contents` (a list, or
/// @google/genai's string or part) is Gemini, `input` (a list or a string)
/// is OpenAI Responses, `messages` with `anthropic_version`, a Claude model,
/// or a top-level `system` beside `max_tokens` is Anthropic, any other
/// `messages` list is the OpenAI-compatible chat shape.
pub fn feedback_shape_for(request: &RequestShape) -> Option<FeedbackShape> {
    if !matches!(request.kind("contents"), Kind::Missing | Kind::Null) {
        return Some(FeedbackShape::Gemini);
    }
    if matches!(request.kind("input"), Kind::Array | Kind::String) {
        return Some(FeedbackShape::OpenAiResponses);
    }
    if request.kind("messages") != Kind::Array {
        return None;
    }
    let claude = request.model.as_deref().is_some_and(|model| {
        model
            .as_bytes()
            .windows(6)
            .any(|w| w.eq_ignore_ascii_case(b"claude"))
    });
    let anthropic = request.present("anthropic_version")
        || claude
        || (request.present("system") && request.present("max_tokens"));
    Some(if anthropic {
        FeedbackShape::Anthropic
    } else {
        FeedbackShape::OpenAiChat
    })
}

/// Everything a session is made from, as the wrapper read it.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// `checkOutput`'s options among the caller's (maxErrors, rules, ...).
    pub check: Value,
    /// `strict`, `hasTools`, `retry` and `budgets` as the caller gave them
    /// (null when not given).
    pub strict: Value,
    pub has_tools: Value,
    pub retry: Value,
    pub budgets: Value,
    /// The schema wrapper's `strict` flag, when the schema is a wrapper.
    pub wrapper_strict: Option<bool>,
    /// What the reader found at each of `providers::tools::TOOL_PATHS`.
    pub tools: Vec<Found>,
    pub request: RequestShape,
    /// Whether the caller gave `appendFeedback`.
    pub append_feedback: bool,
    /// The schema's source, for repair feedback's constraints.
    pub feedback_schema: Option<Value>,
    /// What the facade reads of each step's result beyond what it always
    /// does: the attempt's usage (for an `onAttempt` callback) and the
    /// summary's attempts (for a stats collector). Left out, they cost the
    /// facade a parse on every attempt for nothing.
    pub step_usage: bool,
    pub summary_attempts: bool,
}

/// Why a session could not be made: a mistake in the options, or a schema
/// that cannot be compiled (unless the caller asked to degrade).
#[derive(Debug, Clone, PartialEq)]
pub enum SetupError {
    Argument(ArgumentError),
    Schema(SchemaError),
}

impl From<ArgumentError> for SetupError {
    fn from(e: ArgumentError) -> Self {
        SetupError::Argument(e)
    }
}

/// One response, as the wrapper hands it over: the JSON text of the
/// reader's copy along the output plan (`providers::read`), with
/// `["\u0000", i]` in place of the `i`-th of `texts`. A content string is
/// the copy `["\u0000",0]`; a copy with no references is the response
/// itself.
#[derive(Debug, Clone)]
pub struct Output<'a> {
    pub copy: &'a str,
    pub texts: Vec<&'a str>,
}

/// What one step decided, and what the wrapper says and does about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub verdict: Verdict,
    /// Which of the texts the verdict's `span` points into, when the answer
    /// is exactly one of them (for a content string, 0).
    pub text: Option<usize>,
    pub decision: Decision,
    /// The StructuredOutputError message, when the decision is to reject.
    pub message: Option<String>,
    /// The lenient path's warning.
    pub warning: Option<String>,
    /// On the lenient path: whether the JSON the verdict found is an object,
    /// which is then the value returned (anything else returns null).
    pub lenient_value: bool,
    /// The repair feedback, when the decision is to repair.
    pub feedback: Option<String>,
}

/// One attempt as the ledger keeps it.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    usage: Usage,
    /// `usage` as JSON text, written once, when a step or summary first
    /// gives it (a lean step gives none).
    usage_json: std::cell::OnceCell<String>,
    /// `None` while the attempt has no verdict (its response could not be checked).
    checked: Option<Checked>,
    /// What a streamed attempt received, for the audit.
    stream: Option<StreamFacts>,
}

impl Entry {
    fn usage_json(&self) -> &str {
        self.usage_json.get_or_init(|| {
            let mut text = String::with_capacity(128);
            self.usage.write_json(&mut text);
            text
        })
    }
}

/// What one streamed attempt came to, besides its verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StreamFacts {
    /// UTF-8 bytes of text received before the stream ended or was stopped.
    pub bytes: usize,
    /// The stream was stopped at a definite rejection, before its end.
    pub stopped_early: bool,
    /// Some event reported usage. An attempt stopped early often reported
    /// none: its usage is then empty, never estimated.
    pub usage_reported: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Checked {
    failure: Option<Failure>,
    error_hash: Option<String>,
    rescue: Rescue,
    schema_hash: Option<std::sync::Arc<str>>,
}

#[derive(Debug, Clone)]
pub struct Session {
    budgets: Budgets,
    strict: bool,
    retry: RetryMode,
    carries_tools: bool,
    check: CheckOptions,
    schema: SchemaInput<'static>,
    feedback_shape: Option<FeedbackShape>,
    feedback_schema: Option<Value>,
    ledger: Vec<Entry>,
}

/// How a failed attempt is retried: "identical" (the contract's name),
/// "resample" or "repair".
fn retry_mode(value: &Value) -> Result<RetryMode, ArgumentError> {
    // The wrapper refuses a value that is neither a string nor absent; the
    // names are read here.
    match value {
        Value::Null => Ok(RetryMode::Resample),
        Value::String(s) if s == "identical" || s == "resample" => Ok(RetryMode::Resample),
        Value::String(s) if s == "repair" => Ok(RetryMode::Repair),
        _ => Err(ArgumentError::new(
            "options.retry must be \"identical\" (or \"resample\"), or \"repair\", not another string",
        )),
    }
}

impl Session {
    /// A session for `schema`: a compiled schema, or one to compile from its
    /// source (`Err` when it could not even be read). Unless the caller asked
    /// to degrade, a schema that cannot compile is an error here, before any
    /// model call.
    pub fn new(
        setup: Setup,
        schema: Result<SchemaInput<'_>, SchemaError>,
    ) -> Result<Session, SetupError> {
        let retry = retry_mode(&setup.retry)?;
        let budgets = budgets(&setup.budgets)?;
        let mut check = check_options(&setup.check)?;
        // A schema that cannot compile degrades the check, as checkOutput's
        // does, unless the caller asked to throw: then it is refused here,
        // before any model call. Only the compiled form (or the reason
        // there is none) is kept, so the schema's source need not outlive
        // this call.
        let asked_to_degrade = check.on_invalid_schema == OnInvalidSchema::Degrade;
        let schema: SchemaInput<'static> = match schema {
            Err(e) | Ok(SchemaInput::Unreadable(e)) => {
                if !asked_to_degrade {
                    return Err(SetupError::Schema(e));
                }
                SchemaInput::Unreadable(e)
            }
            Ok(input) => match resolve_schema(input, &check) {
                Ok((Some(compiled), _)) => SchemaInput::Compiled(compiled),
                Ok((None, true)) => {
                    SchemaInput::Unreadable(SchemaError::new("the schema could not be compiled"))
                }
                Ok((None, false)) => SchemaInput::None,
                Err(e) => return Err(SetupError::Schema(e)),
            },
        };
        // A rule that cannot compile is refused before any model call too,
        // whatever `onInvalidSchema` says (it is about the schema).
        crate::rules::compile_rules(&check.rules, &check.compile).map_err(SetupError::Schema)?;
        // Resolved once here; every attempt reuses it.
        check.on_invalid_schema = OnInvalidSchema::Degrade;
        let strict = setup
            .strict
            .as_bool()
            .or(setup.wrapper_strict)
            .unwrap_or(true);
        let has_tools = setup.has_tools.as_bool().unwrap_or(false);
        let feedback_shape = match retry {
            RetryMode::Repair if !setup.append_feedback => {
                Some(feedback_shape_for(&setup.request).ok_or_else(|| {
                    ArgumentError::new(
                        "retry: \"repair\" needs options.appendFeedback(request, text) for this request shape (built in: OpenAI chat, OpenAI Responses, Anthropic messages, Gemini contents)",
                    )
                })?)
            }
            _ => None,
        };
        Ok(Session {
            budgets,
            strict,
            retry,
            // A forced tool call's arguments as the output: the request
            // carries that tool, whether or not its tools are visible here.
            carries_tools: carries_tools(&setup.tools, has_tools) || check.tool_name.is_some(),
            check,
            schema,
            feedback_shape,
            feedback_schema: setup.feedback_schema,
            ledger: Vec::new(),
        })
    }

    /// The session as it was made, before any attempt: for the next call
    /// with the same setup and schema.
    pub fn restart(&mut self) {
        self.ledger.clear();
    }

    /// A session over an already compiled schema.
    pub fn with_compiled(
        setup: Setup,
        compiled: Arc<CompiledSchema>,
    ) -> Result<Session, SetupError> {
        Session::new(setup, Ok(SchemaInput::Compiled(compiled)))
    }

    /// Checks against `compiled` from now on: for a session made without a
    /// schema, whose compiled form the caller already holds.
    pub fn use_compiled(&mut self, compiled: Arc<CompiledSchema>) {
        self.schema = SchemaInput::Compiled(compiled);
    }

    pub fn strict(&self) -> bool {
        self.strict
    }

    pub fn carries_tools(&self) -> bool {
        self.carries_tools
    }

    /// The built-in appender repair feedback goes through, when the caller
    /// gave none.
    pub fn feedback_shape(&self) -> Option<FeedbackShape> {
        self.feedback_shape
    }

    /// The usage of the attempt recorded last as JSON text (`{}` before any).
    pub fn last_usage_json(&self) -> &str {
        self.ledger.last().map_or("{}", Entry::usage_json)
    }

    /// Whether the schema could not be applied, so that every check of
    /// this call ran the parse-level stages only (`degraded` in the audit).
    pub fn degraded(&self) -> bool {
        matches!(self.schema, SchemaInput::Unreadable(_))
    }

    /// Whether a first attempt whose verdict has no failure ends the call
    /// accepted in every situation (aborted or not, past the deadline or
    /// not): what [`next_action`] decides for it with this session's
    /// budgets and setup.
    pub fn accepts_first_accepted(&self) -> bool {
        let accepted = Attempt {
            failure: None,
            error_hash: None,
        };
        [(false, false), (false, true), (true, false), (true, true)]
            .into_iter()
            .all(|(aborted, deadline_passed)| {
                let situation = self.situation(aborted, deadline_passed);
                let decision = next_action(&[], accepted, &self.budgets, situation);
                decision.action == Action::Accept
                    && decision.stopped_by == Some(StopReason::Accepted)
            })
    }

    /// What the decision depends on besides the record of attempts.
    fn situation(&self, aborted: bool, deadline_passed: bool) -> Situation {
        Situation {
            carries_tools: self.carries_tools,
            aborted,
            deadline_passed,
            strict: self.strict,
            retry: self.retry,
        }
    }

    /// Attempts paid for so far.
    pub fn attempts(&self) -> usize {
        self.ledger.len()
    }

    /// Records the usage of an attempt whose response will not be checked
    /// (a callback threw, or the response could not be read), so that the
    /// summary still counts it.
    pub fn record_unchecked(&mut self, usage: &Value) {
        self.record_normalized(Usage::of(usage));
    }

    /// [`Session::record_unchecked`] of a usage already normalised (see
    /// [`hot_path::usage::normalize_usage_text`]).
    pub fn record_normalized(&mut self, usage: Usage) {
        self.ledger.push(Entry {
            usage,
            usage_json: std::cell::OnceCell::new(),
            checked: None,
            stream: None,
        });
    }

    /// The same for a streamed attempt that ended without a verdict (the
    /// stream threw, the caller aborted, the deadline passed): its usage is
    /// what its events reported (see [`overlay_usage`]).
    pub fn record_stream_unchecked(&mut self, reports: &[Value], facts: StreamFacts) {
        self.record_unchecked(&overlay_usage(reports));
        if let Some(entry) = self.ledger.last_mut() {
            entry.stream = Some(facts);
        }
    }

    /// A check of a streamed response with this session's schema and
    /// options, so that its verdict is the one `step` would give the
    /// whole text.
    pub fn stream_check(&self) -> Result<StreamCheck, SchemaError> {
        StreamCheck::new(self.schema.clone(), self.check.clone())
    }

    /// Whether a stream is stopped at a definite rejection. Not on the
    /// lenient path, which returns the output whatever the check says and
    /// so needs all of it.
    pub fn stops_streams_early(&self) -> bool {
        self.strict
    }

    /// The verdict of a streamed attempt, from what the wrapper's stream
    /// check said, as JSON: its early rejection (`{ status: "rejected",
    /// failure, message, errors, moreErrors }`), or the verdict `end` gave
    /// (docs/api.md's shape; the value left out). A rejection's text was never
    /// whole, so nothing was rescued from it and no finish reason ended it.
    pub fn stream_verdict(&self, state: &Value) -> Result<Verdict, ArgumentError> {
        let bad = || ArgumentError::new("the stream's verdict could not be read");
        let text = |key: &str| state.get(key).and_then(Value::as_str).map(str::to_owned);
        let failure = match state.get("failure") {
            None | Some(Value::Null) => None,
            Some(name) => Some(name.as_str().and_then(Failure::parse).ok_or_else(bad)?),
        };
        let rejected = state.get("status").and_then(Value::as_str) == Some("rejected");
        if rejected && failure.is_none() {
            return Err(bad());
        }
        let mut errors = Vec::new();
        for issue in state
            .get("errors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let field = |key: &str| issue.get(key).and_then(Value::as_str).map(str::to_owned);
            errors.push(Issue {
                path: field("path").ok_or_else(bad)?,
                schema_path: field("schemaPath").unwrap_or_default(),
                code: field("code").ok_or_else(bad)?,
                message: field("message").unwrap_or_default(),
                rule: field("rule"),
                params: issue
                    .get("params")
                    .filter(|params| params.is_object())
                    .cloned(),
            });
        }
        let (rescue, schema_hash, degraded, finish_reason) = if rejected {
            let (hash, degraded) = match &self.schema {
                SchemaInput::Compiled(compiled) => (Some(compiled.shared_schema_hash()), false),
                SchemaInput::Unreadable(_) => (None, true),
                SchemaInput::None | SchemaInput::Json(_) => (None, false),
            };
            (Rescue::None, hash, degraded, None)
        } else {
            let rescue = match state.get("rescue").and_then(Value::as_str) {
                Some("code_fence") => Rescue::CodeFence,
                _ => Rescue::None,
            };
            let degraded = state
                .get("degraded")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            (
                rescue,
                text("schemaHash").map(Into::into),
                degraded,
                text("finishReason"),
            )
        };
        Ok(Verdict {
            failure,
            message: text("message").unwrap_or_default(),
            errors,
            more_errors: state
                .get("moreErrors")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            rescue,
            span: None,
            text: None,
            schema_hash,
            degraded,
            finish_reason,
        })
    }

    /// Records a streamed attempt and checks its whole text (`output`, as
    /// [`Session::step`] takes it): for the lenient path, which returns the
    /// JSON object it found even when the check fails, and so needs the
    /// text where the stream check keeps none of it at hand.
    pub fn step_stream_text(
        &mut self,
        output: Output<'_>,
        reports: &[Value],
        facts: StreamFacts,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<Step, SchemaError> {
        self.record_stream_unchecked(reports, facts);
        let (verdict, text, object) = self.check(output)?;
        self.decide(verdict, text, object, aborted, deadline_passed)
    }

    /// Records a streamed attempt whose verdict the stream check already
    /// gave (see [`Session::stream_verdict`]), with the usage reports its
    /// events carried, and decides what happens next, as [`Session::step`]
    /// does for a whole response (the lenient path steps with the text,
    /// see [`Session::step_stream_text`]).
    pub fn step_stream(
        &mut self,
        verdict: Verdict,
        reports: &[Value],
        facts: StreamFacts,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<Step, SchemaError> {
        self.record_stream_unchecked(reports, facts);
        self.decide(verdict, None, false, aborted, deadline_passed)
    }

    /// Checks one response, records it with its usage (a usage object or a
    /// response carrying one) and decides what happens next. The usage is
    /// recorded first, so an attempt is counted even when its check fails.
    pub fn step(
        &mut self,
        output: Output<'_>,
        usage: &Value,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<Step, SchemaError> {
        self.step_normalized(output, Usage::of(usage), aborted, deadline_passed)
    }

    /// [`Session::step`] with a usage already normalised (see
    /// [`hot_path::usage::normalize_usage_text`]).
    pub fn step_normalized(
        &mut self,
        output: Output<'_>,
        usage: Usage,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<Step, SchemaError> {
        self.record_normalized(usage);
        let (verdict, text, object) = self.check(output)?;
        self.decide(verdict, text, object, aborted, deadline_passed)
    }

    /// Records the verdict of the attempt the ledger recorded last and
    /// decides what happens next.
    fn decide(
        &mut self,
        verdict: Verdict,
        text: Option<usize>,
        object: bool,
        aborted: bool,
        deadline_passed: bool,
    ) -> Result<Step, SchemaError> {
        let checked = Checked {
            failure: verdict.failure,
            error_hash: verdict.error_hash(),
            rescue: verdict.rescue,
            schema_hash: verdict.schema_hash.clone(),
        };
        if let Some(entry) = self.ledger.last_mut() {
            entry.checked = Some(checked);
        }
        let mut history = Vec::with_capacity(self.ledger.len());
        for c in self
            .ledger
            .iter()
            .filter_map(|entry| entry.checked.as_ref())
        {
            history.push(Attempt {
                failure: c.failure,
                error_hash: c.error_hash.as_deref(),
            });
        }
        let decision = match history.split_last() {
            Some((current, previous)) => next_action(
                previous,
                *current,
                &self.budgets,
                self.situation(aborted, deadline_passed),
            ),
            // The attempt was just recorded; there is always one.
            None => Decision {
                action: Action::Reject,
                stopped_by: Some(StopReason::Budget),
            },
        };
        let failure = verdict.failure.map_or("", Failure::as_str);
        let mut step = Step {
            text,
            decision,
            message: None,
            warning: None,
            lenient_value: false,
            feedback: None,
            verdict,
        };
        match decision.action {
            Action::Reject => {
                let why = self.why(decision.stopped_by);
                step.message = Some(format!(
                    "The model's output was rejected ({failure}; {why}). {}",
                    step.verdict.message
                ));
            }
            Action::ReturnWithWarning => {
                step.warning = Some(format!("{failure}: {}", step.verdict.message));
                step.lenient_value = object;
            }
            Action::Repair => {
                let feedback = repair_feedback_in(
                    &step.verdict.to_json(),
                    self.feedback_schema.as_ref(),
                    self.check.compile.dialect,
                )
                .map_err(|e| SchemaError::new(e.message))?;
                step.feedback = Some(feedback);
            }
            Action::Accept | Action::Resample => {}
        }
        Ok(step)
    }

    /// The wording of a reason to stop, for the rejection's message.
    fn why(&self, stopped_by: Option<StopReason>) -> String {
        let attempts = self.ledger.len();
        match stopped_by {
            Some(StopReason::Tools) => "the request carries tools, so it is not retried".into(),
            Some(StopReason::Aborted) => "the call was aborted".into(),
            Some(StopReason::Deadline) => "the deadline passed".into(),
            Some(StopReason::RepeatedError) => "the same error came twice in a row".into(),
            Some(StopReason::Budget) => format!(
                "no retries are left after {attempts} {}",
                if attempts == 1 { "attempt" } else { "attempts" }
            ),
            Some(other) => other.as_str().into(),
            None => "no reason".into(),
        }
    }

    /// The message of a call whose deadline passed while attempt `running`
    /// was still waiting for the model; `deadline_ms` is the caller's
    /// option as JavaScript writes the number (no float formatting here,
    /// which would cost the wasm kilobytes).
    pub fn deadline_message(&self, deadline_ms: &str, running: usize) -> String {
        let last = self
            .ledger
            .iter()
            .rev()
            .find_map(|entry| entry.checked.as_ref());
        let failed = match last.and_then(|c| c.failure) {
            Some(failure) => format!("; the last finished attempt failed: {}", failure.as_str()),
            None => String::new(),
        };
        format!("No accepted output within the deadline of {deadline_ms} ms (attempt {running} was still running){failed}.")
    }

    /// [`Session::summary_json`] read back, for the tests to look into.
    #[cfg(test)]
    pub fn summary(&self, stopped_by: Option<StopReason>) -> Value {
        serde_json::from_slice(self.summary_json(stopped_by, true).as_bytes()).unwrap_or_default()
    }

    /// The usage of every attempt, merged; with `attempts_too`, each
    /// attempt's failure and usage (`"unreadable"` for one that has no
    /// verdict, `null` when accepted); and the audit record, with
    /// `stopped_by`. As JSON text, written as it
    /// is built: a guarded call ends with it, and building it as a `Value`
    /// first cost more than the check.
    pub fn summary_json(&self, stopped_by: Option<StopReason>, attempts_too: bool) -> String {
        let mut attempts = String::from("[");
        let mut audited = String::from("[");
        let mut schema_hash = None;
        for entry in &self.ledger {
            let failure = match &entry.checked {
                None => Some("unreadable"),
                Some(c) => c.failure.map(Failure::as_str),
            };
            if attempts_too {
                if attempts.len() > 1 {
                    attempts.push(',');
                }
                attempts.push_str("{\"failure\":");
                push_json_opt(&mut attempts, failure);
                attempts.push_str(",\"usage\":");
                attempts.push_str(entry.usage_json());
                attempts.push('}');
            }
            let Some(c) = &entry.checked else { continue };
            if audited.len() > 1 {
                audited.push(',');
            }
            audited.push_str("{\"failure\":");
            push_json_opt(&mut audited, c.failure.map(Failure::as_str));
            audited.push_str(",\"errorHash\":");
            push_json_opt(&mut audited, c.error_hash.as_deref());
            audited.push_str(",\"rescue\":");
            push_json_str(&mut audited, c.rescue.as_str());
            if let Some(facts) = entry.stream {
                audited.push_str(&format!(
                    ",\"bytes\":{},\"stoppedEarly\":{},\"usageReported\":{}",
                    facts.bytes, facts.stopped_early, facts.usage_reported
                ));
            }
            audited.push('}');
            if schema_hash.is_none() {
                schema_hash.clone_from(&c.schema_hash);
            }
        }
        attempts.push(']');
        audited.push(']');
        let mut out = String::from("{\"usage\":");
        self.write_usage_json(&mut out);
        if attempts_too {
            out.push_str(",\"attempts\":");
            out.push_str(&attempts);
        }
        out.push_str(",\"audit\":{\"attempts\":");
        out.push_str(&audited);
        out.push_str(",\"schemaHash\":");
        push_json_opt(&mut out, schema_hash.as_deref());
        out.push_str(",\"validatorVersion\":");
        push_json_str(&mut out, crate::VALIDATOR_VERSION);
        out.push_str(",\"stoppedBy\":");
        push_json_opt(&mut out, stopped_by.map(StopReason::as_str));
        out.push_str(",\"degraded\":");
        out.push_str(if self.degraded() { "true" } else { "false" });
        out.push_str("}}");
        out
    }

    /// The usage of every attempt, merged, as JSON text (the summary's `usage`).
    pub fn write_usage_json(&self, out: &mut String) {
        match self.ledger.as_slice() {
            // One attempt's usage, which its own text already says.
            [only] if only.usage.merges_to_itself() => out.push_str(only.usage_json()),
            _ => push_json_value(
                out,
                &merge_normalized(self.ledger.iter().map(|entry| &entry.usage)),
            ),
        }
    }

    /// The verdict, which text its span points into, and whether the JSON it
    /// found is an object. For a copy whose
    /// answer is exactly one of the texts, the check runs on that text where
    /// it lies, as `checkOutput`'s lane does; anything else (a tool's
    /// arguments, parts to join) is checked as the whole copy.
    fn check(&self, output: Output<'_>) -> Result<(Verdict, Option<usize>, bool), SchemaError> {
        let schema = self.schema.clone();
        let Output {
            copy: copy_text,
            texts,
        } = output;
        // Without `toolName` the answer is read as the lane reads it, from
        // the copy's text, which a provider's responses repeat.
        let answer = match self.check.tool_name {
            None => crate::response::answer_of(copy_text, texts.len()),
            Some(_) => None,
        };
        // Parsed at most once, and only when the answer is not one of the
        // texts or the check needs the rest of the response. The reader
        // writes the copy; one that does not parse reads as nothing.
        let parsed = std::cell::OnceCell::new();
        let copy = || {
            parsed.get_or_init(|| {
                serde_json::from_slice::<Value>(copy_text.as_bytes()).unwrap_or_default()
            })
        };
        let answer = answer.or_else(|| {
            // A content string is checked as content, as checkOutput checks
            // a string, `toolName` or not.
            let stand_ins = crate::providers::read::with_stand_ins(copy(), texts.len())?;
            let index = match stand_ins {
                Value::String(ref text) => text_index(text)?,
                _ => return None,
            };
            Some((index, None))
        });
        if let Some((index, finish_reason)) = answer {
            if let Some(text) = texts.get(index).copied() {
                let mut verdict =
                    check_content(text, finish_reason.as_deref(), schema, &self.check)?;
                if verdict.failure == Some(Failure::Empty) {
                    // As `check_output` words it: the response may carry tool calls instead.
                    let filled = crate::providers::read::with_texts(copy(), &texts);
                    let calls = filled.as_ref().map(read_tool_calls).unwrap_or_default();
                    if !calls.is_empty() {
                        verdict.message = tool_calls_message(&calls, None);
                    }
                }
                let object = found_object(&verdict, Some(text));
                return Ok((verdict, Some(index), object));
            }
        }
        let filled = crate::providers::read::with_texts(copy(), &texts).unwrap_or_default();
        let verdict = check_output(&filled, schema, &self.check)?;
        let object = found_object(&verdict, None);
        Ok((verdict, None, object))
    }
}

/// Whether the JSON the verdict found in `content` is an object. The span
/// covers the rescued text, which is trimmed, so it starts with the JSON's
/// first token; there is no span when the content did not parse.
fn found_object(verdict: &Verdict, content: Option<&str>) -> bool {
    let text = match (&verdict.span, content) {
        (Some(span), Some(content)) => content.get(span.clone()),
        _ => verdict.text.as_deref(),
    };
    verdict.span.is_some() && text.is_some_and(|t| t.starts_with('{'))
}

#[cfg(test)]
mod tests;
