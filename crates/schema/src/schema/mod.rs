//! JSON Schema compilation, the bounded validator cache, and issue collection.
//!
//! Formats are asserted by default: a guard that treats `format` as an
//! annotation lets `2026-02-30` through, which is exactly what native
//! structured-output modes already do.

mod cache;
mod closed;
mod depth;
mod issues;
mod meta;
mod patterns;
mod references;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use jsonschema::{Draft, PatternCache, Retrieve, Uri};
use serde::Serialize;
use serde_json::Value;

pub use cache::{
    cache_bound, cache_bytes, cache_len, clear_cache, set_cache_capacity, set_cache_memory,
    set_memory_meter, CacheBound, DEFAULT_CACHE_BYTES,
};
pub use depth::MAX_REFERENCE_DEPTH;
pub use issues::{
    alternatives, issue_parts, push_issues_json, subjects, Issue, BRANCHES_SHOWN, BRANCH_WORDS,
    CONTEXT_BRANCHES,
};

use crate::hash::{canonical_json, content_hash, sha256_hex};
use crate::tape::{self, ParseError, Tape, TapeJson, TapeNode};

/// The deepest nesting accepted, in containers: deeper schemas are refused
/// before compiling (compilation recurses, and a stack overflow inside wasm
/// is a trap, not an error). The same as the JSON parser's limit
/// (`tape::MAX_DEPTH - 1`, as serde_json's), so schemas and responses,
/// given as text or as values, meet one bound, and messages name it.
pub const MAX_SCHEMA_DEPTH: usize = tape::MAX_DEPTH - 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FormatMode {
    #[default]
    Assert,
    Annotate,
}

/// How a schema's document is read before it is compiled as JSON Schema
/// (the translation itself is the caller's: see [`compile_in_dialect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Dialect {
    /// JSON Schema (with OpenAPI's `nullable`, as ajv reads it).
    #[default]
    #[serde(rename = "json-schema")]
    JsonSchema,
    /// Gemini's `Schema` (an OpenAPI 3.0 subset with its own spellings).
    #[serde(rename = "gemini")]
    Gemini,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "json-schema",
            Dialect::Gemini => "gemini",
        }
    }

    pub fn parse(name: &str) -> Option<Dialect> {
        match name {
            "json-schema" => Some(Dialect::JsonSchema),
            "gemini" => Some(Dialect::Gemini),
            _ => None,
        }
    }
}

/// A constraint of a schema that is not enforced: by a provider's native
/// mode (`toProviderSchema`), or by the guard itself, because the dialect's
/// keyword has no JSON Schema meaning the guard can check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Unenforced {
    /// JSON Pointer to the subschema holding `keyword`.
    pub path: String,
    pub keyword: String,
}

/// What a dialect's schema means: the JSON Schema to compile (subschemas at
/// the same places as in the original, so issues' schema paths point into
/// the original), and the keywords of the original it cannot enforce.
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    pub schema: Value,
    pub unenforced: Vec<Unenforced>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompileOptions {
    pub formats: FormatMode,
    /// `None`: taken from `$schema`, else 2020-12.
    pub draft: Option<Draft>,
    pub reject_unknown_fields: bool,
    /// An unknown `format` name is a schema error instead of an annotation.
    pub unknown_formats_error: bool,
    /// Schemas a `$ref` may name by URI; nothing else is ever retrieved.
    pub resources: Vec<(String, Value)>,
    /// Extra formats: name and regular expression source.
    pub custom_formats: Vec<(String, String)>,
    /// `None`: told by the schema's shape (see `crate::dialect` in the
    /// main crate); a compiled schema's options hold the dialect it was
    /// read in.
    pub dialect: Option<Dialect>,
    /// The initial base URI (the retrieval URI): what the schema's relative
    /// references resolve against where no `$id` sets a base.
    pub base_uri: Option<String>,
}

