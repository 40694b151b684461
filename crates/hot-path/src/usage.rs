//! Token, cost and timing accounting across attempts.
//!
//! Providers report usage in incompatible shapes and disagree about whether
//! cached tokens are part of the input count. Everything is converted to one
//! meaning first, so that attempts can be added up without double counting and
//! without losing a field a provider introduces later:
//!
//! - `input` counts every input token, cached or not; `cacheRead` and
//!   `cacheWrite` say how many of them were cache hits and cache writes;
//! - `output` counts every output token, reasoning included; `reasoning` is the
//!   reasoning subset;
//! - `total` is the provider's own total when it gives one, else input + output.
//!
//! A number the mapping does not know is kept under `tokens` with its original
//! name, because a guard that reports spend must never under-report it.

use std::cmp::Ordering;

use jsonschema::json::{Array as _, Node, Object as _};
use jsonschema::types::JsonType;
use serde_json::{Map, Number, Value};

use crate::tape::{TapeMembers, TapeNode};

pub mod keys;
mod program;
use keys::{
    AI_SDK_V4_KEYS, ANTHROPIC_CACHE_KEYS, CAMEL_KEYS, GEMINI_KEYS, OLLAMA_KEYS, OPENAI_CHAT_KEYS,
    SNAKE_KEYS,
};
pub use program::{UsageProgram, MOST_COUNTS};

/// The members of the common Usage shape; anything else on a response is not usage.
const USAGE_MEMBERS: [&str; 3] = ["tokens", "cost", "timing"];

/// Members that only a whole response carries. A bare usage object never has
/// them, so their presence means that stray numbers (`created`, `index`,
/// durations) are response metadata and must not be counted as tokens.
pub const RESPONSE_MARKERS: [&str; 22] = [
    "id",
    "object",
    "created",
    "created_at",
    "model",
    "modelVersion",
    "choices",
    "candidates",
    "content",
    "output",
    "message",
    "messages",
    "role",
    "text",
    "status",
    "stop_reason",
    "finish_reason",
    "stopReason",
    "finishReason",
    "done",
    "done_reason",
    "response",
];

/// A provider usage object, or a whole response carrying one, in the common Usage shape.
///
/// Reads `OpenAI` Chat and Responses, Anthropic, Gemini (`usageMetadata`),
/// Bedrock Converse, Cohere v2, Ollama native and Vercel AI SDK usage. An input
/// already in the Usage shape is returned unchanged; anything that is not an
/// object gives `{}`.
#[must_use]
pub fn normalize_usage(usage_or_response: &Value) -> Value {
    Usage::of(usage_or_response).to_value()
}

/// [`normalize_usage`] of a usage, or a response carrying one, given as
/// JSON text: read over the text's tape, and built as a [`Usage`], never
/// as a `Value` (a guarded call records a usage on every attempt, and
/// parsing one into a `Value`, then building another, cost more in wasm
/// than checking the response: a map insert hashes its key). Each name
/// looked up scans an object's members, a fixed number of times however
/// many there are. `None` for text that is not JSON.
#[must_use]
pub fn normalize_usage_text(text: &str) -> Option<Usage> {
    let tape = crate::tape::parse(text).ok()?;
    Some(normalize(tape.root()))
}

/// A normalised usage: its members in order, as [`normalize_usage`] gives
/// them, without a map (see [`normalize_usage_text`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Usage(Members);

/// Members in order; their names differ. The names the normaliser gives
/// are borrowed, the provider's own are copied.
type Members = Vec<(Name, Built)>;
type Name = std::borrow::Cow<'static, str>;

/// A value of a normalised usage.
#[derive(Debug, Clone, PartialEq)]
enum Built {
    Number(Number),
    Object(Members),
    /// A value kept as the input has it (an array of counts, an executor's
    /// `timing`).
    Copied(Value),
}

impl Usage {
    /// [`normalize_usage`] of `usage_or_response`, as a [`Usage`]: read
    /// from its JSON text, as every usage is (a value nested deeper than
    /// JSON text is read, 127 containers, is no usage).
    #[must_use]
    pub fn of(usage_or_response: &Value) -> Usage {
        normalize_usage_text(&usage_or_response.to_string()).unwrap_or_default()
    }

