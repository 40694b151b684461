//! Check programs: a compiled schema's keywords written out for the
//! JavaScript side to check a value `JSON.parse` (or the caller) already
//! built, without the value crossing into wasm.
//!
//! A program is JSON text: the subschemas (nodes) reachable from the root,
//! each a list of the keywords it asserts, in the order the validator runs
//! them, with `$ref`s resolved to nodes. It says only what the validator
//! would decide, keyword by keyword, for the schema as compiled (its dialect
//! translated, `rejectUnknownFields` applied): the executors in
//! js/check-program.mjs read it and nothing else. A schema with a keyword a
//! program cannot say exactly (`unevaluated*` beside a keyword applying a
//! subschema in place, a `patternProperties` pattern that is not a sequence
//! of classes, content assertions, an embedded `$id` or a reference outside
//! the document (which would make `$dynamicRef` and `$recursiveRef` more
//! than a `$ref`), an integer past 2^53) has no program, and is checked by
//! the core as before.
//!
//! Strings the core must judge (`pattern`, and the formats the JavaScript
//! side does not implement) are named by the program as string checks;
//! `StringChecks` judges a batch of them in one crossing, each with a
//! validator built exactly as the schema's own keyword is (the same
//! options, regex dialect and pattern budget).

use std::collections::HashMap;

use jsonschema::Draft;
use serde_json::{Map, Value};

use hot_path::schema::{
    build_validator, effective_schema, CompileOptions, CompiledSchema, FormatMode,
};
use hot_path::tape::TapeJson;

/// Integers past this are not doubles exactly; a program holds none.
const EXACT_INTEGERS: u64 = 1 << 53;

/// The formats the JavaScript side checks itself (see `FORMATS` in
/// js/check-program.mjs); the others are string checks for the core.
const FORMATS_IN_JS: [&str; 9] = [
    "date",
    "time",
    "date-time",
    "uuid",
    "ipv4",
    "duration",
    "json-pointer",
    "relative-json-pointer",
    "uri-template",
];

/// A program and the validators of its string checks.
pub struct CheckProgram {
    pub text: String,
    checks: Vec<jsonschema::Validator<TapeJson>>,
}

/// Why a schema has no program (never shown to users: the core checks it).
struct Unsupported;

type Built<T> = Result<T, Unsupported>;

/// The program of `compiled`, or `None` when it has a keyword no program says exactly.
pub fn program_of(compiled: &CompiledSchema) -> Option<CheckProgram> {
    let options = compiled.compile_options();
    if !options.resources.is_empty() {
        return None;
    }
    let draft = compiled.draft();
    let draft_number = match draft {
        Draft::Draft4 => 4,
        Draft::Draft6 => 6,
        Draft::Draft7 => 7,
        Draft::Draft201909 => 2019,
        Draft::Draft202012 => 2020,
        _ => return None,
    };
    let schema: Value = serde_json::from_str(compiled.canonical_text()).ok()?;
    let mut for_checks = options.clone();
    for_checks.draft = Some(draft);
    let effective = effective_schema(&schema, &for_checks).into_owned();
    let mut writer = Writer {
        root: &effective,
        draft,
        options: &for_checks,
        nodes: Vec::new(),
        says: Vec::new(),
        pointers: Vec::new(),
        by_pointer: HashMap::new(),
        anchors: HashMap::new(),
        pending: Vec::new(),
        strings: Vec::new(),
        checks: Vec::new(),
        text_safe: true,
    };
    writer.scan(&effective, "", true).ok()?;
    writer.node_at("").ok()?;
    while let Some((index, pointer)) = writer.pending.pop() {
        let (node, says) = writer.compile_node(&pointer).ok()?;
        *writer.nodes.get_mut(index)? = node;
        *writer.says.get_mut(index)? = says;
    }
    let text = format!(
        "{{\"draft\":{draft_number},\"textSafe\":{},\"strings\":{},\"nodes\":{},\"says\":{},\"pointers\":{},\"wording\":{}}}",
        writer.text_safe,
        list(writer.strings),
        list(writer.nodes),
        list(writer.says),
        list(writer.pointers.iter().map(|pointer| quote(pointer))),
        wording()
    );
    Some(CheckProgram {
        text,
        checks: writer.checks,
    })
}

struct Writer<'s> {
    root: &'s Value,
    draft: Draft,
    options: &'s CompileOptions,
    nodes: Vec<String>,
    /// For each node, what each of its checks says when it fails (see
    /// `says`), in the order of its checks.
    says: Vec<String>,
    /// For each node, the JSON Pointer of its subschema (where a reference
    /// leads, the schema path of the issues below it starts again).
    pointers: Vec<String>,
    /// Node index by the JSON Pointer of its subschema.
    by_pointer: HashMap<String, usize>,
    /// `$anchor` name → pointer.
    anchors: HashMap<String, String>,
    /// Nodes allotted but not yet compiled.
    pending: Vec<(usize, String)>,
    /// The string checks: `["format", name]` or `["pattern", source]`.
    strings: Vec<String>,
    checks: Vec<jsonschema::Validator<TapeJson>>,
    /// Whether the program decides a value `JSON.parse` made from text as
    /// the core decides the text (see `integer_type`).
    text_safe: bool,
}