impl CompileOptions {
    /// The key a validator is cached under: the schema's SHA-256 and every
    /// option, written out in full (never compressed by a weaker hash), so
    /// that only the same schema with the same options finds an entry.
    fn cache_key(&self, schema_hash: &str) -> String {
        let draft = self.draft.map_or("auto", draft_name);
        let formats = match self.formats {
            FormatMode::Assert => "assert",
            FormatMode::Annotate => "annotate",
        };
        let closed = if self.reject_unknown_fields {
            "closed"
        } else {
            "open"
        };
        let unknown = if self.unknown_formats_error {
            "error"
        } else {
            "ignore"
        };
        // Lengths before variable parts keep two different option sets from
        // ever writing the same key.
        let mut key = format!("{schema_hash}|{draft}|{formats}|{closed}|{unknown}");
        let mut resources: Vec<&(String, Value)> = self.resources.iter().collect();
        guard_sort::sort_by(&mut resources, |a, b| a.0.cmp(&b.0));
        for (uri, schema) in resources {
            key.push_str(&format!("|r{}:{uri}:{}", uri.len(), content_hash(schema)));
        }
        if let Some(base) = &self.base_uri {
            key.push_str(&format!("|b{}:{base}", base.len()));
        }
        let mut formats: Vec<&(String, String)> = self.custom_formats.iter().collect();
        guard_sort::sort(&mut formats);
        for (name, source) in formats {
            key.push_str(&format!(
                "|f{}:{name}:{}:{source}",
                name.len(),
                source.len()
            ));
        }
        key
    }
}

/// Whether `text` is an absolute URI (RFC 3986 `absolute-URI` with an
/// optional fragment): what a base URI must be.
pub fn is_absolute_uri(text: &str) -> bool {
    let scheme = text.split_once(':').map_or("", |(scheme, _)| scheme);
    let mut bytes = scheme.bytes();
    bytes
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        && jsonschema::uri::from_str(text).is_ok()
}

pub fn parse_draft(name: &str) -> Option<Draft> {
    match name {
        "2020-12" => Some(Draft::Draft202012),
        "2019-09" => Some(Draft::Draft201909),
        "7" => Some(Draft::Draft7),
        "6" => Some(Draft::Draft6),
        "4" => Some(Draft::Draft4),
        _ => None,
    }
}

fn draft_name(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft4 => "4",
        Draft::Draft6 => "6",
        Draft::Draft7 => "7",
        Draft::Draft201909 => "2019-09",
        _ => "2020-12",
    }
}

/// A schema that cannot be compiled. Misuse, so it becomes a thrown error in
/// JavaScript (unless the caller asked `checkOutput` to degrade).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    pub message: String,
}

impl SchemaError {
    pub fn new(message: impl Into<String>) -> Self {
        SchemaError {
            message: message.into(),
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SchemaError {}

/// The result of validating one instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub valid: bool,
    pub errors: Vec<Issue>,
    pub more_errors: bool,
}

impl Report {
    /// The report as JSON text, as serde_json writes it (see
    /// [`issues::push_issues_json`]).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64 + 160 * self.errors.len());
        out.push_str(if self.valid {
            "{\"valid\":true,\"errors\":"
        } else {
            "{\"valid\":false,\"errors\":"
        });
        issues::push_issues_json(&mut out, &self.errors);
        out.push_str(if self.more_errors {
            ",\"moreErrors\":true}"
        } else {
            ",\"moreErrors\":false}"
        });
        out
    }
}

pub struct CompiledSchema {
    validator: jsonschema::Validator<TapeJson>,
    /// Shared with every verdict that names it.
    schema_hash: Arc<str>,
    /// What it was compiled from (the canonical text the cache also keeps)
    /// and how, for the checks of a streamed response, which are derived
    /// from the same schema the first time a stream asks for them.
    canonical: Arc<str>,
    options: CompileOptions,
    /// What of the original the guard cannot enforce (see [`Translated`]).
    unenforced: Vec<Unenforced>,
    derived: std::sync::OnceLock<Option<Arc<dyn std::any::Any + Send + Sync>>>,
    /// The memory it holds, in bytes, as measured when it was compiled (see
    /// [`CompiledSchema::memory_bytes`]).
    memory: usize,
}

impl fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("schema_hash", &self.schema_hash)
            .finish()
    }
}

/// Steps of pattern-matching work one check may spend, over every `pattern`,
/// `patternProperties` and `propertyNames` match it makes: its `isValid`,
/// its issue collection and its rules share them (see [`one_check`]).
///
/// A step is about one instruction of the backtracking regex engine, or one
/// byte that a backreference compares or that a lookaround may scan;
/// patterns the linear-time engine matches (no backreferences or
/// lookarounds) spend nothing, as their cost is bounded by the input's
/// length. Ordinary patterns spend tens of steps on a short string (finding
/// a repeated word in a kilobyte of text, about 25,000); the engine also
/// stops any single match after a million backtracks, several million steps,
/// so a check affords about one such match. Spending the
/// whole budget takes about 0.4 s in Node and 0.2 s in Bun once the wasm is
/// warm, whatever the response holds.
pub const PATTERN_STEPS_PER_CHECK: usize = 10_000_000;