    /// The usage as [`normalize_usage`] gives it.
    #[must_use]
    pub fn to_value(&self) -> Value {
        members_value(&self.0)
    }

    /// The usage's JSON text, as `push_json_value` writes [`Usage::to_value`].
    pub fn write_json(&self, out: &mut String) {
        write_members(out, &self.0);
    }

    /// Whether merging the usage alone gives it back unchanged (see
    /// [`merges_to_itself`]).
    #[must_use]
    pub fn merges_to_itself(&self) -> bool {
        fn built(value: &Built) -> bool {
            match value {
                Built::Number(_) => true,
                Built::Object(members) => members.iter().all(|(_, value)| built(value)),
                Built::Copied(Value::Null) => false,
                Built::Copied(Value::Object(map)) => no_null_members(map),
                Built::Copied(_) => true,
            }
        }
        self.0.iter().all(|(_, value)| built(value))
    }
}

fn members_value(members: &Members) -> Value {
    Value::Object(
        members
            .iter()
            .map(|(key, value)| {
                let value = match value {
                    Built::Number(number) => Value::Number(number.clone()),
                    Built::Object(inner) => members_value(inner),
                    Built::Copied(value) => value.clone(),
                };
                (key.clone().into_owned(), value)
            })
            .collect(),
    )
}

fn write_members(out: &mut String, members: &Members) {
    crate::json_text::push_json_members(out, members, |out, value| match value {
        Built::Number(number) => crate::json_text::push_json_number(out, number),
        Built::Object(inner) => write_members(out, inner),
        Built::Copied(value) => crate::json_text::push_json_value(out, value),
    });
}

/// Adds `key` unless the members have it already.
fn or_insert(members: &mut Members, key: Name, value: Built) {
    if !members.iter().any(|(name, _)| *name == key) {
        members.push((key, value));
    }
}

fn normalize<'a>(usage_or_response: TapeNode<'a>) -> Usage {
    if usage_or_response.shape() != Shape::Object {
        return Usage::default();
    }
    let obj = usage_or_response;
    let embedded = embedded_usage(obj);
    if is_executor_form(obj) {
        let mut out = usage_members(obj);
        // An executor trace may record only timing while the raw provider usage
        // still holds the tokens; a member the executor did record wins, so the
        // same tokens are never counted twice.
        if let Some(raw) = embedded {
            for (key, value) in raw {
                or_insert(&mut out, key, value);
            }
        }
        return Usage(out);
    }
    if let Some(raw) = embedded {
        return Usage(raw);
    }
    Usage(from_provider(obj, looks_like_response(obj)))
}

/// What normalisation reads of a node of a tape over the usage's text
/// (see [`normalize_usage_text`]), beside what jsonschema's `Node` reads.
trait Read<'a>: Copy {
    fn shape(self) -> Shape;
    /// The member `name` of an object; `None` for anything else.
    fn member(self, name: &str) -> Option<Self>;
    /// The members of an object, in order (none for anything else): an
    /// iterator, not a callback, so that it is compiled once.
    fn members(self) -> std::iter::Flatten<std::option::IntoIter<TapeMembers<'a>>>;
    /// Whether an object has a member named one of `names`.
    fn has_any(self, names: &[&str]) -> bool;
    /// Whether some item of an array satisfies `f`.
    fn any_item(self, f: impl FnMut(Self) -> bool) -> bool;
    fn number(self) -> Option<Number>;
    fn to_value(self) -> Value;
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Null,
    Number,
    Object,
    Array,
    Other,
}

