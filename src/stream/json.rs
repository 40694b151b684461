//! The checks of a response that is still arriving.
//!
//! A [`JsonStream`] reads the response's JSON as it comes, with the
//! resumable tape parser, and rejects it as soon as no continuation could
//! make it valid. Only definite outcomes reject; everything else waits for
//! the whole text, which the caller checks in full at the end anyway.
//!
//! What rejects early:
//!
//! * a byte that cannot continue any JSON text, and nesting past the limit;
//! * a root that is not an object, when an object is required;
//! * a complete value that fails a subschema applying to its location
//!   unconditionally: reached from the root through `properties`,
//!   `patternProperties`, `additionalProperties`, `items`, `prefixItems`,
//!   `additionalItems`, `allOf` and `$ref`s within the document, in any
//!   chain. The value is checked against the whole subschema (its
//!   `required`, `anyOf`, `oneOf`, `not`, `if`, `unevaluated*`... included,
//!   since every keyword of a subschema depends only on the value, and the
//!   value is complete). Checked are the items of every array and the
//!   members of the root object; a member deeper down is checked with the
//!   item or root member that holds it;
//! * a member name that the object's schema refuses (`additionalProperties:
//!   false`, a `false` subschema, `propertyNames`), once the name is read;
//! * an array with more items than `maxItems`, when the next item begins;
//! * a string longer than `maxLength`, or one that can no longer be any of
//!   the strings `enum` or `const` allow, while it is still open.
//!
//! What waits for the value to close, or for the end: the root object's own
//! keywords, and every keyword whose outcome depends on what is still to
//! come (`required`, `minItems`, `minLength`, `contains`, `anyOf`, `oneOf`,
//! `not`, `if`, `dependent*`, `unevaluated*`, `uniqueItems`, `format`,
//! `pattern`...) of a value not yet complete.
//!
//! One assumption: a value, once complete, is final. JSON lets an object
//! repeat a member name, and the last occurrence wins (as with
//! `JSON.parse`), so strictly a later repetition could still replace a
//! value rejected here; the checks treat a response that would need that
//! to pass as failing. Repeated names among what is already complete are
//! resolved exactly as the whole-text check resolves them.
//!
//! Where the schema's meaning could depend on more than the location
//! (`$dynamicRef`, `$recursiveRef`, an `$id` or `$schema` below the root,
//! a custom meta-schema), or the schema is very large, only the syntax and
//! the root's type reject early.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::types::JsonType;
use jsonschema::{Draft, Validator};
use serde_json::Value;

use crate::schema::{
    budget_spent, build_validator, collect_issues, node_is_valid, with_own_budget, CompileOptions,
    CompiledSchema, Issue, PATTERN_STEPS_PER_CHECK,
};
use crate::tape::{
    self, Fed, Flow, Incremental, Kind, Lend, Partial, Stop, Tape, TapeJson, TapeNode, Watch,
};

/// Schemas with more subschemas than this get only the syntax checks: the
/// per-location validators are compiled once per subschema.
const MAX_PLAN_NODES: usize = 1024;

/// Strings are compared with `enum`/`const` while open only when every
/// candidate is at most this long (the comparison decodes the prefix).
const MAX_PREFIX_CANDIDATE: usize = 1024;

/// Names an object's schema is asked about once per stream and location;
/// past this many distinct names, further ones are worked out every time.
const MEMO_NAMES: usize = 256;

/// Keywords that never change a verdict.
const ANNOTATIONS: [&str; 10] = [
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "$defs",
    "definitions",
    "deprecated",
    "readOnly",
    "writeOnly",
];

type NodeId = usize;

/// A subschema of the document, with what the stream checks need of it.
struct Node {
    /// JSON Pointer into the schema, `#`-prefixed.
    pointer: String,
    /// It constrains something (it is `false`, or has a keyword that is
    /// not an annotation).
    validating: bool,
    /// Its validator, compiled on first use.
    validator: OnceLock<Option<Validator<TapeJson>>>,
    /// Reached from the root through child applicators alone (`properties`,
    /// `items`...: never in place), and no `$ref` names it, anything above
    /// it or anything in it: it applies exactly where the stream's
    /// locations say, so once it passed everywhere it applied, the end may
    /// check the rest of the schema with it replaced by `true`.
    replaceable: bool,
    /// `allOf` members and `$ref` targets: subschemas applied in place.
    in_place: Vec<NodeId>,
    properties: Vec<(String, NodeId)>,
    patterns: Vec<(usize, NodeId)>,
    /// A pattern could not be compiled here, so which names it matches is
    /// unknown (and with it whether `additionalProperties` applies).
    patterns_unknown: bool,
    additional: Option<NodeId>,
    property_names: Option<NodeId>,
    prefix_items: Vec<NodeId>,
    /// The subschema of every item past `prefix_items`.
    items: Option<NodeId>,
    max_items: Option<u64>,
    max_length: Option<u64>,
    /// The strings `enum` and `const` allow, one list per keyword.
    strings: Vec<Vec<String>>,
    is_false: bool,
}

impl Node {
    fn new(pointer: String, replaceable: bool) -> Self {
        Node {
            pointer,
            validating: false,
            validator: OnceLock::new(),
            replaceable,
            in_place: Vec::new(),
            properties: Vec::new(),
            patterns: Vec::new(),
            patterns_unknown: false,
            additional: None,
            property_names: None,
            prefix_items: Vec::new(),
            items: None,
            max_items: None,
            max_length: None,
            strings: Vec::new(),
            is_false: false,
        }
    }
}