/// Runs `run` as one check: every pattern match inside shares one budget of
/// [`PATTERN_STEPS_PER_CHECK`] steps, however many validators and passes it
/// takes. Nested calls share the outermost call's budget, and each
/// outermost call starts a fresh one, so a check that spends its budget
/// leaves the next check's untouched. A match the budget cannot pay for
/// fails the check with a `pattern` issue at that match.
pub fn one_check<T>(run: impl FnOnce() -> T) -> T {
    jsonschema::with_pattern_budget(PATTERN_STEPS_PER_CHECK, run)
}

/// Starts one check made of several calls, each of which would otherwise be
/// a check of its own (the tool calls of one response, each checked by a
/// call from JavaScript): until [`end_check`], they share one budget.
pub fn begin_check() {
    jsonschema::begin_pattern_budget(PATTERN_STEPS_PER_CHECK);
}

/// Ends the check [`begin_check`] started; the next call is a check of its
/// own again.
pub fn end_check() {
    jsonschema::end_pattern_budget();
}

/// A check that ran out of references to follow, reported as one issue at
/// the root: the schema's references fan out so much that checking this
/// response would take longer than any check may.
fn references_ran_out() -> Report {
    Report {
        valid: false,
        errors: vec![Issue {
            path: String::new(),
            schema_path: String::new(),
            code: "$ref".to_owned(),
            message: format!(
                "could not be checked: the schema's references would be followed more than \
                 {} times for this response (the check's budget), so it is rejected",
                jsonschema::REFERENCES_PER_BUDGET
            ),
            rule: None,
            params: None,
        }],
        more_errors: false,
    }
}

/// An instance that could not be turned into a tape (only possible for a
/// `Value` nested deeper than the tape allows), reported as one issue.
fn unreadable(problem: &ParseError) -> Report {
    Report {
        valid: false,
        errors: vec![Issue {
            path: String::new(),
            schema_path: String::new(),
            code: "parse".to_owned(),
            message: format!("The response could not be read: {problem}."),
            rule: None,
            params: None,
        }],
        more_errors: false,
    }
}

impl CompiledSchema {
    pub fn schema_hash(&self) -> &str {
        &self.schema_hash
    }

    /// The hash, shared rather than copied (a verdict carries it).
    pub fn shared_schema_hash(&self) -> Arc<str> {
        Arc::clone(&self.schema_hash)
    }

    /// A value derived from this schema once, on its first use, and kept
    /// with it (the stream check's plan); `None` when `make` finds nothing
    /// to derive, or when a value of another type was derived first.
    pub fn derived<T: std::any::Any + Send + Sync>(
        &self,
        make: impl FnOnce(&Self) -> Option<T>,
    ) -> Option<Arc<T>> {
        let slot = self.derived.get_or_init(|| {
            make(self).map(|value| Arc::new(value) as Arc<dyn std::any::Any + Send + Sync>)
        });
        slot.clone()?.downcast::<T>().ok()
    }

    /// The JSON Schema it was compiled from (a dialect's schema
    /// translated), as canonical JSON text.
    pub fn canonical_text(&self) -> &str {
        &self.canonical
    }

    /// The keywords of the original schema the guard does not enforce.
    pub fn unenforced(&self) -> &[Unenforced] {
        &self.unenforced
    }

    /// The dialect it was read in.
    pub fn dialect(&self) -> Dialect {
        self.options.dialect.unwrap_or_default()
    }

    pub fn compile_options(&self) -> &CompileOptions {
        &self.options
    }

    /// The memory this validator holds, in bytes: the heap its compilation
    /// kept, as the cache's meter measured it (see `cache::set_memory_meter`),
    /// and the texts it holds. What the cache's memory bound weighs.
    pub fn memory_bytes(&self) -> usize {
        self.memory
    }

    /// The draft it was compiled in.
    pub fn draft(&self) -> jsonschema::Draft {
        self.validator.draft()
    }