/// Keywords whose value is a subschema, a list or a map of them (for the
/// scan for identifiers and anchors).
const SCHEMA_KEYWORDS: [&str; 11] = [
    "additionalItems",
    "additionalProperties",
    "contains",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
];
const SCHEMA_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS: [&str; 6] = [
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "properties",
];

/// Keywords a program does not say; a schema that uses one (where the draft
/// reads it) has no program.
fn unsupported(keyword: &str, draft: Draft) -> bool {
    match keyword {
        "$vocabulary" => true,
        "$recursiveRef" | "$recursiveAnchor" => draft != Draft::Draft201909,
        "$dynamicRef" | "$dynamicAnchor" => draft != Draft::Draft202012,
        "unevaluatedItems" | "unevaluatedProperties" => !modern(draft),
        "contentEncoding" | "contentMediaType" | "contentSchema" => {
            matches!(draft, Draft::Draft6 | Draft::Draft7)
        }
        _ => false,
    }
}

fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn modern(draft: Draft) -> bool {
    matches!(draft, Draft::Draft201909 | Draft::Draft202012)
}

impl<'s> Writer<'s> {
    /// Walks the schema's subschemas: identifiers (`$id`, draft 4's `id`)
    /// below the root and anchors in older drafts make no program (they
    /// move the base URI); `$anchor`s are noted.
    fn scan(&mut self, schema: &Value, pointer: &str, root: bool) -> Built<()> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        let id_keyword = if self.draft == Draft::Draft4 {
            "id"
        } else {
            "$id"
        };
        if let Some(Value::String(id)) = map.get(id_keyword) {
            if !root || id.starts_with('#') {
                return Err(Unsupported);
            }
        }
        if let Some(Value::String(anchor)) = map.get("$anchor") {
            if modern(self.draft) {
                self.anchors.insert(anchor.clone(), pointer.to_owned());
            }
        }
        // A `$dynamicAnchor` names its subschema as `$anchor` does. In a
        // schema of one resource (no identifier below the root, nothing
        // outside the document) the dynamic scope holds that resource
        // alone, so a `$dynamicRef` lands where a `$ref` to the same
        // fragment does.
        if let Some(Value::String(anchor)) = map.get("$dynamicAnchor") {
            if self.draft == Draft::Draft202012
                && self
                    .anchors
                    .insert(anchor.clone(), pointer.to_owned())
                    .is_some()
            {
                return Err(Unsupported);
            }
        }
        for (keyword, value) in map {
            let at = format!("{pointer}/{}", escape_token(keyword));
            if SCHEMA_KEYWORDS.contains(&keyword.as_str()) {
                if let Value::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        self.scan(item, &format!("{at}/{i}"), false)?;
                    }
                } else {
                    self.scan(value, &at, false)?;
                }
            } else if SCHEMA_LISTS.contains(&keyword.as_str()) {
                if let Value::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        self.scan(item, &format!("{at}/{i}"), false)?;
                    }
                }
            } else if SCHEMA_MAPS.contains(&keyword.as_str()) {
                if let Value::Object(members) = value {
                    for (name, item) in members {
                        self.scan(item, &format!("{at}/{}", escape_token(name)), false)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The node of the subschema at `pointer`, allotted on first use.
    fn node_at(&mut self, pointer: &str) -> Built<usize> {
        if let Some(&index) = self.by_pointer.get(pointer) {
            return Ok(index);
        }
        let index = self.nodes.len();
        self.nodes.push(String::new());
        self.says.push(String::new());
        self.pointers.push(pointer.to_owned());
        self.by_pointer.insert(pointer.to_owned(), index);
        self.pending.push((index, pointer.to_owned()));
        Ok(index)
    }

    fn schema_at(&self, pointer: &str) -> Built<&'s Value> {
        if pointer.is_empty() {
            return Ok(self.root);
        }
        self.root.pointer(pointer).ok_or(Unsupported)
    }

    fn compile_node(&mut self, pointer: &str) -> Built<(String, String)> {
        let schema = self.schema_at(pointer)?;
        let map = match schema {
            Value::Bool(b) => return Ok((b.to_string(), "null".to_owned())),
            Value::Object(map) => map,
            _ => return Err(Unsupported),
        };
        let draft = self.draft;
        // Drafts 4 to 7 read `$ref` alone, its siblings ignored.
        if !modern(draft) {
            if let Some(reference) = map.get("$ref") {
                let mut checks = Vec::new();
                self.reference(map, reference, &mut checks)?;
                return Ok(split(checks));
            }
        }
        if map.keys().any(|keyword| unsupported(keyword, draft)) {
            return Err(Unsupported);
        }
        // (priority, check): the validator runs its keywords by priority
        // (see jsonschema's `keyword_priority`), ties in schema order.
        let mut checks: Vec<(u8, String, String)> = Vec::new();
        for (keyword, value) in map {
            let here = format!("{pointer}/{}", escape_token(keyword));
            let (priority, check) = match keyword.as_str() {
                "type" => (1, format!("[\"type\",{}]", self.type_mask(value)?)),
                "const" if draft != Draft::Draft4 => {
                    exact(value)?;
                    (5, format!("[\"const\",{value}]"))
                }
                "enum" => {
                    exact(value)?;
                    (6, format!("[\"enum\",{value}]"))
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    let Some(op) = bound(map, keyword, draft) else {
                        continue;
                    };
                    (bound_priority(op), numeric(op, value)?)
                }
                "multipleOf" => (14, numeric("mul", value)?),
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties" => {
                    let priority = match keyword.as_str() {
                        "minLength" => 20,
                        "maxLength" => 21,
                        "minItems" => 22,
                        "maxItems" => 23,
                        "minProperties" => 24,
                        _ => 25,
                    };
                    (priority, format!("[\"{keyword}\",{}]", count(value)?))
                }
                "required" => {
                    let names = value.as_array().ok_or(Unsupported)?;
                    if names.is_empty() {
                        continue;
                    }
                    (26, format!("[\"required\",{value}]"))
                }
                "dependentRequired" if modern(draft) => {
                    let members = value.as_object().ok_or(Unsupported)?;
                    let pairs = list(
                        members
                            .iter()
                            .map(|(name, names)| format!("[{},{names}]", quote(name))),
                    );
                    (27, format!("[\"dependentRequired\",{pairs}]"))
                }
                "pattern" => {
                    let check = self.string_check("pattern", value)?;
                    match sequence_of(value) {
                        Some(sequence) => (30, format!("[\"pattern\",{check},{sequence}]")),
                        None => (30, format!("[\"string\",{check}]")),
                    }
                }
                "format" => match self.format(value)? {
                    Some(check) => (31, check),
                    None => continue,
                },
                "uniqueItems" if value.as_bool() == Some(true) => (35, "[\"unique\"]".to_owned()),
                "properties" => {
                    let members = value.as_object().ok_or(Unsupported)?;
                    let mut pairs = Vec::new();
                    for name in members.keys() {
                        let node = self.node_at(&format!("{here}/{}", escape_token(name)))?;
                        pairs.push(format!("[{},{node}]", quote(name)));
                    }
                    (40, format!("[\"properties\",{}]", list(pairs)))
                }
                "patternProperties" => {
                    let members = value.as_object().ok_or(Unsupported)?;
                    let mut pairs = Vec::new();
                    for (pattern, _) in members {
                        let sequence = pattern_sequence(pattern)?;
                        let node = self.node_at(&format!("{here}/{}", escape_token(pattern)))?;
                        pairs.push(format!("[{sequence},{node}]"));
                    }
                    (41, format!("[\"patternProperties\",{}]", list(pairs)))
                }
                "additionalProperties" if value.as_bool() != Some(true) => {
                    let named = map
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|members| list(members.keys().map(|name| quote(name))))
                        .unwrap_or_else(|| "[]".to_owned());
                    let node = self.node_at(&here)?;
                    match map.get("patternProperties").and_then(Value::as_object) {
                        Some(patterns) if !patterns.is_empty() => {
                            let mut sequences = Vec::new();
                            for pattern in patterns.keys() {
                                sequences.push(pattern_sequence(pattern)?);
                            }
                            let sequences = list(sequences);
                            (
                                42,
                                format!("[\"additionalProperties\",{named},{node},{sequences}]"),
                            )
                        }
                        _ => (42, format!("[\"additionalProperties\",{named},{node}]")),
                    }
                }
                // Where no keyword beside it applies a subschema to the same
                // value, what `properties`, `patternProperties` and
                // `additionalProperties` evaluate is all that is evaluated:
                // `unevaluatedProperties` is an `additionalProperties` of
                // those names and patterns, and nothing once
                // `additionalProperties` is there.
                "unevaluatedProperties" => {
                    if applies_in_place(map) {
                        return Err(Unsupported);
                    }
                    if map.contains_key("additionalProperties") {
                        continue;
                    }
                    let named = map
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|members| list(members.keys().map(|name| quote(name))))
                        .unwrap_or_else(|| "[]".to_owned());
                    let mut sequences = Vec::new();
                    if let Some(patterns) = map.get("patternProperties").and_then(Value::as_object)
                    {
                        for pattern in patterns.keys() {
                            sequences.push(pattern_sequence(pattern)?);
                        }
                    }
                    let node = self.node_at(&here)?;
                    (
                        60,
                        format!(
                            "[\"unevaluatedProperties\",{named},{node},{}]",
                            list(sequences)
                        ),
                    )
                }
                // The same for items: those past the tuple (`prefixItems`,
                // or draft 2019-09's `items` list), nothing once `items` or
                // `additionalItems` reads them all; `contains` (which
                // evaluates the items it matches) leaves it to the core.
                "unevaluatedItems" => {
                    if applies_in_place(map) || map.contains_key("contains") {
                        return Err(Unsupported);
                    }
                    let from = if draft == Draft::Draft202012 {
                        match map.get("items") {
                            None => match map.get("prefixItems") {
                                Some(Value::Array(prefix)) => prefix.len(),
                                None => 0,
                                Some(_) => return Err(Unsupported),
                            },
                            Some(Value::Object(_) | Value::Bool(_)) => continue,
                            Some(_) => return Err(Unsupported),
                        }
                    } else {
                        match map.get("items") {
                            None => 0,
                            Some(Value::Array(tuple)) if !map.contains_key("additionalItems") => {
                                tuple.len()
                            }
                            Some(_) => continue,
                        }
                    };
                    (
                        61,
                        format!("[\"unevaluatedItems\",{},{from}]", self.node_at(&here)?),
                    )
                }
                "propertyNames" if draft != Draft::Draft4 => {
                    (43, format!("[\"propertyNames\",{}]", self.node_at(&here)?))
                }
                "items" => match value {
                    Value::Array(items) => (
                        44,
                        format!("[\"prefixItems\",{}]", self.nodes_at(&here, items.len())?),
                    ),
                    Value::Bool(true) => continue,
                    _ => {
                        let from = match map.get("prefixItems") {
                            Some(Value::Array(prefix)) if draft == Draft::Draft202012 => {
                                prefix.len()
                            }
                            _ => 0,
                        };
                        (44, format!("[\"items\",{},{from}]", self.node_at(&here)?))
                    }
                },
                "prefixItems" if draft == Draft::Draft202012 => {
                    let items = value.as_array().ok_or(Unsupported)?;
                    (
                        45,
                        format!("[\"prefixItems\",{}]", self.nodes_at(&here, items.len())?),
                    )
                }
                "additionalItems" if value.as_bool() != Some(true) => {
                    let Some(Value::Array(tuple)) = map.get("items") else {
                        continue;
                    };
                    (
                        46,
                        format!("[\"items\",{},{}]", self.node_at(&here)?, tuple.len()),
                    )
                }
                "contains" if draft != Draft::Draft4 => {
                    let node = self.node_at(&here)?;
                    let (min, max) = if modern(draft) {
                        (
                            map.get("minContains").map(count).transpose()?,
                            map.get("maxContains").map(count).transpose()?,
                        )
                    } else {
                        (None, None)
                    };
                    let max = max.map_or_else(|| "-1".to_owned(), |max| max.to_string());
                    (
                        47,
                        format!("[\"contains\",{node},{},{max}]", min.unwrap_or(1)),
                    )
                }
                "dependencies" | "dependentSchemas" => {
                    if keyword == "dependentSchemas" && !modern(draft) {
                        continue;
                    }
                    let members = value.as_object().ok_or(Unsupported)?;
                    let mut names = Vec::new();
                    let mut schemas = Vec::new();
                    for (name, dependency) in members {
                        if dependency.is_array() {
                            names.push(format!("[{},{dependency}]", quote(name)));
                        } else {
                            let node = self.node_at(&format!("{here}/{}", escape_token(name)))?;
                            schemas.push(format!("[{},{node}]", quote(name)));
                        }
                    }
                    let priority = if keyword == "dependencies" { 48 } else { 49 };
                    (
                        priority,
                        format!("[\"dependencies\",{},{}]", list(names), list(schemas)),
                    )
                }
                "allOf" | "anyOf" | "oneOf" => {
                    let items = value.as_array().ok_or(Unsupported)?;
                    let priority = match keyword.as_str() {
                        "allOf" => 50,
                        "anyOf" => 51,
                        _ => 52,
                    };
                    (
                        priority,
                        format!("[\"{keyword}\",{}]", self.nodes_at(&here, items.len())?),
                    )
                }
                "not" => (53, format!("[\"not\",{}]", self.node_at(&here)?)),
                "if" if !matches!(draft, Draft::Draft4 | Draft::Draft6) => {
                    let node = self.node_at(&here)?;
                    let then = self.optional_node(map, pointer, "then")?;
                    let otherwise = self.optional_node(map, pointer, "else")?;
                    (54, format!("[\"if\",{node},{then},{otherwise}]"))
                }
                "$ref" => {
                    // After the keywords the validator runs first (its
                    // priority is past every other).
                    self.reference(map, value, &mut checks)?;
                    continue;
                }
                // One resource: see `scan`.
                "$dynamicRef" => {
                    self.reference(map, value, &mut checks)?;
                    continue;
                }
                // Draft 2019-09's `"$recursiveRef": "#"` lands on the
                // outermost resource of the dynamic scope with a
                // `$recursiveAnchor`, or on the root: in a schema of one
                // resource, the root either way.
                "$recursiveRef" => {
                    if value.as_str() != Some("#") {
                        return Err(Unsupported);
                    }
                    self.reference(map, value, &mut checks)?;
                    continue;
                }
                _ => continue,
            };
            checks.push((priority, check, says(keyword, value, map, draft)));
        }
        guard_sort::sort_by_key(&mut checks, |(priority, _, _)| *priority);
        Ok(split(checks))
    }

    /// The nodes of the `count` subschemas of a list at `pointer`, as a JSON list.
    fn nodes_at(&mut self, pointer: &str, count: usize) -> Built<String> {
        let mut nodes = Vec::with_capacity(count);
        for i in 0..count {
            nodes.push(self.node_at(&format!("{pointer}/{i}"))?.to_string());
        }
        Ok(list(nodes))
    }

    /// The node of `then` or `else`, or -1 when the schema has none.
    fn optional_node(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        keyword: &str,
    ) -> Built<i64> {
        if !map.contains_key(keyword) {
            return Ok(-1);
        }
        let node = self.node_at(&format!("{pointer}/{keyword}"))?;
        i64::try_from(node).map_err(|_| Unsupported)
    }

    /// `$ref` as a `ref` check, unless it names the schema it is in (which
    /// the validator leaves out, as it would recurse forever).
    fn reference(
        &mut self,
        parent: &Map<String, Value>,
        reference: &Value,
        checks: &mut Vec<(u8, String, String)>,
    ) -> Built<()> {
        let reference = reference.as_str().ok_or(Unsupported)?;
        if reference.is_empty() {
            return Ok(());
        }
        let fragment = reference.strip_prefix('#').ok_or(Unsupported)?;
        let pointer = if fragment.is_empty() || fragment.starts_with('/') {
            percent_decoded(fragment).ok_or(Unsupported)?
        } else {
            self.anchors.get(fragment).cloned().ok_or(Unsupported)?
        };
        let target = self.schema_at(&pointer)?;
        if target
            .as_object()
            .is_some_and(|target| std::ptr::eq(target, parent))
        {
            return Ok(());
        }
        let node = self.node_at(&pointer)?;
        checks.push((70, format!("[\"ref\",{node}]"), "[\"$ref\"]".to_owned()));
        Ok(())
    }

    fn type_mask(&mut self, value: &Value) -> Built<u32> {
        let bit = |name: &str| -> Built<u32> {
            Ok(match name {
                "null" => 1,
                "boolean" => 2,
                "integer" => 4,
                "number" => 8,
                "string" => 16,
                "array" => 32,
                "object" => 64,
                _ => return Err(Unsupported),
            })
        };
        let mask = match value {
            Value::String(name) => bit(name)?,
            Value::Array(names) => {
                let mut mask = 0;
                for name in names {
                    mask |= bit(name.as_str().ok_or(Unsupported)?)?;
                }
                mask
            }
            _ => return Err(Unsupported),
        };
        // Draft 4 tells `1` from `1.0`, which JSON.parse does not.
        if self.draft == Draft::Draft4 && mask & 4 != 0 {
            self.text_safe = false;
        }
        Ok(mask)
    }

    /// A `format` check: in JavaScript for the formats it implements, a
    /// string check for the others, nothing for a format the validator
    /// ignores (annotations, unknown names).
    fn format(&mut self, value: &Value) -> Built<Option<String>> {
        let Value::String(name) = value else {
            return Err(Unsupported);
        };
        if self.options.formats == FormatMode::Annotate {
            return Ok(None);
        }
        let custom = self
            .options
            .custom_formats
            .iter()
            .any(|(custom, _)| custom == name);
        if !custom && !builtin_format(self.draft, name) {
            return Ok(None);
        }
        if !custom && FORMATS_IN_JS.contains(&name.as_str()) {
            return Ok(Some(format!("[\"format\",{}]", quote(name))));
        }
        let check = self.string_check("format", value)?;
        // A plain address the JavaScript side accepts as the validator's
        // shortcut does (`plain_email_domain` in vendor/jsonschema: for
        // `idn-email`, its domain of ASCII labels is an IDNA host name as
        // it is a host name); any other string is the core's.
        if !custom && (name == "email" || name == "idn-email") {
            return Ok(Some(format!("[\"email\",{check}]")));
        }
        // An ASCII host name the JavaScript side decides as the validator
        // does in every draft (`asciiHostname` in js/check-program.mjs);
        // the rest is the core's.
        if !custom && (name == "hostname" || name == "idn-hostname") {
            return Ok(Some(format!("[\"hostname\",{check}]")));
        }
        Ok(Some(format!("[\"string\",{check}]")))
    }

    /// A string check of the core for `keyword` alone with `value`, built
    /// as the schema's own is; its index.
    fn string_check(&mut self, keyword: &str, value: &Value) -> Built<usize> {
        let mut alone = Map::new();
        alone.insert(keyword.to_owned(), value.clone());
        let validator =
            build_validator(&Value::Object(alone), self.options, None).ok_or(Unsupported)?;
        self.checks.push(validator);
        self.strings.push(format!("[{},{value}]", quote(keyword)));
        Ok(self.checks.len() - 1)
    }
}

