//! A session's text at the boundary: the setup the wrapper writes as JSON
//! text, read into a [`Setup`]; a step's result written as the wrapper
//! reads it ([`step_json`]), or, for a first attempt accepted, the lane's
//! status alone ([`lean_status`]); and a deadline's summary.

use serde_json::Value;

use super::{Kind, RequestShape, Session, Setup, Step};
use crate::error::{Action, StopReason};
use crate::options::ArgumentError;
use crate::providers::tools::Found;
use crate::read_memo::ReadMemo;
use crate::status;
use crate::verdict::{push_json_opt, push_json_str, push_usize, utf16_offsets, utf16_range};

/// The codes of what the reader found at each of `requestPlan().tools`.
const FOUND_NOTHING: u64 = 0;
const FOUND_TOOLS: u64 = 1;
const FOUND_TEXT: u64 = 3;

thread_local! {
    /// The last setups read (4, of up to 4 KiB): an agent's guarded calls
    /// repeat the same options and request shape call after call.
    static SETUPS: std::cell::RefCell<ReadMemo<Setup>> =
        const { std::cell::RefCell::new(ReadMemo::new(4, 4096)) };
}

impl Setup {
    /// What the wrapper read of the request and the options, for a session,
    /// as JSON text: `{ check, strict, hasTools, retry, budgets }` as the
    /// caller gave them; `tools`, what the reader found at each of
    /// `requestPlan().tools`: 0 nothing, 1 tools, 2 could not be read, 3 the
    /// text of a nested request, which is the string at the same index of
    /// `toolTexts`; `shape`, the kind of each of `requestPlan().shape.members`
    /// as [`Kind`] codes (empty when no guess is needed) and `model` the
    /// string of its `text` member; `wrapperStrict`; `appendFeedback`; and
    /// `feedbackSchema`, the schema's source when the call repairs.
    pub fn read(setup_json: &str) -> Result<Setup, ArgumentError> {
        crate::read_memo::remembered(&SETUPS, setup_json, |_| true, || Setup::parse(setup_json))
    }

    /// [`Setup::read`] of a setup not read before.
    fn parse(setup_json: &str) -> Result<Setup, ArgumentError> {
        let mut setup: Value = serde_json::from_slice(setup_json.as_bytes()).map_err(|e| {
            ArgumentError::new(format!(
                "the guarded call's setup could not be read as JSON ({e})"
            ))
        })?;
        let mut take = |key: &str| setup.get_mut(key).map_or(Value::Null, Value::take);
        let texts = take("toolTexts");
        let mut found = Vec::new();
        for (i, code) in take("tools").as_array().into_iter().flatten().enumerate() {
            found.push(match code.as_u64() {
                Some(FOUND_NOTHING) => Found::Nothing,
                Some(FOUND_TOOLS) => Found::Tools,
                Some(FOUND_TEXT) => match texts.get(i).and_then(Value::as_str) {
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
                .and_then(|text| hot_path::schema::parse_schema_text(text).ok()),
            step_usage: take("stepUsage").as_bool().unwrap_or(true),
            summary_attempts: take("summaryAttempts").as_bool().unwrap_or(true),
        })
    }
}

/// What the wrapper reads of each step beyond what it always does (see
/// `Setup::step_usage`, `Setup::summary_attempts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    pub step_usage: bool,
    pub summary_attempts: bool,
}

/// A step's result for the wrapper, as JSON text: `{ verdict, action,
/// stoppedBy, usage?, at?, textStart?, textEnd?, text?, message?, warning?,
/// lenientValue?, feedback?, appender?, summary? }`, where `at` is the index of the
/// text the verdict's JSON lies in (at `textStart`..`textEnd`, UTF-16
/// offsets, no end meaning the end), `usage` comes when the setup asked for
/// it (`stepUsage`), and `summary` with a final decision (its `attempts`
/// when the setup asked, `summaryAttempts`).
pub fn step_json(session: &Session, reads: Reads, step: Step, texts: &[&str]) -> String {
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
    if reads.step_usage {
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
        out.push_str(&session.summary_json(step.decision.stopped_by, reads.summary_attempts));
    }
    out.push('}');
    out
}

/// A lean step's answer (see [`lean_status`]): the status, and the JSON's
/// UTF-16 offsets in its text unless it is the whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lean {
    pub status: u32,
    pub offsets: Option<(usize, usize)>,
}