    /// Validation reads instances as a tape (see `crate::tape`); a `Value`
    /// is written out and read back, which only tests and Rust callers do.
    pub fn is_valid(&self, instance: &Value) -> bool {
        let text = instance.to_string();
        tape::parse(&text).is_ok_and(|t| self.is_valid_tape(&t))
    }

    /// One check: see [`one_check`]. `false` when the check's budget of
    /// references ran out before the outcome was decided.
    pub fn is_valid_tape(&self, instance: &Tape<'_>) -> bool {
        one_check(|| {
            self.validator.is_valid(TapeNode::full(instance)) && !jsonschema::reference_refused()
        })
    }

    /// Validates and returns at most `max_errors` issues, in a deterministic
    /// order (instance path, then code). The common valid case costs one
    /// short-circuiting pass.
    pub fn validate(&self, instance: &Value, max_errors: usize) -> Report {
        let text = instance.to_string();
        // Bound before it is returned: the parse result is a temporary that
        // borrows `text`, and a tail expression's temporaries (the `Tape`,
        // whose `Drop` hands its buffer back) would outlive `text`.
        let report = match tape::parse(&text) {
            Ok(t) => self.validate_tape(&t, max_errors),
            Err(problem) => unreadable(&problem),
        };
        report
    }

    /// One check (see [`one_check`]): the short-circuiting pass and the issue
    /// collection after it share one pattern budget, so a response whose
    /// patterns are costly costs at most one budget in all, and one whose
    /// `isValid` pass spent it has its issue collection report the first
    /// match it meets on the backtracking engine.
    ///
    /// A check whose references outnumber the budget's (see
    /// [`jsonschema::REFERENCES_PER_BUDGET`]) is rejected with one issue
    /// saying so: past that point neither the outcome nor the issues are
    /// known.
    pub fn validate_tape(&self, instance: &Tape<'_>, max_errors: usize) -> Report {
        one_check(|| {
            if self.is_valid_tape(instance) {
                return Report {
                    valid: true,
                    errors: Vec::new(),
                    more_errors: false,
                };
            }
            if jsonschema::reference_refused() {
                return references_ran_out();
            }
            let (errors, more_errors) = issues::collect(&self.validator, instance, max_errors);
            if jsonschema::reference_refused() {
                return references_ran_out();
            }
            Report {
                valid: false,
                errors,
                more_errors,
            }
        })
    }

    /// The same as `validate`, with what the issue collection cost.
    #[cfg(test)]
    fn validate_counted(&self, instance: &Value, max_errors: usize) -> (Report, issues::Work) {
        let text = instance.to_string();
        let Ok(t) = tape::parse(&text) else {
            return (
                Report {
                    valid: false,
                    errors: Vec::new(),
                    more_errors: false,
                },
                issues::Work::default(),
            );
        };
        let (errors, more_errors, work) = issues::collect_counted(&self.validator, &t, max_errors);
        (
            Report {
                valid: errors.is_empty() && !more_errors,
                errors,
                more_errors,
            },
            work,
        )
    }
}

/// Compiles `schema` as JSON Schema, as it is (or returns the cached
/// validator for the same content and options). The main crate's
/// `schema::compile` reads dialects first (see [`compile_in_dialect`]).
pub fn compile(
    schema: &Value,
    options: &CompileOptions,
) -> Result<Arc<CompiledSchema>, SchemaError> {
    compile_in_dialect(schema, options, options.dialect.unwrap_or_default(), |_| {
        Ok(None)
    })
}

/// The schema's hash in `dialect`: SHA-256 of its canonical text, prefixed
/// by the dialect's name for any dialect but JSON Schema, so that the same
/// document read two ways has two identities (and cache entries).
fn dialect_hash(canonical: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::JsonSchema => sha256_hex(canonical.as_bytes()),
        other => sha256_hex(format!("{}:{canonical}", other.as_str()).as_bytes()),
    }
}

