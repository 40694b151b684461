//! Which members of a response the guard reads, for every provider and SDK
//! shape: the one list behind the JavaScript reader. The nodes shared by
//! several shapes (a content part, a message) are here, with the root,
//! whose members are every provider's `response_members` in the order the
//! answer is looked for; the nodes of one provider's own shapes (OpenAI
//! Chat's choices, Gemini's candidates, ...) are in its module,
//! `src/providers/<provider>.rs`.
//!
//! A response handed to checkOutput is a live object: SDK class instances
//! keep members as getters (the Vercel AI SDK's `text`, `finishReason` and
//! `usage`, @google/genai's `text`), hold references back to the request,
//! and carry members nobody needs (raw headers, a request body, a deeply
//! nested provider extension). So the reader does not serialise the
//! response: it walks it by property access along these plans and hands the
//! core a copy of just the members listed here. `response.rs`, `finish.rs`
//! and `usage.rs` then read that copy exactly as they would read the whole
//! response; `src/providers/read/tests.rs` holds that equality for every shape they read.
//!
//! A plan is a tree of [`Node`]s. At a node the reader takes the live value
//! and copies:
//! - a string, number, boolean or null as it is (a BigInt as a number, or
//!   past 2^53 as a string; functions and symbols not at all);
//! - an array: with `each`, every element read with that node; with
//!   `first`, only the first; otherwise nothing of it (an empty array);
//! - an object: the listed `members` that are present (not undefined), each
//!   read with its node, in the order listed, and a member that throws when
//!   read taken as absent; a member named in `unless` only when none of the
//!   members listed with it was copied before it, an empty list, and a
//!   string where the node is not a text one (an error's `message`), counting
//!   as not copied (reading the answer where
//!   a provider's own reader would, and no further: @google/genai's `text`
//!   getter, say, logs a warning when a response has parts that are not
//!   text); with `primitives`, also every own enumerable member whose value
//!   is a string, number, boolean or null;
//! - with `members_alone_with`, when one of those members holds an object
//!   (not null, not an array): only the `members`, in the order listed;
//! - with `deep`, or with `deep_unless` when none of those members is
//!   present, the whole value: own enumerable members at any depth up to
//!   [`DEEP_LIMIT`], a repeated object left out; when some of them are
//!   present, each of those as null (so the copy is still recognised as
//!   what it is) beside `members` and `primitives`.
//!
//! A node marked `whole` takes the value as it is, to be written as JSON
//! with the rest of the copy (a value the SDK already parsed, which must
//! reach the check unchanged, however deep). A node marked `arguments` is a
//! `whole` one that holds a tool call's arguments (or input): the tool-call
//! reader may hand a string there to the core by reference, as it hands
//! the strings under `text` nodes. A node marked `call_id` holds a tool
//! call's id, and one marked `call_name` the name of the tool it calls: the
//! tool-call reader may hand a string there by reference too, written as a
//! string (`"\u0000"` and the text's index) that the calls' reader passes
//! through as the call's id or name, so that what the core answers for a
//! copy holds for every response that makes the same copy, whichever tools
//! its calls name.
//!
//! Strings under a node marked `text` can be long (they are the model's
//! answer); the reader may hand them to the core by reference into its input
//! buffer rather than inside the copy.

/// How deep a `deep` copy goes; usage objects are two or three levels deep.
pub const DEEP_LIMIT: usize = 16;

/// One node of a read plan; see the module documentation.
#[derive(Debug)]
pub struct Node {
    pub members: &'static [(&'static str, &'static Node)],
    pub each: Option<&'static Node>,
    pub first: Option<&'static Node>,
    pub primitives: bool,
    pub deep: bool,
    pub deep_unless: &'static [&'static str],
    pub members_alone_with: &'static [&'static str],
    pub unless: &'static [(&'static str, &'static [&'static str])],
    pub text: bool,
    pub whole: bool,
    pub arguments: bool,
    pub call_id: bool,
    pub call_name: bool,
}