impl<'a> Read<'a> for TapeNode<'a> {
    fn shape(self) -> Shape {
        match self.json_type() {
            JsonType::Null => Shape::Null,
            JsonType::Number | JsonType::Integer => Shape::Number,
            JsonType::Object => Shape::Object,
            JsonType::Array => Shape::Array,
            JsonType::Boolean | JsonType::String => Shape::Other,
        }
    }

    fn member(self, name: &str) -> Option<Self> {
        self.object()?.find(name)
    }

    fn members(self) -> std::iter::Flatten<std::option::IntoIter<TapeMembers<'a>>> {
        self.as_object()
            .map(|object| object.members())
            .into_iter()
            .flatten()
    }

    /// One pass over the members, however many names there are.
    fn has_any(self, names: &[&str]) -> bool {
        self.object()
            .is_some_and(|object| object.find_any(names).is_some())
    }

    fn any_item(self, f: impl FnMut(Self) -> bool) -> bool {
        self.as_array().is_some_and(|items| items.elements().any(f))
    }

    fn number(self) -> Option<Number> {
        match self.shape() {
            // The tape's number is the one serde_json reads from the same text.
            Shape::Number => match Node::to_value(&self).into_owned() {
                Value::Number(number) => Some(number),
                _ => None,
            },
            _ => None,
        }
    }

    fn to_value(self) -> Value {
        Node::to_value(&self).into_owned()
    }
}

/// Adds up the usage of several attempts; nothing billable is dropped.
///
/// Every input is normalised first and null inputs are skipped. Numbers are
/// summed at any depth, a field only one side has is kept, other values take
/// the latest non-null one; `timing.startTime` keeps the earliest,
/// `timing.endTime` the latest, `timing.timeSegments` are concatenated in
/// attempt order and `cost.pricing` (rates, not amounts) keeps the latest.
#[must_use]
pub fn merge_usage(usages: &[Value]) -> Value {
    merge_objects(
        usages
            .iter()
            .filter(|usage| !usage.is_null())
            .map(normalize_usage),
    )
}

/// [`merge_usage`] of usages already normalised (a guarded call's ledger
/// normalises each attempt's usage as it records it): the same sum,
/// without normalising them again.
#[must_use]
pub fn merge_normalized<'a>(usages: impl IntoIterator<Item = &'a Usage>) -> Value {
    merge_objects(usages.into_iter().map(Usage::to_value))
}

/// The objects among `usages`, merged in order.
fn merge_objects(usages: impl IntoIterator<Item = Value>) -> Value {
    let mut acc = Map::new();
    for usage in usages {
        if let Value::Object(normalized) = usage {
            merge_map(&mut acc, normalized, Scope::Root);
        }
    }
    Value::Object(acc)
}

/// Whether merging `usage` alone gives it back unchanged: an object with
/// no null member in it or in any object inside it (merging drops those;
/// arrays are recorded data, kept as they are).
#[must_use]
pub fn merges_to_itself(usage: &Value) -> bool {
    usage.as_object().is_some_and(no_null_members)
}

fn no_null_members(map: &Map<String, Value>) -> bool {
    map.values().all(|value| match value {
        Value::Null => false,
        Value::Object(inner) => no_null_members(inner),
        _ => true,
    })
}

// ---------------------------------------------------------------------------
// Normalisation
// ---------------------------------------------------------------------------

/// The usage a whole response carries in `usage` or Gemini's `usageMetadata`;
/// a Vercel AI SDK result's `totalUsage` (every step) before its `usage`
/// (the last step only).
/// The usage of one streamed attempt, from the usage reports its events
/// carried, in the order they came. Providers report usage in a stream as
/// running totals, not as increments (Anthropic gives the input tokens at
/// `message_start` and the output tokens so far at each `message_delta`;
/// Gemini the whole count so far on every chunk; the AI SDK each step's and
/// then the call's total), so nothing is added up here: a later report's
/// member replaces an earlier one's, objects member by member, and a null
/// replaces nothing. The result is a provider usage object for
/// [`normalize_usage`].
#[must_use]
pub fn overlay_usage(reports: &[Value]) -> Value {
    fn overlay(dst: &mut Map<String, Value>, src: &Map<String, Value>) {
        for (key, value) in src {
            match (dst.get_mut(key), value) {
                (_, Value::Null) => {}
                (Some(Value::Object(inner)), Value::Object(incoming)) => overlay(inner, incoming),
                _ => {
                    dst.insert(key.clone(), value.clone());
                }
            }
        }
    }
    let mut out = Map::new();
    for report in reports {
        if let Value::Object(map) = report {
            overlay(&mut out, map);
        }
    }
    Value::Object(out)
}

