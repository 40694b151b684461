//! The instance as the validator sees it: `serde_json::Value` behind a view
//! that can show only the first `limit` elements of every array.
//!
//! jsonschema collects every error before returning any, so a 2,000-row
//! response with every row wrong costs thousands of error objects even when
//! the caller wants five. Validating a prefix view first bounds that work.
//! Only element iteration is cut: lengths are true (`minItems`), `uniqueItems`
//! looks at every element, and objects are always shown whole, so every
//! keyword about a container itself sees all of it. The view records which
//! arrays it cut (by address), so the collector can tell whether anything
//! hidden could sort before what it found. With no limit the view is the
//! whole value.

use std::borrow::Cow;
use std::cell::RefCell;

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
    cut: Option<&'a RefCell<Vec<usize>>>,
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

    /// At most `limit` elements of each array are iterated; the address of
    /// every array that had more is pushed to `cut` (possibly more than once).
    pub fn prefix(value: &'a Value, limit: usize, cut: &'a RefCell<Vec<usize>>) -> Self {
        ViewNode {
            value,
            limit,
            cut: Some(cut),
        }
    }

    fn child(&self, value: &'a Value) -> Self {
        ViewNode { value, ..*self }
    }

    fn note_cut(&self, len: usize) {
        if len > self.limit {
            if let Some(cut) = self.cut {
                cut.borrow_mut().push(address(self.value));
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

/// The address that identifies an array in `cut`.
pub fn address(value: &Value) -> usize {
    std::ptr::from_ref::<Value>(value) as usize
}

pub struct ViewMembers<'a> {
    inner: serde_json::map::Iter<'a>,
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
        ViewMembers {
            inner: self.map.iter(),
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
        self.node.note_cut(self.items.len());
        ViewElements {
            inner: self.items.iter().take(self.node.limit),
            node: self.node,
        }
    }

    fn is_unique(&self) -> bool {
        jsonschema::json::unique::is_unique(self.items)
    }
}
