//! The whole post-generation check of one model response.
//!
//! Stages run in a fixed order and the first failure wins:
//! truncated -> empty -> unparseable (after code-fence rescue) -> not_object
//! -> schema -> rule. Truncation comes first because JSON cut at a token limit can
//! still parse (`{"items": []}` with the rest lost) and must never be accepted.

use std::sync::Arc;

use jsonschema::json::Node;
use jsonschema::types::JsonType;
use serde_json::Value;

use crate::dialect::compile;
pub use crate::error::{Failure, DEFAULT_MAX_ERRORS};
use crate::finish::is_token_limit;
use crate::rescue::{rescue_code_fence, Rescue};
use crate::response::read_output;
use crate::rules::{check_rules, compile_rules, Rule, RuleSpec};
use hot_path::hash::hex_digest;
use hot_path::schema::{CompileOptions, CompiledSchema, Issue, SchemaError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnInvalidSchema {
    #[default]
    Degrade,
    Throw,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    pub max_errors: usize,
    pub require_object: bool,
    pub on_invalid_schema: OnInvalidSchema,
    pub compile: CompileOptions,
    /// Business rules, checked once the schema stage passes.
    pub rules: Vec<RuleSpec>,
    /// The tool whose call carries the output (structured output delivered
    /// as a forced tool call), instead of the text content.
    pub tool_name: Option<String>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            max_errors: DEFAULT_MAX_ERRORS,
            require_object: true,
            on_invalid_schema: OnInvalidSchema::Degrade,
            compile: CompileOptions::default(),
            rules: Vec::new(),
            tool_name: None,
        }
    }
}

/// What to validate against.
#[derive(Debug, Clone)]
pub enum SchemaInput<'a> {
    None,
    Json(&'a Value),
    Compiled(Arc<CompiledSchema>),
    /// A schema was given but could not even be read (e.g. its text is not JSON).
    Unreadable(SchemaError),
}

/// The verdict; it holds no parsed value (the caller has the text and
/// `span`, and materialises it only when needed). `span` is the byte range of the (rescued) JSON text within
/// the content whenever it parsed, so a caller holding the content can
/// materialise the value itself, without this module copying or serialising
/// it again; `text` is that JSON text when the content was read out of a
/// response object here (the caller does not hold it then).
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub failure: Option<Failure>,
    pub message: String,
    pub errors: Vec<Issue>,
    pub more_errors: bool,
    pub rescue: Rescue,
    pub span: Option<std::ops::Range<usize>>,
    pub text: Option<String>,
    pub schema_hash: Option<Arc<str>>,
    pub degraded: bool,
    pub finish_reason: Option<String>,
}

impl Verdict {
    pub fn ok(&self) -> bool {
        self.failure.is_none()
    }

    /// The verdict as docs/api.md shapes it, plus `finishReason`. The parsed value
    /// is left out (re-serialising it would cost as much again): the caller
    /// adds the JSON text or its position, see `span` and `text`.
    pub fn to_json(&self) -> Value {
        let mut out = String::new();
        self.write_json(&mut out, None);
        serde_json::from_slice(out.as_bytes()).unwrap_or_default()
    }

    /// [`Verdict::to_json`] written as JSON text onto `out`, with `text`
    /// as a member when given: a guarded call's step writes it so, without
    /// building it as a `Value` first.
    pub fn write_json(&self, out: &mut String, text: Option<&str>) {
        out.push_str("{\"ok\":");
        out.push_str(if self.ok() { "true" } else { "false" });
        if let Some(failure) = self.failure {
            out.push_str(",\"failure\":");
            push_json_str(out, failure.as_str());
            out.push_str(",\"message\":");
            push_json_str(out, &self.message);
            out.push_str(",\"errors\":");
            hot_path::schema::push_issues_json(out, &self.errors);
            out.push_str(",\"moreErrors\":");
            out.push_str(if self.more_errors { "true" } else { "false" });
            out.push_str(",\"errorHash\":");
            push_json_opt(out, self.error_hash().as_deref());
        }
        out.push_str(",\"rescue\":");
        push_json_str(out, self.rescue.as_str());
        out.push_str(",\"schemaHash\":");
        push_json_opt(out, self.schema_hash.as_deref());
        out.push_str(",\"degraded\":");
        out.push_str(if self.degraded { "true" } else { "false" });
        out.push_str(",\"finishReason\":");
        push_json_opt(out, self.finish_reason.as_deref());
        if let Some(text) = text {
            out.push_str(",\"text\":");
            push_json_str(out, text);
        }
        out.push('}');
    }