/// The members a usage is found in inside a response (see
/// [`embedded_usage`]): when one holds an object, nothing else of the
/// response but [`USAGE_MEMBERS`] is read.
pub const EMBEDDED_USAGE: [&str; 3] = ["totalUsage", "usage", "usageMetadata"];

fn embedded_usage<'a>(obj: TapeNode<'a>) -> Option<Members> {
    let usage = ["totalUsage", "usage"]
        .iter()
        .find_map(|key| object_member(obj, key));
    if let Some(usage) = usage {
        if is_executor_form(usage) {
            return Some(usage_members(usage));
        }
        return Some(from_provider(usage, false));
    }
    object_member(obj, "usageMetadata").map(|meta| from_provider(meta, false))
}

/// The member `name` of `obj` when it holds an object.
fn object_member<'a>(obj: TapeNode<'a>, name: &str) -> Option<TapeNode<'a>> {
    obj.member(name)
        .filter(|value| value.shape() == Shape::Object)
}

fn is_executor_form<'a>(obj: TapeNode<'a>) -> bool {
    USAGE_MEMBERS
        .iter()
        .any(|key| object_member(obj, key).is_some())
        && !is_cohere(obj)
}

/// Cohere v2 also names a member `tokens`, but with provider field names and
/// next to `billed_units`; reading it as an executor Usage would lose both.
fn is_cohere<'a>(obj: TapeNode<'a>) -> bool {
    if object_member(obj, "cost").is_some() || object_member(obj, "timing").is_some() {
        return false;
    }
    let cohere_tokens = object_member(obj, "tokens").is_some_and(|tokens| {
        tokens.has_any(&["input_tokens", "output_tokens"])
            && !tokens.has_any(&["input", "output", "total"])
    });
    cohere_tokens || object_member(obj, "billed_units").is_some()
}

fn usage_members<'a>(obj: TapeNode<'a>) -> Members {
    USAGE_MEMBERS
        .iter()
        .filter_map(|key| match obj.member(key) {
            Some(value) if value.shape() != Shape::Null => {
                Some((Name::Borrowed(key), Built::Copied(value.to_value())))
            }
            _ => None,
        })
        .collect()
}

fn looks_like_response<'a>(obj: TapeNode<'a>) -> bool {
    obj.has_any(&RESPONSE_MARKERS)
}

/// The canonical token counts, before they become the `tokens` object.
#[derive(Default)]
struct Tokens {
    input: Option<Number>,
    output: Option<Number>,
    total: Option<Number>,
    cache_read: Option<Number>,
    cache_write: Option<Number>,
    reasoning: Option<Number>,
}

impl Tokens {
    fn into_members(self) -> Members {
        let total = self.total.or_else(|| match (&self.input, &self.output) {
            (None, None) => None,
            (input, output) => sum_opt(input.clone(), output.clone()),
        });
        let mut members = Members::new();
        let fields = [
            ("input", self.input),
            ("output", self.output),
            ("total", total),
            ("cacheRead", self.cache_read),
            ("cacheWrite", self.cache_write),
            ("reasoning", self.reasoning),
        ];
        for (key, value) in fields {
            if let Some(number) = value {
                members.push((Name::Borrowed(key), Built::Number(number)));
            }
        }
        members
    }
}