/// Residual schemas kept per plan (one per set of subschemas replaced).
const MAX_RESIDUALS: usize = 8;

/// What a schema lets the stream check where: derived once per compiled
/// schema, shared by every stream checked against it.
struct Plan {
    nodes: Vec<Node>,
    patterns: Vec<Validator<TapeJson>>,
    /// The schema as validated (objects closed under `rejectUnknownFields`).
    schema: Value,
    /// How the schema itself compiles (its objects already closed).
    options: CompileOptions,
    /// The same, with the schema as a resource at `base`, for its
    /// subschemas' own validators: `{"$ref": base#pointer}`, so that their
    /// references resolve exactly as in the schema.
    node_options: CompileOptions,
    base: String,
    residuals: Mutex<Vec<Residual>>,
}

/// The subschemas replaced by `true`, and the schema's validator with them
/// so (`None` when it could not be compiled).
type Residual = (Vec<NodeId>, Option<Validator<TapeJson>>);

/// Where a schema document without `$id` lives (jsonschema's default base).
const DEFAULT_BASE: &str = "json-schema:///";

impl Plan {
    /// The plan for `schema` (as validated, in `draft`, compiled with
    /// `options`). `None` when the checks cannot be derived by location.
    fn new(schema: Value, draft: Draft, options: &CompileOptions) -> Option<Plan> {
        let targets = by_location(&schema, draft)?;
        let mut options = options.clone();
        options.reject_unknown_fields = false;
        let base = schema
            .get("$id")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_BASE)
            .to_owned();
        let mut node_options = options.clone();
        node_options.resources.push((base.clone(), schema.clone()));
        // Replacing is sound only when nothing outside the schema refers
        // into it and every reference in it is a pointer.
        let replacing = options.resources.is_empty();
        let mut builder = PlanBuilder {
            schema: &schema,
            draft,
            options: &options,
            replacing: replacing && targets.is_some(),
            targets: targets.unwrap_or_default(),
            nodes: Vec::new(),
            queue: Vec::new(),
            patterns: Vec::new(),
            pattern_ids: Vec::new(),
        };
        builder.node("#".to_owned(), true)?;
        while let Some(id) = builder.queue.pop() {
            builder.fill(id)?;
        }
        let PlanBuilder {
            nodes, patterns, ..
        } = builder;
        Some(Plan {
            nodes,
            patterns,
            schema,
            options,
            node_options,
            base,
            residuals: Mutex::new(Vec::new()),
        })
    }

    /// The plan of a compiled schema (see [`CompiledSchema::derived`]).
    fn derive(schema: &CompiledSchema) -> Option<Plan> {
        let value: Value = serde_json::from_str(schema.canonical_text()).ok()?;
        let options = schema.compile_options();
        // A custom meta-schema decides the vocabulary, and a draft forced
        // over the schema's own `$schema` would not reach the subschemas
        // compiled on their own: neither is derived by location.
        if crate::schema::names_custom_meta_schema(&value, options)
            || (options.draft.is_some() && value.get("$schema").is_some())
        {
            return None;
        }
        let effective = crate::schema::effective_schema(&value, options).into_owned();
        Plan::new(effective, schema.draft(), options)
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The validator of node `id`, compiled on first use; `None` for a
    /// subschema that constrains nothing, or whose validator could not be
    /// compiled on its own (then nothing is checked against it early).
    fn validator(&self, id: NodeId) -> Option<&Validator<TapeJson>> {
        let node = self.nodes.get(id)?;
        if !node.validating {
            return None;
        }
        node.validator
            .get_or_init(|| {
                let wrapper = serde_json::json!({ "$ref": format!("{}#{}", self.base, fragment(&node.pointer)) });
                build_validator(&wrapper, &self.node_options, Some("urn:structured-output-guard:stream-check"))
            })
            .as_ref()
    }

    fn matches(&self, pattern: usize, name: &str) -> bool {
        let tape = Tape::of_string(name);
        self.patterns
            .get(pattern)
            .is_some_and(|validator| node_is_valid(validator, TapeNode::full(&tape)))
    }

    /// Whether `tape` satisfies the schema with the `replaced` subschemas
    /// taken as `true` (each passed, as a stream found, everywhere it
    /// applies, so this is the whole schema's verdict when it is yes; a no
    /// is worked out again by the whole schema).
    fn residual_valid(&self, replaced: Vec<NodeId>, tape: &Tape<'_>) -> bool {
        let Ok(mut residuals) = self.residuals.lock() else {
            return false;
        };
        if !residuals.iter().any(|(ids, _)| *ids == replaced) {
            if residuals.len() >= MAX_RESIDUALS {
                return false;
            }
            let mut schema = self.schema.clone();
            // In any order: one inside a replaced one goes with it.
            for node in replaced.iter().filter_map(|&id| self.nodes.get(id)) {
                if let Some(slot) = schema.pointer_mut(node.pointer.get(1..).unwrap_or("")) {
                    *slot = Value::Bool(true);
                }
            }
            let validator = build_validator(&schema, &self.options, None);
            residuals.push((replaced.clone(), validator));
        }
        residuals
            .iter()
            .find(|(ids, _)| *ids == replaced)
            .and_then(|(_, validator)| validator.as_ref())
            .is_some_and(|validator| node_is_valid(validator, TapeNode::full(tape)))
    }
}

