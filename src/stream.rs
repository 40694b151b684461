//! The incremental check of a streamed response.
//!
//! `push` each piece of the response as it arrives: the check reads it once
//! (never again from the start) and reports a rejection as soon as no
//! continuation could make the response valid, so that the caller can stop
//! paying for it. `end` gives the whole response's verdict, exactly the one
//! [`check_content`](crate::verdict::check_content) gives for the whole
//! text: it is that check, run on the text kept.
//!
//! Around the JSON, the check follows what the whole-text check accepts:
//! white space before and after it, and one Markdown code fence around it
//! (see `crate::rescue`), whose opening line, body and closing line are
//! followed as they arrive. What rejects inside the JSON is listed in
//! `json`; business rules are only checked at the end.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::rules::{compile_rules, Rule};
use crate::verdict::{
    check_prepared, error_hash, json_type_phrase, parse_problem, resolve_schema, schema_message,
    CheckOptions, Failure, Prepared, SchemaInput, Verdict,
};
use hot_path::schema::{CompiledSchema, Issue, SchemaError};
use hot_path::stream::json::{JsonStream, Progress, Rejected};
use hot_path::stream::outline::Outline;
use hot_path::stream::partial::PartialValue;

/// An early rejection: no continuation of the text can be accepted.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rejection {
    pub failure: Failure,
    pub message: String,
    pub errors: Vec<Issue>,
    pub more_errors: bool,
    /// The first `at_byte` bytes of the text already showed it.
    pub at_byte: usize,
}

impl Rejection {
    /// The state as docs/api.md shapes it (`{ status: "rejected", ... }`).
    pub fn to_json(&self) -> Value {
        let mut out = serde_json::Map::new();
        out.insert("status".into(), "rejected".into());
        out.insert("failure".into(), self.failure.as_str().into());
        out.insert("message".into(), self.message.clone().into());
        out.insert(
            "errors".into(),
            serde_json::to_value(&self.errors).unwrap_or_else(|_| Value::Array(Vec::new())),
        );
        out.insert("moreErrors".into(), self.more_errors.into());
        out.insert(
            "errorHash".into(),
            error_hash(self.failure, &self.errors).into(),
        );
        out.insert("atByte".into(), self.at_byte.into());
        Value::Object(out)
    }

    /// The verdict of a stream that ended after this rejection: its
    /// failure, message and errors (so its `errorHash`), whatever came
    /// after it. The finish reason is echoed; the rejection outranks it,
    /// as it decided first.
    pub fn verdict(
        &self,
        schema_hash: Option<Arc<str>>,
        degraded: bool,
        finish_reason: Option<&str>,
    ) -> Verdict {
        Verdict {
            failure: Some(self.failure),
            message: self.message.clone(),
            errors: self.errors.clone(),
            more_errors: self.more_errors,
            rescue: crate::rescue::Rescue::None,
            span: None,
            text: None,
            schema_hash,
            degraded,
            finish_reason: finish_reason.map(str::to_owned),
        }
    }
}

/// Where the check is in the text: around the JSON, or in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the first character that is not white space.
    Leading,
    /// In the opening fence's run of markers.
    FenceRun { marker: char, run: usize },
    /// In the opening fence's info string, up to its line's end.
    FenceInfo { marker: char, run: usize },
    /// In the fence's body, before the JSON.
    FenceBody { marker: char, run: usize },
    /// Reading the JSON (fenced with `marker` × `run`, or not).
    Json { fence: Option<(char, usize)> },
    /// After the JSON's root value: white space, and for a fence its
    /// closing line (`markers` read so far, and whether the run ended).
    After {
        fence: Option<(char, usize)>,
        newline: bool,
        markers: usize,
        ended: bool,
    },
    /// Nothing more is decided before the end.
    Settled,
}