impl Node {
    /// The node as the reader loads it: `{ members: [[name, node]], each,
    /// first, primitives, deep, deep_unless, text }`, each member only when
    /// it says something. Written by hand: the names and words in a plan
    /// need no escaping, and a derived serialiser costs the wasm kilobytes.
    fn write_json(&self, out: &mut String) {
        let mut fields: Vec<(&str, String)> = Vec::new();
        if !self.members.is_empty() {
            let mut list = String::from("[");
            for (i, (name, node)) in self.members.iter().enumerate() {
                if i > 0 {
                    list.push(',');
                }
                list.push_str("[\"");
                list.push_str(name);
                list.push_str("\",");
                node.write_json(&mut list);
                list.push(']');
            }
            list.push(']');
            fields.push(("members", list));
        }
        for (key, child) in [("each", self.each), ("first", self.first)] {
            if let Some(node) = child {
                let mut text = String::new();
                node.write_json(&mut text);
                fields.push((key, text));
            }
        }
        let flags = [
            ("primitives", self.primitives),
            ("deep", self.deep),
            ("text", self.text),
            ("whole", self.whole),
            ("arguments", self.arguments),
            ("call_id", self.call_id),
            ("call_name", self.call_name),
        ];
        for (key, flag) in flags {
            if flag {
                fields.push((key, "true".to_owned()));
            }
        }
        if !self.deep_unless.is_empty() {
            fields.push(("deep_unless", names_json(self.deep_unless)));
        }
        if !self.members_alone_with.is_empty() {
            fields.push(("members_alone_with", names_json(self.members_alone_with)));
        }
        if !self.unless.is_empty() {
            let pairs: Vec<String> = self
                .unless
                .iter()
                .map(|(name, others)| format!("\"{name}\":{}", names_json(others)))
                .collect();
            fields.push(("unless", format!("{{{}}}", pairs.join(","))));
        }
        out.push('{');
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            out.push_str(key);
            out.push_str("\":");
            out.push_str(value);
        }
        out.push('}');
    }
}

/// A node that copies nothing; the plans spell only what differs.
pub const fn node() -> Node {
    Node {
        members: &[],
        each: None,
        first: None,
        primitives: false,
        deep: false,
        deep_unless: &[],
        members_alone_with: &[],
        unless: &[],
        text: false,
        whole: false,
        arguments: false,
        call_id: false,
        call_name: false,
    }
}

fn names_json(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    format!("[{}]", quoted.join(","))
}

/// A value read for what it is, with nothing inside it.
pub static LEAF: Node = node();

/// A string that may be the model's answer.
pub static TEXT: Node = Node {
    text: true,
    ..node()
};

/// Everything inside, for usage objects, whose members providers keep adding.
pub static DEEP: Node = Node {
    deep: true,
    ..node()
};

/// A value the SDK parsed from the answer, checked as it is.
pub static WHOLE: Node = Node {
    whole: true,
    ..node()
};

/// A tool call's id.
pub static CALL_ID: Node = Node {
    call_id: true,
    ..node()
};

/// The name of the tool a call calls.
pub static CALL_NAME: Node = Node {
    call_name: true,
    ..node()
};

/// A tool call's arguments (or input): text, or a value the SDK parsed.
pub static ARGUMENTS: Node = Node {
    whole: true,
    arguments: true,
    ..node()
};

/// A content part (OpenAI, Anthropic, Gemini, Bedrock, Cohere, the AI SDK):
/// its kind, its text and Gemini's reasoning mark.
pub static PART: Node = Node {
    members: &[
        ("type", &LEAF),
        ("text", &TEXT),
        ("thought", &LEAF),
        // Tool calls: Anthropic's tool_use, the AI SDK's tool-call parts,
        // Bedrock's toolUse and Gemini's functionCall.
        ("id", &CALL_ID),
        ("name", &CALL_NAME),
        ("input", &ARGUMENTS),
        ("toolCallId", &CALL_ID),
        ("toolName", &CALL_NAME),
        ("toolUse", &super::bedrock::BEDROCK_TOOL_USE),
        ("functionCall", &super::gemini::GEMINI_CALL),
    ],
    ..node()
};

/// A content member: a string, null, or a list of parts.
pub static CONTENT: Node = Node {
    each: Some(&PART),
    text: true,
    ..node()
};

/// A message holding content (OpenAI Chat, Bedrock Converse, Cohere, Ollama).
pub static MESSAGE: Node = Node {
    members: &[
        ("content", &CONTENT),
        ("tool_calls", &super::openai_chat::TOOL_CALLS),
    ],
    ..node()
};