/// A `#`-pointer as a URI fragment: percent-encoded where a fragment may
/// not hold the byte.
fn fragment(pointer: &str) -> String {
    let mut out = String::new();
    for &byte in pointer.get(1..).unwrap_or("").as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Whether a subschema's verdict on a value depends only on the value: no
/// dynamic scope, no base URI or draft change below the root, and a size
/// for which deriving the locations is reasonable. With it, the targets of
/// the document's `$ref`s when every one is a JSON Pointer into it (else
/// `None`: nothing is replaced at the end).
fn by_location(schema: &Value, draft: Draft) -> Option<Option<Vec<String>>> {
    const DYNAMIC: [&str; 4] = [
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
    ];
    let legacy_id = draft == Draft::Draft4;
    let mut objects = 0_usize;
    let mut targets = Some(Vec::new());
    let mut stack: Vec<(&Value, bool)> = vec![(schema, true)];
    while let Some((value, root)) = stack.pop() {
        match value {
            Value::Object(map) => {
                objects += 1;
                if objects > MAX_PLAN_NODES * 4 || DYNAMIC.iter().any(|key| map.contains_key(*key))
                {
                    return None;
                }
                let names_id = |key: &str| map.get(key).is_some_and(Value::is_string);
                if !root
                    && (names_id("$id") || names_id("$schema") || (legacy_id && names_id("id")))
                {
                    return None;
                }
                if map.contains_key("$anchor") {
                    targets = None;
                }
                if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
                    match (local_target(reference), targets.as_mut()) {
                        (Some(target), Some(list)) => list.push(target),
                        _ => targets = None,
                    }
                }
                stack.extend(map.values().map(|v| (v, false)));
            }
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, false))),
            _ => {}
        }
    }
    Some(targets)
}

/// Whether one pointer is the other or lies inside it.
fn nested(a: &str, b: &str) -> bool {
    let inside = |outer: &str, inner: &str| {
        inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/') || outer.ends_with('/'))
    };
    inside(a, b) || inside(b, a)
}

struct PlanBuilder<'a> {
    schema: &'a Value,
    draft: Draft,
    options: &'a CompileOptions,
    /// Where the document's `$ref`s point.
    targets: Vec<String>,
    /// Subschemas may be replaced at the end at all.
    replacing: bool,
    nodes: Vec<Node>,
    queue: Vec<NodeId>,
    patterns: Vec<Validator<TapeJson>>,
    pattern_ids: Vec<(String, Option<usize>)>,
}

fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The `#`-pointer a local `$ref` names; `None` for anything else
/// (anchors, other documents).
fn local_target(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some("#".to_owned());
    }
    if !fragment.starts_with('/') {
        return None;
    }
    // Percent-decoded: the pointer is a URI fragment.
    let bytes = fragment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            decoded.push(byte);
            i += 1;
        }
    }
    Some(format!("#{}", String::from_utf8(decoded).ok()?))
}

fn whole_number(value: Option<&Value>) -> Option<u64> {
    let value = value?;
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19)
            .map(|f| f as u64)
    })
}