    /// Equal for two verdicts with the same failure class and the same set of
    /// (path, code) pairs, so a repair loop can see that it repeats itself.
    /// A broken rule counts by its name as well: two different rules failing
    /// at one path are different mistakes.
    pub fn error_hash(&self) -> Option<String> {
        Some(error_hash(self.failure?, &self.errors))
    }
}

/// Appends `value` as JSON text.
pub fn push_json<T: serde::Serialize + ?Sized>(out: &mut String, value: &T) {
    // A string, a number, a map with string keys: nothing here fails to
    // serialise. Written through one buffer kept for it, as serde_json's
    // `to_string` writes (so the same serialiser code serves both): results
    // are built of many small values, and a string for each cost more than
    // writing them.
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SCRATCH.with(|scratch| {
        let Ok(mut buffer) = scratch.try_borrow_mut() else {
            out.push_str(&serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned()));
            return;
        };
        buffer.clear();
        let written = serde_json::to_writer(&mut *buffer, value).is_ok();
        match std::str::from_utf8(&buffer) {
            Ok(text) if written => out.push_str(text),
            _ => out.push_str("null"),
        }
        // A long list of issues leaves no large buffer behind.
        if buffer.capacity() > 1 << 16 {
            *buffer = Vec::new();
        }
    });
}

pub use hot_path::json_text::{
    push_json_number, push_json_opt, push_json_str, push_json_value, push_usize,
};

/// The verdict as JSON text plus where its JSON text is: UTF-16 offsets
/// into the caller's string when there are any (`textStart`, and
/// `textEnd` unless the JSON runs to the end, see [`utf16_offsets`]), else
/// the text itself when it was read out of a response object here.
pub fn write_with_offsets(verdict: &Verdict, offsets: Option<(usize, Option<usize>)>) -> String {
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
pub fn utf16_units(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().map(char::len_utf16).sum()
    }
}

/// A byte range of `text` as UTF-16 code unit offsets.
pub fn utf16_range(text: &str, span: std::ops::Range<usize>) -> (usize, usize) {
    let before = text.get(..span.start).map_or(0, utf16_units);
    let inside = text.get(span).map_or(0, utf16_units);
    (before, before + inside)
}

/// [`utf16_range`] for a result's `textStart`/`textEnd`, without the end
/// when the range runs to the end of the text: the facade's
/// `slice(textStart)` then reads to the end, and a large rejected response
/// is not walked through again just to count its UTF-16 units.
pub fn utf16_offsets(text: &str, span: std::ops::Range<usize>) -> (usize, Option<usize>) {
    if span.end == text.len() {
        (text.get(..span.start).map_or(0, utf16_units), None)
    } else {
        let (start, end) = utf16_range(text, span);
        (start, Some(end))
    }
}

/// [`Verdict::error_hash`] of a failure class and its issues (a stream's
/// early rejection is hashed the same way).
pub(crate) fn error_hash(failure: Failure, errors: &[Issue]) -> String {
    let mut pairs: Vec<(&str, &str, Option<&str>)> = errors
        .iter()
        .map(|i| (i.path.as_str(), i.code.as_str(), i.rule.as_deref()))
        .collect();
    guard_sort::sort(&mut pairs);
    pairs.dedup();
    let mut text = String::from(failure.as_str());
    for (path, code, rule) in pairs {
        text.push('\n');
        text.push_str(path);
        text.push('\u{1f}');
        text.push_str(code);
        if let Some(rule) = rule {
            text.push('\u{1f}');
            text.push_str(rule);
        }
    }
    hex_digest(text.as_bytes())
}