/// Compiles `schema` read in `dialect`: `translate` gives the JSON Schema
/// it means (`None`: the schema itself), and is called only when the cache
/// holds no validator for the same document, dialect and options.
pub fn compile_in_dialect(
    schema: &Value,
    options: &CompileOptions,
    dialect: Dialect,
    translate: impl FnOnce(&Value) -> Result<Option<Translated>, SchemaError>,
) -> Result<Arc<CompiledSchema>, SchemaError> {
    check_type(schema)?;
    check_nesting(schema)?;
    let canonical = canonical_json(schema);
    let schema_hash = dialect_hash(&canonical, dialect);
    let key = options.cache_key(&schema_hash);
    if let Some(hit) = cache::get(&key, &canonical) {
        return Ok(hit);
    }
    let translated = translate(schema)?;
    let (effective, unenforced, meant) = match &translated {
        Some(t) => (
            &t.schema,
            t.unenforced.clone(),
            Some(canonical_json(&t.schema)),
        ),
        None => (schema, Vec::new(), None),
    };
    if translated.is_some() {
        check_type(effective)?;
        check_nesting(effective)?;
    }
    // Only a schema not compiled before is measured: what the cache holds
    // passed already.
    check_depth(effective, options)?;
    // Building matches patterns too (against property names the schema
    // declares); the validator is cached and outlives any check, so that
    // work is never charged to the check that happens to compile it.
    let canonical: Arc<str> = Arc::from(canonical);
    let meant: Arc<str> = meant.map_or_else(|| Arc::clone(&canonical), Arc::from);
    let options = CompileOptions {
        dialect: Some(dialect),
        ..options.clone()
    };
    let texts = canonical.len()
        + if Arc::ptr_eq(&canonical, &meant) {
            0
        } else {
            meant.len()
        }
        + key.len();
    let heap_before = cache::heap_in_use();
    let mut compiled = jsonschema::outside_pattern_budget(|| {
        build(effective, &options, schema_hash.into(), meant, unenforced)
    })?;
    compiled.memory = cache::heap_in_use()
        .saturating_sub(heap_before)
        .saturating_add(texts);
    let compiled = Arc::new(compiled);
    cache::put(key, canonical, Arc::clone(&compiled));
    Ok(compiled)
}

/// Parses schema text, naming the problem when it is not JSON.
pub fn parse_schema_text(text: &str) -> Result<Value, SchemaError> {
    serde_json::from_slice(text.as_bytes()).map_err(|e| {
        if e.to_string().starts_with("recursion limit exceeded") {
            SchemaError::new(format!(
                "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
            ))
        } else {
            SchemaError::new(format!("the schema is not valid JSON: {e}"))
        }
    })
}

fn check_type(schema: &Value) -> Result<(), SchemaError> {
    match schema {
        Value::Object(_) | Value::Bool(_) => Ok(()),
        other => Err(SchemaError::new(format!(
            "a schema must be an object or a boolean, not {}",
            type_name(other)
        ))),
    }
}

/// Nesting that canonicalising, compiling and validating recurse through
/// safely.
fn check_nesting(schema: &Value) -> Result<(), SchemaError> {
    if depth_exceeds(schema, MAX_SCHEMA_DEPTH) {
        return Err(SchemaError::new(format!(
            "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
        )));
    }
    Ok(())
}