impl PlanBuilder<'_> {
    /// The node for the subschema at `pointer`, queued to be filled in on
    /// first sight; `None` when there is no subschema there. `direct`: it
    /// is reached through child applicators alone.
    fn node(&mut self, pointer: String, direct: bool) -> Option<NodeId> {
        if let Some(id) = self.nodes.iter().position(|node| node.pointer == pointer) {
            return Some(id);
        }
        let value = self.schema.pointer(pointer.get(1..).unwrap_or(""))?;
        if !matches!(value, Value::Object(_) | Value::Bool(_)) || self.nodes.len() >= MAX_PLAN_NODES
        {
            return None;
        }
        let replaceable = self.replacing
            && direct
            && pointer != "#"
            && !self.targets.iter().any(|target| nested(target, &pointer));
        let id = self.nodes.len();
        self.nodes.push(Node::new(pointer, replaceable));
        self.queue.push(id);
        Some(id)
    }

    /// The subschema at `path` below node `id`.
    fn child(&mut self, id: NodeId, path: &[&str], direct: bool) -> Option<NodeId> {
        let parent = self.nodes.get(id)?;
        let direct = direct && (parent.replaceable || parent.pointer == "#");
        let mut pointer = parent.pointer.clone();
        for segment in path {
            pointer.push('/');
            pointer.push_str(&escape_segment(segment));
        }
        self.node(pointer, direct)
    }

    fn pattern_index(&mut self, source: &str) -> Option<usize> {
        if let Some((_, known)) = self.pattern_ids.iter().find(|(known, _)| known == source) {
            return *known;
        }
        let compiled = build_validator(
            &serde_json::json!({ "pattern": source }),
            self.options,
            None,
        )
        .map(|validator| {
            self.patterns.push(validator);
            self.patterns.len() - 1
        });
        self.pattern_ids.push((source.to_owned(), compiled));
        compiled
    }

    /// Reads what the stream needs of the subschema at node `id`. `None`
    /// gives up on the whole plan.
    fn fill(&mut self, id: NodeId) -> Option<()> {
        let value = self
            .schema
            .pointer(self.nodes.get(id)?.pointer.get(1..).unwrap_or(""))?;
        let map = match value {
            Value::Bool(allowed) => {
                let node = self.nodes.get_mut(id)?;
                node.is_false = !allowed;
                node.validating = !allowed;
                return Some(());
            }
            Value::Object(map) => map,
            _ => return Some(()),
        };
        let validating = !map.keys().all(|key| ANNOTATIONS.contains(&key.as_str()));
        let legacy = matches!(self.draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7);
        let mut in_place = Vec::new();
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(local_target)
        {
            in_place.extend(self.node(target, false));
        }
        // Before 2019-09 a `$ref` makes its siblings ignored.
        let mut node = Node::new(String::new(), false);
        if !(legacy && map.contains_key("$ref")) {
            self.fill_keywords(id, map, &mut node)?;
        }
        let filled = self.nodes.get_mut(id)?;
        filled.validating = validating;
        filled.in_place = in_place;
        filled.in_place.append(&mut node.in_place);
        filled.properties = node.properties;
        filled.patterns = node.patterns;
        filled.patterns_unknown = node.patterns_unknown;
        filled.additional = node.additional;
        filled.property_names = node.property_names;
        filled.prefix_items = node.prefix_items;
        filled.items = node.items;
        filled.max_items = node.max_items;
        filled.max_length = node.max_length;
        filled.strings = node.strings;
        Some(())
    }

    fn fill_keywords(
        &mut self,
        id: NodeId,
        map: &serde_json::Map<String, Value>,
        node: &mut Node,
    ) -> Option<()> {
        if let Some(Value::Array(members)) = map.get("allOf") {
            for index in 0..members.len() {
                node.in_place
                    .extend(self.child(id, &["allOf", &index.to_string()], false));
            }
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            for name in properties.keys() {
                if let Some(child) = self.child(id, &["properties", name], true) {
                    node.properties.push((name.clone(), child));
                }
            }
        }
        if let Some(Value::Object(patterns)) = map.get("patternProperties") {
            for source in patterns.keys() {
                match (
                    self.pattern_index(source),
                    self.child(id, &["patternProperties", source], true),
                ) {
                    (Some(pattern), Some(child)) => node.patterns.push((pattern, child)),
                    (None, _) => node.patterns_unknown = true,
                    (Some(_), None) => {}
                }
            }
        }
        node.additional = self.child(id, &["additionalProperties"], true);
        if self.draft != Draft::Draft4 {
            node.property_names = self.child(id, &["propertyNames"], false);
        }
        let tuple_items = matches!(
            self.draft,
            Draft::Draft4 | Draft::Draft6 | Draft::Draft7 | Draft::Draft201909
        );
        match (tuple_items, map.get("items")) {
            (true, Some(Value::Array(items))) => {
                for index in 0..items.len() {
                    node.prefix_items
                        .extend(self.child(id, &["items", &index.to_string()], true));
                }
                node.items = self.child(id, &["additionalItems"], true);
            }
            (_, Some(Value::Object(_) | Value::Bool(_))) => {
                node.items = self.child(id, &["items"], true);
            }
            _ => {}
        }
        if !tuple_items {
            if let Some(Value::Array(prefix)) = map.get("prefixItems") {
                for index in 0..prefix.len() {
                    node.prefix_items.extend(self.child(
                        id,
                        &["prefixItems", &index.to_string()],
                        true,
                    ));
                }
            }
        }
        node.max_items = whole_number(map.get("maxItems"));
        node.max_length = whole_number(map.get("maxLength"));
        let strings = |values: &[Value]| -> Vec<String> {
            values
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        if let Some(Value::Array(options)) = map.get("enum") {
            node.strings.push(strings(options));
        }
        if let Some(constant) = map.get("const") {
            node.strings.push(strings(std::slice::from_ref(constant)));
        }
        Some(())
    }
}

// ---- per stream ----------------------------------------------------------

type LocId = usize;

/// A location of the document: the subschemas that apply there, and what
/// has been worked out about its children.
struct Loc {
    /// The subschemas that apply here (sorted).
    nodes: Vec<NodeId>,
    /// Validated against when a value here is complete.
    check: Vec<NodeId>,
    /// `check` and everything applied in place through them.
    expanded: Vec<NodeId>,
    max_items: Option<u64>,
    max_length: Option<u64>,
    /// Nodes with `enum`/`const` string lists short enough to compare while open.
    strings: Vec<NodeId>,
    /// Some node here allows no string at all.
    no_string: bool,
    /// Any node here may refuse a name.
    names_refusable: bool,
    /// The longest `prefixItems` (or tuple `items`) of the nodes here.
    prefix_len: usize,
    members: Vec<(Box<str>, Member)>,
    items: Vec<Option<LocId>>,
    rest: Option<Option<LocId>>,
}

#[derive(Clone, Copy)]
struct Member {
    loc: Option<LocId>,
    refused: bool,
}

#[derive(Default)]
struct Locs {
    table: Vec<Loc>,
}