/// Whether a schema has a keyword that applies a subschema to the value
/// it applies to (whose evaluated members and items `unevaluated*` would
/// have to follow).
fn applies_in_place(map: &Map<String, Value>) -> bool {
    [
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "dependentSchemas",
        "dependencies",
    ]
    .iter()
    .any(|keyword| map.contains_key(*keyword))
}

/// A `patternProperties` pattern as the sequence the JavaScript side
/// matches names with (see `sequence_of`); a pattern that is not one makes
/// no program, and a name the sequence leaves undecided (past ASCII) sends
/// the value to the core.
fn pattern_sequence(pattern: &str) -> Built<String> {
    sequence_of(&Value::String(pattern.to_owned())).ok_or(Unsupported)
}

/// A pattern the validator matches as an anchored sequence of classes
/// (jsonschema-regex's `Sequence`), as the JavaScript side runs it:
/// `[1, members, min, max]` for one class repeated (`members` its ASCII
/// bytes as four 32-bit words), `[2, table, star, skippable, longest skip
/// run, accept, anchored end]` for the state machine, its bits in 32 (at
/// most 30 slots). `None` for any other pattern, which the core matches.
fn sequence_of(pattern: &Value) -> Option<String> {
    use jsonschema_regex::SequenceParts;
    let translated = jsonschema_regex::to_rust_regex(pattern.as_str()?).ok()?;
    let sequence = jsonschema_regex::Sequence::compile(&without_class_groups(&translated))?;
    match sequence.parts() {
        SequenceParts::Single { members, min, max } => {
            let mut words = [0_u32; 4];
            for (byte, member) in members.iter().enumerate() {
                if *member {
                    let word = words.get_mut(byte / 32)?;
                    *word |= 1 << (byte % 32);
                }
            }
            let max = max.map_or(-1, |max| i64::try_from(max).unwrap_or(-1));
            let words = list(words.iter().map(u32::to_string));
            Some(format!("[1,{words},{min},{max}]"))
        }
        SequenceParts::Parallel {
            table,
            star,
            skippable,
            longest_skip_run,
            accept,
            anchored_end,
        } => {
            if accept > 1 << 30 {
                return None;
            }
            let table = list(table.iter().map(u64::to_string));
            Some(format!(
                "[2,{table},{star},{skippable},{longest_skip_run},{accept},{}]",
                u8::from(anchored_end)
            ))
        }
    }
}