/// How deep validation can recurse through the schema's references (see
/// `depth`).
fn check_depth(schema: &Value, options: &CompileOptions) -> Result<(), SchemaError> {
    let encoded: Vec<(&str, std::borrow::Cow<'_, Value>)> = options
        .resources
        .iter()
        .map(|(uri, resource)| (uri.as_str(), references::encode_references(resource)))
        .collect();
    let resources: Vec<(&str, &Value)> = encoded
        .iter()
        .map(|(uri, resource)| (*uri, resource.as_ref()))
        .collect();
    let references = depth::reference_depth(&references::encode_references(schema), &resources);
    if references > MAX_REFERENCE_DEPTH {
        return Err(SchemaError::new(format!(
            "the schema's references can nest about {references} subschemas deep, more than the \
             {MAX_REFERENCE_DEPTH} a validation can walk safely"
        )));
    }
    Ok(())
}

pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Iterative, so that measuring a hostile depth cannot itself overflow.
pub fn depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((node, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        match node {
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    false
}

/// Schema builds after which the shared pattern cache starts afresh.
const PATTERN_CACHE_BUILDS: u32 = 128;

thread_local! {
    /// Compiled `pattern`s shared by every schema built here, with the
    /// number of builds that used it. Revisions of one schema, and schemas
    /// sharing `$defs`, repeat their patterns; compiling a regular
    /// expression, and warming its matcher, was the largest part of a first
    /// check. The cache starts afresh every [`PATTERN_CACHE_BUILDS`] builds,
    /// so a stream of schemas with ever-new patterns holds no more than the
    /// validator cache does.
    static PATTERNS: std::cell::RefCell<(PatternCache, u32)> =
        std::cell::RefCell::new((PatternCache::new(), 0));
}

fn shared_patterns() -> PatternCache {
    PATTERNS.with(|patterns| {
        let mut patterns = patterns.borrow_mut();
        if patterns.1 >= PATTERN_CACHE_BUILDS {
            *patterns = (PatternCache::new(), 0);
        }
        patterns.1 += 1;
        patterns.0.clone()
    })
}

/// A validator for `schema`, built exactly as [`compile`] builds one (not
/// cached, and outside any pattern budget, as there); `base_uri` places the
/// schema document.
pub fn build_validator(
    schema: &Value,
    options: &CompileOptions,
    base_uri: Option<&str>,
) -> Option<jsonschema::Validator<TapeJson>> {
    let mut builder = configure(schema, options).ok()?;
    if let Some(base) = base_uri {
        builder = builder.with_base_uri(base);
    }
    jsonschema::outside_pattern_budget(|| builder.build(schema).ok())
}

/// Runs `run` with a pattern budget of `steps` of its own (whatever budget
/// is in force outside), and returns what it left.
pub fn with_own_budget<T>(steps: usize, run: impl FnOnce() -> T) -> (T, usize) {
    jsonschema::outside_pattern_budget(|| {
        jsonschema::with_pattern_budget(steps, || {
            let result = run();
            (result, jsonschema::pattern_steps_left().unwrap_or(0))
        })
    })
}

/// Whether a pattern budget is in force and has run out (a match may then
/// have failed for want of steps, not of the value).
pub fn budget_spent() -> bool {
    jsonschema::pattern_steps_left() == Some(0)
}

/// Whether `node` satisfies `validator` (here, so that jsonschema's
/// validation is instantiated once, in this crate).
pub fn node_is_valid(validator: &jsonschema::Validator<TapeJson>, node: TapeNode<'_>) -> bool {
    validator.is_valid(node)
}

/// At most `max_errors` issues of `instance` against `validator`, as
/// [`CompiledSchema::validate_tape`] lists them.
pub fn collect_issues(
    validator: &jsonschema::Validator<TapeJson>,
    instance: &Tape<'_>,
    max_errors: usize,
) -> (Vec<Issue>, bool) {
    issues::collect(validator, instance, max_errors)
}

/// The schema as validated: its `$ref`s URI references (see
/// `references`) and, with `rejectUnknownFields`, its objects closed.
pub fn effective_schema<'s>(
    schema: &'s Value,
    options: &CompileOptions,
) -> std::borrow::Cow<'s, Value> {
    let encoded = references::encode_references(schema);
    if options.reject_unknown_fields {
        std::borrow::Cow::Owned(closed::close_objects(&encoded, options.draft))
    } else {
        encoded
    }
}

/// The bound of each automaton a schema's pattern compiles to, in bytes.
const PATTERN_SIZE_LIMIT: usize = 10 << 20;

type Builder = jsonschema::ValidationOptions<'static, Arc<dyn Retrieve>, TapeJson>;

fn build(
    schema: &Value,
    options: &CompileOptions,
    schema_hash: Arc<str>,
    canonical: Arc<str>,
    unenforced: Vec<Unenforced>,
) -> Result<CompiledSchema, SchemaError> {
    let effective = effective_schema(schema, options);
    let validator = configure(schema, options)?.build(&effective).map_err(|e| {
        // A pattern the guard does not support says so, and where.
        if let Err(pattern) = patterns::check_patterns(&effective) {
            return pattern;
        }
        let at = e.instance_path().as_str();
        let detail = e.masked().to_string();
        let problem = if detail.is_empty() {
            e.to_string()
        } else {
            detail
        };
        if at.is_empty() {
            SchemaError::new(format!("the schema is invalid: {problem}"))
        } else {
            SchemaError::new(format!("the schema is invalid at {at}: {problem}"))
        }
    })?;
    Ok(CompiledSchema {
        validator,
        schema_hash,
        canonical,
        options: options.clone(),
        unenforced,
        derived: std::sync::OnceLock::new(),
        memory: 0,
    })
}

/// The validator builder for `schema` with these options: every validator
/// of a schema (the whole one, and the stream's per-location ones) is
/// built the same way.
fn configure(schema: &Value, options: &CompileOptions) -> Result<Builder, SchemaError> {
    let retriever = OfflineRetriever {
        resources: options
            .resources
            .iter()
            .map(|(uri, schema)| {
                (
                    resource_key(uri),
                    references::encode_references(schema).into_owned(),
                )
            })
            .collect(),
    };
    let mut builder = jsonschema::options_for::<TapeJson>()
        .should_validate_formats(options.formats == FormatMode::Assert)
        .should_ignore_unknown_formats(!options.unknown_formats_error)
        .with_schema_check(meta::check_against_meta_schema)
        .with_pattern_cache(shared_patterns())
        // Every automaton a pattern compiles to is bounded, the reverse one
        // a lookbehind is matched with included (whose size fancy-regex
        // leaves unbounded otherwise): a count no bounded automaton holds,
        // `(?<=\d{1000000000}|b)`, is a SchemaError, not a build that runs
        // the heap out. 10 MiB is the bound the forward automata have by
        // default.
        .with_pattern_options(
            jsonschema::PatternOptions::fancy_regex().size_limit(PATTERN_SIZE_LIMIT),
        )
        .with_retriever(retriever);
    if let Some(base) = &options.base_uri {
        builder = builder.with_base_uri(base.clone());
    }
    for (name, source) in &options.custom_formats {
        let pattern = regex::RegexBuilder::new(source)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| {
                SchemaError::new(format!(
                    "custom format \"{name}\" is not a valid regular expression: {e}"
                ))
            })?;
        builder = builder.with_format(name.clone(), move |s: &str| pattern.is_match(s));
    }
    // A `$schema` naming a custom meta-schema among the resources decides the
    // vocabulary itself; forcing a draft would skip reading it.
    if let Some(draft) = options
        .draft
        .filter(|_| !names_custom_meta_schema(schema, options))
    {
        builder = builder.with_draft(draft);
    }
    Ok(builder)
}