/// Unwraps a response-format wrapper (`{ name?, schema: {...}, strict? }`):
/// an object whose `schema` member is an object and which has no validation
/// keywords of its own. Returns the schema and the wrapper's `strict`. The
/// providers' own request forms unwrap too: OpenAI Chat's `response_format`
/// (`{ type: "json_schema", json_schema: { name, schema, strict } }`) and
/// the Responses API's `text.format` (`{ type: "json_schema", name, schema,
/// strict }`).
pub fn unwrap_response_format(schema: &Value) -> (&Value, Option<bool>) {
    let Some(map) = schema.as_object() else {
        return (schema, None);
    };
    let provider_form = map.get("type").and_then(Value::as_str) == Some("json_schema");
    if provider_form && map.len() == 2 {
        if let Some(inner @ Value::Object(_)) = map.get("json_schema") {
            let unwrapped = unwrap_response_format(inner);
            if !std::ptr::eq(unwrapped.0, inner) {
                return unwrapped;
            }
        }
    }
    let inner = match map.get("schema") {
        Some(inner @ Value::Object(_)) => inner,
        _ => return (schema, None),
    };
    const WRAPPER_KEYS: [&str; 5] = ["name", "schema", "strict", "description", "title"];
    if map
        .keys()
        .all(|k| WRAPPER_KEYS.contains(&k.as_str()) || (provider_form && k == "type"))
    {
        (inner, map.get("strict").and_then(Value::as_bool))
    } else {
        (schema, None)
    }
}

/// Runs every stage. Errors only when the schema cannot be compiled and the
/// caller asked to throw.
pub fn check_output(
    output: &Value,
    schema: SchemaInput<'_>,
    options: &CheckOptions,
) -> Result<Verdict, SchemaError> {
    let (compiled, degraded) = resolve_schema(schema, options)?;
    let rules = compile_rules(&options.rules, &options.compile)?;
    let mut read = read_output(output);
    let tool_calls = crate::response::read_tool_calls(output);
    if let Some(name) = &options.tool_name {
        read.content = tool_calls
            .iter()
            .find(|call| &call.name == name)
            .and_then(|call| call.arguments.text());
    }
    let mut verdict = check_stages(
        read.content.as_deref(),
        read.finish_reason.as_deref(),
        compiled,
        degraded,
        &rules,
        options,
    );
    if verdict.failure == Some(Failure::Empty)
        && (!tool_calls.is_empty() || options.tool_name.is_some())
    {
        verdict.message = tool_calls_message(&tool_calls, options.tool_name.as_deref());
    }
    if let (Some(content), Some(span)) = (read.content.as_deref(), verdict.span.clone()) {
        verdict.text = content.get(span).map(str::to_owned);
    }
    Ok(verdict)
}

/// Why a response that carries tool calls has no output to check. Tool
/// names are written by the model, so only plain identifiers are named.
pub(crate) fn tool_calls_message(
    calls: &[crate::response::ToolCall],
    tool_name: Option<&str>,
) -> String {
    let plain = |name: &str| {
        !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
    };
    let mut names: Vec<&str> = calls
        .iter()
        .map(|call| call.name.as_str())
        .filter(|name| plain(name))
        .collect();
    names.dedup();
    let listed = if calls.is_empty() {
        "no tool calls".to_owned()
    } else if names.is_empty() {
        format!("{} tool call(s)", calls.len())
    } else {
        format!(
            "tool calls ({})",
            names
                .iter()
                .map(|name| format!("\"{name}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    match tool_name {
        Some(name) if plain(name) => format!(
            "The response has no call of the tool \"{name}\" with arguments; it carries {listed}."
        ),
        Some(_) => format!("The response has no call of the tool named in toolName with arguments; it carries {listed}."),
        None => format!(
            "The response has no text content; it carries {listed}. If the output comes as a tool call, pass toolName to check that call's arguments."
        ),
    }
}

/// The same check for content the caller already holds as text (the common
/// case): nothing is copied, and `span` locates the JSON within `content`.
pub fn check_content(
    content: &str,
    finish_reason: Option<&str>,
    schema: SchemaInput<'_>,
    options: &CheckOptions,
) -> Result<Verdict, SchemaError> {
    let (compiled, degraded) = resolve_schema(schema, options)?;
    let rules = compile_rules(&options.rules, &options.compile)?;
    Ok(check_stages(
        Some(content),
        finish_reason,
        compiled,
        degraded,
        &rules,
        options,
    ))
}

fn check_stages(
    content: Option<&str>,
    finish_reason: Option<&str>,
    compiled: Option<Arc<CompiledSchema>>,
    degraded: bool,
    rules: &[Rule],
    options: &CheckOptions,
) -> Verdict {
    check_prepared(
        content,
        finish_reason,
        compiled,
        degraded,
        rules,
        options,
        None,
    )
}

/// What a caller already knows of the content's JSON: where it is, its
/// tape (as `tape::parse` of that text builds it), and, when the schema is
/// known to accept it, how much of the check's pattern budget
/// (`schema::PATTERN_STEPS_PER_CHECK`) that took. Used only when the rescue
/// finds the JSON exactly there; otherwise the text is parsed and checked
/// as always.
pub(crate) struct Prepared<'t> {
    pub(crate) span: std::ops::Range<usize>,
    pub(crate) tape: hot_path::tape::Tape<'t>,
    /// The schema passed, with this many pattern steps left for the rules.
    pub(crate) schema_passed: Option<usize>,
}

/// The span and rescue of an accepted check of `content` against `compiled`
/// with no rules and no token-limit finish reason (what a lane asks most
/// often), found without building a verdict: on a small response the
/// verdict's making and dropping cost as much as its keywords. Anything
/// else is `Err` with the parse made on the way, if any, for
/// [`check_prepared`] to give the whole verdict from; the verdict it gives
/// accepts exactly when this does.
pub(crate) fn accepted<'c>(
    content: &'c str,
    compiled: &CompiledSchema,
    require_object: bool,
) -> Result<(std::ops::Range<usize>, Rescue), Option<Prepared<'c>>> {
    let rescued = rescue_code_fence(content);
    if rescued.text.is_empty() {
        return Err(None);
    }
    let span = span_within(content, rescued.text);
    let Ok(tape) = hot_path::tape::parse(rescued.text) else {
        return Err(None);
    };
    if (!require_object || tape.root().json_type() == JsonType::Object)
        && compiled.is_valid_tape(&tape)
    {
        return Ok((span, rescued.rescue));
    }
    Err(Some(Prepared {
        span,
        tape,
        schema_passed: None,
    }))
}