/// `translated` with every group that holds one bracketed class and nothing
/// else (`(?:[0-9])`, as the ECMA-262 translation writes each class) written
/// as the class alone: the same expression, in the form `Sequence::compile`
/// reads (it declines a quantified group).
fn without_class_groups(translated: &str) -> String {
    let bytes = translated.as_bytes();
    let mut out = String::with_capacity(translated.len());
    let mut i = 0;
    while i < bytes.len() {
        if translated
            .get(i..)
            .is_some_and(|rest| rest.starts_with("(?:["))
        {
            if let Some(end) = class_end(bytes, i + 3) {
                if bytes.get(end + 1) == Some(&b')') {
                    out.push_str(translated.get(i + 3..=end).unwrap_or_default());
                    i = end + 2;
                    continue;
                }
            }
        }
        let len = translated
            .get(i..)
            .and_then(|rest| rest.chars().next())
            .map_or(1, char::len_utf8);
        out.push_str(translated.get(i..i + len).unwrap_or_default());
        i += len;
    }
    out
}

/// The index of the `]` closing the bracketed class that opens at `start`
/// (escapes skipped, nested classes counted, and a `]` first in a class,
/// after `[` or `[^`, read as the character, as regex-syntax reads it).
fn class_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = start;
    // Where a `]` is the class's first character rather than its end.
    let mut literal_at = None;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'\\' => i += 1,
            b'[' => {
                depth += 1;
                literal_at = Some(if bytes.get(i + 1) == Some(&b'^') {
                    i + 2
                } else {
                    i + 1
                });
            }
            b']' if literal_at == Some(i) => {}
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The formats the validator knows in `draft` (jsonschema's `builtin_format`).
fn builtin_format(draft: Draft, name: &str) -> bool {
    let at_least = |first: Draft| draft >= first;
    match name {
        "date" | "date-time" | "email" | "hostname" | "idn-email" | "ipv4" | "ipv6" | "regex"
        | "time" | "uri" => true,
        "duration" | "uuid" => at_least(Draft::Draft201909),
        "idn-hostname" | "iri" | "iri-reference" | "relative-json-pointer" => {
            at_least(Draft::Draft7)
        }
        "json-pointer" | "uri-reference" | "uri-template" => at_least(Draft::Draft6),
        _ => false,
    }
}

/// The check a bound keyword makes (`min`, `max`, `xmin`, `xmax`), or
/// `None` where the draft reads it only beside another (draft 4's
/// boolean `exclusiveMinimum`).
fn bound(map: &Map<String, Value>, keyword: &str, draft: Draft) -> Option<&'static str> {
    if draft != Draft::Draft4 {
        return Some(match keyword {
            "minimum" => "min",
            "maximum" => "max",
            "exclusiveMinimum" => "xmin",
            _ => "xmax",
        });
    }
    let exclusive = |flag: &str| map.get(flag).and_then(Value::as_bool).unwrap_or(false);
    match keyword {
        "minimum" if exclusive("exclusiveMinimum") => Some("xmin"),
        "minimum" => Some("min"),
        "maximum" if exclusive("exclusiveMaximum") => Some("xmax"),
        "maximum" => Some("max"),
        _ => None,
    }
}