/// Maps one provider usage object. Every mapped number is taken (its path
/// noted), so what is left is exactly the unmapped part.
fn from_provider<'a>(usage: TapeNode<'a>, is_response: bool) -> Members {
    let mut taken = Taken {
        usage,
        paths: Vec::with_capacity(8),
    };
    let mut t = Tokens::default();
    let mut provider_raw = None;
    let r = &mut taken;

    if usage.has_any(&GEMINI_KEYS) {
        t.input = r.take(&["promptTokenCount"]);
        let candidates = r.take(&["candidatesTokenCount"]);
        let thoughts = r.take(&["thoughtsTokenCount"]);
        t.output = sum_opt(candidates, thoughts.clone());
        t.reasoning = thoughts;
        t.cache_read = r.take(&["cachedContentTokenCount"]);
        t.total = r.take(&["totalTokenCount"]);
    } else if usage.has_any(&OPENAI_CHAT_KEYS) {
        t.input = r.take(&["prompt_tokens"]);
        t.output = r.take(&["completion_tokens"]);
        t.total = r.take(&["total_tokens"]);
        t.cache_read = r.take(&["prompt_tokens_details", "cached_tokens"]);
        // OpenRouter reports explicit cache writes next to the reads.
        t.cache_write = r.take(&["prompt_tokens_details", "cache_write_tokens"]);
        t.reasoning = r.take(&["completion_tokens_details", "reasoning_tokens"]);
    } else if usage.has_any(&ANTHROPIC_CACHE_KEYS) {
        // Anthropic's input_tokens leaves out the cached part.
        let uncached = r.take(&["input_tokens"]);
        let read = r.take(&["cache_read_input_tokens"]);
        let write = r.take(&["cache_creation_input_tokens"]);
        t.input = sum_opt(sum_opt(uncached, read.clone()), write.clone());
        t.cache_read = read;
        t.cache_write = write;
        t.output = r.take(&["output_tokens"]);
        t.reasoning = r.take(&["output_tokens_details", "thinking_tokens"]);
    } else if usage.has_any(&SNAKE_KEYS) {
        // OpenAI Responses; a plain Anthropic usage without cache fields reads
        // the same way, since then its input_tokens already counts everything.
        t.input = r.take(&["input_tokens"]);
        t.output = r.take(&["output_tokens"]);
        t.total = r.take(&["total_tokens"]);
        t.cache_read = r.take(&["input_tokens_details", "cached_tokens"]);
        t.cache_write = r.take(&["input_tokens_details", "cache_write_tokens"]);
        // Responses says reasoning, Anthropic (without cache fields) thinking.
        t.reasoning = first(
            r.take(&["output_tokens_details", "reasoning_tokens"]),
            r.take(&["output_tokens_details", "thinking_tokens"]),
        );
    } else if is_cohere(usage) {
        // billed_units stays whole under its own name: it is the billing record.
        t.input = r
            .take(&["tokens", "input_tokens"])
            .or_else(|| number_at(usage, &["billed_units", "input_tokens"]));
        t.output = r
            .take(&["tokens", "output_tokens"])
            .or_else(|| number_at(usage, &["billed_units", "output_tokens"]));
    } else if usage.has_any(&AI_SDK_V4_KEYS) {
        t.input = r.take(&["promptTokens"]);
        t.output = r.take(&["completionTokens"]);
        t.total = r.take(&["totalTokens"]);
    } else if usage.has_any(&CAMEL_KEYS) {
        // Bedrock Converse (inputTokens leaves out cache reads and writes) and
        // the Vercel AI SDK (inputTokens already includes them). The Bedrock
        // cache fields are absent from AI SDK usage, so one sum serves both.
        // Every alias is taken even when an earlier one wins, so a deprecated
        // duplicate is not reported twice.
        let uncached = first(r.take(&["inputTokens"]), r.take(&["inputTokens", "total"]));
        let read = r.take(&["cacheReadInputTokens"]);
        let write = r.take(&["cacheWriteInputTokens"]);
        t.input = sum_opt(sum_opt(uncached, read.clone()), write.clone());
        let sdk_read = first(
            r.take(&["cachedInputTokens"]),
            first(
                r.take(&["inputTokenDetails", "cacheReadTokens"]),
                r.take(&["inputTokens", "cacheRead"]),
            ),
        );
        let sdk_write = first(
            r.take(&["inputTokenDetails", "cacheWriteTokens"]),
            r.take(&["inputTokens", "cacheWrite"]),
        );
        t.cache_read = first(read, sdk_read);
        t.cache_write = first(write, sdk_write);
        t.output = first(
            r.take(&["outputTokens"]),
            r.take(&["outputTokens", "total"]),
        );
        t.total = r.take(&["totalTokens"]);
        t.reasoning = first(
            r.take(&["reasoningTokens"]),
            first(
                r.take(&["outputTokenDetails", "reasoningTokens"]),
                r.take(&["outputTokens", "reasoning"]),
            ),
        );
        // The AI SDK's breakdowns of tokens already counted: the input's
        // uncached part, the output's text part (in v5 members of
        // `inputTokens`/`outputTokens` when those are objects).
        r.take(&["inputTokenDetails", "noCacheTokens"]);
        r.take(&["outputTokenDetails", "textTokens"]);
        r.take(&["inputTokens", "noCache"]);
        r.take(&["outputTokens", "text"]);
        // And the provider's own usage it mapped these from: the same
        // tokens again, mapped below as normalizeUsage maps it.
        provider_raw = usage
            .member("raw")
            .filter(|raw| raw.shape() == Shape::Object);
    } else if usage.has_any(&OLLAMA_KEYS) {
        t.input = r.take(&["prompt_eval_count"]);
        t.output = r.take(&["eval_count"]);
    }

    // Money, not tokens: OpenRouter (and gateways like it) report the charge
    // in dollars as a top-level `cost`, with a breakdown in `cost_details`.
    let mut cost = Members::new();
    if let Some(charged) = r.take(&["cost"]) {
        cost.push((Name::Borrowed("total"), Built::Number(charged)));
    }
    if let Some(details) = usage.member("cost_details").and_then(numbers_only) {
        cost.push((Name::Borrowed("details"), details));
    }

    let mut tokens = t.into_members();
    // The unmapped members differ from one another; only a mapped name can
    // be theirs too, and it wins.
    let mapped = tokens.len();
    if !is_response {
        for (key, value) in usage.members() {
            if key == "cost_details"
                || (provider_raw.is_some() && key == "raw")
                || tokens.iter().take(mapped).any(|(name, _)| *name == key)
            {
                continue;
            }
            if let Some(kept) = taken.untaken(value, &[&key]) {
                tokens.push((Name::Owned(key.into_owned()), kept));
            }
        }
    }
    // An SDK's usage that carries the provider's own: what the provider's
    // mapping has that the SDK's lacks (Anthropic's cache breakdown, a
    // gateway's charge) is added, never a count the SDK's mapping has.
    if let Some(raw) = provider_raw {
        for (key, value) in from_provider(raw, false) {
            let into = match key.as_ref() {
                "tokens" => &mut tokens,
                "cost" => &mut cost,
                _ => continue,
            };
            if let Built::Object(members) = value {
                for (name, member) in members {
                    or_insert(into, name, member);
                }
            }
        }
    }
    let mut out = Members::new();
    if !tokens.is_empty() {
        out.push((Name::Borrowed("tokens"), Built::Object(tokens)));
    }
    if !cost.is_empty() {
        out.push((Name::Borrowed("cost"), Built::Object(cost)));
    }
    out
}

