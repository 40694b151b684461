//! How deep validation can recurse through a schema's references, measured
//! before it is compiled.
//!
//! Validation calls itself once per subschema it enters, and `$ref` lets a
//! schema of a few kilobytes chain thousands of subschemas one inside the
//! next. The engine's stack (about 1 MB in V8, shared by JavaScript and
//! wasm) runs out somewhere past 5,000 such levels in Node, and a stack that
//! runs out inside wasm leaves the instance unusable. So a schema whose
//! references could nest deeper than [`MAX_REFERENCE_DEPTH`] subschemas is
//! refused when it is compiled.
//!
//! The measure is the longest chain of subschemas a validation can enter,
//! following `$ref`, `$dynamicRef` and `$recursiveRef` to what they name in
//! the document. A cycle that stays at one place in the instance is cut
//! short by the validator (it is entered once per instance value), so it
//! counts once; a cycle that moves into the instance (`properties`, `items`,
//! ...) is entered again at every level of the response, up to the parser's
//! nesting limit, so its length counts that many times over. References
//! into the `resources` option's schemas are followed like those within the
//! schema.

use std::collections::HashMap;

use serde_json::Value;

use super::MAX_SCHEMA_DEPTH;

/// The longest chain of nested subschemas a schema may make validation
/// enter. Chains of 5,000 measured safe in Node and 8,000 in Bun; this
/// leaves room for the frames the check itself adds around validation.
pub const MAX_REFERENCE_DEPTH: usize = 4_000;