impl Locs {
    /// The location where exactly `nodes` apply; `None` when nothing does.
    fn intern(&mut self, plan: &Plan, mut nodes: Vec<NodeId>) -> Option<LocId> {
        nodes.sort_unstable();
        nodes.dedup();
        if nodes.is_empty() {
            return None;
        }
        if let Some(id) = self.table.iter().position(|loc| loc.nodes == nodes) {
            return Some(id);
        }
        let mut expanded: Vec<NodeId> = Vec::new();
        let mut pending = nodes.clone();
        while let Some(id) = pending.pop() {
            if expanded.contains(&id) {
                continue;
            }
            expanded.push(id);
            if let Some(node) = plan.node(id) {
                pending.extend(node.in_place.iter().copied());
            }
        }
        let all: Vec<&Node> = expanded.iter().filter_map(|&id| plan.node(id)).collect();
        let prefix_len = all.iter().map(|n| n.prefix_items.len()).max().unwrap_or(0);
        let max_items = all.iter().filter_map(|n| n.max_items).min();
        let max_length = all.iter().filter_map(|n| n.max_length).min();
        let strings = expanded
            .iter()
            .copied()
            .filter(|&id| {
                plan.node(id).is_some_and(|n| {
                    !n.strings.is_empty()
                        && n.strings
                            .iter()
                            .flatten()
                            .all(|s| s.len() <= MAX_PREFIX_CANDIDATE)
                })
            })
            .collect();
        let no_string = all.iter().any(|n| n.strings.iter().any(Vec::is_empty));
        let names_refusable = all.iter().any(|n| {
            n.property_names.is_some()
                || n.additional.is_some()
                || !n.properties.is_empty()
                || !n.patterns.is_empty()
        });
        let check = nodes
            .iter()
            .copied()
            .filter(|&id| plan.node(id).is_some_and(|n| n.validating))
            .collect();
        let id = self.table.len();
        self.table.push(Loc {
            nodes,
            check,
            expanded,
            max_items,
            max_length,
            strings,
            no_string,
            names_refusable,
            prefix_len,
            members: Vec::new(),
            items: Vec::new(),
            rest: None,
        });
        Some(id)
    }

    fn get(&self, loc: LocId) -> Option<&Loc> {
        self.table.get(loc)
    }

    /// What applies to the member `name` of an object at `loc`.
    fn member(&mut self, plan: &Plan, loc: LocId, name: &str) -> Member {
        let Some(here) = self.table.get(loc) else {
            return Member {
                loc: None,
                refused: false,
            };
        };
        if let Some((_, member)) = here.members.iter().find(|(known, _)| &**known == name) {
            return *member;
        }
        let mut nodes = Vec::new();
        let mut refused = false;
        for node in here.expanded.iter().filter_map(|&id| plan.node(id)) {
            let mut matched = false;
            for (_, child) in node.properties.iter().filter(|(known, _)| known == name) {
                nodes.push(*child);
                matched = true;
            }
            for &(pattern, child) in &node.patterns {
                if plan.matches(pattern, name) {
                    nodes.push(child);
                    matched = true;
                }
            }
            if !matched && !node.patterns_unknown {
                nodes.extend(node.additional);
            }
            if let Some(names) = node.property_names {
                let tape = Tape::of_string(name);
                refused |= plan.node(names).is_some_and(|n| n.is_false)
                    || plan
                        .validator(names)
                        .is_some_and(|v| !node_is_valid(v, TapeNode::full(&tape)));
            }
        }
        refused |= nodes
            .iter()
            .any(|&id| plan.node(id).is_some_and(|n| n.is_false));
        let names_refusable = here.names_refusable;
        let member = Member {
            loc: self.intern(plan, nodes),
            refused: refused && names_refusable,
        };
        if let Some(here) = self.table.get_mut(loc) {
            if here.members.len() < MEMO_NAMES {
                here.members.push((name.into(), member));
            }
        }
        member
    }

    /// What applies to item `index` of an array at `loc`.
    fn item(&mut self, plan: &Plan, loc: LocId, index: u32) -> Option<LocId> {
        let here = self.table.get(loc)?;
        let index = index as usize;
        let prefix = here.prefix_len;
        if index >= prefix {
            if let Some(known) = here.rest {
                return known;
            }
        } else if let Some(known) = here.items.get(index) {
            return *known;
        }
        let nodes: Vec<NodeId> = here
            .expanded
            .iter()
            .filter_map(|&id| plan.node(id))
            .filter_map(|n| {
                n.prefix_items
                    .get(index)
                    .copied()
                    .or(if index >= n.prefix_items.len() {
                        n.items
                    } else {
                        None
                    })
            })
            .collect();
        let found = self.intern(plan, nodes);
        if let Some(here) = self.table.get_mut(loc) {
            if index >= prefix {
                here.rest = Some(found);
            } else if here.items.len() == index {
                here.items.push(found);
            }
        }
        found
    }
}

/// Why a stream was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum Rejected {
    /// The bytes cannot continue any JSON text; the caller words it (the
    /// last byte is inside a `\\u` escape when `escape`).
    Syntax { escape: bool },
    /// The root is JSON of this type, not an object.
    NotObject(JsonType),
    /// A definite schema violation, with its issues.
    Schema {
        errors: Vec<Issue>,
        more_errors: bool,
    },
}

/// What the text so far shows.
#[derive(Debug, PartialEq)]
pub enum Progress {
    /// Nothing definite yet; the root value is still open (or not begun).
    Pending,
    /// The root value is complete; the text from `end` on is not JSON's.
    Complete { end: usize },
    /// No continuation can make the response valid; `at` bytes showed it
    /// (for a syntax error, the offending byte is the last of them).
    Rejected { why: Rejected, at: usize },
    /// The checks stopped without a verdict (a text past 4 GiB); the end
    /// decides.
    Unchecked,
}

/// The JSON of a response read as it arrives, and the checks on it.
pub struct JsonStream {
    parser: Incremental,
    watcher: Watcher,
    /// It stopped (rejected or unchecked), or the root value is complete.
    over: bool,
    /// Pattern-matching steps left of the one check's budget that the
    /// stream's checks share (`schema::PATTERN_STEPS_PER_CHECK`): they do
    /// the work of the whole-text check's schema stage, value by value, and
    /// what they leave is what the end's stage may still spend.
    steps: usize,
}