/// A provider usage object and the paths of the numbers taken from it.
struct Taken<'a> {
    usage: TapeNode<'a>,
    paths: Vec<&'static [&'static str]>,
}

impl<'a> Taken<'a> {
    /// The number at `path`, unless it was taken before; anything that is
    /// not a number is left (and later dropped as non-numeric).
    fn take(&mut self, path: &'static [&'static str]) -> Option<Number> {
        if self.paths.contains(&path) {
            return None;
        }
        let number = number_at(self.usage, path)?;
        self.paths.push(path);
        Some(number)
    }

    /// What [`numbers_only`] keeps of `value`, the member at `at`, but the
    /// numbers taken. Numbers are taken at most two members deep, so only
    /// a member of the usage itself can hold one inside.
    fn untaken(&self, value: TapeNode<'a>, at: &[&str]) -> Option<Built> {
        match (value.shape(), at) {
            (Shape::Number, _) => (!self.paths.contains(&at))
                .then(|| value.number().map(Built::Number))
                .flatten(),
            (Shape::Object, [first]) => {
                let mut kept = Members::new();
                for (key, child) in value.members() {
                    if let Some(child) = self.untaken(child, &[first, &key]) {
                        kept.push((Name::Owned(key.into_owned()), child));
                    }
                }
                (!kept.is_empty()).then_some(Built::Object(kept))
            }
            _ => numbers_only(value),
        }
    }
}