fn bound_priority(op: &str) -> u8 {
    match op {
        "min" => 10,
        "max" => 11,
        "xmin" => 12,
        _ => 13,
    }
}

/// A check of `op` against a schema number a double holds exactly.
fn numeric(op: &str, value: &Value) -> Built<String> {
    exact(value)?;
    let number = value.as_f64().ok_or(Unsupported)?;
    // Written as a double, as JavaScript reads it (`1` and `1.0` alike).
    Ok(format!("[\"{op}\",{}]", Value::from(number)))
}

/// The most `required` names whose issues a program words (see `says`).
const WORDED_NAMES: usize = 1000;

/// A node's checks, sorted, as two JSON lists: the checks, and what each
/// says when it fails.
fn split(checks: Vec<(u8, String, String)>) -> (String, String) {
    let mut says = Vec::with_capacity(checks.len());
    let checks = checks
        .into_iter()
        .map(|(_, check, said)| {
            says.push(said);
            check
        })
        .collect::<Vec<_>>();
    (list(checks), list(says))
}

/// What a check says when it fails, for the JavaScript side to collect a
/// rejected value's issues as the core does (see `collector` in
/// js/check-program.mjs): `[keyword]` for a check that applies subschemas
/// (the keyword names the step of the schema path to them), or `[keyword,
/// code, params, predicate]` for one that makes an issue of its own (see
/// `issue_parts`; the predicate null where the core must write it), `not`
/// among them.
/// `required` gives a list of params and one of predicates, a name each
/// (none past `WORDED_NAMES` names);
/// `additionalProperties: false` gives its predicate for one property and
/// the two parts of it around a larger count.
fn says(keyword: &str, value: &Value, map: &Map<String, Value>, draft: Draft) -> String {
    use jsonschema::error::{TypeKind, ValidationErrorKind as K};
    use jsonschema::types::{JsonType, JsonTypeSet};
    use std::str::FromStr;
    use std::sync::Arc;
    let limit = || count(value).unwrap_or_default();
    let kind = match keyword {
        "type" => {
            let names: Vec<&str> = match value {
                Value::String(name) => vec![name.as_str()],
                Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let types: Vec<JsonType> = names
                .iter()
                .filter_map(|name| JsonType::from_str(name).ok())
                .collect();
            match types.as_slice() {
                [one] => K::Type {
                    kind: TypeKind::Single(*one),
                },
                _ => K::Type {
                    kind: TypeKind::Multiple(
                        types
                            .iter()
                            .fold(JsonTypeSet::empty(), |set, ty| set.insert(*ty)),
                    ),
                },
            }
        }
        "const" => K::Constant {
            expected_value: Arc::new(value.clone()),
        },
        "enum" => K::Enum {
            options: Arc::new(value.clone()),
        },
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            let limit = value.clone();
            match bound(map, keyword, draft) {
                Some("min") => K::Minimum { limit },
                Some("max") => K::Maximum { limit },
                Some("xmin") => K::ExclusiveMinimum { limit },
                _ => K::ExclusiveMaximum { limit },
            }
        }
        "multipleOf" => K::MultipleOf {
            multiple_of: value.as_f64().unwrap_or_default(),
        },
        "minLength" => K::MinLength { limit: limit() },
        "maxLength" => K::MaxLength { limit: limit() },
        "minItems" => K::MinItems { limit: limit() },
        "maxItems" => K::MaxItems { limit: limit() },
        "minProperties" => K::MinProperties { limit: limit() },
        "maxProperties" => K::MaxProperties { limit: limit() },
        "pattern" => K::Pattern {
            pattern: value.as_str().unwrap_or_default().to_owned(),
        },
        "format" => K::Format {
            format: value.as_str().unwrap_or_default().to_owned(),
        },
        "uniqueItems" => K::UniqueItems,
        "not" => K::Not {
            schema: value.clone(),
        },
        "required" => {
            // A list past this is a hostile schema's, whose words would
            // cost more to write than the core's issues for it.
            if value
                .as_array()
                .is_some_and(|names| names.len() > WORDED_NAMES)
            {
                return "[\"required\",\"required\",null,null]".to_owned();
            }
            let mut params = Vec::new();
            let mut predicates = Vec::new();
            for name in value.as_array().into_iter().flatten() {
                let (_, param, predicate) = hot_path::schema::issue_parts(&K::Required {
                    property: name.clone(),
                });
                params.push(param.unwrap_or_default().to_string());
                predicates.push(predicate.map_or_else(|| "null".to_owned(), |p| quote(&p)));
            }
            return format!(
                "[\"required\",\"required\",{},{}]",
                list(params),
                list(predicates)
            );
        }
        "additionalProperties" if value.as_bool() == Some(false) => {
            let parts = |n: usize| {
                hot_path::schema::issue_parts(&K::AdditionalProperties {
                    unexpected: vec![String::new(); n],
                })
                .2
            };
            let around = parts(2).and_then(|two| {
                two.split_once(" 2 ")
                    .map(|(before, after)| [format!("{before} "), format!(" {after}")])
            });
            return match (parts(1), around) {
                (Some(one), Some([before, after])) => format!(
                    "[\"additionalProperties\",\"additionalProperties\",null,[{},{},{}]]",
                    quote(&one),
                    quote(&before),
                    quote(&after)
                ),
                _ => "[\"additionalProperties\",\"additionalProperties\",null,null]".to_owned(),
            };
        }
        _ => return format!("[{}]", quote(keyword)),
    };
    let (code, params, mut predicate) = hot_path::schema::issue_parts(&kind);
    // The program is written from the schema with its members sorted; the
    // core quotes an object of a `const` or `enum` in the order written.
    if matches!(keyword, "const" | "enum") && !order_free(value) {
        predicate = None;
    }
    format!(
        "[{},{},{},{}]",
        quote(keyword),
        quote(code),
        params.map_or_else(|| "null".to_owned(), |p| p.to_string()),
        predicate.map_or_else(|| "null".to_owned(), |p| quote(&p))
    )
}