/// A root that is a list: parts to join, or an executor's time segments.
static ROOT_ITEM: Node = Node {
    members: &[
        ("type", &LEAF),
        ("text", &TEXT),
        ("thought", &LEAF),
        ("finishReason", &super::ai_sdk::SDK_REASON),
    ],
    ..node()
};

/// What checkOutput and detectTruncation read: the answer text, the finish
/// reason and the tool calls, wherever each provider keeps them.
pub static OUTPUT_PLAN: Node = Node {
    members: &[
        ("content", &CONTENT),
        ("choices", &super::openai_chat::CHOICES),
        ("output_text", &TEXT),
        ("output", &super::openai_responses::OUTPUT),
        ("candidates", &super::gemini::CANDIDATES),
        ("message", &MESSAGE),
        ("text", &TEXT),
        ("response", &TEXT),
        ("timing", &super::executor_trace::TIMING),
        ("timeSegments", &super::executor_trace::SEGMENTS),
        ("stop_reason", &LEAF),
        ("stopReason", &LEAF),
        ("finish_reason", &LEAF),
        ("native_finish_reason", &LEAF),
        ("done_reason", &LEAF),
        ("finishReason", &super::ai_sdk::SDK_REASON),
        ("status", &LEAF),
        ("incomplete_details", &super::openai_responses::INCOMPLETE),
        ("object", &WHOLE),
    ],
    each: Some(&ROOT_ITEM),
    // The AI SDK's `text` and Ollama's `response` are read only where no
    // provider's own content is. `text` comes first: the AI SDK's
    // NoObjectGeneratedError (and its results) keep the call's metadata, an
    // object, in `response`, and the error's answer is its `text`.
    unless: &[
        ("text", &EARLIER_ANSWERS),
        ("response", &EARLIER_ANSWERS_AND_TEXT),
    ],
    ..node()
};

const EARLIER_ANSWERS: [&str; 6] = [
    "content",
    "choices",
    "output_text",
    "output",
    "candidates",
    "message",
];
const EARLIER_ANSWERS_AND_TEXT: [&str; 7] = [
    "content",
    "choices",
    "output_text",
    "output",
    "candidates",
    "message",
    "text",
];

/// What normalizeUsage and guardedCall's accounting read. A bare usage
/// object is read whole (a provider's new counter must not be lost); an
/// object with a usage in `totalUsage`, `usage` or `usageMetadata` gives
/// its usage members whole and nothing else; any other response,
/// recognised by the members only a response has, gives its usage members
/// and its own top-level numbers (Ollama keeps its counts there), never its
/// content, request or headers.
pub static USAGE_PLAN: Node = Node {
    members: &[
        ("totalUsage", &DEEP),
        ("usage", &DEEP),
        ("usageMetadata", &DEEP),
        ("billed_units", &DEEP),
        ("tokens", &DEEP),
        ("cost", &DEEP),
        ("timing", &DEEP),
    ],
    primitives: true,
    deep_unless: &hot_path::usage::RESPONSE_MARKERS,
    // A usage found there is all `normalize_usage` reads (beside the
    // executor members, which are listed): the response's own numbers and
    // markers only count without one.
    members_alone_with: &hot_path::usage::EMBEDDED_USAGE,
    ..node()
};

/// Both plans, as the JavaScript reader loads them:
/// `{ output, usage, deep_limit }`.
#[must_use]
pub fn plans_json() -> String {
    let mut out = String::from("{\"output\":");
    OUTPUT_PLAN.write_json(&mut out);
    out.push_str(",\"usage\":");
    USAGE_PLAN.write_json(&mut out);
    out.push_str(&format!(",\"deep_limit\":{DEEP_LIMIT}}}"));
    out
}

/// The first item of a reference to a text string in the reader's copy,
/// `["\u0000", i]` (an array: Bun's JSON.stringify writes a member name
/// that needs escaping several times slower than a value).
const TEXT_REFERENCE: &str = "\u{0}";