fn number_at<'a>(obj: TapeNode<'a>, path: &[&str]) -> Option<Number> {
    let mut current = obj;
    for key in path {
        current = current.member(key)?;
    }
    current.number()
}

fn first(a: Option<Number>, b: Option<Number>) -> Option<Number> {
    a.or(b)
}

fn sum_opt(a: Option<Number>, b: Option<Number>) -> Option<Number> {
    match (a, b) {
        (Some(x), Some(y)) => Some(add_numbers(&x, &y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The numeric content of an unmapped value. Arrays are kept whole when they
/// hold a number anywhere: their elements (e.g. Gemini's per-modality
/// `{ modality, tokenCount }`) only make sense with their labels.
fn numbers_only<'a>(value: TapeNode<'a>) -> Option<Built> {
    match value.shape() {
        Shape::Number => value.number().map(Built::Number),
        Shape::Object => {
            let mut kept = Members::new();
            for (key, child) in value.members() {
                if let Some(child) = numbers_only(child) {
                    kept.push((Name::Owned(key.into_owned()), child));
                }
            }
            (!kept.is_empty()).then_some(Built::Object(kept))
        }
        Shape::Array => carries_numbers(value).then(|| Built::Copied(value.to_value())),
        Shape::Null | Shape::Other => None,
    }
}

fn carries_numbers<'a>(value: TapeNode<'a>) -> bool {
    match value.shape() {
        Shape::Number => true,
        Shape::Object => value.members().any(|(_, child)| carries_numbers(child)),
        Shape::Array => value.any_item(carries_numbers),
        Shape::Null | Shape::Other => false,
    }
}

// ---------------------------------------------------------------------------
// Merging
// ---------------------------------------------------------------------------

/// Where in the Usage a map sits; the exceptions to summing depend on it.
#[derive(Clone, Copy)]
enum Scope {
    Root,
    Timing,
    Cost,
    Plain,
}

#[derive(Clone, Copy)]
enum Rule {
    Deep(Scope),
    Earliest,
    Latest,
    Concat,
    Replace,
}

fn rule_for(scope: Scope, key: &str) -> Rule {
    match (scope, key) {
        (Scope::Root, "timing") => Rule::Deep(Scope::Timing),
        (Scope::Root, "cost") => Rule::Deep(Scope::Cost),
        (Scope::Timing, "startTime") => Rule::Earliest,
        (Scope::Timing, "endTime") => Rule::Latest,
        (Scope::Timing, "timeSegments") => Rule::Concat,
        // Per-token rates: adding two price lists gives a meaningless price.
        (Scope::Cost, "pricing") => Rule::Replace,
        _ => Rule::Deep(Scope::Plain),
    }
}

fn merge_map(dst: &mut Map<String, Value>, src: Map<String, Value>, scope: Scope) {
    for (key, incoming) in src {
        let rule = rule_for(scope, &key);
        match dst.get_mut(&key) {
            Some(existing) => merge_value(existing, incoming, rule),
            None => {
                if !incoming.is_null() {
                    dst.insert(key, without_null_members(incoming));
                }
            }
        }
    }
}

/// A null member says "nothing recorded", and the Usage shape only lists
/// members that have something. Array elements are recorded data (segments)
/// and are left alone.
fn without_null_members(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, child)| !child.is_null())
                .map(|(key, child)| (key, without_null_members(child)))
                .collect(),
        ),
        other => other,
    }
}

