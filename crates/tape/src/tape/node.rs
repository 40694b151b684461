//! jsonschema's custom-instance traits over the tape.

use std::borrow::Cow;
use std::cell::RefCell;

use jsonschema::json::{cmp, unique, Array, Json, LazyInstance, Node, NodeIdentity, Object};
use jsonschema::types::JsonType;
use serde_json::Value;

use super::strings;
use super::{Entry, Kind, Tape, TapeNumber, DUP_SKIP, ESCAPED, INTEGER};

/// Objects with more members than this compare against a `const`/`enum`
/// object through `to_value`, whose map lookups beat repeated linear scans.
const SCAN_EQUALS_MEMBERS: u32 = 32;

/// The representation marker for `jsonschema::options_for`.
pub struct TapeJson;

/// One node of a tape, and the prefix view it is seen through.
#[derive(Clone, Copy)]
pub struct TapeNode<'a> {
    tape: &'a Tape<'a>,
    index: u32,
    /// Containers hold fewer than `u32::MAX` values, so `u32::MAX` is no limit.
    limit: u32,
    cut: Option<&'a RefCell<Vec<u32>>>,
}

impl<'a> TapeNode<'a> {
    /// The whole document.
    pub fn full(tape: &'a Tape<'a>) -> Self {
        TapeNode {
            tape,
            index: 0,
            limit: u32::MAX,
            cut: None,
        }
    }

    /// The value at `index` of the tape, seen whole: what the resumable
    /// parser's checks validate once that value is complete.
    pub fn at(tape: &'a Tape<'a>, index: u32) -> Self {
        TapeNode {
            tape,
            index,
            limit: u32::MAX,
            cut: None,
        }
    }

    /// The document seen through a prefix view: at most `limit` elements of
    /// each array are iterated, while lengths, `uniqueItems` and objects see
    /// everything (so keywords about a container itself are exact); the tape
    /// index of every array that had more is pushed to `cut` (possibly more
    /// than once). Children inherit the view.
    pub fn prefix(tape: &'a Tape<'a>, limit: usize, cut: &'a RefCell<Vec<u32>>) -> Self {
        TapeNode {
            tape,
            index: 0,
            limit: u32::try_from(limit).unwrap_or(u32::MAX),
            cut: Some(cut),
        }
    }

    #[inline(always)]
    fn child(&self, index: u32) -> Self {
        TapeNode { index, ..*self }
    }

    fn note_cut(&self, len: usize) {
        if len > self.limit as usize {
            if let Some(cut) = self.cut {
                cut.borrow_mut().push(self.index);
            }
        }
    }

    /// This node's position in its tape (what `prefix` records in `cut`).
    pub fn index(&self) -> u32 {
        self.index
    }

    #[inline(always)]
    fn entry(&self) -> Entry {
        self.tape.entry(self.index)
    }

    /// The node as a string: raw text and entry.
    #[inline(always)]
    fn raw_string(&self) -> Option<(&'a str, Entry)> {
        let entry = self.entry();
        (entry.kind == Kind::String).then(|| (self.tape.raw(entry), entry))
    }

    #[inline(always)]
    fn number(&self) -> Option<TapeNumber> {
        let entry = self.entry();
        (entry.kind == Kind::Number)
            .then(|| TapeNumber::from_literal(self.tape.raw(entry), entry.has(INTEGER)))
    }

    #[inline(always)]
    pub fn object(&self) -> Option<TapeObject<'a>> {
        let entry = self.entry();
        (entry.kind == Kind::Object).then_some(TapeObject { node: *self, entry })
    }

    #[inline(always)]
    fn array(&self) -> Option<TapeArray<'a>> {
        let entry = self.entry();
        (entry.kind == Kind::Array).then_some(TapeArray { node: *self, entry })
    }

    /// The value of the member `name` of an object (the last of that name,
    /// as `JSON.parse` keeps it); `None` for anything but an object.
    pub fn member(&self, name: &str) -> Option<TapeNode<'a>> {
        self.object()?.find(name)
    }

    /// What kind of value the node is.
    pub fn kind(&self) -> Kind {
        self.entry().kind
    }

    /// A number's literal, as the text writes it.
    pub fn number_literal(&self) -> Option<&'a str> {
        let entry = self.entry();
        (entry.kind == Kind::Number).then(|| self.tape.raw(entry))
    }
}

impl Json for TapeJson {
    type Node<'a> = TapeNode<'a>;
    type PreparedKey = String;
    type StringBuffer = ();