/// The lean case of a step: a call's first attempt accepted, with the JSON
/// one of the texts as it is or in a code fence, a finish reason (if any)
/// in ASCII, and a setup that asks for neither the step's usage nor each
/// attempt's, so the wrapper builds the result from what it holds. Its
/// status is the lane's code (`crate::status`) with the text's index and
/// the reason's length; `pending` gets the reason followed, with
/// `write_usage`, by the summary's usage as JSON text. `None` for any other
/// step.
pub fn lean_status(
    session: &Session,
    reads: Reads,
    step: &Step,
    texts: &[&str],
    write_usage: bool,
    pending: &mut String,
) -> Option<Lean> {
    let verdict = &step.verdict;
    let lean = step.decision.action == Action::Accept
        && step.decision.stopped_by == Some(StopReason::Accepted)
        && session.attempts() == 1
        && !reads.step_usage
        && !reads.summary_attempts
        && !verdict.degraded;
    if !lean {
        return None;
    }
    let index = step.text?;
    let text = texts.get(index)?;
    let span = verdict.span.clone()?;
    let reason = verdict.finish_reason.as_deref();
    if !reason.is_none_or(str::is_ascii) {
        return None;
    }
    let whole = span.start == 0 && span.end == text.len();
    let code = status::accepted(verdict.rescue, whole);
    let status = status::with_fields(code, index, reason.map(str::len))?;
    let offsets = (code != status::OK_WHOLE).then(|| utf16_range(text, span));
    pending.clear();
    pending.push_str(reason.unwrap_or(""));
    if write_usage {
        session.write_usage_json(pending);
    }
    Some(Lean { status, offsets })
}

/// What the wrapper reads of a request, as JSON text: `{ tools: [{ path:
/// string[], leaf }], shape: { members: [name], text: name }, declarations:
/// [path], declarationRules, schemas: [source] }`, where requests declare tools
/// (`crate::providers::tools::TOOL_PATHS`, the order of the setup's `tools`
/// codes), the members the provider guess for repair feedback reads, in the
/// order the setup's `shape` codes follow, with the one whose string it
/// wants ([`super::SHAPE_MEMBERS`], [`super::SHAPE_TEXT`]), and where
/// checkToolCalls finds a request's declarations
/// (`crate::providers::declarations::DECLARATION_PATHS`) and how it reads
/// each declaration (`crate::providers::declarations::RULES`), and where a
/// request keeps its schema (`crate::providers::request_schema::SCHEMA_SOURCES`).
pub fn request_plan_json() -> Result<String, serde_json::Error> {
    // Written around the lists' own JSON: `json!` would serialise the
    // tool paths into a Value first, a serialiser the wasm has no other use for.
    let tools = serde_json::to_string(&crate::providers::tools::TOOL_PATHS)?;
    let members = serde_json::to_string(&super::SHAPE_MEMBERS)?;
    let declarations = serde_json::to_string(&crate::providers::declarations::DECLARATION_PATHS)?;
    let rules = serde_json::to_string(&crate::providers::declarations::RULES)?;
    let schemas = serde_json::to_string(&crate::providers::request_schema::SCHEMA_SOURCES)?;
    Ok(format!(
        "{{\"tools\":{tools},\"shape\":{{\"members\":{members},\"text\":\"{}\"}},\"declarations\":{declarations},\"declarationRules\":{rules},\"schemas\":{schemas}}}",
        super::SHAPE_TEXT
    ))
}

/// The telemetry names of a request, as JSON text `{"provider","operation"}`
/// (see `FeedbackShape::telemetry_names`), from the [`Kind`] codes of its
/// [`super::SHAPE_MEMBERS`] and its model; `None` for a request of no shape
/// the core knows.
pub fn telemetry_names_json(kinds: &[u8], model: Option<String>) -> Option<String> {
    let mut request = RequestShape {
        model,
        ..RequestShape::default()
    };
    for (kind, code) in request.kinds.iter_mut().zip(kinds) {
        *kind = Kind::from_code(*code);
    }
    let (provider, operation) = super::feedback_shape_for(&request)?.telemetry_names();
    Some(format!(
        "{{\"provider\":\"{provider}\",\"operation\":\"{operation}\"}}"
    ))
}

impl Session {
    /// [`Session::summary_json`] with every attempt; with `deadline_ms`
    /// (the option as JavaScript writes it) and `running` (the attempt
    /// still waiting), the summary of a call whose deadline passed:
    /// stopped by the deadline, with the rejection's `message`.
    pub fn summary_at(&self, deadline_ms: Option<&str>, running: usize) -> String {
        let stopped_by = deadline_ms.map(|_| StopReason::Deadline);
        let mut summary = self.summary_json(stopped_by, true);
        if let Some(ms) = deadline_ms {
            // The summary is an object: its closing brace makes way for the message.
            summary.pop();
            summary.push_str(",\"message\":");
            push_json_str(&mut summary, &self.deadline_message(ms, running));
            summary.push('}');
        }
        summary
    }
}

#[cfg(test)]
mod tests;