/// Where `part`, a slice of `content` (the rescue's JSON), lies in it.
fn span_within(content: &str, part: &str) -> std::ops::Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(content.as_ptr() as usize);
    start..start + part.len()
}

/// [`check_stages`], with the parse (and maybe the schema stage) already
/// done by the caller (see [`Prepared`]).
pub(crate) fn check_prepared<'c>(
    content: Option<&'c str>,
    finish_reason: Option<&str>,
    compiled: Option<Arc<CompiledSchema>>,
    degraded: bool,
    rules: &[Rule],
    options: &CheckOptions,
    prepared: Option<Prepared<'c>>,
) -> Verdict {
    let mut verdict = Verdict {
        failure: None,
        message: String::new(),
        errors: Vec::new(),
        more_errors: false,
        rescue: Rescue::None,
        span: None,
        text: None,
        schema_hash: compiled.as_ref().map(|c| c.shared_schema_hash()),
        degraded,
        finish_reason: finish_reason.map(str::to_owned),
    };
    if let Some(reason) = finish_reason.filter(|r| is_token_limit(r)) {
        return fail(
            verdict,
            Failure::Truncated,
            format!("The response stopped at the token limit (finish reason \"{reason}\"), so it may be incomplete."),
        );
    }
    let content = content.unwrap_or_default();
    let rescued = rescue_code_fence(content);
    verdict.rescue = rescued.rescue;
    if rescued.text.is_empty() {
        return fail(
            verdict,
            Failure::Empty,
            "The response has no content.".into(),
        );
    }
    let span = span_within(content, rescued.text);
    // The tape is borrowed where it was made, not moved out of it (on a
    // small response, moving it cost as much as a keyword).
    let parsed;
    let (tape, schema_passed) = match &prepared {
        Some(prepared) if prepared.span == span => (&prepared.tape, prepared.schema_passed),
        _ => {
            parsed = hot_path::tape::parse(rescued.text);
            match &parsed {
                Ok(tape) => (tape, None),
                Err(e) => {
                    let message = format!("The response is not valid JSON ({}).", parse_problem(e));
                    return fail(verdict, Failure::Unparseable, message);
                }
            }
        }
    };
    verdict.span = Some(span);
    let root = tape.root().json_type();
    if options.require_object && root != JsonType::Object {
        let message = format!(
            "The response is JSON but not an object (it is {}).",
            json_type_phrase(root)
        );
        return fail(verdict, Failure::NotObject, message);
    }
    // The schema and every rule are one check: one budget for all their
    // pattern matching. A schema stage already passed spent its part; the
    // rules get what it left (see `Prepared`). The check borrows what it
    // reads and gives back only what failed, so the verdict is not moved
    // in and out of it: on a small response, moving it cost more than the
    // schema's `enum` keywords.
    let check = || -> Option<(Failure, Vec<Issue>, bool)> {
        if let Some(compiled) = compiled.as_ref().filter(|_| schema_passed.is_none()) {
            let report = compiled.validate_tape(tape, options.max_errors);
            if !report.valid {
                return Some((Failure::Schema, report.errors, report.more_errors));
            }
        }
        if !rules.is_empty() {
            let (errors, more) = check_rules(rules, tape, options.max_errors);
            if !errors.is_empty() || more {
                return Some((Failure::Rule, errors, more));
            }
        }
        None
    };
    let failed = match schema_passed {
        Some(steps_left) => jsonschema::with_pattern_budget(steps_left, check),
        None => hot_path::schema::one_check(check),
    };
    if let Some((failure, errors, more_errors)) = failed {
        verdict.errors = errors;
        verdict.more_errors = more_errors;
        let message = if failure == Failure::Schema {
            schema_message(&verdict.errors, verdict.more_errors)
        } else {
            rule_message(&verdict.errors, verdict.more_errors)
        };
        verdict.failure = Some(failure);
        verdict.message = message;
    }
    verdict
}