/// The form a URI takes when jsonschema asks for it: normalised (case of
/// scheme and host, dot segments) and without an empty fragment, so that a
/// resource keyed `http://Example.com/a.json#` is found.
fn resource_key(uri: &str) -> String {
    match jsonschema::uri::from_str(uri) {
        Ok(parsed) => parsed.as_str().trim_end_matches('#').to_owned(),
        Err(_) => uri.trim_end_matches('#').to_owned(),
    }
}

const STANDARD_META_SCHEMAS: [&str; 5] = [
    "json-schema.org/draft-04/schema",
    "json-schema.org/draft-06/schema",
    "json-schema.org/draft-07/schema",
    "json-schema.org/draft/2019-09/schema",
    "json-schema.org/draft/2020-12/schema",
];

/// Whether `$schema` names a meta-schema among the resources (which then
/// decides the vocabulary).
pub fn names_custom_meta_schema(schema: &Value, options: &CompileOptions) -> bool {
    let Some(declared) = schema.get("$schema").and_then(Value::as_str) else {
        return false;
    };
    let bare = declared.trim_end_matches('#');
    let bare = bare
        .strip_prefix("https://")
        .or_else(|| bare.strip_prefix("http://"))
        .unwrap_or(bare);
    if STANDARD_META_SCHEMAS.contains(&bare) {
        return false;
    }
    let key = resource_key(declared);
    options
        .resources
        .iter()
        .any(|(uri, _)| resource_key(uri) == key)
}

/// Serves only the schemas it was given; a guard never fetches a `$ref` from
/// the network or the file system.
#[derive(Debug, Default)]
pub struct OfflineRetriever {
    resources: HashMap<String, Value>,
}

#[derive(Debug)]
struct NotFetched(String);

impl fmt::Display for NotFetched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "remote references are not fetched; {} is not among the known resources",
            self.0
        )
    }
}

impl std::error::Error for NotFetched {}

impl Retrieve for OfflineRetriever {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = resource_key(uri.as_str());
        match self.resources.get(&key) {
            Some(found) => Ok(found.clone()),
            None => Err(Box::new(NotFetched(uri.as_str().to_owned()))),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod collection_tests;
#[cfg(test)]
mod content_encoding_tests;
#[cfg(test)]
mod email_format_tests;
#[cfg(test)]
mod idna2008_tests;
#[cfg(test)]
mod multiple_of_tests;
#[cfg(test)]
mod pattern_budget_tests;
#[cfg(test)]
mod regex_dialect_tests;
#[cfg(test)]
mod sequence_tests;