impl JsonStream {
    /// A stream whose JSON begins at byte `start` of the text, checked
    /// against `schema` (if any).
    pub fn new(
        start: usize,
        schema: Option<&CompiledSchema>,
        require_object: bool,
        max_errors: usize,
    ) -> Self {
        let plan = schema.and_then(|schema| schema.derived(Plan::derive));
        let nodes = plan.as_ref().map_or(0, |plan| plan.nodes.len());
        JsonStream {
            parser: Incremental::new(start),
            watcher: Watcher {
                plan,
                applied: vec![0; nodes],
                passed: vec![0; nodes],
                locs: Locs::default(),
                levels: Vec::new(),
                member: None,
                scalar: None,
                string: None,
                require_object,
                max_errors,
                found: None,
            },
            over: false,
            steps: PATTERN_STEPS_PER_CHECK,
        }
    }

    /// Reads `text` (all of it so far) from where the last call stopped.
    /// Once it has answered anything but `Pending`, it reads no more.
    pub fn feed(&mut self, text: &str) -> Progress {
        if self.over {
            return Progress::Unchecked;
        }
        let (fed, left) = with_own_budget(self.steps, || self.parser.feed(text, &mut self.watcher));
        self.steps = left;
        let progress = match fed {
            Ok(Fed::Pending) => return Progress::Pending,
            Ok(Fed::Complete { end }) => Progress::Complete { end },
            Err(Stop::Syntax { at, escape }) => Progress::Rejected {
                why: Rejected::Syntax { escape },
                // Through the whole of the offending character.
                at: (at + 1..=text.len())
                    .find(|&end| text.is_char_boundary(end))
                    .unwrap_or(text.len()),
            },
            Err(Stop::Watcher) => match self.watcher.found.take() {
                Some((why, at)) => Progress::Rejected { why, at },
                None => Progress::Unchecked,
            },
            Err(Stop::TooLarge) => Progress::Unchecked,
        };
        self.over = true;
        progress
    }

    /// Once the root value is complete and nothing was rejected: its tape
    /// (the one `tape::parse` builds from its text, with offsets into the
    /// whole `text`), and, when the schema is already known to accept it,
    /// the pattern steps left of the check's budget. It is known when the
    /// subschemas checked as values closed cover the rest: the schema with
    /// those replaced by `true` accepts the tape within what the budget
    /// still had.
    pub fn finish(self, text: &str) -> Option<(Tape<'_>, Option<usize>)> {
        let tape = self.parser.into_tape(text)?;
        let watcher = self.watcher;
        let steps = self.steps;
        let known = watcher.plan.as_ref().and_then(|plan| {
            let replaced: Vec<NodeId> = (0..plan.nodes.len())
                .filter(|&id| {
                    let applied = watcher.applied.get(id).copied().unwrap_or(0);
                    plan.nodes.get(id).is_some_and(|n| n.replaceable)
                        && applied > 0
                        && watcher.passed.get(id).copied() == Some(applied)
                })
                .collect();
            if replaced.is_empty() || steps == 0 {
                return None;
            }
            let (valid, left) = with_own_budget(steps, || plan.residual_valid(replaced, &tape));
            valid.then_some(left)
        });
        Some((tape, known))
    }
}

struct Level {
    loc: Option<LocId>,
    object: bool,
    /// Items begun so far (arrays).
    items: u32,
    /// Some value inside was checked when it closed.
    checked_inside: bool,
}

struct Watcher {
    plan: Option<Arc<Plan>>,
    locs: Locs,
    levels: Vec<Level>,
    /// The location of the member whose name was just read.
    member: Option<LocId>,
    /// The location of the scalar in progress.
    scalar: Option<LocId>,
    /// The location of the open string being compared while open.
    string: Option<LocId>,
    require_object: bool,
    max_errors: usize,
    found: Option<(Rejected, usize)>,
    /// Per node: values it applied to so far, and those that passed it when
    /// they closed.
    applied: Vec<u32>,
    passed: Vec<u32>,
}

/// `The response` or `The value at /a/b`: how an issue's message begins.
fn subject(path: &str) -> String {
    if path.is_empty() {
        "The response".to_owned()
    } else {
        format!("The value at {}", crate::redact::redact_pointer(path))
    }
}

/// A message's "alternative N at /path" (the first problem of each anyOf
/// or oneOf branch) with the path placed at `base` too.
fn rebase_branches(message: &str, base: &str) -> String {
    if base.is_empty() {
        return message.to_owned();
    }
    let base = crate::redact::redact_pointer(base);
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("alternative ") {
        let (before, after) = rest.split_at(at + "alternative ".len());
        out.push_str(before);
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (number, tail) = after.split_at(digits);
        out.push_str(number);
        rest = match (tail.strip_prefix(" at /"), tail.starts_with(':')) {
            (Some(path), _) if digits > 0 => {
                out.push_str(" at ");
                out.push_str(&base);
                out.push('/');
                path
            }
            // At the value itself, which is at `base` in the document.
            (None, true) if digits > 0 => {
                out.push_str(" at ");
                out.push_str(&base);
                tail
            }
            _ => tail,
        };
    }
    out.push_str(rest);
    out
}

/// An issue of a value checked on its own, placed at `base` in the
/// document (its schema path is already the schema's: the validator
/// reaches the subschema inside the schema document).
fn placed(issue: Issue, base: &str) -> Issue {
    let path = format!("{base}{}", issue.path);
    let message = match issue.message.strip_prefix(&subject(&issue.path)) {
        Some(rest) => format!("{}{}", subject(&path), rebase_branches(rest, base)),
        None => issue.message,
    };
    Issue {
        schema_path: issue.schema_path,
        message,
        path,
        code: issue.code,
        rule: issue.rule,
    }
}