/// Keywords whose subschemas apply to a value inside the instance.
const DESCENDING: [&str; 10] = [
    "properties",
    "patternProperties",
    "additionalProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Every subschema-like value of the document (objects, arrays, booleans),
/// numbered, with where references can lead: each resource's root (by
/// `$id`, and the document itself) and each anchor. Anchors are few, and
/// found by a scan.
struct Targets<'a> {
    nodes: Vec<&'a Value>,
    /// The number of every node, by its address.
    by_address: HashMap<usize, usize>,
    /// The number of the resource root each node is in.
    resource_of: Vec<usize>,
    /// `$id`/`id` values (without fragment) and the node that has it.
    resources: Vec<(&'a str, usize)>,
    /// Anchor names and their nodes.
    anchors: Vec<(&'a str, usize)>,
}

const NEW_RESOURCE: usize = usize::MAX;

fn address(value: &Value) -> usize {
    std::ptr::from_ref(value) as usize
}

impl<'a> Targets<'a> {
    /// The schema is node 0; each of `resources` is a resource of its own,
    /// found by its URI as if that were its `$id`.
    fn collect(root: &'a Value, resources: &[(&'a str, &'a Value)]) -> Targets<'a> {
        let mut targets = Targets {
            nodes: Vec::new(),
            by_address: HashMap::new(),
            resource_of: Vec::new(),
            resources: Vec::new(),
            anchors: Vec::new(),
        };
        // (node, its resource's number or NEW_RESOURCE, its URI, depth)
        let mut stack: Vec<(&'a Value, usize, Option<&'a str>, usize)> = resources
            .iter()
            .rev()
            .map(|&(uri, value)| (value, NEW_RESOURCE, Some(uri), 0))
            .collect();
        stack.push((root, NEW_RESOURCE, None, 0));
        while let Some((node, resource, uri, depth)) = stack.pop() {
            if depth > MAX_SCHEMA_DEPTH
                || !matches!(node, Value::Object(_) | Value::Array(_) | Value::Bool(_))
            {
                continue;
            }
            let number = targets.nodes.len();
            targets.nodes.push(node);
            targets.by_address.insert(address(node), number);
            let mut resource = if resource == NEW_RESOURCE {
                number
            } else {
                resource
            };
            if let Some(uri) = uri {
                targets
                    .resources
                    .push((uri.split_once('#').map_or(uri, |(base, _)| base), number));
            }
            if let Value::Object(map) = node {
                for key in ["$id", "id"] {
                    if let Some(Value::String(id)) = map.get(key) {
                        let (base, fragment) = id.split_once('#').unwrap_or((id, ""));
                        if !base.is_empty() {
                            targets.resources.push((base, number));
                            resource = number;
                        }
                        if !fragment.is_empty() && !fragment.starts_with('/') {
                            targets.anchors.push((fragment, number));
                        }
                    }
                }
                for key in ["$anchor", "$dynamicAnchor"] {
                    if let Some(Value::String(name)) = map.get(key) {
                        targets.anchors.push((name, number));
                    }
                }
                stack.extend(map.values().map(|v| (v, resource, None, depth + 1)));
            } else if let Value::Array(items) = node {
                stack.extend(items.iter().map(|v| (v, resource, None, depth + 1)));
            }
            targets.resource_of.push(resource);
        }
        targets
    }

    fn number_of(&self, value: &Value) -> Option<usize> {
        self.by_address.get(&address(value)).copied()
    }

    /// Every node `reference` (found in node `from`) may name, over-counted
    /// rather than missed: a URI part is matched against every `$id` that
    /// ends with it, and an anchor against every anchor of that name.
    fn resolve(&self, from: usize, reference: &str, out: &mut Vec<(usize, bool)>) {
        let (uri, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let fragment = percent_decode(fragment);
        let mut bases = Vec::new();
        if uri.is_empty() {
            bases.push(self.resource_of.get(from).copied().unwrap_or(0));
        } else {
            bases.extend(
                self.resources
                    .iter()
                    .filter(|(id, _)| id.ends_with(uri) || uri.ends_with(id))
                    .map(|&(_, number)| number),
            );
        }
        if fragment.is_empty() {
            out.extend(bases.into_iter().map(|b| (b, false)));
        } else if fragment.starts_with('/') {
            for base in bases {
                let target = self.nodes.get(base).and_then(|b| b.pointer(&fragment));
                if let Some(number) = target.and_then(|t| self.number_of(t)) {
                    out.push((number, false));
                }
            }
        } else {
            out.extend(
                self.anchors
                    .iter()
                    .filter(|&&(name, _)| name == fragment)
                    .map(|&(_, number)| (number, false)),
            );
        }
    }

    /// The nodes validation can enter from node `number`, and whether each
    /// moves into the instance.
    fn edges(&self, number: usize) -> Vec<(usize, bool)> {
        let mut out = Vec::new();
        match self.nodes.get(number) {
            Some(Value::Object(map)) => {
                for (key, value) in map {
                    if let Value::String(reference) = value {
                        if matches!(key.as_str(), "$ref" | "$dynamicRef" | "$recursiveRef") {
                            self.resolve(number, reference, &mut out);
                        }
                    } else if let Some(child) = self.number_of(value) {
                        out.push((child, DESCENDING.contains(&key.as_str())));
                    }
                }
            }
            Some(Value::Array(items)) => {
                out.extend(
                    items
                        .iter()
                        .filter_map(|v| self.number_of(v))
                        .map(|n| (n, false)),
                );
            }
            _ => {}
        }
        out
    }
}

fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (byte, hex) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                i += 3;
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One step of the walk: a node and the edges out of it.
struct Frame {
    node: usize,
    edges: Vec<(usize, bool)>,
    next: usize,
    /// Descending edges on the path from the root to here.
    descents: usize,
    longest_below: usize,
}

const UNSEEN: usize = usize::MAX;
const ON_PATH: usize = usize::MAX - 1;

/// The measure described in the module docs, for `schema` and the
/// `resources` (URI and schema) its references may name.
pub fn reference_depth(schema: &Value, resources: &[(&str, &Value)]) -> usize {
    let targets = Targets::collect(schema, resources);
    // Per node: UNSEEN, ON_PATH, or (done) the longest chain from it.
    let mut state = vec![UNSEEN; targets.nodes.len()];
    // Per node on the path: its position there.
    let mut position = vec![0usize; targets.nodes.len()];
    let mut worst_cycle = 0usize;
    let mut stack = vec![Frame {
        node: 0,
        edges: targets.edges(0),
        next: 0,
        descents: 0,
        longest_below: 0,
    }];
    if let Some(s) = state.get_mut(0) {
        *s = ON_PATH;
    }
    let mut root_length = 0;
    while let Some(top) = stack.last_mut() {
        let Some(&(child, descends)) = top.edges.get(top.next) else {
            let finished = top.longest_below + 1;
            let node = top.node;
            stack.pop();
            if let Some(s) = state.get_mut(node) {
                *s = finished;
            }
            match stack.last_mut() {
                Some(parent) => parent.longest_below = parent.longest_below.max(finished),
                None => root_length = finished,
            }
            continue;
        };
        top.next += 1;
        let descents = top.descents + usize::from(descends);
        match state.get(child).copied() {
            Some(UNSEEN) => {}
            Some(ON_PATH) => {
                // A cycle back to the node at `at` on the path.
                let at = position.get(child).copied().unwrap_or(0);
                let length = stack.len() - at;
                let descents_in_cycle = descents - stack.get(at).map_or(0, |frame| frame.descents);
                if descents_in_cycle > 0 {
                    let per_level = length.div_ceil(descents_in_cycle);
                    worst_cycle = worst_cycle.max(per_level.saturating_mul(MAX_SCHEMA_DEPTH + 1));
                }
                continue;
            }
            Some(done) => {
                top.longest_below = top.longest_below.max(done);
                continue;
            }
            None => continue,
        }
        if stack.len() > MAX_REFERENCE_DEPTH * 4 {
            // Far past the limit already: no need to walk further.
            return stack.len();
        }
        if let (Some(s), Some(p)) = (state.get_mut(child), position.get_mut(child)) {
            *s = ON_PATH;
            *p = stack.len();
        }
        stack.push(Frame {
            node: child,
            edges: targets.edges(child),
            next: 0,
            descents,
            longest_below: 0,
        });
    }
    root_length.max(worst_cycle)
}

#[cfg(test)]
mod tests;