pub(crate) fn json_type_phrase(t: JsonType) -> &'static str {
    match t {
        JsonType::Array => "an array",
        JsonType::Boolean => "a boolean",
        JsonType::Integer | JsonType::Number => "a number",
        JsonType::Null => "null",
        JsonType::Object => "an object",
        JsonType::String => "a string",
    }
}

/// The compiled schema to check against, and whether it had to be dropped
/// (`degraded`) because it could not be compiled.
pub(crate) fn resolve_schema(
    schema: SchemaInput<'_>,
    options: &CheckOptions,
) -> Result<(Option<Arc<CompiledSchema>>, bool), SchemaError> {
    Ok(match schema {
        SchemaInput::None => (None, false),
        SchemaInput::Compiled(c) => (Some(c), false),
        SchemaInput::Unreadable(e) if options.on_invalid_schema == OnInvalidSchema::Throw => {
            return Err(e)
        }
        SchemaInput::Unreadable(_) => (None, true),
        SchemaInput::Json(raw) => {
            let (inner, _) = unwrap_response_format(raw);
            match compile(inner, &options.compile) {
                Ok(c) => (Some(c), false),
                Err(e) if options.on_invalid_schema == OnInvalidSchema::Throw => return Err(e),
                Err(_) => (None, true),
            }
        }
    })
}

/// The verdict failed as `failure`, with `message` made safe to print (it
/// may name a rule, quote a finish reason or a schema's words).
fn fail(mut verdict: Verdict, failure: Failure, message: String) -> Verdict {
    verdict.failure = Some(failure);
    verdict.message = hot_path::display::escape_for_display(&message);
    verdict
}

/// The parser's message with its position; it never quotes the input.
pub(crate) fn parse_problem(e: &hot_path::tape::ParseError) -> String {
    if e.message.starts_with("EOF") {
        format!("it ends early at line {} column {}", e.line, e.column)
    } else if e.message.starts_with("recursion limit exceeded") {
        format!(
            "it nests deeper than {} levels, at line {} column {}",
            hot_path::schema::MAX_SCHEMA_DEPTH,
            e.line,
            e.column
        )
    } else {
        e.to_string()
    }
}

fn rule_message(errors: &[Issue], more: bool) -> String {
    let shown = errors.len();
    let count = match (more, shown) {
        (true, _) => format!("more than {shown} rules"),
        (false, 1) => "1 rule".to_owned(),
        (false, n) => format!("{n} rules"),
    };
    match errors.first() {
        Some(first) => format!(
            "The response breaks {count}; first: {} ({}).",
            // The rule's name is the caller's: safe to print, as every message is.
            hot_path::display::escape_for_display(&hot_path::redact::redact_secrets(
                first.rule.as_deref().unwrap_or_default()
            )),
            first.message
        ),
        None => format!("The response breaks {count}."),
    }
}

pub(crate) fn schema_message(errors: &[Issue], more: bool) -> String {
    let shown = errors.len();
    let count = if more {
        format!("more than {shown} problems")
    } else if shown == 1 {
        "1 problem".to_owned()
    } else {
        format!("{shown} problems")
    };
    match errors.first() {
        Some(first) => format!(
            "The response does not match the schema ({count}); first: {}",
            first.message
        ),
        None => format!("The response does not match the schema ({count})."),
    }
}

#[cfg(test)]
mod tests;
