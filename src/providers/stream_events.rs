//! Where each provider's stream events keep the answer's text, the finish
//! reason and the usage: the one table behind `guardedStream`'s readers.
//!
//! A streamed answer arrives as events the SDKs hand over one at a time:
//! OpenAI Chat completion chunks, OpenAI Responses stream events, Anthropic
//! message stream events, Gemini `generateContentStream` chunks
//! (@google/genai's `GenerateContentResponse` instances) and the parts of
//! the Vercel AI SDK's `streamText(...).fullStream`. Events come fast and
//! carry a few characters each, so they do not cross into the core one by
//! one: the JavaScript reader loads this table once and walks each live
//! event along it by property access, and only the text (into the stream
//! check) and the usage reports (with the attempt's step) cross.
//!
//! The walk, which `js/stream-read.mjs` implements: the first reader whose
//! `when` conditions all hold reads the event (an event no reader takes
//! carries nothing the guard needs: `ping`, `content_block_start`,
//! `response.created`, a reasoning delta). A condition is a path and what
//! must be there: a string equal to the one given, one of several strings,
//! or an array. A path is a list of steps from the event: a member name,
//! `0` (the first element of an array), or `{ "each": name }` (every element
//! of an array whose member `name` is not `true`, each read on; their
//! strings are joined). Then:
//! - `text`, `finish`: alternatives, the first path that reaches a string
//!   gives it (a text that is empty gives nothing);
//! - `usage`: alternatives, the first path that reaches an object gives the
//!   report, keyed by that path (see [`hot_path::usage::overlay_usage`] for how
//!   an attempt's reports make its usage);
//! - `error`: the event reports a failure of the stream itself: what the
//!   path reaches (or the event, when nothing) is thrown, as a stream that
//!   throws would throw it. (The AI SDK puts a failed call's error into
//!   `fullStream` as a part instead of throwing.)
//! - `calls`: the tool calls the event carries pieces of (see [`Calls`]):
//!   `list` leads to them (an array, each element read on; empty: the
//!   event is one), and from each, `key` says which call it continues (a
//!   number or a string; without one, or where the path reaches nothing,
//!   each element that names a tool is a call of its own), `id` and `name`
//!   what the call is, `arguments` the next piece of its argument text, and
//!   `whole` its arguments given at once (a value, or text), taken only by
//!   a call no piece reached (the AI SDK's `tool-call` part repeats what its
//!   `tool-input-delta` parts streamed; Gemini sends each call whole), and
//!   `ends`: the event ends the call at its key (a call given whole ends
//!   there too, and a finish reason ends every call).
//!   Which call is the output (`toolName`) and how the pieces add up is the
//!   wrapper's walk; the first reader that reads the event also reads its
//!   calls.

/// One step of a path; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Member(&'static str),
    First,
    /// Every element whose member of this name is not `true` (Gemini's
    /// thought parts carry `thought: true` and are not the answer).
    EachUnless(&'static str),
}

pub type Path = &'static [Step];

/// What a condition asks to find at its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Is(&'static str),
    OneOf(&'static [&'static str]),
    Array,
    /// An object (a member that marks what kind of event it is).
    Object,
}

/// Where an event keeps the tool calls it carries pieces of; see the
/// module documentation.
#[derive(Debug, Clone, Copy)]
pub struct Calls {
    pub list: Path,
    pub key: Path,
    pub id: &'static [Path],
    pub name: &'static [Path],
    pub arguments: &'static [Path],
    pub whole: &'static [Path],
    pub ends: bool,
}

/// Calls at `list`, continued by `key`, with no members read yet.
pub const fn calls(list: Path, key: Path) -> Calls {
    Calls {
        list,
        key,
        id: &[],
        name: &[],
        arguments: &[],
        whole: &[],
        ends: false,
    }
}

/// An event that ends the call at `key` in `list` (see `Calls::ends`).
pub const fn call_end(list: Path, key: Path) -> Calls {
    Calls {
        ends: true,
        ..calls(list, key)
    }
}

