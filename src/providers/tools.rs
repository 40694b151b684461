//! Where a request declares tools, for every provider and SDK shape.
//!
//! Tools run inside the provider call (function calls the SDK executes, and
//! tools the provider runs itself: MCP servers, web search, code
//! interpreters), so a request that declares any is never resampled: the
//! resample would run them again. This table (built from each provider's
//! `tool_paths`) is the one list of the places a request can declare them. The JavaScript reader walks a live request
//! along these paths (getters and class instances included) and reports what
//! it found at each, and `carries_tools` decides. Whatever the reader cannot
//! make out at a path counts as tools: wrongly not resampling costs one
//! retry, wrongly resampling repeats side effects.

use serde::Serialize;
use serde_json::Value;

/// How the value at a path is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Leaf {
    /// A list or record of tools (an array, an object keyed by tool name, a
    /// `Map` or a `Set`): tools when it has any member. Any other present
    /// value (not null, undefined or false) counts as tools.
    Collection,
    /// A member whose mere presence switches a built-in tool on, even as an
    /// empty object (OpenAI Chat's `web_search_options: {}`).
    Presence,
    /// The JSON text of a nested request (Bedrock InvokeModel's `body`, a
    /// string or its UTF-8 bytes), read with this same table.
    RequestText,
}

/// One place a request can declare tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ToolPath {
    pub path: &'static [&'static str],
    pub leaf: Leaf,
}

/// A place `path` whose value is read as `leaf`.
pub const fn at(path: &'static [&'static str], leaf: Leaf) -> ToolPath {
    ToolPath { path, leaf }
}

/// Every place a request can declare tools: each provider's
/// (`src/providers/<provider>.rs`, its `tool_paths`), each place once,
/// where the first provider in [`super::PROVIDERS`] that names it lists
/// it; `providers/tools/tests.rs` has a test per provider shape.
pub const TOOL_PATHS: [ToolPath; super::tool_path_count()] = super::tool_paths();

/// What the reader found at one path of [`TOOL_PATHS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Nothing there (missing, null, undefined, false) or an empty collection.
    Nothing,
    /// Something that counts as tools: a collection with members, or a
    /// present member of a `Presence` path.
    Tools,
    /// A value there could not be read or made out (a throwing getter, a
    /// value of an unknown kind, a body that cannot be read synchronously).
    Unreadable,
    /// The text of a nested request, for a `RequestText` path.
    Text(String),
}

/// Nested requests are read once: a body inside a body is not a shape any
/// provider has, and reading it would let a hostile request recurse.
const MAX_NESTING: usize = 1;

/// Whether a request carries tools, from what the reader found at each of
/// [`TOOL_PATHS`] (in its order) and the caller's `hasTools` option. A
/// caller's `hasTools: false` does not override tools the request declares.
pub fn carries_tools(found: &[Found], has_tools_option: bool) -> bool {
    has_tools_option || found.iter().any(|f| found_tools(f, 0))
}

fn found_tools(found: &Found, nesting: usize) -> bool {
    match found {
        Found::Nothing => false,
        Found::Tools | Found::Unreadable => true,
        Found::Text(text) => text_carries_tools(text, nesting),
    }
}

/// A nested request's text. Text that is not JSON declares nothing this
/// table knows; a provider refuses such a body anyway.
fn text_carries_tools(text: &str, nesting: usize) -> bool {
    if nesting >= MAX_NESTING {
        return false;
    }
    serde_json::from_slice::<Value>(text.as_bytes())
        .is_ok_and(|request| nested_carries_tools(&request, nesting + 1))
}

/// Whether a nested request, read at `nesting`, declares tools.
fn nested_carries_tools(request: &Value, nesting: usize) -> bool {
    value_found(request).iter().any(|f| found_tools(f, nesting))
}

/// What a reader finds at each path of a request already held as JSON (a
/// nested request's text, a request in an audit log).
pub fn value_found(request: &Value) -> Vec<Found> {
    TOOL_PATHS
        .iter()
        .map(|tool_path| {
            let mut node = Some(request);
            for key in tool_path.path {
                node = node.and_then(|n| n.get(*key));
            }
            match node {
                None => Found::Nothing,
                Some(value) => value_leaf(value, tool_path.leaf),
            }
        })
        .collect()
}

fn value_leaf(value: &Value, leaf: Leaf) -> Found {
    match (value, leaf) {
        (Value::Null | Value::Bool(false), _) => Found::Nothing,
        (_, Leaf::Presence) => Found::Tools,
        (Value::String(text), Leaf::RequestText) => Found::Text(text.clone()),
        (Value::Array(items), Leaf::Collection) if items.is_empty() => Found::Nothing,
        (Value::Object(map), Leaf::Collection) if map.is_empty() => Found::Nothing,
        (_, Leaf::Collection) => Found::Tools,
        // A body held as JSON but not as text (an object): read it as the
        // request it is.
        (Value::Object(_), Leaf::RequestText) if nested_carries_tools(value, MAX_NESTING) => {
            Found::Tools
        }
        (_, Leaf::RequestText) => Found::Nothing,
    }
}

/// Whether a request held as JSON carries tools.
pub fn request_carries_tools(request: &Value, has_tools_option: bool) -> bool {
    carries_tools(&value_found(request), has_tools_option)
}

#[cfg(test)]
mod tests;