    /// A members pass never replaces a lookup. Two reasons:
    ///
    /// * under a prefix view `members()` is cut to `limit` while `get` sees
    ///   the whole object, so a `required` check that scanned members of a
    ///   cut object would report present names as missing (a false error,
    ///   which the prefix view must never produce);
    /// * `get` is itself a scan whose comparisons mostly end at the length
    ///   check, so a pass saves little: about 6 ns per 4-member object under
    ///   a 4-name `required`, measured natively (a constant of 2 instead).
    const KEYS_PER_LOOKUP: usize = 0;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>((): &mut (), string: &str, f: impl FnOnce(TapeNode<'_>) -> T) -> T {
        let tape = Tape::of_string(string);
        f(TapeNode::full(&tape))
    }
}

impl<'a> Node<'a, TapeJson> for TapeNode<'a> {
    type Object = TapeObject<'a>;
    type Array = TapeArray<'a>;
    type Number = TapeNumber;

    #[inline(always)]
    fn as_object(&self) -> Option<TapeObject<'a>> {
        self.object()
    }

    #[inline(always)]
    fn as_array(&self) -> Option<TapeArray<'a>> {
        self.array()
    }

    #[inline(always)]
    fn as_string(&self) -> Option<Cow<'a, str>> {
        let (raw, entry) = self.raw_string()?;
        Some(strings::string_of(raw, entry))
    }

    #[inline(always)]
    fn as_number(&self) -> Option<TapeNumber> {
        self.number()
    }

    #[inline(always)]
    fn as_boolean(&self) -> Option<bool> {
        match self.entry().kind {
            Kind::True => Some(true),
            Kind::False => Some(false),
            _ => None,
        }
    }

    #[inline(always)]
    fn is_null(&self) -> bool {
        self.entry().kind == Kind::Null
    }

    #[inline(always)]
    fn is_number(&self) -> bool {
        self.entry().kind == Kind::Number
    }

    #[inline(always)]
    fn is_string(&self) -> bool {
        self.entry().kind == Kind::String
    }

    #[inline(always)]
    fn json_type(&self) -> JsonType {
        self.entry().kind.json_type()
    }

    fn string_length(&self) -> Option<u64> {
        let (raw, entry) = self.raw_string()?;
        Some(strings::char_count(raw, entry) as u64)
    }

    fn string_length_within(&self, min: u64, max: u64) -> Option<bool> {
        let (raw, entry) = self.raw_string()?;
        // A code point takes one to four bytes, so the count lies in
        // `ceil(bytes / 4)..=bytes`.
        let bytes = strings::byte_len(raw, entry) as u64;
        let fewest = bytes.div_ceil(4);
        if bytes < min || fewest > max {
            return Some(false);
        }
        if min <= fewest && bytes <= max {
            return Some(true);
        }
        let count = strings::char_count(raw, entry) as u64;
        Some((min..=max).contains(&count))
    }

    fn equals_value(&self, expected: &Value) -> bool {
        let tape = self.tape;
        let entry = self.entry();
        match (entry.kind, expected) {
            (Kind::Null, Value::Null) => true,
            (Kind::True, Value::Bool(other)) => *other,
            (Kind::False, Value::Bool(other)) => !*other,
            (Kind::Number, Value::Number(other)) => cmp::equal_numbers(
                &TapeNumber::from_literal(tape.raw(entry), entry.has(INTEGER)),
                other,
            ),
            (Kind::String, Value::String(other)) => {
                strings::entry_eq(tape.raw(entry), entry, other)
            }
            (Kind::Array, Value::Array(items)) => {
                entry.a as usize == items.len() && {
                    // The whole array, whatever the view.
                    let full = TapeNode::full(tape);
                    let mut child = self.index.saturating_add(1);
                    items.iter().all(|item| {
                        let node = full.child(child);
                        child = tape.skip(child);
                        node.equals_value(item)
                    })
                }
            }
            (Kind::Object, Value::Object(members)) => {
                if entry.a as usize != members.len() {
                    return false;
                }
                if entry.a > SCAN_EQUALS_MEMBERS {
                    return cmp::equal(&self.to_value(), expected);
                }
                let object = TapeObject {
                    node: TapeNode::full(tape).child(self.index),
                    entry,
                };
                members.iter().all(|(name, value)| {
                    object
                        .find(name)
                        .is_some_and(|found| found.equals_value(value))
                })
            }
            _ => false,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.tape.value_at(self.index))
    }

    /// Errors carry no copy of the value they are about. Issues never quote
    /// the instance (see `schema::issues`), and a copy per error made
    /// collecting errors quadratic: each of a thousand errors about one
    /// object's members copied the whole object.
    fn lazy_value(&self) -> LazyInstance<'a> {
        static NOTHING: Value = Value::Null;
        LazyInstance::Ready(Cow::Borrowed(&NOTHING))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        let tape = self.tape;
        Some(if tape.entries.is_empty() {
            // A string node of `with_string_node`, alive alone: the address
            // of its text, tagged with an index no tape entry reaches.
            NodeIdentity::tagged(tape.src.as_ptr() as usize, u32::MAX)
        } else {
            NodeIdentity::tagged(tape.entries.as_ptr() as usize, self.index)
        })
    }
}

