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

mod program;
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

const GEMINI_KEYS: [&str; 5] = [
    "promptTokenCount",
    "candidatesTokenCount",
    "totalTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
];
const OPENAI_CHAT_KEYS: [&str; 4] = [
    "prompt_tokens",
    "completion_tokens",
    "prompt_tokens_details",
    "completion_tokens_details",
];
const SNAKE_KEYS: [&str; 7] = [
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "input_tokens_details",
    "output_tokens_details",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
];
const ANTHROPIC_CACHE_KEYS: [&str; 2] = ["cache_read_input_tokens", "cache_creation_input_tokens"];
const AI_SDK_V4_KEYS: [&str; 2] = ["promptTokens", "completionTokens"];
const CAMEL_KEYS: [&str; 9] = [
    "inputTokens",
    "outputTokens",
    "totalTokens",
    "cacheReadInputTokens",
    "cacheWriteInputTokens",
    "cachedInputTokens",
    "reasoningTokens",
    "inputTokenDetails",
    "outputTokenDetails",
];
const OLLAMA_KEYS: [&str; 2] = ["prompt_eval_count", "eval_count"];

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
        self.as_object().map(|object| object.members()).into_iter().flatten()
    }

    /// One pass over the members, however many names there are.
    fn has_any(self, names: &[&str]) -> bool {
        self.object().is_some_and(|object| object.find_any(names).is_some())
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
    merge_objects(usages.iter().filter(|usage| !usage.is_null()).map(normalize_usage))
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
    obj.member(name).filter(|value| value.shape() == Shape::Object)
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
        t.input = r.take(&["tokens", "input_tokens"])
            .or_else(|| number_at(usage, &["billed_units", "input_tokens"]));
        t.output = r.take(&["tokens", "output_tokens"])
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
        let uncached = first(
            r.take(&["inputTokens"]),
            r.take(&["inputTokens", "total"]),
        );
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
        provider_raw = usage.member("raw").filter(|raw| raw.shape() == Shape::Object);
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
mod tests {
    use super::*;
    use serde_json::json;

    fn norm(v: Value) -> Value {
        normalize_usage(&v)
    }

    fn f(v: &Value, path: &[&str]) -> f64 {
        let mut cur = v;
        for key in path {
            cur = &cur[*key];
        }
        cur.as_f64()
            .unwrap_or_else(|| panic!("no number at {path:?} in {v}"))
    }

    // ---- normalize_usage: provider shapes ----

    #[test]
    fn openai_chat_usage() {
        let got = norm(json!({
            "prompt_tokens": 100,
            "completion_tokens": 50,
            "total_tokens": 150,
            "prompt_tokens_details": { "cached_tokens": 40, "audio_tokens": 0 },
            "completion_tokens_details": {
                "reasoning_tokens": 20,
                "audio_tokens": 3,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 1
            }
        }));
        assert_eq!(
            got,
            json!({ "tokens": {
                "input": 100, "output": 50, "total": 150, "cacheRead": 40, "reasoning": 20,
                "prompt_tokens_details": { "audio_tokens": 0 },
                "completion_tokens_details": {
                    "audio_tokens": 3, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 1
                }
            }})
        );
    }

    #[test]
    fn openai_chat_minimal_has_no_invented_members() {
        let got = norm(json!({ "prompt_tokens": 7, "completion_tokens": 3 }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 7, "output": 3, "total": 10 } })
        );
    }

    #[test]
    fn openai_responses_usage() {
        let got = norm(json!({
            "input_tokens": 300,
            "input_tokens_details": { "cached_tokens": 128 },
            "output_tokens": 90,
            "output_tokens_details": { "reasoning_tokens": 64 },
            "total_tokens": 390
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 300, "output": 90, "total": 390, "cacheRead": 128, "reasoning": 64 } })
        );
    }

    #[test]
    fn anthropic_usage_counts_cache_as_input() {
        let got = norm(json!({
            "input_tokens": 10,
            "cache_creation_input_tokens": 200,
            "cache_read_input_tokens": 1000,
            "output_tokens": 55,
            "service_tier": "standard",
            "server_tool_use": { "web_search_requests": 2 },
            "cache_creation": { "ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 0 }
        }));
        assert_eq!(
            got,
            json!({ "tokens": {
                "input": 1210, "output": 55, "total": 1265, "cacheRead": 1000, "cacheWrite": 200,
                "server_tool_use": { "web_search_requests": 2 },
                "cache_creation": { "ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 0 }
            }})
        );
    }

    #[test]
    fn anthropic_without_cache_fields() {
        let got = norm(json!({ "input_tokens": 12, "output_tokens": 8 }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 12, "output": 8, "total": 20 } })
        );
    }

    #[test]
    fn anthropic_streaming_delta_with_output_only() {
        let got = norm(json!({ "output_tokens": 42 }));
        assert_eq!(got, json!({ "tokens": { "output": 42, "total": 42 } }));
    }

    #[test]
    fn gemini_usage_metadata() {
        let got = norm(json!({
            "promptTokenCount": 500,
            "cachedContentTokenCount": 300,
            "candidatesTokenCount": 80,
            "thoughtsTokenCount": 120,
            "totalTokenCount": 700,
            "toolUsePromptTokenCount": 9,
            "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 500 }],
            "trafficType": "ON_DEMAND"
        }));
        assert_eq!(
            got,
            json!({ "tokens": {
                "input": 500, "output": 200, "total": 700, "cacheRead": 300, "reasoning": 120,
                "toolUsePromptTokenCount": 9,
                "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 500 }]
            }})
        );
    }

    #[test]
    fn bedrock_converse_usage() {
        let got = norm(json!({
            "inputTokens": 20,
            "outputTokens": 30,
            "totalTokens": 350,
            "cacheReadInputTokens": 250,
            "cacheWriteInputTokens": 50
        }));
        assert_eq!(
            got,
            json!({ "tokens": {
                "input": 320, "output": 30, "total": 350, "cacheRead": 250, "cacheWrite": 50
            }})
        );
    }

    #[test]
    fn cohere_v2_usage() {
        let got = norm(json!({
            "billed_units": { "input_tokens": 5, "output_tokens": 7, "search_units": 1 },
            "tokens": { "input_tokens": 70, "output_tokens": 7 }
        }));
        assert_eq!(
            got,
            json!({ "tokens": {
                "input": 70, "output": 7, "total": 77,
                "billed_units": { "input_tokens": 5, "output_tokens": 7, "search_units": 1 }
            }})
        );
    }

    #[test]
    fn an_ai_sdk_result_counts_every_step() {
        // `usage` is the last step's; `totalUsage` what the call cost.
        let result = json!({
            "text": "{}",
            "usage": { "inputTokens": 4, "outputTokens": 2 },
            "totalUsage": { "inputTokens": 10, "outputTokens": 6 }
        });
        let usage = normalize_usage(&result);
        assert_eq!(usage["tokens"]["input"], json!(10));
        assert_eq!(usage["tokens"]["output"], json!(6));
    }

    #[test]
    fn ai_sdk_usage_shapes() {
        let v4 = norm(json!({ "promptTokens": 4, "completionTokens": 6, "totalTokens": 10 }));
        assert_eq!(
            v4,
            json!({ "tokens": { "input": 4, "output": 6, "total": 10 } })
        );

        let v6 = norm(json!({
            "inputTokens": 100,
            "inputTokenDetails": { "noCacheTokens": 60, "cacheReadTokens": 40, "cacheWriteTokens": 0 },
            "outputTokens": 30,
            "outputTokenDetails": { "textTokens": 20, "reasoningTokens": 10 },
            "totalTokens": 130,
            "cachedInputTokens": 40,
            "reasoningTokens": 10
        }));
        assert_eq!(
            v6,
            // The uncached input and the text output are parts of what
            // input and output count: not kept a second time.
            json!({ "tokens": {
                "input": 100, "output": 30, "total": 130, "cacheRead": 40, "cacheWrite": 0, "reasoning": 10
            }})
        );
    }

    #[test]
    fn an_ai_sdk_usage_holds_the_providers_tokens_once() {
        // The provider's own usage, under `raw`, is the same tokens the SDK
        // mapped: what its own mapping adds (a count of requests, a
        // charge) is kept, its token counts are not.
        let openai = norm(json!({
            "inputTokens": 6,
            "inputTokenDetails": { "noCacheTokens": 4, "cacheReadTokens": 2 },
            "outputTokens": 21,
            "outputTokenDetails": { "textTokens": 18, "reasoningTokens": 3 },
            "totalTokens": 27,
            "raw": {
                "prompt_tokens": 6, "completion_tokens": 21, "total_tokens": 27,
                "prompt_tokens_details": { "cached_tokens": 2 },
                "completion_tokens_details": { "reasoning_tokens": 3 },
                "cost": 0.5
            }
        }));
        assert_eq!(
            openai,
            json!({
                "tokens": { "input": 6, "output": 21, "total": 27, "cacheRead": 2, "reasoning": 3 },
                "cost": { "total": 0.5 }
            })
        );
        let anthropic = norm(json!({
            "inputTokens": 17,
            "inputTokenDetails": { "noCacheTokens": 5, "cacheReadTokens": 8, "cacheWriteTokens": 4 },
            "outputTokens": 9,
            "totalTokens": 26,
            "raw": {
                "input_tokens": 5, "cache_read_input_tokens": 8, "cache_creation_input_tokens": 4,
                "output_tokens": 9,
                "server_tool_use": { "web_search_requests": 1 },
                "service_tier": "standard"
            }
        }));
        assert_eq!(
            anthropic,
            json!({ "tokens": {
                "input": 17, "output": 9, "total": 26, "cacheRead": 8, "cacheWrite": 4,
                "server_tool_use": { "web_search_requests": 1 }
            }})
        );
        // Two attempts merged: each count once per attempt.
        let merged = merge_usage(&[openai.clone(), openai]);
        assert_eq!(merged["tokens"], json!({ "input": 12, "output": 42, "total": 54, "cacheRead": 4, "reasoning": 6 }));
    }

    #[test]
    fn ollama_native_response() {
        let got = norm(json!({
            "model": "llama3",
            "created_at": "2026-01-01T00:00:00Z",
            "message": { "role": "assistant", "content": "{}" },
            "done": true,
            "done_reason": "stop",
            "total_duration": 123456789,
            "prompt_eval_count": 26,
            "eval_count": 290
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 26, "output": 290, "total": 316 } })
        );
    }

    #[test]
    fn unknown_provider_fields_are_kept_at_any_depth() {
        let got = norm(json!({
            "prompt_tokens": 10,
            "completion_tokens": 5,
            "total_tokens": 15,
            "brand_new_tokens": 3,
            "completion_tokens_details": { "reasoning_tokens": 2, "audio_tokens": 1 },
            "cost_details": { "upstream": { "image_units": 4, "label": "x" }, "note": "n" },
            "is_byok": false
        }));
        assert_eq!(
            got,
            json!({ "tokens": {
                "input": 10, "output": 5, "total": 15, "reasoning": 2,
                "brand_new_tokens": 3,
                "completion_tokens_details": { "audio_tokens": 1 }
            },
            "cost": { "details": { "upstream": { "image_units": 4 } } }
            })
        );
    }

    #[test]
    fn unknown_shape_keeps_its_numbers() {
        let got = norm(json!({ "foo_tokens": 9, "bar": { "baz": 1.5 }, "name": "x" }));
        assert_eq!(
            got,
            json!({ "tokens": { "foo_tokens": 9, "bar": { "baz": 1.5 } } })
        );
    }

    // ---- normalize_usage: whole responses and executor form ----

    #[test]
    fn openai_chat_whole_response() {
        let got = norm(json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000u64,
            "model": "gpt-4o",
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": "{}" }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15 }
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 11, "output": 4, "total": 15 } })
        );
    }

    #[test]
    fn gemini_whole_response() {
        let got = norm(json!({
            "candidates": [{ "content": { "parts": [{ "text": "{}" }] }, "finishReason": "STOP", "index": 0 }],
            "usageMetadata": { "promptTokenCount": 8, "candidatesTokenCount": 2, "totalTokenCount": 10 },
            "modelVersion": "gemini-2.5-flash"
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 8, "output": 2, "total": 10 } })
        );
    }

    #[test]
    fn anthropic_and_bedrock_whole_responses() {
        let anthropic = norm(json!({
            "id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "end_turn",
            "content": [{ "type": "text", "text": "{}" }],
            "usage": { "input_tokens": 3, "cache_read_input_tokens": 7, "output_tokens": 2 }
        }));
        assert_eq!(
            anthropic,
            json!({ "tokens": { "input": 10, "output": 2, "total": 12, "cacheRead": 7 } })
        );

        let bedrock = norm(json!({
            "output": { "message": { "role": "assistant", "content": [{ "text": "{}" }] } },
            "stopReason": "end_turn",
            "usage": { "inputTokens": 5, "outputTokens": 6, "totalTokens": 11 },
            "metrics": { "latencyMs": 300 }
        }));
        assert_eq!(
            bedrock,
            json!({ "tokens": { "input": 5, "output": 6, "total": 11 } })
        );
    }

    #[test]
    fn response_without_usage_counts_nothing() {
        let got = norm(json!({
            "id": "chatcmpl-2", "created": 1_700_000_000u64,
            "choices": [{ "index": 0, "finish_reason": "stop" }]
        }));
        assert_eq!(got, json!({}));
    }

    #[test]
    fn executor_usage_is_returned_as_is() {
        let usage = json!({
            "tokens": { "input": 1, "output": 2, "total": 3 },
            "cost": { "total": 0.5, "pricing": { "input": 0.000001 } },
            "timing": { "startTime": 1, "endTime": 2, "duration": 1, "timeSegments": [{ "type": "model" }] }
        });
        assert_eq!(norm(usage.clone()), usage);
        let only_cost = json!({ "cost": { "total": 0.25 } });
        assert_eq!(norm(only_cost.clone()), only_cost);
    }

    #[test]
    fn executor_response_keeps_only_usage_members() {
        let got = norm(json!({
            "content": "{}",
            "finishReason": "stop",
            "created": 1_700_000_000u64,
            "tokens": { "input": 4, "output": 1 },
            "timing": { "duration": 12 }
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 4, "output": 1 }, "timing": { "duration": 12 } })
        );
    }

    #[test]
    fn response_whose_usage_is_executor_form() {
        let got = norm(json!({
            "content": "{}",
            "usage": { "tokens": { "input": 9 }, "cost": { "total": 0.01 } }
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 9 }, "cost": { "total": 0.01 } })
        );
    }

    #[test]
    fn executor_trace_takes_missing_tokens_from_raw_usage() {
        let got = norm(json!({
            "timing": { "timeSegments": [{ "type": "model", "finishReason": "stop" }] },
            "usage": { "prompt_tokens": 2, "completion_tokens": 3 }
        }));
        assert_eq!(
            got,
            json!({
                "timing": { "timeSegments": [{ "type": "model", "finishReason": "stop" }] },
                "tokens": { "input": 2, "output": 3, "total": 5 }
            })
        );
        // Tokens recorded by the executor win over the raw copy: no double count.
        let got = norm(json!({
            "tokens": { "input": 2, "output": 3, "total": 5 },
            "usage": { "prompt_tokens": 20, "completion_tokens": 30 }
        }));
        assert_eq!(
            got,
            json!({ "tokens": { "input": 2, "output": 3, "total": 5 } })
        );
    }

    #[test]
    fn non_objects_normalise_to_empty() {
        for v in [
            json!(null),
            json!(3),
            json!(-1.5),
            json!("usage"),
            json!(true),
            json!([1, 2]),
            json!({}),
        ] {
            assert_eq!(normalize_usage(&v), json!({}), "input {v}");
        }
    }

    #[test]
    fn mapped_fields_with_wrong_types_are_ignored() {
        let got =
            norm(json!({ "prompt_tokens": "12", "completion_tokens": null, "total_tokens": 4 }));
        assert_eq!(got, json!({ "tokens": { "total": 4 } }));
    }

    // ---- merge_usage ----

    #[test]
    fn merge_of_nothing_is_empty() {
        assert_eq!(merge_usage(&[]), json!({}));
        assert_eq!(merge_usage(&[Value::Null, Value::Null]), json!({}));
    }

    #[test]
    fn merge_two_openai_usages() {
        let a = json!({
            "prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110,
            "prompt_tokens_details": { "cached_tokens": 0 },
            "completion_tokens_details": { "reasoning_tokens": 4, "audio_tokens": 1 }
        });
        let b = json!({
            "id": "x", "choices": [],
            "usage": {
                "prompt_tokens": 120, "completion_tokens": 20, "total_tokens": 140,
                "prompt_tokens_details": { "cached_tokens": 100 },
                "completion_tokens_details": { "reasoning_tokens": 6 }
            }
        });
        assert_eq!(
            merge_usage(&[a, b]),
            json!({ "tokens": {
                "input": 220, "output": 30, "total": 250, "cacheRead": 100, "reasoning": 10,
                "completion_tokens_details": { "audio_tokens": 1 }
            }})
        );
    }

    #[test]
    fn merge_executor_usages() {
        let a = json!({
            "tokens": { "input": 10, "output": 5, "total": 15 },
            "cost": { "input": 0.1, "output": 0.2, "total": 0.1, "pricing": { "input": 0.01, "output": 0.04 } },
            "timing": { "startTime": 1000, "endTime": 2000, "duration": 1000, "timeSegments": [{ "type": "model", "n": 1 }] }
        });
        let b = json!({
            "tokens": { "input": 12, "output": 6, "total": 18, "audio": 3 },
            "cost": { "input": 0.2, "output": 0.1, "total": 0.2, "toolCost": 0.05, "pricing": { "input": 0.02 } },
            "timing": {
                "startTime": 2500, "endTime": 3000, "duration": 500,
                "timeSegments": [{ "type": "tool", "n": 2 }, { "type": "model", "n": 3 }]
            }
        });
        let merged = merge_usage(&[a, b]);
        assert_eq!(
            merged["tokens"],
            json!({ "input": 22, "output": 11, "total": 33, "audio": 3 })
        );
        assert!((f(&merged, &["cost", "total"]) - 0.3).abs() < 1e-12);
        assert!((f(&merged, &["cost", "input"]) - 0.3).abs() < 1e-12);
        assert!((f(&merged, &["cost", "output"]) - 0.3).abs() < 1e-12);
        assert!((f(&merged, &["cost", "toolCost"]) - 0.05).abs() < 1e-12);
        assert_eq!(merged["cost"]["pricing"], json!({ "input": 0.02 }));
        assert_eq!(merged["timing"]["startTime"], json!(1000));
        assert_eq!(merged["timing"]["endTime"], json!(3000));
        assert_eq!(merged["timing"]["duration"], json!(1500));
        assert_eq!(
            merged["timing"]["timeSegments"],
            json!([{ "type": "model", "n": 1 }, { "type": "tool", "n": 2 }, { "type": "model", "n": 3 }])
        );
    }

    #[test]
    fn integer_sums_stay_integers() {
        let merged = merge_usage(&[
            json!({ "tokens": { "input": 2 } }),
            json!({ "tokens": { "input": 3 } }),
        ]);
        assert!(merged["tokens"]["input"].is_u64());
        assert_eq!(merged["tokens"]["input"], json!(5));
        let mixed = merge_usage(&[
            json!({ "tokens": { "x": 2 } }),
            json!({ "tokens": { "x": 0.5 } }),
        ]);
        assert!(mixed["tokens"]["x"].is_f64());
        assert_eq!(mixed["tokens"]["x"], json!(2.5));
        let signed = merge_usage(&[
            json!({ "cost": { "adj": -5 } }),
            json!({ "cost": { "adj": 3 } }),
        ]);
        assert_eq!(signed["cost"]["adj"], json!(-2));
        assert!(signed["cost"]["adj"].is_i64());
    }

    #[test]
    fn integer_overflow_falls_back_to_float_and_never_nan() {
        let merged = merge_usage(&[
            json!({ "tokens": { "x": u64::MAX } }),
            json!({ "tokens": { "x": 1 } }),
        ]);
        let x = &merged["tokens"]["x"];
        assert!(x.is_f64());
        assert!((x.as_f64().unwrap() - 18_446_744_073_709_551_616.0).abs() < 1e4);

        let merged = merge_usage(&[
            json!({ "cost": { "x": f64::MAX } }),
            json!({ "cost": { "x": f64::MAX } }),
        ]);
        let x = merged["cost"]["x"].as_f64().unwrap();
        assert!(x.is_finite());
        assert_eq!(x, f64::MAX);
    }

    #[test]
    fn pricing_is_replaced_not_summed_even_when_missing_later() {
        let merged = merge_usage(&[
            json!({ "cost": { "total": 1, "pricing": { "input": 0.5, "output": 1.5 } } }),
            json!({ "cost": { "total": 2 } }),
            json!({ "cost": { "pricing": { "input": 0.5, "output": 1.5 } } }),
        ]);
        assert_eq!(
            merged,
            json!({ "cost": { "total": 3, "pricing": { "input": 0.5, "output": 1.5 } } })
        );
    }

    #[test]
    fn field_on_one_side_only_is_kept() {
        let merged = merge_usage(&[
            json!({ "tokens": { "input": 1 }, "cost": { "toolCost": 0.7 } }),
            json!({ "tokens": { "input": 1, "cacheWrite": 8, "deep": { "a": { "b": 2 } } } }),
        ]);
        assert_eq!(
            merged,
            json!({
                "tokens": { "input": 2, "cacheWrite": 8, "deep": { "a": { "b": 2 } } },
                "cost": { "toolCost": 0.7 }
            })
        );
    }

    #[test]
    fn start_and_end_times_as_numbers() {
        let merged = merge_usage(&[
            json!({ "timing": { "startTime": 5000, "endTime": 6000 } }),
            json!({ "timing": { "startTime": 4000, "endTime": 5500 } }),
            json!({ "timing": { "startTime": 4500.5, "endTime": 7000 } }),
        ]);
        assert_eq!(merged["timing"]["startTime"], json!(4000));
        assert_eq!(merged["timing"]["endTime"], json!(7000));
    }

    #[test]
    fn start_and_end_times_as_iso_strings() {
        let merged = merge_usage(&[
            json!({ "timing": { "startTime": "2026-03-01T10:00:05Z", "endTime": "2026-03-01T10:00:09Z" } }),
            json!({ "timing": { "startTime": "2026-03-01T10:00:01Z", "endTime": "2026-03-01T10:00:20Z" } }),
            json!({ "timing": { "startTime": "2026-03-01T10:00:03Z", "endTime": "2026-03-01T10:00:10Z" } }),
        ]);
        assert_eq!(merged["timing"]["startTime"], json!("2026-03-01T10:00:01Z"));
        assert_eq!(merged["timing"]["endTime"], json!("2026-03-01T10:00:20Z"));
    }

    #[test]
    fn number_vs_string_time_keeps_the_existing_one() {
        let merged = merge_usage(&[
            json!({ "timing": { "startTime": 9_999_999_999_999u64, "endTime": "2026-01-01T00:00:00Z" } }),
            json!({ "timing": { "startTime": "1970-01-01T00:00:00Z", "endTime": 1 } }),
        ]);
        assert_eq!(merged["timing"]["startTime"], json!(9_999_999_999_999u64));
        assert_eq!(merged["timing"]["endTime"], json!("2026-01-01T00:00:00Z"));
    }

    #[test]
    fn missing_or_null_times_do_not_erase_recorded_ones() {
        let merged = merge_usage(&[
            json!({ "timing": { "startTime": null, "duration": 10 } }),
            json!({ "timing": { "startTime": 300, "endTime": 400, "duration": 20 } }),
            json!({ "timing": { "endTime": null, "duration": 30 } }),
        ]);
        assert_eq!(
            merged,
            json!({ "timing": { "startTime": 300, "duration": 60, "endTime": 400 } })
        );
    }

    #[test]
    fn time_segments_concatenate_in_attempt_order() {
        let merged = merge_usage(&[
            json!({ "timing": { "timeSegments": [1, 2] } }),
            json!({ "timing": { "duration": 1 } }),
            json!({ "timing": { "timeSegments": [] } }),
            json!({ "timing": { "timeSegments": [3] } }),
            json!({ "timing": { "timeSegments": "garbage" } }),
        ]);
        assert_eq!(merged["timing"]["timeSegments"], json!([1, 2, 3]));
    }

    #[test]
    fn null_members_are_not_reported() {
        let merged = merge_usage(&[
            json!({ "tokens": { "input": 1, "output": null }, "cost": { "currency": null, "extra": { "a": null, "b": 2 } } }),
            json!({ "tokens": { "reasoning": null } }),
        ]);
        assert_eq!(
            merged,
            json!({ "tokens": { "input": 1 }, "cost": { "extra": { "b": 2 } } })
        );
    }

    #[test]
    fn a_replacing_value_brings_no_null_members() {
        // Pricing is replaced, not merged; its null members still say nothing.
        let merged = merge_usage(&[
            json!({ "cost": { "pricing": { "input": 1 } } }),
            json!({ "cost": { "pricing": { "input": null, "output": 2 } } }),
        ]);
        assert_eq!(merged, json!({ "cost": { "pricing": { "output": 2 } } }));
        // Shapes disagree and the later object wins.
        let merged = merge_usage(&[
            json!({ "tokens": { "x": "n/a" } }),
            json!({ "tokens": { "x": { "a": null, "b": 1 } } }),
        ]);
        assert_eq!(merged, json!({ "tokens": { "x": { "b": 1 } } }));
        // Segments that were not an array are replaced by the later value.
        let merged = merge_usage(&[
            json!({ "timing": { "timeSegments": "none" } }),
            json!({ "timing": { "timeSegments": { "first": null, "n": 1 } } }),
        ]);
        assert_eq!(merged, json!({ "timing": { "timeSegments": { "n": 1 } } }));
    }

    #[test]
    fn non_numeric_fields_take_the_latest_non_null() {
        let merged = merge_usage(&[
            json!({ "cost": { "currency": "USD", "model": "a", "flag": true }, "tokens": { "arr": [1, 2] } }),
            json!({ "cost": { "currency": "EUR", "model": null, "flag": false }, "tokens": { "arr": [3] } }),
        ]);
        assert_eq!(
            merged,
            json!({ "cost": { "currency": "EUR", "model": "a", "flag": false }, "tokens": { "arr": [3] } })
        );
    }

    #[test]
    fn a_number_is_not_replaced_by_a_non_numeric_value() {
        let merged = merge_usage(&[
            json!({ "tokens": { "input": 5, "x": "old" } }),
            json!({ "tokens": { "input": "n/a", "x": 2 } }),
        ]);
        assert_eq!(merged, json!({ "tokens": { "input": 5, "x": 2 } }));
    }

    #[test]
    fn null_and_garbage_inputs_are_ignored() {
        let merged = merge_usage(&[
            Value::Null,
            json!(42),
            json!("hello"),
            json!([1, 2, 3]),
            json!(true),
            json!({ "prompt_tokens": 1, "completion_tokens": 1 }),
            json!([{ "tokens": { "input": 100 } }]),
            Value::Null,
        ]);
        assert_eq!(
            merged,
            json!({ "tokens": { "input": 1, "output": 1, "total": 2 } })
        );
    }

    #[test]
    fn merge_raw_anthropic_with_executor_usage() {
        let anthropic = json!({
            "input_tokens": 5,
            "cache_read_input_tokens": 95,
            "output_tokens": 20,
            "server_tool_use": { "web_search_requests": 1 }
        });
        let executor = json!({
            "tokens": { "input": 50, "output": 10, "total": 60, "cacheWrite": 50, "server_tool_use": { "web_search_requests": 2 } },
            "cost": { "total": 0.004 },
            "timing": { "startTime": 10, "endTime": 20, "duration": 10, "timeSegments": [{ "type": "model" }] }
        });
        assert_eq!(
            merge_usage(&[anthropic, executor]),
            json!({
                "tokens": {
                    "input": 150, "output": 30, "total": 180, "cacheRead": 95, "cacheWrite": 50,
                    "server_tool_use": { "web_search_requests": 3 }
                },
                "cost": { "total": 0.004 },
                "timing": { "startTime": 10, "endTime": 20, "duration": 10, "timeSegments": [{ "type": "model" }] }
            })
        );
    }

    #[test]
    fn merge_mixed_providers_uses_one_meaning_of_input() {
        let merged = merge_usage(&[
            json!({ "usageMetadata": { "promptTokenCount": 100, "cachedContentTokenCount": 60, "candidatesTokenCount": 10, "totalTokenCount": 110 } }),
            json!({ "usage": { "inputTokens": 40, "cacheReadInputTokens": 60, "outputTokens": 10, "totalTokens": 110 } }),
            json!({ "input_tokens": 40, "cache_read_input_tokens": 60, "output_tokens": 10 }),
        ]);
        assert_eq!(
            merged,
            json!({ "tokens": { "input": 300, "output": 30, "total": 330, "cacheRead": 180 } })
        );
    }

    #[test]
    fn merge_is_stable_when_reapplied() {
        let a = json!({ "prompt_tokens": 3, "completion_tokens": 4, "completion_tokens_details": { "audio_tokens": 1 } });
        let b = json!({ "tokens": { "input": 1 }, "timing": { "startTime": 5, "timeSegments": ["s1"] } });
        let c =
            json!({ "timing": { "startTime": 2, "timeSegments": ["s2"] }, "cost": { "total": 1 } });
        let all_at_once = merge_usage(&[a.clone(), b.clone(), c.clone()]);
        let stepwise = merge_usage(&[merge_usage(&[a, b]), c]);
        assert_eq!(all_at_once, stepwise);
        assert_eq!(
            all_at_once["timing"],
            json!({ "startTime": 2, "timeSegments": ["s1", "s2"] })
        );
    }

    #[test]
    fn merging_normalised_usages_is_merging_the_usages() {
        // Every provider's shape, whole responses, executor forms, nulls and
        // garbage: the ledger's sum (of usages normalised as they were
        // recorded) is the sum of the usages themselves.
        let usages = [
            json!({ "prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7, "prompt_tokens_details": { "cached_tokens": 1 }, "completion_tokens_details": { "reasoning_tokens": 2, "audio_tokens": null } }),
            json!({ "input_tokens": 5, "output_tokens": 6, "input_tokens_details": { "cached_tokens": 2 }, "output_tokens_details": { "reasoning_tokens": 1 } }),
            json!({ "input_tokens": 10, "output_tokens": 2, "cache_creation_input_tokens": 3, "cache_read_input_tokens": 4, "service_tier": "standard" }),
            json!({ "promptTokenCount": 8, "candidatesTokenCount": 9, "totalTokenCount": 20, "thoughtsTokenCount": 3, "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 8 }] }),
            json!({ "inputTokens": 4, "outputTokens": 5, "totalTokens": 9 }),
            json!({ "billed_units": { "input_tokens": 2, "output_tokens": 3 }, "tokens": { "input_tokens": 4, "output_tokens": 5 } }),
            json!({ "id": "r", "object": "chat.completion", "model": "m", "choices": null, "usage": { "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3 } }),
            json!({ "model": "llama", "prompt_eval_count": 3, "eval_count": 4, "total_duration": 100 }),
            json!({ "candidates": null, "usageMetadata": { "promptTokenCount": 1, "candidatesTokenCount": 1 } }),
            json!({ "totalUsage": { "inputTokens": 7, "outputTokens": 1 }, "usage": { "inputTokens": 1 } }),
            json!({ "tokens": { "input": 1, "output": 2 }, "cost": { "total": 0.5, "pricing": { "input": 1 } }, "timing": { "startTime": 5, "endTime": "2026-01-01T00:00:00Z", "timeSegments": ["a"] } }),
            json!({ "tokens": { "input": 1.5, "extra": { "deep": 2, "none": null } }, "model": "x" }),
            json!({ "timing": { "startTime": null }, "tokens": null }),
            json!(null),
            json!("garbage"),
            json!([1, 2]),
            json!({}),
        ];
        for a in &usages {
            for b in &usages {
                for c in [None, Some(&usages[0]), Some(&usages[10])] {
                    let raw: Vec<Value> = [Some(a), Some(b), c].into_iter().flatten().cloned().collect();
                    let recorded: Vec<Usage> = raw.iter().map(Usage::of).collect();
                    assert_eq!(merge_normalized(&recorded), merge_usage(&raw), "{raw:?}");
                }
            }
            let recorded = Usage::of(a);
            assert_eq!(recorded.merges_to_itself(), merges_to_itself(&recorded.to_value()), "{a:?}");
            if recorded.merges_to_itself() {
                assert_eq!(merge_usage(std::slice::from_ref(a)), recorded.to_value(), "{a:?}");
            }
        }
        assert!(!merges_to_itself(&json!({ "tokens": { "input": 1, "cached": null } })));
        assert!(merges_to_itself(&json!({ "timing": { "timeSegments": [null] } })));
        assert!(!merges_to_itself(&json!(null)));
    }

    /// Usage-like JSON texts: members named as providers name them (some
    /// with an escape in the name, some repeated), numbers, nulls, strings,
    /// nested objects and arrays.
    fn usage_like_texts(seed: u64, count: usize) -> Vec<String> {
        const NAMES: [&str; 24] = [
            "prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details",
            "completion_tokens_details", "cached_tokens", "reasoning_tokens", "input_tokens",
            "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
            "promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "inputTokens",
            "outputTokens", "tokens", "cost", "cost_details", "billed_units", "usage",
            "usageMetadata", "timing", "model",
        ];
        let mut state = seed;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        fn value(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> String {
            match next(if depth > 2 { 4 } else { 7 }) {
                0 | 1 => format!("{}", next(1000)),
                2 => "null".into(),
                3 => ["\"x\"", "true", "1.5", "-0", "1e3", "18446744073709551616"][next(6) as usize].into(),
                4 | 5 => {
                    let members: Vec<String> = (0..next(6))
                        .map(|_| {
                            let name = NAMES[next(NAMES.len() as u64) as usize];
                            // An escaped underscore names the same member.
                            let name = if next(8) == 0 { name.replacen('_', "\\u005f", 1) } else { name.to_owned() };
                            format!("\"{name}\":{}", value(next, depth + 1))
                        })
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
                _ => {
                    let items: Vec<String> = (0..next(3)).map(|_| value(next, depth + 1)).collect();
                    format!("[{}]", items.join(","))
                }
            }
        }
        (0..count)
            .map(|_| {
                let v = value(&mut next, 0);
                if next(3) == 0 { format!("{{\"usage\":{v}}}") } else { v }
            })
            .collect()
    }

    /// A usage's text is read as serde_json reads it: a repeated name, an
    /// escaped one, numbers of every kind give the usage that the Value
    /// serde_json parses from the text does (written back as serde_json
    /// writes it, without repeats or escapes, and read again). The usage is
    /// written as serde_json writes its Value, and says whether it merges
    /// to itself as that Value does.
    #[test]
    fn a_usage_read_over_its_text_is_the_usage_of_its_value() {
        let mut texts = usage_like_texts(0x9e37_79b9_7f4a_7c15, 4000);
        // Objects of many members.
        let many: Vec<String> = (0..200).map(|i| format!("\"m{i}\":{i}")).collect();
        texts.push(format!("{{\"prompt_tokens\":1,{}}}", many.join(",")));
        texts.push(format!("{{\"usage\":{{\"input_tokens\":2,{}}}}}", many.join(",")));
        texts.push(r#"{"usage":{"prompt_tokens":512,"completion_tokens":180,"total_tokens":692,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}"#.into());
        let mut objects = 0;
        for text in &texts {
            let value: Value = serde_json::from_str(text).unwrap();
            let expected = normalize_usage(&value);
            let usage = normalize_usage_text(text).unwrap();
            let got = usage.to_value();
            // Equal, with members in the same order, and written as
            // serde_json writes them.
            assert_eq!(got, expected, "{text}");
            assert_eq!(got.to_string(), expected.to_string(), "{text}");
            let mut written = String::new();
            usage.write_json(&mut written);
            assert_eq!(written, expected.to_string(), "{text}");
            assert_eq!(usage.merges_to_itself(), merges_to_itself(&expected), "{text}");
            objects += usize::from(expected.as_object().is_some_and(|map| !map.is_empty()));
        }
        // The texts reach the mapping, not only its empty answers.
        assert!(objects > 1000, "{objects}");
        assert_eq!(normalize_usage_text("{\"prompt_tokens\":"), None);
        assert_eq!(normalize_usage_text("null").map(|u| u.to_value()), Some(json!({})));
    }

    #[test]
    fn merge_does_not_mutate_or_alias_inputs() {
        let a = json!({ "timing": { "timeSegments": [1] } });
        let inputs = [a.clone(), a.clone()];
        let merged = merge_usage(&inputs);
        assert_eq!(merged["timing"]["timeSegments"], json!([1, 1]));
        assert_eq!(inputs[0], a);
    }

    #[test]
    fn gateway_dollar_cost_is_cost_not_tokens() {
        let usage = json!({
            "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
            "cost": 0.00012, "cost_details": { "upstream_inference_cost": 0.0001 }
        });
        let n = normalize_usage(&usage);
        assert_eq!(
            n["tokens"],
            json!({ "input": 10, "output": 5, "total": 15 })
        );
        assert_eq!(
            n["cost"],
            json!({ "total": 0.00012, "details": { "upstream_inference_cost": 0.0001 } })
        );
        let merged = merge_usage(&[usage.clone(), usage]);
        assert!((merged["cost"]["total"].as_f64().unwrap() - 0.00024).abs() < 1e-12);
    }

    #[test]
    fn responses_cache_writes_and_anthropic_thinking_tokens() {
        let responses = json!({
            "input_tokens": 100, "output_tokens": 40, "total_tokens": 140,
            "input_tokens_details": { "cached_tokens": 30, "cache_write_tokens": 50 },
            "output_tokens_details": { "reasoning_tokens": 12 }
        });
        let t = &normalize_usage(&responses)["tokens"];
        assert_eq!(t["cacheWrite"], 50);
        assert_eq!(t["cacheRead"], 30);
        assert_eq!(t["reasoning"], 12);
        let anthropic = json!({
            "input_tokens": 10, "cache_read_input_tokens": 5, "cache_creation_input_tokens": 0,
            "output_tokens": 80, "output_tokens_details": { "thinking_tokens": 60 }
        });
        let t = &normalize_usage(&anthropic)["tokens"];
        assert_eq!(t["reasoning"], 60);
        assert_eq!(t["input"], 15);
        let plain = json!({ "input_tokens": 10, "output_tokens": 80, "output_tokens_details": { "thinking_tokens": 60 } });
        assert_eq!(normalize_usage(&plain)["tokens"]["reasoning"], 60);
    }

    #[test]
    fn per_modality_counts_are_summed_by_modality() {
        let first = json!({ "usageMetadata": {
            "promptTokenCount": 12, "candidatesTokenCount": 4, "totalTokenCount": 16,
            "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 10 }, { "modality": "IMAGE", "tokenCount": 2 }]
        }});
        let second = json!({ "usageMetadata": {
            "promptTokenCount": 8, "candidatesTokenCount": 3, "totalTokenCount": 11,
            "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 7 }, { "modality": "AUDIO", "tokenCount": 1 }]
        }});
        let merged = merge_usage(&[normalize_usage(&first), normalize_usage(&second)]);
        assert_eq!(merged["tokens"]["input"], 20);
        assert_eq!(
            merged["tokens"]["promptTokensDetails"],
            json!([
                { "modality": "TEXT", "tokenCount": 17 },
                { "modality": "IMAGE", "tokenCount": 2 },
                { "modality": "AUDIO", "tokenCount": 1 }
            ]),
            "{merged}"
        );
    }
}