/// Whether `value` reads the same whatever the order of its objects'
/// members: it has no object of more than one member.
fn order_free(value: &Value) -> bool {
    match value {
        Value::Object(members) => members.len() < 2 && members.values().all(order_free),
        Value::Array(items) => items.iter().all(order_free),
        _ => true,
    }
}

/// The words a program's collector puts around the predicates and counts
/// the core gives (see `says`): the subjects of an issue's sentence, the
/// issue of a `false` subschema, the verdict's message around its count
/// and first issue (see `schema_message`), and what redaction looks for.
fn wording() -> String {
    use hot_path::schema::Issue;
    let [root, at] = hot_path::schema::subjects();
    let (_, _, false_schema) =
        hot_path::schema::issue_parts(&jsonschema::error::ValidationErrorKind::FalseSchema);
    let issue = Issue {
        path: String::new(),
        schema_path: String::new(),
        code: String::new(),
        message: "\u{0}".to_owned(),
        rule: None,
        params: None,
    };
    let message =
        |n: usize, more: bool| crate::verdict::schema_message(&vec![issue.clone(); n], more);
    // The message for one issue, and for two (with or without more) cut
    // around the count and before the first issue's message.
    let around = |text: String| -> [String; 2] {
        let first = text.strip_suffix('\u{0}').unwrap_or_default();
        match first.split_once('2') {
            Some((before, after)) => [before.to_owned(), after.to_owned()],
            None => [String::new(), String::new()],
        }
    };
    let one = message(1, false);
    let [many_before, many_after] = around(message(2, false));
    let [more_before, more_after] = around(message(2, true));
    let (words, run) = hot_path::redact::secret_signs();
    let head = |kind: jsonschema::error::ValidationErrorKind| {
        hot_path::schema::issue_parts(&kind)
            .2
            .map_or_else(|| "null".to_owned(), |p| quote(&p))
    };
    use jsonschema::error::ValidationErrorKind as K;
    let branches =
        format!(
        "{{\"words\":{},\"shown\":{},\"most\":{},\"anyOf\":{},\"oneOfNone\":{},\"oneOfMany\":{}}}",
        list(hot_path::schema::BRANCH_WORDS.iter().map(|w| quote(w))),
        hot_path::schema::BRANCHES_SHOWN,
        hot_path::schema::CONTEXT_BRANCHES,
        head(K::AnyOf { context: Vec::new() }),
        head(K::OneOfNotValid { context: Vec::new() }),
        head(K::OneOfMultipleValid { context: Vec::new() })
    );
    format!(
        "{{\"subjects\":[{},{}],\"falseSchema\":{},\"branches\":{branches},\"message\":[{},{},{},{},{}],\"secrets\":[{},{}]}}",
        quote(root),
        quote(at),
        false_schema.map_or_else(|| "null".to_owned(), |p| quote(&p)),
        quote(one.strip_suffix('\u{0}').unwrap_or_default()),
        quote(&many_before),
        quote(&many_after),
        quote(&more_before),
        quote(&more_after),
        list(words.into_iter().map(quote)),
        quote(&run)
    )
}