/// A response being checked as it streams in.
pub struct StreamCheck {
    text: String,
    /// The start of a UTF-8 sequence cut by the end of the last piece.
    cut: Vec<u8>,
    received: usize,
    /// Where the text is read up to, outside the JSON.
    scan: usize,
    phase: Phase,
    json: Option<JsonStream>,
    json_start: usize,
    /// The JSON began (at `json_start`).
    json_begun: bool,
    /// The value so far, for `partial_json`, from the first time it is asked.
    partial: Option<PartialValue>,
    /// Where the JSON's root value ended, once it has.
    json_end: Option<usize>,
    /// Whether to note where the values near the JSON's root begin (see
    /// `note_outline`), and, after `end`, where they do.
    outline_wanted: bool,
    outline: Option<Outline>,
    rejection: Option<Rejection>,
    /// See `hold_items`.
    hold: usize,
    /// The incremental checks disagreed with the whole-text parser about
    /// a syntax error, and stopped deciding (never seen; the tests look).
    #[cfg_attr(not(test), allow(dead_code))]
    disagreed: bool,
    compiled: Option<Arc<CompiledSchema>>,
    degraded: bool,
    rules: Vec<Rule>,
    options: CheckOptions,
    /// The tool calls the stream carried, by name, in order (with
    /// `toolName`, the text is the named tool's arguments, and an answer
    /// without them says what it carried instead, as `check_output` does).
    tool_calls: Vec<crate::response::ToolCall>,
}

/// The largest text buffer kept for the next stream check: 4 MiB, so that
/// what stays held after a long response is bounded.
const SPARE_TEXT: usize = 4 << 20;

