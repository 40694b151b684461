//! What a schema lets a stream check where: the subschemas that apply to
//! each location of the document unconditionally (see `json` for what is
//! checked against them), derived once per compiled schema, and per stream
//! the locations met so far.

use std::sync::{Mutex, OnceLock};

use jsonschema::{Draft, Validator};
use serde_json::Value;

use crate::schema::{build_validator, node_is_valid, CompileOptions, CompiledSchema};
use crate::tape::{prefix_at, Tape, TapeJson, TapeNode};

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

pub type NodeId = usize;

/// A subschema of the document, with what the stream checks need of it.
pub struct Node {
    /// JSON Pointer into the schema, `#`-prefixed.
    pub pointer: String,
    /// It constrains something (it is `false`, or has a keyword that is
    /// not an annotation).
    pub validating: bool,
    /// Its validator, compiled on first use.
    pub validator: OnceLock<Option<Validator<TapeJson>>>,
    /// Reached from the root through child applicators alone (`properties`,
    /// `items`...: never in place), and no `$ref` names it, anything above
    /// it or anything in it: it applies exactly where the stream's
    /// locations say, so once it passed everywhere it applied, the end may
    /// check the rest of the schema with it replaced by `true`.
    pub replaceable: bool,
    /// `allOf` members and `$ref` targets: subschemas applied in place.
    pub in_place: Vec<NodeId>,
    pub properties: Vec<(String, NodeId)>,
    pub patterns: Vec<(usize, NodeId)>,
    /// A pattern could not be compiled here, so which names it matches is
    /// unknown (and with it whether `additionalProperties` applies).
    pub patterns_unknown: bool,
    pub additional: Option<NodeId>,
    pub property_names: Option<NodeId>,
    pub prefix_items: Vec<NodeId>,
    /// The subschema of every item past `prefix_items`.
    pub items: Option<NodeId>,
    pub max_items: Option<u64>,
    pub max_length: Option<u64>,
    /// The strings `enum` and `const` allow, one list per keyword.
    pub strings: Vec<Vec<String>>,
    pub is_false: bool,
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
pub struct Plan {
    pub nodes: Vec<Node>,
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
    /// The locations a partial value's reading worked out, kept for the
    /// next stream's (see [`Plan::take_locs`]).
    partial_locs: Mutex<Option<Locs>>,
}

/// The most locations kept between streams (see [`Plan::keep_locs`]).
const MAX_KEPT_LOCS: usize = 1024;

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
        let base = match (schema.get("$id").and_then(Value::as_str), &options.base_uri) {
            (Some(id), None) => id,
            (None, Some(base)) => base.as_str(),
            (None, None) => DEFAULT_BASE,
            // Whether the `$id` or the caller's base places the document
            // depends on the draft and the `$id`'s siblings: left to the
            // whole schema.
            (Some(_), Some(_)) => return None,
        }
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
            partial_locs: Mutex::new(None),
        })
    }

    /// The plan of a compiled schema (see [`CompiledSchema::derived`]).
    pub fn derive(schema: &CompiledSchema) -> Option<Plan> {
        let value: Value = serde_json::from_slice(schema.canonical_text().as_bytes()).ok()?;
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

    /// The locations an earlier stream's partial value worked out (none:
    /// new ones), for a reading that only looks them up: what applies at a
    /// location depends on the plan alone, so a short document's reading
    /// does not work out its few locations again for every stream (a
    /// reading that works them out already was the larger part of a
    /// 250-byte document's). Given back with `keep_locs`.
    pub fn take_locs(&self) -> Locs {
        self.partial_locs
            .lock()
            .ok()
            .and_then(|mut kept| kept.take())
            .unwrap_or_default()
    }

    /// Keeps `locs` for the next `take_locs`, up to [`MAX_KEPT_LOCS`].
    pub fn keep_locs(&self, locs: Locs) {
        if locs.all().len() <= MAX_KEPT_LOCS {
            if let Ok(mut kept) = self.partial_locs.lock() {
                *kept = Some(locs);
            }
        }
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The validator of node `id`, compiled on first use; `None` for a
    /// subschema that constrains nothing, or whose validator could not be
    /// compiled on its own (then nothing is checked against it early).
    pub fn validator(&self, id: NodeId) -> Option<&Validator<TapeJson>> {
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
    pub fn residual_valid(&self, replaced: Vec<NodeId>, tape: &Tape<'_>) -> bool {
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

pub fn escape_segment(segment: &str) -> String {
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

pub type LocId = usize;

/// A location of the document: the subschemas that apply there, and what
/// has been worked out about its children.
pub struct Loc {
    /// The subschemas that apply here (sorted).
    pub nodes: Vec<NodeId>,
    /// Validated against when a value here is complete.
    pub check: Vec<NodeId>,
    /// `check` and everything applied in place through them.
    pub expanded: Vec<NodeId>,
    pub max_items: Option<u64>,
    pub max_length: Option<u64>,
    /// Nodes with `enum`/`const` string lists short enough to compare while open.
    pub strings: Vec<NodeId>,
    /// Some node here allows no string at all.
    pub no_string: bool,
    /// Any node here may refuse a name.
    pub names_refusable: bool,
    /// The longest `prefixItems` (or tuple `items`) of the nodes here.
    pub prefix_len: usize,
    /// Names met here, with what applies to each (see [`Locs::member`]).
    members: Vec<Known>,
    pub items: Vec<Option<LocId>>,
    pub rest: Option<Option<LocId>>,
    /// Values here begun so far, and those that passed `check` when they
    /// closed (the stream adds them up per node at the end).
    pub begun: u32,
    pub passed: u32,
    /// Every subschema here constrains something and has a validator of its
    /// own, so a value here that passes `check` passes everything that
    /// applies inside it: once it is complete, nothing inside it needs a
    /// look of its own. Worked out for the locations of array items only
    /// (see [`Locs::item`]), the values that are checked as they close.
    pub covers_inside: bool,
}

/// A member name met at a location: its first bytes as one word, compared
/// before the name itself.
struct Known {
    word: u64,
    name: Box<str>,
    member: Member,
}

#[derive(Clone, Copy)]
pub struct Member {
    pub loc: Option<LocId>,
    pub refused: bool,
}

#[derive(Default)]
pub struct Locs {
    table: Vec<Loc>,
}

impl Locs {
    /// The location where exactly `nodes` apply; `None` when nothing does.
    pub fn intern(&mut self, plan: &Plan, mut nodes: Vec<NodeId>) -> Option<LocId> {
        guard_sort::sort(&mut nodes);
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
            begun: 0,
            passed: 0,
            covers_inside: false,
        });
        Some(id)
    }

    pub fn get(&self, loc: LocId) -> Option<&Loc> {
        self.table.get(loc)
    }

    pub fn get_mut(&mut self, loc: LocId) -> Option<&mut Loc> {
        self.table.get_mut(loc)
    }

    /// Every location met so far.
    pub fn all(&self) -> &[Loc] {
        &self.table
    }

    /// What applies to the member `name` of an object at `loc`.
    pub fn member(&mut self, plan: &Plan, loc: LocId, name: &str) -> Member {
        let Some(here) = self.table.get(loc) else {
            return Member {
                loc: None,
                refused: false,
            };
        };
        // Short names differ from each other in their first eight bytes,
        // or in their length.
        let word = prefix_at(name.as_bytes(), 0, name.len());
        if let Some(known) = here.members.iter().find(|known| {
            known.word == word
                && known.name.len() == name.len()
                && (name.len() <= 8 || *known.name == *name)
        }) {
            return known.member;
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
                here.members.push(Known {
                    word,
                    name: name.into(),
                    member,
                });
            }
        }
        member
    }

    /// What applies to item `index` of an array at `loc`.
    pub fn item(&mut self, plan: &Plan, loc: LocId, index: u32) -> Option<LocId> {
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
        if let Some(item) = found.and_then(|id| self.table.get_mut(id)) {
            item.covers_inside = item.nodes.iter().all(|&id| {
                plan.node(id).is_some_and(|n| n.validating) && plan.validator(id).is_some()
            });
        }
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
