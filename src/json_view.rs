//! Read-only access to a JSON document for the readers that take a
//! response apart (its finish reason, its tool calls): a
//! `serde_json::Value`, or a tape read in place, so that a response the
//! facade copied as JSON text is read without building a `Value` of it
//! (which, in wasm, cost several times the reading itself). One type for
//! both, not a trait, so that each reader is compiled once.

use std::borrow::Cow;

use jsonschema::json::{Array, Node, Object};
use serde_json::Value;

use hot_path::tape::{Kind, TapeElements, TapeNode};

/// A JSON value, seen without copying it.
#[derive(Clone, Copy)]
pub enum JsonRef<'a> {
    Value(&'a Value),
    Tape(TapeNode<'a>),
}

impl<'a> From<&'a Value> for JsonRef<'a> {
    fn from(value: &'a Value) -> Self {
        JsonRef::Value(value)
    }
}

impl<'a> From<TapeNode<'a>> for JsonRef<'a> {
    fn from(node: TapeNode<'a>) -> Self {
        JsonRef::Tape(node)
    }
}

/// An array's items (see [`JsonRef::items`]).
pub enum Items<'a> {
    Value(std::slice::Iter<'a, Value>),
    Tape(TapeElements<'a>),
}

impl<'a> Iterator for Items<'a> {
    type Item = JsonRef<'a>;

    fn next(&mut self) -> Option<JsonRef<'a>> {
        match self {
            Items::Value(items) => items.next().map(JsonRef::Value),
            Items::Tape(items) => items.next().map(JsonRef::Tape),
        }
    }
}

impl<'a> JsonRef<'a> {
    /// The value of an object's member (`None` for anything but an object).
    pub fn member(self, name: &str) -> Option<Self> {
        match self {
            JsonRef::Value(value) => value.as_object()?.get(name).map(JsonRef::Value),
            JsonRef::Tape(node) => node.member(name).map(JsonRef::Tape),
        }
    }

    /// An array's item (`None` for anything but an array).
    pub fn item(self, index: usize) -> Option<Self> {
        match self {
            JsonRef::Value(value) => value.as_array()?.get(index).map(JsonRef::Value),
            JsonRef::Tape(node) => node.as_array()?.elements().nth(index).map(JsonRef::Tape),
        }
    }

    /// A string's value.
    pub fn string(self) -> Option<Cow<'a, str>> {
        match self {
            JsonRef::Value(value) => value.as_str().map(Cow::Borrowed),
            JsonRef::Tape(node) => node.as_string(),
        }
    }

    /// An array's items, in order.
    pub fn items(self) -> Option<Items<'a>> {
        match self {
            JsonRef::Value(value) => value.as_array().map(|items| Items::Value(items.iter())),
            JsonRef::Tape(node) => node.as_array().map(|items| Items::Tape(items.elements())),
        }
    }

    pub fn is_object(self) -> bool {
        match self {
            JsonRef::Value(value) => value.is_object(),
            JsonRef::Tape(node) => node.kind() == Kind::Object,
        }
    }

    pub fn is_array(self) -> bool {
        match self {
            JsonRef::Value(value) => value.is_array(),
            JsonRef::Tape(node) => node.kind() == Kind::Array,
        }
    }

    pub fn is_null(self) -> bool {
        match self {
            JsonRef::Value(value) => value.is_null(),
            JsonRef::Tape(node) => node.kind() == Kind::Null,
        }
    }

    /// The value, as a `Value`: from a tape, exactly the `Value` that
    /// serde_json reads of the same text (the tape's own conversion reads
    /// integers past 2^53 as JavaScript does, which would write a tool
    /// call's arguments differently than reading the response as a `Value`).
    pub fn to_value(self) -> Value {
        match self {
            JsonRef::Value(value) => value.clone(),
            JsonRef::Tape(node) => serde_value_of(node),
        }
    }

    /// The value at a JSON Pointer's tokens, read as `Value::pointer` reads
    /// them: a token names an object's member, or an array's index written
    /// in decimal without a sign or a leading zero.
    pub fn at_path(self, tokens: &[&str]) -> Option<Self> {
        let mut node = self;
        for &token in tokens {
            node = if node.is_array() {
                let plain = !token.starts_with('+') && (token == "0" || !token.starts_with('0'));
                node.item(plain.then(|| token.parse::<usize>().ok()).flatten()?)?
            } else {
                node.member(token)?
            };
        }
        Some(node)
    }
}

/// A tape's value as serde_json reads the same text: numbers from their
/// literal, a repeated member name at its first place with its last value.
/// The tape nests at most `MAX_DEPTH` deep, so the recursion is bounded.
fn serde_value_of(node: TapeNode<'_>) -> Value {
    match node.kind() {
        Kind::Null => Value::Null,
        Kind::False => Value::Bool(false),
        Kind::True => Value::Bool(true),
        Kind::Number => node
            .number_literal()
            .and_then(|literal| literal.parse::<serde_json::Number>().ok())
            .map_or(Value::Null, Value::Number),
        Kind::String => Value::String(node.as_string().unwrap_or_default().into_owned()),
        Kind::Array => Value::Array(
            node.as_array()
                .map(|items| items.elements().map(serde_value_of).collect())
                .unwrap_or_default(),
        ),
        Kind::Object => Value::Object(
            node.as_object()
                .map(|members| {
                    members
                        .members()
                        .map(|(name, value)| (name.into_owned(), serde_value_of(value)))
                        .collect()
                })
                .unwrap_or_default(),
        ),
    }
}