/// An object of a tape.
#[derive(Clone, Copy)]
pub struct TapeObject<'a> {
    node: TapeNode<'a>,
    entry: Entry,
}

impl<'a> TapeObject<'a> {
    /// The value of the member named `name`, regardless of the view's limit.
    #[inline(always)]
    pub fn find(&self, name: &str) -> Option<TapeNode<'a>> {
        self.find_any(&[name]).map(|(_, value)| value)
    }

    /// The first member (in the text's order) named one of `names`: which
    /// name, and its value. One pass over the members, however many names.
    #[inline(always)]
    pub fn find_any(&self, names: &[&str]) -> Option<(usize, TapeNode<'a>)> {
        let tape = self.node.tape;
        let source = tape.src.as_bytes();
        let mut key = self.node.index.saturating_add(1);
        while key < self.entry.b {
            let entry = tape.entry(key);
            if !entry.has(DUP_SKIP) {
                let found = names.iter().position(|name| {
                    if entry.has(ESCAPED) {
                        strings::decoded_eq(tape.raw(entry), name)
                    } else {
                        // Most names differ in length; the rest compare bytes.
                        entry.b as usize == name.len() && {
                            let start = entry.a as usize;
                            source.get(start..start + name.len()) == Some(name.as_bytes())
                        }
                    }
                });
                if let Some(at) = found {
                    return Some((at, self.node.child(tape.member_value(key, entry))));
                }
            }
            key = tape.skip(key.saturating_add(1));
        }
        None
    }
}

/// The members of an object, in first-occurrence order.
pub struct TapeMembers<'a> {
    node: TapeNode<'a>,
    /// Index of the next key entry.
    key: u32,
    end: u32,
    remaining: u32,
}

impl<'a> Iterator for TapeMembers<'a> {
    type Item = (Cow<'a, str>, TapeNode<'a>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let tape = self.node.tape;
        while self.remaining > 0 && self.key < self.end {
            let key = self.key;
            let entry = tape.entry(key);
            self.key = tape.skip(key.saturating_add(1));
            if entry.has(DUP_SKIP) {
                continue;
            }
            self.remaining -= 1;
            return Some((
                strings::string_of(tape.raw(entry), entry),
                self.node.child(tape.member_value(key, entry)),
            ));
        }
        None
    }
}

impl<'a> Object<'a, TapeJson> for TapeObject<'a> {
    type Node = TapeNode<'a>;
    type MemberName = Cow<'a, str>;
    type MembersIter = TapeMembers<'a>;

    #[inline(always)]
    fn len(&self) -> usize {
        self.entry.a as usize
    }

    #[inline(always)]
    fn get(&self, key: &String) -> Option<TapeNode<'a>> {
        self.find(key)
    }

    #[inline(always)]
    fn members(&self) -> TapeMembers<'a> {
        TapeMembers {
            node: self.node,
            key: self.node.index.saturating_add(1),
            end: self.entry.b,
            remaining: u32::MAX,
        }
    }
}

/// An array of a tape.
#[derive(Clone, Copy)]
pub struct TapeArray<'a> {
    node: TapeNode<'a>,
    entry: Entry,
}

/// The elements of an array, in order.
pub struct TapeElements<'a> {
    node: TapeNode<'a>,
    next: u32,
    end: u32,
    remaining: u32,
}

impl<'a> Iterator for TapeElements<'a> {
    type Item = TapeNode<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<TapeNode<'a>> {
        if self.remaining == 0 || self.next >= self.end {
            return None;
        }
        self.remaining -= 1;
        let index = self.next;
        self.next = self.node.tape.skip(index);
        Some(self.node.child(index))
    }
}

impl<'a> Array<'a, TapeJson> for TapeArray<'a> {
    type Node = TapeNode<'a>;
    type ElementsIter = TapeElements<'a>;

    #[inline(always)]
    fn len(&self) -> usize {
        self.entry.a as usize
    }

    #[inline(always)]
    fn elements(&self) -> TapeElements<'a> {
        self.node.note_cut(self.len());
        TapeElements {
            node: self.node,
            next: self.node.index.saturating_add(1),
            end: self.entry.b,
            remaining: self.node.limit,
        }
    }

    /// Over the whole array, whatever the view shows.
    fn is_unique(&self) -> bool {
        let whole = TapeElements {
            node: self.node,
            next: self.node.index.saturating_add(1),
            end: self.entry.b,
            remaining: u32::MAX,
        };
        let values: Vec<Cow<'a, Value>> = whole.map(|element| element.to_value()).collect();
        unique::is_unique(&values)
    }
}
