//! The lanes: the check of a string output, or of the answer read from a
//! response object, against a compiled validator, answered with a status
//! (`crate::status`) instead of a result text, so an accepted response costs
//! no result string at all. The boundary (`src/wasm/check.rs`) hands the
//! bytes the facade encoded and keeps the side results ([`Answer`]) for
//! the facade to take.

use std::rc::Rc;
use std::sync::Arc;

use crate::options::check_options_of;
use crate::read_memo::ReadMemo;
use crate::rescue::Rescue;
use crate::status;
use crate::verdict::{
    check_content, utf16_offsets, utf16_range, write_with_offsets, CheckOptions, SchemaInput,
};
use hot_path::schema::CompiledSchema;

/// A lane's check options as they cross: the defaults but `max_errors` and
/// `require_object` (options that small cross as numbers and booleans), or
/// the check options in `json` as checkOutput reads them.
#[derive(Clone, Copy)]
pub struct LaneOptions<'a> {
    pub max_errors: u32,
    pub require_object: bool,
    pub json: Option<&'a str>,
}

thread_local! {
    /// The last check options the lanes read (4, of up to 4 KiB).
    static LANE_OPTIONS: std::cell::RefCell<ReadMemo<CheckOptions>> =
        const { std::cell::RefCell::new(ReadMemo::new(4, 4096)) };
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
            || read_options(json).ok_or(()),
        )
        .ok()
        .filter(|options| !from_object || options.tool_name.is_none())
    }
}

/// `checkOutput`'s options as its general path reads them; `None` when
/// they cannot be read, which the general path reports.
fn read_options(json: &str) -> Option<CheckOptions> {
    let options: serde_json::Value = serde_json::from_slice(json.as_bytes()).ok()?;
    check_options_of(&options, "checkOutput").ok()
}

/// What a lane answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Accepted, and the JSON is the whole text.
    Whole,
    /// Accepted, the JSON at these UTF-16 offsets of the text; `fenced`
    /// when it was rescued from a code fence.
    Slice {
        fenced: bool,
        start: usize,
        end: usize,
    },
    /// Not accepted: the verdict as `checkOutput` writes it, with the JSON's
    /// offsets in the text.
    Failed(String),
    /// Not checked here: the general path checks it.
    Unavailable,
}

impl Answer {
    /// The answer's status code (`crate::status`).
    pub fn code(&self) -> u32 {
        match self {
            Answer::Whole => status::OK_WHOLE,
            Answer::Slice { fenced: true, .. } => status::OK_FENCE,
            Answer::Slice { fenced: false, .. } => status::OK,
            Answer::Failed(_) => status::FAILED,
            Answer::Unavailable => status::UNAVAILABLE,
        }
    }

    /// The answer for an accepted `text` whose JSON is at `span`.
    pub fn accepted(text: &str, span: std::ops::Range<usize>, rescue: Rescue) -> Answer {
        if rescue == Rescue::None && span.start == 0 && span.end == text.len() {
            return Answer::Whole;
        }
        let (start, end) = utf16_range(text, span);
        Answer::Slice {
            fenced: rescue == Rescue::CodeFence,
            start,
            end,
        }
    }
}

/// The lane over the response text; with `from_object`, the text is the
/// answer read from a response object, and `finish_reason` the reason it
/// gave.
pub fn check_text(
    text: &str,
    finish_reason: Option<&str>,
    compiled: &Arc<CompiledSchema>,
    lane: LaneOptions<'_>,
    from_object: bool,
) -> Answer {
    // The check reads the finish reason only to tell a token limit; any
    // other reason is only written into a failed verdict, below, and an
    // accepted one costs no copy of it.
    let limit = finish_reason.filter(|reason| crate::finish::is_token_limit(reason));
    // With the default options but two numbers (what the lanes are called
    // with most), an accepted text needs no options and no verdict made.
    let mut prepared = None;
    if limit.is_none() && lane.json.is_none() {
        match crate::verdict::accepted(text, compiled, lane.require_object) {
            Ok((span, rescue)) => return Answer::accepted(text, span, rescue),
            Err(parsed) => prepared = parsed,
        }
    }
    let Some(options) = lane.read(from_object) else {
        return Answer::Unavailable;
    };
    let mut verdict = if limit.is_none() && options.rules.is_empty() {
        let compiled = Some(Arc::clone(compiled));
        crate::verdict::check_prepared(Some(text), None, compiled, false, &[], &options, prepared)
    } else {
        let input = SchemaInput::Compiled(Arc::clone(compiled));
        // A compiled validator cannot fail to compile, so this errs only for
        // rules that do not compile, which the general path reports.
        let Ok(verdict) = check_content(text, limit, input, &options) else {
            return Answer::Unavailable;
        };
        verdict
    };
    if from_object && verdict.failure == Some(crate::error::Failure::Empty) {
        // An empty answer's message names the response's tool calls, if it
        // has any (see `check_output`), which only the general path reads.
        return Answer::Unavailable;
    }
    if verdict.ok() {
        return Answer::accepted(text, verdict.span.unwrap_or(0..0), verdict.rescue);
    }
    if verdict.finish_reason.is_none() {
        verdict.finish_reason = finish_reason.map(str::to_owned);
    }
    let offsets = verdict.span.clone().map(|span| utf16_offsets(text, span));
    Answer::Failed(write_with_offsets(&verdict, offsets))
}

/// What the lane for a response object answered: the answer, and the
/// status that carries it with the index of the text and the finish
/// reason's length (`crate::status::with_fields`), and the reason.
pub struct CopyAnswer {
    pub answer: Answer,
    pub status: u32,
    pub reason: Option<Rc<str>>,
}

/// The lane for a response object, read by the facade's reader along
/// `readPlans().output`: `whole` holds the strings under the plan's text
/// nodes, one after another, and then, at `copy_start`, the reader's copy
/// as JSON text (see `crate::providers::read::split_texts`). When the
/// answer is exactly one of those strings (the common case: no parts to
/// join), it is checked where it lies; anything else (no answer, parts to
/// join, a copy that cannot be read, a field too large for the status) is
/// `None`, for the general path.
pub fn check_copy(
    whole: &str,
    copy_start: usize,
    compiled: &Arc<CompiledSchema>,
    lane: LaneOptions<'_>,
) -> Option<CopyAnswer> {
    let (texts, copy_text) = crate::providers::read::split_texts(whole, copy_start)?;
    let (index, reason) = crate::response::answer_of(copy_text, texts.len())?;
    let text = texts.get(index).copied()?;
    let reason_len = reason.as_ref().map(|reason| reason.len());
    // Fields a status cannot carry are refused before the check.
    status::with_fields(status::OK, index, reason_len)?;
    let answer = check_text(text, reason.as_deref(), compiled, lane, true);
    if answer == Answer::Unavailable {
        return None;
    }
    let status = status::with_fields(answer.code(), index, reason_len)?;
    Some(CopyAnswer {
        answer,
        status,
        reason,
    })
}

#[cfg(test)]
mod tests;