fn merge_value(existing: &mut Value, incoming: Value, rule: Rule) {
    if incoming.is_null() {
        return;
    }
    // A value that replaces another is new to the result, so it loses its
    // null members exactly as one inserted by `merge_map` does.
    if existing.is_null() {
        *existing = without_null_members(incoming);
        return;
    }
    match rule {
        Rule::Replace => *existing = without_null_members(incoming),
        Rule::Earliest => keep_extreme(existing, incoming, Ordering::Less),
        Rule::Latest => keep_extreme(existing, incoming, Ordering::Greater),
        Rule::Concat => match (existing, incoming) {
            (Value::Array(a), Value::Array(b)) => a.extend(b),
            // A malformed later value must not erase the recorded segments.
            (Value::Array(_), _) => {}
            (slot, other) => *slot = without_null_members(other),
        },
        Rule::Deep(scope) => match (existing, incoming) {
            (Value::Number(a), Value::Number(b)) => *a = add_numbers(a, &b),
            (Value::Object(a), Value::Object(b)) => merge_map(a, b, scope),
            (Value::Array(a), Value::Array(b)) if keyed_counts(a) && keyed_counts(&b) => {
                merge_keyed(a, b, scope)
            }
            (slot, other) => {
                // Shapes disagree: the latest value wins, unless that would
                // throw away numbers the latest value does not carry.
                if !holds_numbers(slot) || holds_numbers(&other) {
                    *slot = without_null_members(other);
                }
            }
        },
    }
}

/// Whether a merged value has a number anywhere in it.
fn holds_numbers(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::Object(map) => map.values().any(holds_numbers),
        Value::Array(items) => items.iter().any(holds_numbers),
        _ => false,
    }
}

/// A list of counts keyed by their other members, such as Gemini's
/// `promptTokensDetails: [{ modality: "TEXT", tokenCount: 10 }]`: objects
/// that carry numbers.
fn keyed_counts(items: &[Value]) -> bool {
    items.iter().all(|item| {
        item.as_object()
            .is_some_and(|map| map.values().any(Value::is_number))
    })
}

/// What identifies an entry of such a list: its members that are not numbers.
fn entry_key(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    map.iter().filter(|(_, v)| !v.is_number()).collect()
}

/// Sums the entries of two keyed lists that share a key, and keeps the rest
/// in order: the second attempt's per-modality counts add to the first's.
fn merge_keyed(existing: &mut Vec<Value>, incoming: Vec<Value>, scope: Scope) {
    for item in incoming {
        let Value::Object(map) = item else { continue };
        let position = existing.iter().position(|e| {
            e.as_object()
                .is_some_and(|e| entry_key(e) == entry_key(&map))
        });
        match position.and_then(|i| existing.get_mut(i)) {
            Some(Value::Object(slot)) => merge_map(slot, map, scope),
            _ => existing.push(without_null_members(Value::Object(map))),
        }
    }
}

/// Replaces `existing` when `incoming` is further in the `wanted` direction.
/// Numbers compare numerically and strings lexicographically (ISO-8601 in one
/// format sorts by time); a number and a string cannot be compared, so the
/// value already recorded stays.
fn keep_extreme(existing: &mut Value, incoming: Value, wanted: Ordering) {
    let order = match (&*existing, &incoming) {
        (Value::Number(a), Value::Number(b)) => compare_numbers(b, a),
        (Value::String(a), Value::String(b)) => Some(b.cmp(a)),
        _ => None,
    };
    if order == Some(wanted) {
        *existing = incoming;
    }
}

fn as_integer(n: &Number) -> Option<i128> {
    if n.is_f64() {
        return None;
    }
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn compare_numbers(a: &Number, b: &Number) -> Option<Ordering> {
    match (as_integer(a), as_integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// Integer sums stay integers (i128 cannot overflow on two 64-bit operands);
/// a sum outside u64/i64, or any float operand, gives an f64.
fn add_numbers(a: &Number, b: &Number) -> Number {
    if let (Some(x), Some(y)) = (as_integer(a), as_integer(b)) {
        let sum = x + y;
        if let Ok(u) = u64::try_from(sum) {
            return Number::from(u);
        }
        if let Ok(i) = i64::try_from(sum) {
            return Number::from(i);
        }
        return finite_number(x as f64 + y as f64);
    }
    finite_number(a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0))
}

/// JSON has no infinity or NaN; two finite operands can only overflow to
/// infinity, which saturates so the result still reads as "huge".
fn finite_number(f: f64) -> Number {
    let finite = if f.is_nan() {
        0.0
    } else if f == f64::INFINITY {
        f64::MAX
    } else if f == f64::NEG_INFINITY {
        f64::MIN
    } else {
        f
    };
    Number::from_f64(finite).unwrap_or_else(|| Number::from(0u8))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
mod tests;