/// One kind of event and where it keeps what the guard reads.
#[derive(Debug, Clone, Copy)]
pub struct Reader {
    /// For tests and people: which provider's which event.
    pub name: &'static str,
    pub when: &'static [(Path, Expect)],
    pub text: &'static [Path],
    pub finish: &'static [Path],
    pub usage: &'static [Path],
    pub error: Option<Path>,
    pub calls: Option<Calls>,
}

/// A reader of the events that meet `when`, reading nothing yet.
pub const fn reader(name: &'static str, when: &'static [(Path, Expect)]) -> Reader {
    Reader {
        name,
        when,
        text: &[],
        finish: &[],
        usage: &[],
        error: None,
        calls: None,
    }
}

use Step::{EachUnless, First, Member};

/// The member that names an event's kind, where the event has one.
pub const TYPE: Path = &[Member("type")];

/// The readers, in the order they are tried: each provider's
/// (`src/providers/<provider>.rs`, its `stream_readers`) in the order of
/// [`super::PROVIDERS`]. Discriminated by `type` where the event has one
/// (Responses, Anthropic and the AI SDK name every event), by the list that
/// holds the answer where it has none (Chat chunks' `choices`, Gemini
/// chunks' `candidates`), by the member that names its kind (Bedrock).
pub static READERS: [Reader; super::stream_reader_count()] = super::stream_readers();

fn path_json(path: Path, out: &mut String) {
    out.push('[');
    for (i, step) in path.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match step {
            Member(name) => {
                out.push('"');
                out.push_str(name);
                out.push('"');
            }
            First => out.push('0'),
            EachUnless(name) => {
                out.push_str("{\"each\":\"");
                out.push_str(name);
                out.push_str("\"}");
            }
        }
    }
    out.push(']');
}

fn paths_json(paths: &[Path], out: &mut String) {
    out.push('[');
    for (i, path) in paths.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        path_json(path, out);
    }
    out.push(']');
}

/// The table as the reader loads it: `[{ name, when: [[path, expect]],
/// text: [path], finish: [path], usage: [path], error?: path, calls?: {
/// list: path, key: path, id, name, arguments, whole: [path], ends } }]`, where
/// `expect` is a string, a list of strings, `true` for an array or `{}`
/// for an object. Written
/// by hand, like the read plans: the names need no escaping, and a derived
/// serialiser costs the wasm kilobytes.
#[must_use]
pub fn stream_readers_json() -> String {
    let mut out = String::from("[");
    for (i, r) in READERS.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":\"");
        out.push_str(r.name);
        out.push_str("\",\"when\":[");
        for (j, (path, expect)) in r.when.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push('[');
            path_json(path, &mut out);
            out.push(',');
            match expect {
                Expect::Is(word) => {
                    out.push('"');
                    out.push_str(word);
                    out.push('"');
                }
                Expect::OneOf(words) => {
                    out.push('[');
                    for (k, word) in words.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        out.push('"');
                        out.push_str(word);
                        out.push('"');
                    }
                    out.push(']');
                }
                Expect::Array => out.push_str("true"),
                Expect::Object => out.push_str("{}"),
            }
            out.push(']');
        }
        out.push_str("],\"text\":");
        paths_json(r.text, &mut out);
        out.push_str(",\"finish\":");
        paths_json(r.finish, &mut out);
        out.push_str(",\"usage\":");
        paths_json(r.usage, &mut out);
        if let Some(path) = r.error {
            out.push_str(",\"error\":");
            path_json(path, &mut out);
        }
        if let Some(c) = r.calls {
            out.push_str(",\"calls\":{\"list\":");
            path_json(c.list, &mut out);
            out.push_str(",\"key\":");
            path_json(c.key, &mut out);
            out.push_str(",\"id\":");
            paths_json(c.id, &mut out);
            out.push_str(",\"name\":");
            paths_json(c.name, &mut out);
            out.push_str(",\"arguments\":");
            paths_json(c.arguments, &mut out);
            out.push_str(",\"whole\":");
            paths_json(c.whole, &mut out);
            out.push_str(",\"ends\":");
            out.push_str(if c.ends { "true" } else { "false" });
            out.push('}');
        }
        out.push('}');
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests;