thread_local! {
    /// The text buffer of the last stream check dropped, empty, for the
    /// next one (see `crate::spare`; the tape's entries are kept for the
    /// next parse the same way).
    static SPARE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

impl Drop for StreamCheck {
    fn drop(&mut self) {
        let mut text = std::mem::take(&mut self.text);
        if (1..=SPARE_TEXT).contains(&text.capacity()) {
            text.clear();
            crate::buffer_pool::keep(&SPARE, text, String::capacity);
        }
    }
}

impl StreamCheck {
    /// A check against `schema`, with `check_output`'s options. Errors only
    /// when the schema cannot be compiled and the options say to throw.
    pub fn new(schema: SchemaInput<'_>, options: CheckOptions) -> Result<StreamCheck, SchemaError> {
        let (compiled, degraded) = resolve_schema(schema, &options)?;
        let rules = compile_rules(&options.rules, &options.compile)?;
        Ok(StreamCheck {
            text: crate::buffer_pool::take(&SPARE),
            cut: Vec::new(),
            received: 0,
            scan: 0,
            phase: Phase::Leading,
            json: None,
            json_start: 0,
            json_begun: false,
            partial: None,
            json_end: None,
            outline_wanted: false,
            outline: None,
            rejection: None,
            hold: 0,
            disagreed: false,
            compiled,
            degraded,
            rules,
            options,
            tool_calls: Vec::new(),
        })
    }

    /// A tool call the stream carries, named as it began (see `tool_calls`).
    pub fn note_tool_call(&mut self, name: &str) {
        self.tool_calls.push(crate::response::ToolCall {
            id: None,
            name: name.to_owned(),
            arguments: crate::response::ToolArguments::Missing,
        });
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.received
    }

    /// The rejection, once there is one.
    pub fn rejection(&self) -> Option<&Rejection> {
        self.rejection.as_ref()
    }

    /// From the next piece on, an array item that a piece cuts, when it
    /// begins within `bytes` of the text's end, is left for the next piece
    /// and read whole then, rather than value by value now (see
    /// `Incremental::hold_items`): cheaper, but what is wrong inside it is
    /// reported a piece later. For a caller whose pieces are large, so that
    /// one more is a small delay; 0 (the default): every item is read as
    /// far as the text goes. `end` reads what is left waiting.
    pub fn hold_items(&mut self, bytes: usize) {
        self.hold = bytes;
        if let Some(json) = self.json.as_mut() {
            json.hold_items(bytes);
        }
    }

    /// The next piece of the response, as UTF-8 bytes (a piece may end, or
    /// begin, inside a character). After a rejection the text is only kept.
    pub fn push(&mut self, piece: &[u8]) -> Option<&Rejection> {
        self.received = self.received.saturating_add(piece.len());
        if self.cut.is_empty() {
            match std::str::from_utf8(piece) {
                Ok(text) => self.text.push_str(text),
                Err(_) => self.push_cut(piece),
            }
        } else {
            self.push_cut(piece);
        }
        if self.rejection.is_none() {
            self.advance();
        }
        self.rejection.as_ref()
    }

    /// The next piece, kept but not yet read: the next `push` reads it
    /// with its own, as if the two had come as one (for the partial
    /// value, which reads the text kept, between two pushes).
    pub fn append(&mut self, piece: &[u8]) {
        self.received = self.received.saturating_add(piece.len());
        match (self.cut.is_empty(), std::str::from_utf8(piece)) {
            (true, Ok(text)) => self.text.push_str(text),
            _ => self.push_cut(piece),
        }
    }

    /// The next piece, as text.
    pub fn push_str(&mut self, piece: &str) -> Option<&Rejection> {
        if self.cut.is_empty() {
            self.received = self.received.saturating_add(piece.len());
            self.text.push_str(piece);
            if self.rejection.is_none() {
                self.advance();
            }
            self.rejection.as_ref()
        } else {
            self.push(piece.as_bytes())
        }
    }

    /// Appends bytes that may start or end inside a character: what is
    /// complete goes to the text (anything malformed as U+FFFD, as a lossy
    /// decoding of the whole would give), the cut remainder waits.
    fn push_cut(&mut self, piece: &[u8]) {
        self.cut.extend_from_slice(piece);
        let mut rest: &[u8] = &self.cut;
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    self.text.push_str(text);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    self.text
                        .push_str(std::str::from_utf8(good).unwrap_or_default());
                    match e.error_len() {
                        None => {
                            rest = bad;
                            break;
                        }
                        Some(len) => {
                            self.text.push(char::REPLACEMENT_CHARACTER);
                            rest = bad.get(len..).unwrap_or_default();
                        }
                    }
                }
            }
        }
        let remainder = rest.to_vec();
        self.cut = remainder;
    }

    /// The verdict on the whole response, as `check_content` gives it for
    /// the text pushed (a character cut at the very end is U+FFFD). A
    /// finish reason that is blank counts as none, as when it is read from
    /// `{ content, finishReason }`. The whole-text check runs on the text
    /// kept, with what the stream already did: the tape it built (used
    /// only if the whole-text check finds the JSON exactly where the stream
    /// did), and the schema stage when the checks on complete values
    /// already cover it. Once ended, the check is spent: the text stays,
    /// the JSON's reading does not.
    pub fn end(&mut self, finish_reason: Option<&str>) -> Verdict {
        let finish_reason = finish_reason.filter(|reason| !reason.trim().is_empty());
        // A stream stopped at its rejection ends with it: the text pushed
        // after it (or the shorter prefix, when nothing was) says no more
        // about why the response could not be accepted.
        if let Some(rejection) = self.rejection.as_ref() {
            self.json = None;
            return rejection.verdict(
                self.compiled.as_ref().map(|c| c.shared_schema_hash()),
                self.degraded,
                finish_reason,
            );
        }
        // An item left for a piece that will not come is read now, and so
        // is text kept but not yet read (see `append`).
        self.hold_items(0);
        if self.rejection.is_none() {
            self.advance();
        }
        if !std::mem::take(&mut self.cut).is_empty() {
            self.text.push(char::REPLACEMENT_CHARACTER);
        }
        let json = self.json.take().filter(|_| self.rejection.is_none());
        let prepared = match (json, self.json_end) {
            (Some(mut json), Some(end)) => {
                self.outline = json.take_outline();
                json.finish(&self.text)
                    .map(|(tape, schema_passed)| Prepared {
                        span: self.json_start..end,
                        tape,
                        schema_passed,
                    })
            }
            _ => None,
        };
        let mut verdict = check_prepared(
            Some(&self.text),
            finish_reason,
            self.compiled.clone(),
            self.degraded,
            &self.rules,
            &self.options,
            prepared,
        );
        if verdict.failure == Some(Failure::Empty) && self.options.tool_name.is_some() {
            verdict.message = crate::verdict::tool_calls_message(
                &self.tool_calls,
                self.options.tool_name.as_deref(),
            );
        }
        verdict
    }

    /// [`StreamCheck::end`] as the facade reads it: the verdict as
    /// `checkOutput` writes it (without the value), with `atByte` when the
    /// stream ended after its rejection, which the caller was shown
    /// (`reported`; one it was not shown is set aside first); and the
    /// accepted JSON's place in [`StreamCheck::text`].
    pub fn end_json(
        &mut self,
        finish_reason: Option<&str>,
        reported: bool,
    ) -> (String, Option<std::ops::Range<usize>>) {
        if !reported {
            self.set_aside_rejection();
        }
        let verdict = self.end(finish_reason);
        let accepted = verdict.span.clone().filter(|_| verdict.ok());
        let mut out = String::new();
        verdict.write_json(&mut out, None);
        // A stream that ended after its rejection says where it was decided.
        if let Some(rejection) = self.rejection() {
            out.pop();
            out.push_str(",\"atByte\":");
            out.push_str(&rejection.at_byte.to_string());
            out.push('}');
        }
        (out, accepted)
    }

    /// Sets aside a rejection that its caller never saw: the facade's last
    /// batch crosses in its `end`, and a stream whose pushes all said
    /// "pending" ends with the whole text's verdict, as `check_content`
    /// gives it. (A rejected check keeps no reading of the JSON, so the end
    /// then checks the kept text from scratch.)
    pub fn set_aside_rejection(&mut self) {
        self.rejection = None;
    }

    /// Notes where the values near the JSON's root begin, so that
    /// `value_parts` has a plan to give (only a caller that reads an
    /// accepted value in parts asks; the rest do without the work). Before
    /// the first push.
    pub fn note_outline(&mut self) {
        self.outline_wanted = true;
    }

    /// After `end`, the plan for reading the JSON at `span` (an accepted
    /// verdict's) in parts of about `part` bytes (see
    /// [`Outline::parts`]); `None` when it is to be read whole.
    pub fn value_parts(&self, span: std::ops::Range<usize>, part: usize) -> Option<String> {
        if self.json_end != Some(span.end) || self.json_start != span.start {
            return None;
        }
        self.outline.as_ref()?.parts(&self.text, span, part)
    }

    /// The value of the text pushed so far, with its open frontier closed,
    /// and the pointers of its complete members and items that fail, as
    /// JSON text `{"invalid":[...],"value":...}` (no `value` before the
    /// JSON begins; see `hot_path::stream::partial`). Read on from where
    /// the last call stopped, so asking after every push costs the text
    /// once, plus the closing; asked after a rejection too, as the text is
    /// still kept.
    pub fn partial_json(&mut self) -> String {
        self.ensure_partial();
        match self.partial.as_mut() {
            Some(partial) => partial.read_json(&self.text),
            None => "{\"invalid\":[]}".to_owned(),
        }
    }

    /// The same, as what changed since the last call, written as numbers
    /// into `out` (see `PartialValue::read_words`): for the facade, which
    /// keeps the value and grows it in place, taking the text at
    /// the places they give from the text this check keeps (see `text`).
    /// The pointers of what fails, when the numbers say they changed, come
    /// from `partial_invalid`.
    pub fn partial_words(&mut self, out: &mut Vec<u32>) {
        self.ensure_partial();
        let through = match (&self.rejection, &self.json) {
            (None, Some(json)) => json.items_passed_through(),
            _ => 0,
        };
        match self.partial.as_mut() {
            Some(partial) => {
                partial.vouch(through);
                partial.read_words(&self.text, out);
            }
            None => {
                out.clear();
                out.extend([hot_path::stream::partial::words::SAME, 0, 0, 0]);
            }
        }
    }

    /// The pointers of what fails in the partial value as of the last
    /// `partial_words`, as a JSON array.
    pub fn partial_invalid(&self) -> String {
        self.partial
            .as_ref()
            .map_or_else(|| "[]".to_owned(), |partial| partial.invalid_json())
    }

    /// The partial value's reading, from when the JSON begins (text kept
    /// but not yet read is read as far as that, so that the value does
    /// not wait for the next push to find where the JSON begins).
    fn ensure_partial(&mut self) {
        if !self.json_begun && self.rejection.is_none() {
            self.advance();
        }
        if self.json_begun && self.partial.is_none() {
            self.partial = Some(PartialValue::new(self.json_start, self.compiled.as_deref()));
        }
    }

    /// The text pushed so far (for `end`'s caller, which slices the JSON
    /// out of it by the verdict's span).
    pub fn text(&self) -> &str {
        &self.text
    }

    fn next_char(&self) -> Option<char> {
        self.text
            .get(self.scan..)
            .and_then(|rest| rest.chars().next())
    }

    /// Reads what arrived, phase by phase, until it runs out or decides.
    fn advance(&mut self) {
        loop {
            if let Phase::Json { fence } = self.phase {
                let Some(json) = self.json.as_mut() else {
                    self.phase = Phase::Settled;
                    return;
                };
                match json.feed(&self.text) {
                    Progress::Pending => return,
                    Progress::Complete { end } => {
                        self.scan = end;
                        self.json_end = Some(end);
                        self.phase = Phase::After {
                            fence,
                            newline: false,
                            markers: 0,
                            ended: false,
                        };
                        continue;
                    }
                    Progress::Rejected { why, at } => return self.rejected(why, at),
                    Progress::Unchecked => {
                        self.phase = Phase::Settled;
                        return;
                    }
                }
            }
            if self.phase == Phase::Settled {
                return;
            }
            let Some(c) = self.next_char() else {
                return;
            };
            let step = c.len_utf8();
            match self.phase {
                Phase::Leading if c.is_whitespace() => self.scan += step,
                Phase::Leading if c == '`' || c == '~' => {
                    self.scan += step;
                    self.phase = Phase::FenceRun { marker: c, run: 1 };
                }
                Phase::Leading => self.begin_json(None),
                Phase::FenceRun { marker, run } if c == marker => {
                    self.scan += step;
                    self.phase = Phase::FenceRun {
                        marker,
                        run: run + 1,
                    };
                }
                // Fewer than three markers is no fence, and no JSON either.
                Phase::FenceRun { run, .. } if run < 3 => return self.unfenced(),
                Phase::FenceRun { marker, run } => self.phase = Phase::FenceInfo { marker, run },
                Phase::FenceInfo { marker, run } if c == '\n' => {
                    self.scan += step;
                    self.phase = Phase::FenceBody { marker, run };
                }
                // A backtick fence's info string holds no backtick.
                Phase::FenceInfo { marker: '`', .. } if c == '`' => return self.unfenced(),
                Phase::FenceInfo { .. } => self.scan += step,
                Phase::FenceBody { .. } if c.is_whitespace() => self.scan += step,
                // The closing fence of an empty body, or a fence inside it:
                // the end decides.
                Phase::FenceBody { marker, .. } if c == marker => self.phase = Phase::Settled,
                Phase::FenceBody { marker, run } => self.begin_json(Some((marker, run))),
                Phase::After { fence: None, .. } if c.is_whitespace() => self.scan += step,
                Phase::After { fence: None, .. } => return self.trailing(c),
                Phase::After {
                    fence: Some(fence),
                    newline,
                    markers,
                    ended,
                } => {
                    let (marker, _) = fence;
                    self.phase = if c == '\n' || c.is_whitespace() {
                        Phase::After {
                            fence: Some(fence),
                            newline: newline || c == '\n',
                            markers,
                            ended: ended || markers > 0,
                        }
                    } else if c == marker && newline && !ended {
                        Phase::After {
                            fence: Some(fence),
                            newline,
                            markers: markers + 1,
                            ended,
                        }
                    } else {
                        // Anything else after the JSON, a marker on its
                        // line or after the closing run: the fence can no
                        // longer be rescued, nor the text read as JSON.
                        return self.unfenced();
                    };
                    self.scan += step;
                }
                Phase::Json { .. } | Phase::Settled => return,
            }
        }
    }

    fn begin_json(&mut self, fence: Option<(char, usize)>) {
        self.json_start = self.scan;
        self.json_begun = true;
        let json = JsonStream::new(
            self.scan,
            self.compiled.as_deref(),
            self.options.require_object,
            self.options.max_errors,
        );
        let mut json = if self.outline_wanted {
            json.with_outline()
        } else {
            json
        };
        json.hold_items(self.hold);
        self.json = Some(json);
        self.phase = Phase::Json { fence };
    }

    fn reject(
        &mut self,
        failure: Failure,
        message: String,
        errors: Vec<Issue>,
        more_errors: bool,
        at_byte: usize,
    ) {
        self.rejection = Some(Rejection {
            failure,
            // Fixed words, or issue messages, which are safe to print already.
            message,
            errors,
            more_errors,
            at_byte,
        });
        self.phase = Phase::Settled;
        self.json = None;
    }

    /// Rejects as unparseable when the whole-text parser also fails on
    /// `json` before its end (the message is its own); otherwise the
    /// incremental reading was wrong, and the end decides.
    /// `escape`: the last byte is in a `\\u` escape, whose four bytes the
    /// parser reads at once; hex digits after it make it read them (and
    /// cannot themselves make a valid escape fail).
    fn unparseable(&mut self, json_from: usize, at: usize, escape: bool) {
        let prefix = self.text.get(json_from..at).unwrap_or_default();
        let padded;
        let prefix = if escape {
            padded = format!("{prefix}000");
            padded.as_str()
        } else {
            prefix
        };
        let problem = match hot_path::tape::parse(prefix) {
            Err(e) if !e.message.starts_with("EOF") => Some(parse_problem(&e)),
            _ => None,
        };
        match problem {
            Some(problem) => {
                let message = format!("The response is not valid JSON ({problem}).");
                self.reject(Failure::Unparseable, message, Vec::new(), false, at);
            }
            None => {
                self.disagreed = true;
                self.phase = Phase::Settled;
                self.json = None;
            }
        }
    }

    fn rejected(&mut self, why: Rejected, at: usize) {
        match why {
            Rejected::Syntax { escape } => self.unparseable(self.json_start, at, escape),
            Rejected::NotObject(kind) => {
                let message = format!(
                    "The response is JSON but not an object (it is {}).",
                    json_type_phrase(kind)
                );
                self.reject(Failure::NotObject, message, Vec::new(), false, at);
            }
            Rejected::Schema {
                errors,
                more_errors,
            } => {
                let message = schema_message(&errors, more_errors);
                self.reject(Failure::Schema, message, errors, more_errors, at);
            }
        }
    }

    /// A character other than white space after the root value.
    fn trailing(&mut self, c: char) {
        self.unparseable(self.json_start, self.scan + c.len_utf8(), false);
    }

    /// The text begins with a fence marker but can no longer be one fenced
    /// block: as the whole-text check would, it is read as JSON from its
    /// first character, which no JSON text begins with.
    fn unfenced(&mut self) {
        let start = self.text.len() - self.text.trim_start().len();
        let at = self.scan + self.next_char().map_or(0, char::len_utf8);
        self.unparseable(start, at, false);
    }
}

#[cfg(test)]
mod tests;