/// A string as JSON text.
fn quote(text: &str) -> String {
    Value::from(text).to_string()
}

/// Items already JSON text, as a JSON list.
fn list(items: impl IntoIterator<Item = String>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item);
    }
    out.push(']');
    out
}

/// A whole count (`minLength` and the like).
fn count(value: &Value) -> Built<u64> {
    if let Some(n) = value.as_u64() {
        return Ok(n);
    }
    match value.as_f64() {
        Some(f) if f >= 0.0 && f.fract() == 0.0 && f < EXACT_INTEGERS as f64 => Ok(f as u64),
        _ => Err(Unsupported),
    }
}

/// Every number in `value` a double holds exactly, as the JavaScript side compares it.
fn exact(value: &Value) -> Built<()> {
    match value {
        Value::Number(n) => {
            let too_large = n.as_u64().is_some_and(|u| u > EXACT_INTEGERS)
                || n.as_i64()
                    .is_some_and(|i| i.unsigned_abs() > EXACT_INTEGERS);
            if too_large {
                Err(Unsupported)
            } else {
                Ok(())
            }
        }
        Value::Array(items) => items.iter().try_for_each(exact),
        Value::Object(members) => members.values().try_for_each(exact),
        _ => Ok(()),
    }
}

/// A URI fragment's JSON Pointer with its percent-escapes decoded.
fn percent_decoded(fragment: &str) -> Option<String> {
    if !fragment.contains('%') {
        return Some(fragment.to_owned());
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(byte);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl CheckProgram {
    /// Judges a batch of strings: `batch` is JSON text `[check, string,
    /// check, string, ...]` (check indices into the program's string
    /// checks). Writes one byte a string into `verdicts` (1 when it fails)
    /// and returns how many failed; `None` when the batch cannot be read or
    /// a match ran out of the pattern budget (the core then checks the
    /// whole value, and says so).
    pub fn judge_strings(&self, batch: &str, verdicts: &mut Vec<u8>) -> Option<usize> {
        use jsonschema::json::{Array, Node};
        let tape = hot_path::tape::parse(batch).ok()?;
        let root = hot_path::tape::TapeNode::full(&tape);
        let array = root.as_array()?;
        verdicts.clear();
        let mut failed = 0;
        let mut check = None;
        hot_path::schema::one_check(|| {
            for (i, item) in array.elements().enumerate() {
                if i % 2 == 0 {
                    check = item
                        .as_number()
                        .and_then(|n| jsonschema::json::JsonNumber::as_u64(&n));
                    continue;
                }
                let validator = self.checks.get(usize::try_from(check?).ok()?)?;
                let ok = hot_path::schema::node_is_valid(validator, item);
                if hot_path::schema::budget_spent() {
                    return None;
                }
                verdicts.push(u8::from(!ok));
                failed += usize::from(!ok);
            }
            Some(failed)
        })
    }
}

#[cfg(test)]
mod tests;