impl Watcher {
    /// Stops with `why`, unless the pattern budget ran out (then a match
    /// may have failed for want of steps: the checks stop undecided).
    fn reject(&mut self, why: Rejected, at: usize) -> Flow {
        self.found = (!budget_spent()).then_some((why, at));
        ControlFlow::Break(())
    }

    /// The issues `tape` (a value standing at `base`) has against each of
    /// `nodes`, kept only where `keep` says; `None` when none are kept.
    /// With `keep` absent every issue counts (the value itself is checked).
    fn issues(
        &self,
        plan: &Plan,
        nodes: &[NodeId],
        tape: &Tape<'_>,
        base: &str,
        keep: Option<&dyn Fn(&Issue) -> bool>,
    ) -> Option<Rejected> {
        let mut errors = Vec::new();
        let mut more = false;
        for &id in nodes {
            let Some(validator) = plan.validator(id) else {
                continue;
            };
            if node_is_valid(validator, TapeNode::full(tape)) {
                continue;
            }
            // A few more than reported, so that the ones `keep` drops
            // leave enough.
            let (found, beyond) =
                collect_issues(validator, tape, self.max_errors.saturating_add(16));
            more |= beyond && keep.is_none();
            errors.extend(
                found
                    .into_iter()
                    .filter(|i| keep.is_none_or(|keep| keep(i)))
                    .map(|i| placed(i, base)),
            );
        }
        if errors.is_empty() {
            return None;
        }
        more |= errors.len() > self.max_errors;
        errors.truncate(self.max_errors);
        Some(Rejected::Schema {
            errors,
            more_errors: more,
        })
    }

    /// Rejects for the witness `json` (a value that has the definite
    /// violation and stands at `base`), with the issues `keep` accepts.
    fn reject_with_witness(
        &mut self,
        plan: &Plan,
        nodes: &[NodeId],
        json: &str,
        base: &str,
        at: usize,
        keep: impl Fn(&Issue) -> bool,
    ) -> Flow {
        let Ok(tape) = tape::parse(json) else {
            return ControlFlow::Continue(());
        };
        match self.issues(plan, nodes, &tape, base, Some(&keep)) {
            Some(why) => self.reject(why, at),
            None => ControlFlow::Continue(()),
        }
    }

    /// The open string (its `raw` text so far, `chars` long) against
    /// `maxLength` and the strings `enum`/`const` allow.
    fn check_string(&mut self, tape: &Lend<'_>, raw: &str, chars: u64) -> Flow {
        let (Some(plan), Some(loc)) = (self.plan.clone(), self.string) else {
            return ControlFlow::Continue(());
        };
        let Some(here) = self.locs.get(loc) else {
            return ControlFlow::Continue(());
        };
        let depth = self.levels.len();
        if let Some(max) = here.max_length.filter(|max| chars > *max) {
            let nodes: Vec<NodeId> = here
                .expanded
                .iter()
                .copied()
                .filter(|&id| {
                    plan.node(id)
                        .and_then(|n| n.max_length)
                        .is_some_and(|m| m == max)
                })
                .collect();
            let json = Value::String(tape::decode_string(raw)).to_string();
            return self.reject_with_witness(
                &plan,
                &nodes,
                &json,
                &tape.pointer(depth),
                tape.read(),
                |i: &Issue| i.code == "maxLength" && i.path.is_empty(),
            );
        }
        if here.strings.is_empty() {
            return ControlFlow::Continue(());
        }
        let decoded = tape::decode_string(raw);
        let failing: Vec<NodeId> = here
            .strings
            .iter()
            .copied()
            .filter(|&id| {
                plan.node(id).is_some_and(|n| {
                    n.strings
                        .iter()
                        .any(|allowed| !allowed.iter().any(|s| s.starts_with(decoded.as_str())))
                })
            })
            .collect();
        if failing.is_empty() {
            return ControlFlow::Continue(());
        }
        let json = Value::String(decoded).to_string();
        self.reject_with_witness(
            &plan,
            &failing,
            &json,
            &tape.pointer(depth),
            tape.read(),
            |i: &Issue| (i.code == "enum" || i.code == "const") && i.path.is_empty(),
        )
    }
}

impl Watcher {
    /// Item `index` of the array at `loc` (at `depth - 1`) begins: past its
    /// `maxItems`, that is definite.
    fn too_many_items(
        &mut self,
        plan: &Plan,
        tape: &Lend<'_>,
        loc: LocId,
        index: u32,
        depth: usize,
    ) -> Flow {
        let Some(here) = self.locs.get(loc) else {
            return ControlFlow::Continue(());
        };
        if here.max_items.is_none_or(|max| u64::from(index) < max) {
            return ControlFlow::Continue(());
        }
        let array = depth.saturating_sub(1);
        let Some(witness) = tape.open_array_and_one(array) else {
            return ControlFlow::Continue(());
        };
        let keep = |i: &Issue| i.code == "maxItems" && i.path.is_empty();
        match self.issues(
            plan,
            &here.expanded,
            &witness,
            &tape.pointer(array),
            Some(&keep),
        ) {
            Some(why) => self.reject(why, tape.read() + 1),
            None => ControlFlow::Continue(()),
        }
    }
}

