//! The instance as the validator sees it: `serde_json::Value` behind a view
//! that can show only the first `limit` elements of every array and members
//! of every object.
//!
//! jsonschema collects every error before returning any, so a 2,000-row
//! response with every row wrong costs thousands of error objects even when
//! the caller wants five. Validating a prefix view first bounds that work:
//! the view still reports true lengths (`minItems`, `maxProperties` and
//! property lookups see the whole value), only iteration is cut, and a flag
//! records whether anything was cut so the caller knows when a wider look is
//! needed. With no limit the view is the whole value.

use std::borrow::Cow;
use std::cell::Cell;

use jsonschema::json::{Array, Json, Node, NodeIdentity, Object};
use jsonschema::types::JsonType;
use serde_json::{Map, Value};

/// The representation marker for `jsonschema::options_for`.
pub struct PrefixJson;

/// One node of the view: the value, the iteration limit, and where to record
/// that iteration was cut.
#[derive(Clone, Copy)]
pub struct ViewNode<'a> {
    value: &'a Value,
    limit: usize,
    cut: Option<&'a Cell<bool>>,
}

impl<'a> ViewNode<'a> {
    /// The whole value.
    pub fn full(value: &'a Value) -> Self {
        ViewNode {
            value,
            limit: usize::MAX,
            cut: None,
        }
    }

    /// At most `limit` elements or members of each container are iterated;
    /// `cut` is set when any container had more.
    pub fn prefix(value: &'a Value, limit: usize, cut: &'a Cell<bool>) -> Self {
        ViewNode {
            value,
            limit,
            cut: Some(cut),
        }
    }

    fn child(&self, value: &'a Value) -> Self {
        ViewNode { value, ..*self }
    }

    fn note_len(&self, len: usize) {
        if len > self.limit {
            if let Some(cut) = self.cut {
                cut.set(true);
            }
        }
    }
}

impl Json for PrefixJson {
    type Node<'a> = ViewNode<'a>;
    type PreparedKey = String;
    type StringBuffer = ();

    const KEYS_PER_LOOKUP: usize = 2;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>((): &mut (), string: &str, f: impl FnOnce(ViewNode<'_>) -> T) -> T {
        let node = Value::String(string.to_owned());
        f(ViewNode::full(&node))
    }
}

impl<'a> Node<'a, PrefixJson> for ViewNode<'a> {
    type Object = ViewObject<'a>;
    type Array = ViewArray<'a>;
    type Number = &'a serde_json::Number;

    fn as_object(&self) -> Option<ViewObject<'a>> {
        match self.value {
            Value::Object(map) => Some(ViewObject { map, node: *self }),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<ViewArray<'a>> {
        match self.value {
            Value::Array(items) => Some(ViewArray { items, node: *self }),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self.value {
            Value::String(s) => Some(Cow::Borrowed(s)),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&'a serde_json::Number> {
        match self.value {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        self.value.as_bool()
    }

    fn is_null(&self) -> bool {
        self.value.is_null()
    }

    fn json_type(&self) -> JsonType {
        match self.value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    fn equals_value(&self, expected: &Value) -> bool {
        jsonschema::json::cmp::equal(self.value, expected)
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Borrowed(self.value)
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<Value>(self.value) as usize
        ))
    }
}

#[derive(Clone, Copy)]
pub struct ViewObject<'a> {
    map: &'a Map<String, Value>,
    node: ViewNode<'a>,
}

pub struct ViewMembers<'a> {
    inner: std::iter::Take<serde_json::map::Iter<'a>>,
    node: ViewNode<'a>,
}

impl<'a> Iterator for ViewMembers<'a> {
    type Item = (&'a str, ViewNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.inner
            .next()
            .map(|(key, value)| (key.as_str(), self.node.child(value)))
    }
}

impl<'a> Object<'a, PrefixJson> for ViewObject<'a> {
    type Node = ViewNode<'a>;
    type MemberName = &'a str;
    type MembersIter = ViewMembers<'a>;

    fn len(&self) -> usize {
        self.map.len()
    }

    fn get(&self, key: &String) -> Option<ViewNode<'a>> {
        self.map.get(key.as_str()).map(|v| self.node.child(v))
    }

    fn members(&self) -> ViewMembers<'a> {
        self.node.note_len(self.map.len());
        ViewMembers {
            inner: self.map.iter().take(self.node.limit),
            node: self.node,
        }
    }
}

#[derive(Clone, Copy)]
pub struct ViewArray<'a> {
    items: &'a [Value],
    node: ViewNode<'a>,
}

pub struct ViewElements<'a> {
    inner: std::iter::Take<std::slice::Iter<'a, Value>>,
    node: ViewNode<'a>,
}

impl<'a> Iterator for ViewElements<'a> {
    type Item = ViewNode<'a>;

    fn next(&mut self) -> Option<ViewNode<'a>> {
        self.inner.next().map(|v| self.node.child(v))
    }
}

impl<'a> Array<'a, PrefixJson> for ViewArray<'a> {
    type Node = ViewNode<'a>;
    type ElementsIter = ViewElements<'a>;

    fn len(&self) -> usize {
        self.items.len()
    }

    fn elements(&self) -> ViewElements<'a> {
        self.node.note_len(self.items.len());
        ViewElements {
            inner: self.items.iter().take(self.node.limit),
            node: self.node,
        }
    }

    fn is_unique(&self) -> bool {
        self.node.note_len(self.items.len());
        let shown = self.items.get(..self.node.limit).unwrap_or(self.items);
        jsonschema::json::unique::is_unique(shown)
    }
}