/// Reads what the facade's reader put in the input buffer (`whole`): text
/// strings from the start, and at `copy_start` the JSON text
/// `[[byte length of each string], copy]`. Gives the strings and the copy's
/// JSON text, in which each reference `["\u0000", i]` stands for string `i`:
/// the readers never look inside the answer text, so it stays where it is,
/// uncopied (see [`stand_in`]). The lengths are digits and commas, as the
/// reader writes them; any other form is `None`.
#[must_use]
pub fn split_texts(whole: &str, copy_start: usize) -> Option<(Vec<&str>, &str)> {
    let rest = whole.get(copy_start..)?.strip_prefix("[[")?;
    let (lengths, rest) = rest.split_at(rest.find(']')?);
    let copy = rest.strip_prefix("],")?.strip_suffix(']')?;
    let mut texts = Vec::new();
    let mut at = 0usize;
    for length in lengths.split(',').filter(|_| !lengths.is_empty()) {
        if length.is_empty() || length.len() > 15 || !length.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let end = at.checked_add(length.parse().ok()?)?;
        if end > copy_start {
            return None;
        }
        texts.push(whole.get(at..end)?);
        at = end;
    }
    Some((texts, copy))
}

/// What a guarded call's step finds in the input buffer: the strings, as
/// for [`split_texts`], the last of them the usage's JSON text, and at
/// `copy_start` the JSON text `[[byte length of each string], copy]`.
/// Gives the strings (the usage's left out), the copy's JSON text with its
/// references as they are (see `crate::response::answer_of`, [`with_stand_ins`] and
/// [`with_texts`]) and the usage's text.
#[must_use]
pub fn read_step(whole: &str, copy_start: usize) -> Option<(Vec<&str>, &str, &str)> {
    let (mut texts, copy) = split_texts(whole, copy_start)?;
    let usage = texts.pop()?;
    Some((texts, copy, usage))
}

/// The copy with each reference `["\u0000", i]` replaced by its stand-in
/// (see [`stand_in`]); `None` for a reference to none of `count`
/// strings, or a copy deeper than any plan.
#[must_use]
pub fn with_stand_ins(copy: &serde_json::Value, count: usize) -> Option<serde_json::Value> {
    let mut copy = copy.clone();
    stand_in(&mut copy, count)?;
    Some(copy)
}

/// The copy with each reference replaced by the string it refers to: the
/// response as the readers would see it whole; `None` as for
/// [`with_stand_ins`].
#[must_use]
pub fn with_texts(copy: &serde_json::Value, texts: &[&str]) -> Option<serde_json::Value> {
    let mut copy = copy.clone();
    replace_references(&mut copy, texts.len(), Some(texts), 0)?;
    Some(copy)
}

/// Replaces each text reference `["\u0000", i]` with its stand-in, the
/// string `"\u0000" + i`, which only [`text_index`] reads; `None` for a
/// reference to no string, or a copy deeper than any plan.
pub fn stand_in(value: &mut serde_json::Value, count: usize) -> Option<()> {
    replace_references(value, count, None, 0)
}

/// Replaces each reference to one of `count` strings with the string
/// itself when `texts` are given, else with its stand-in.
fn replace_references(
    value: &mut serde_json::Value,
    count: usize,
    texts: Option<&[&str]>,
    depth: usize,
) -> Option<()> {
    use serde_json::Value;
    if depth > 64 {
        return None;
    }
    match value {
        Value::Object(map) => map
            .values_mut()
            .try_for_each(|member| replace_references(member, count, texts, depth + 1)),
        Value::Array(items) => {
            if let [Value::String(mark), index] = items.as_slice() {
                if mark == TEXT_REFERENCE {
                    let index = usize::try_from(index.as_u64()?)
                        .ok()
                        .filter(|i| *i < count)?;
                    *value = Value::String(match texts {
                        Some(texts) => (*texts.get(index)?).to_owned(),
                        None => format!("{TEXT_REFERENCE}{index}"),
                    });
                    return Some(());
                }
            }
            items
                .iter_mut()
                .try_for_each(|item| replace_references(item, count, texts, depth + 1))
        }
        _ => Some(()),
    }
}

/// The string a reference `["\u0000", i]` in a copy refers to, when
/// `value` is one to one of `count` strings.
#[must_use]
pub fn reference_index(value: &serde_json::Value, count: usize) -> Option<usize> {
    match value.as_array()?.as_slice() {
        [serde_json::Value::String(mark), index] if mark == TEXT_REFERENCE => {
            usize::try_from(index.as_u64()?).ok().filter(|i| *i < count)
        }
        _ => None,
    }
}

/// The index of the text string an answer read from the copy is, when it
/// is exactly one of them (not several joined).
#[must_use]
pub fn text_index(answer: &str) -> Option<usize> {
    let digits = answer.strip_prefix(TEXT_REFERENCE)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests;