impl Watch for Watcher {
    fn begin(&mut self, tape: &mut Lend<'_>, depth: usize, kind: Kind) -> ControlFlow<(), bool> {
        if depth == 0 && self.require_object && kind != Kind::Object {
            let at = tape.read() + 1;
            self.found = Some((Rejected::NotObject(kind.json_type()), at));
            return ControlFlow::Break(());
        }
        let Some(plan) = self.plan.clone() else {
            return ControlFlow::Continue(false);
        };
        let loc = match self.levels.last_mut() {
            None => self.locs.intern(&plan, vec![0]),
            Some(parent) if parent.object => self.member.take(),
            Some(parent) => {
                let index = parent.items;
                parent.items = parent.items.saturating_add(1);
                match parent.loc {
                    Some(array) => {
                        if self
                            .too_many_items(&plan, tape, array, index, depth)
                            .is_break()
                        {
                            return ControlFlow::Break(());
                        }
                        self.locs.item(&plan, array, index)
                    }
                    None => None,
                }
            }
        };
        if let Some(here) = loc.and_then(|l| self.locs.get(l)) {
            for &id in &here.check {
                if let Some(count) = self.applied.get_mut(id) {
                    *count = count.saturating_add(1);
                }
            }
        }
        match kind {
            Kind::Object | Kind::Array => {
                self.levels.push(Level {
                    loc,
                    object: kind == Kind::Object,
                    items: 0,
                    checked_inside: false,
                });
                ControlFlow::Continue(false)
            }
            Kind::String => {
                self.scalar = loc;
                let here = loc.and_then(|l| self.locs.get(l));
                let watched = here.is_some_and(|l| l.max_length.is_some() || !l.strings.is_empty());
                let refused = here.is_some_and(|l| l.no_string);
                self.string = if watched { loc } else { None };
                if refused && self.check_string(tape, "", 0).is_break() {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(watched)
            }
            _ => {
                self.scalar = loc;
                ControlFlow::Continue(false)
            }
        }
    }

    fn name(&mut self, tape: &mut Lend<'_>, key: u32) -> Flow {
        self.member = None;
        let (Some(plan), Some(loc)) = (self.plan.clone(), self.levels.last().and_then(|l| l.loc))
        else {
            return ControlFlow::Continue(());
        };
        let name = tape.name(key);
        let member = self.locs.member(&plan, loc, &name);
        self.member = member.loc;
        if !member.refused {
            return ControlFlow::Continue(());
        }
        let json = format!("{{{}:null}}", Value::String(name.clone().into_owned()));
        let nodes = self
            .locs
            .get(loc)
            .map(|l| l.expanded.clone())
            .unwrap_or_default();
        let base = tape.pointer(self.levels.len() - 1);
        let member_path = format!("/{}", escape_segment(&name));
        self.reject_with_witness(
            &plan,
            &nodes,
            &json,
            &base,
            tape.read(),
            |i: &Issue| match i.code.as_str() {
                "additionalProperties" | "propertyNames" => i.path.is_empty(),
                "falseSchema" => i.path == member_path,
                _ => false,
            },
        )
    }

    fn partial(&mut self, tape: &mut Lend<'_>, string: Partial<'_>) -> Flow {
        self.check_string(tape, string.raw, string.chars)
    }

    fn end(&mut self, tape: &mut Lend<'_>, index: u32, depth: usize) -> Flow {
        let kind = tape.kind(index);
        let container = matches!(kind, Kind::Array | Kind::Object);
        let (loc, inside) = if container {
            match self.levels.pop() {
                Some(level) => (level.loc, level.checked_inside),
                None => (None, false),
            }
        } else {
            // A string compared while open needs no comparison now: the
            // check of the value holding it follows soon, and the one of
            // the string itself below when it is checked alone.
            self.string = None;
            (self.scalar.take(), false)
        };
        if depth == 0 {
            return ControlFlow::Continue(());
        }
        let Some(parent) = self.levels.last_mut() else {
            return ControlFlow::Continue(());
        };
        // Items are checked as they close, and so are the root's members
        // unless something inside them was already.
        let checked_here = !parent.object || (depth == 1 && !(container && inside));
        let (Some(plan), Some(loc), true) = (self.plan.as_ref(), loc, checked_here) else {
            parent.checked_inside |= inside;
            return ControlFlow::Continue(());
        };
        let Some(here) = self.locs.get(loc).filter(|l| !l.check.is_empty()) else {
            parent.checked_inside |= inside;
            return ControlFlow::Continue(());
        };
        parent.checked_inside = true;
        let failing: Vec<NodeId> = tape.with_tape(|t| {
            here.check
                .iter()
                .copied()
                .filter(|&id| {
                    plan.validator(id)
                        .is_some_and(|v| !node_is_valid(v, TapeNode::at(t, index)))
                })
                .collect()
        });
        if failing.is_empty() {
            for &id in &here.check {
                // Passed only where it was checked: a subschema whose
                // validator could not be compiled alone was not.
                if let (Some(count), Some(_)) = (self.passed.get_mut(id), plan.validator(id)) {
                    *count = count.saturating_add(1);
                }
            }
            return ControlFlow::Continue(());
        }
        let plan = Arc::clone(plan);
        let value = tape.value(index);
        let base = tape.pointer(depth);
        // A number is known complete only at the byte after it.
        let at = tape.read() + usize::from(kind == Kind::Number);
        match self.issues(&plan, &failing, &value, &base, None) {
            Some(why) => self.reject(why, at),
            None => ControlFlow::Continue(()),
        }
    }
}
