//! Turning jsonschema's errors into `Issue`s people and repair loops can use.
//!
//! Messages are written here rather than taken from jsonschema's `Display`,
//! which quotes the instance value: a verdict travels into logs and repair
//! prompts, and the model's output may hold things that must not travel.
//! Everything quoted comes from the schema, never from the instance.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashSet;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};

use jsonschema::json::{Array, Node, Object};

use crate::tape::{Tape, TapeJson, TapeNode};
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    /// JSON Pointer into the instance; "" is the root.
    pub path: String,
    /// JSON Pointer into the schema, to the failing keyword.
    pub schema_path: String,
    /// The failing keyword.
    pub code: String,
    pub message: String,
    /// The rule's name, for a broken business rule (code `rule`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The keyword's parameters, for a program to read instead of the
    /// message (see [`params`]); all taken from the schema, never from the
    /// response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

/// At most `max_errors` issues of an instance already known to be invalid,
/// and whether more exist: exactly the head of the full list sorted by
/// instance path (array indices numerically), then code.
///
/// The full list is jsonschema's, collected with the work bounded whatever
/// the applicators (`Validator::iter_errors_bounded`, a vendored addition):
/// a subschema that several references lead to adds its errors for a value
/// once (the errors of a second visit would be the same ones again), each
/// branch of an `anyOf`/`oneOf` context keeps its first error, and the
/// contexts below one issue collect at most [`CONTEXT_BRANCHES`] branches in
/// all (past that, the message names no branch's problem). Messages are at
/// most [`MAX_MESSAGE_CHARS`] characters.
///
/// The work is bounded by looking through a prefix view first (see
/// `view.rs`): the first elements of each array, widened fourfold until the
/// result is known to be exact. It is exact when the view cut nothing, or
/// when more than `max_errors` issues showed and the last one reported sorts
/// before the first hidden element of every cut array (nothing hidden can
/// come before it). For keywords whose verdict only gets worse as more of an
/// array is seen, every error of a prefix is an error of the whole; the few
/// that can flip (`not`, `contains`, "more than one oneOf branch",
/// `unevaluated*`, anything under `then`/`else`) send the collection to the
/// whole value.
pub(super) fn collect(
    validator: &Validator<TapeJson>,
    instance: &Tape<'_>,
    max_errors: usize,
) -> (Vec<Issue>, bool) {
    let (issues, more, _) = collect_counted(validator, instance, max_errors);
    (issues, more)
}

/// Branches of `anyOf`/`oneOf` that the contexts below one issue may
/// collect, in all. A message names the first problem of three branches,
/// and of three below each of those; the prefix view needs every branch's
/// first error to know that the issue holds for the whole value (without
/// them it looks at the whole value), so the bound leaves room for wide
/// unions.
pub const CONTEXT_BRANCHES: usize = 64;

/// The longest message, in characters; a longer one is cut, and ends in "…".
pub(super) const MAX_MESSAGE_CHARS: usize = 1000;

/// How much a collection cost: passes over the instance and raw errors
/// kept, those in the contexts of `anyOf`/`oneOf` errors included.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Work {
    pub passes: usize,
    pub errors_built: usize,
}

/// An error and the errors it holds.
fn held(error: &ValidationError<'_>) -> usize {
    use ValidationErrorKind as K;
    1 + match error.kind() {
        K::AnyOf { context } | K::OneOfNotValid { context } | K::OneOfMultipleValid { context } => {
            context.iter().flatten().map(held).sum()
        }
        K::PropertyNames { error } => held(error),
        _ => 0,
    }
}

pub(super) fn collect_counted(
    validator: &Validator<TapeJson>,
    instance: &Tape<'_>,
    max_errors: usize,
) -> (Vec<Issue>, bool, Work) {
    let mut work = Work::default();
    if max_errors == 0 {
        return (Vec::new(), true, work);
    }
    let mut limit = max_errors.saturating_mul(2).max(8);
    loop {
        let cut = RefCell::new(Vec::new());
        let errors: Vec<ValidationError<'_>> = validator
            .iter_errors_bounded(TapeNode::prefix(instance, limit, &cut), CONTEXT_BRANCHES)
            .collect();
        work.passes += 1;
        work.errors_built += errors.iter().map(held).sum::<usize>();
        let cut = cut.take();
        if cut.is_empty() {
            let (issues, more) = finish(&errors, max_errors);
            return (issues, more, work);
        }
        if errors.iter().any(may_flip) {
            let all: Vec<ValidationError<'_>> = validator
                .iter_errors_bounded(TapeNode::full(instance), CONTEXT_BRANCHES)
                .collect();
            work.passes += 1;
            work.errors_built += all.iter().map(held).sum::<usize>();
            let (issues, more) = finish(&all, max_errors);
            return (issues, more, work);
        }
        if errors.len() > max_errors {
            let (issues, more) = finish(&errors, max_errors);
            let last = issues.last().map_or("", |i| i.path.as_str());
            if nothing_hidden_sorts_before(instance, &cut, limit, last) {
                return (issues, more, work);
            }
        }
        limit = limit.saturating_mul(4);
    }
}

/// Whether `last` sorts before the first hidden element of every cut array
/// (arrays named by their tape index).
fn nothing_hidden_sorts_before(instance: &Tape<'_>, cut: &[u32], limit: usize, last: &str) -> bool {
    let wanted: HashSet<u32> = cut.iter().copied().collect();
    let mut remaining = wanted.len();
    let mut stack: Vec<(TapeNode<'_>, String)> = vec![(TapeNode::full(instance), String::new())];
    while let Some((node, path)) = stack.pop() {
        if let Some(array) = node.as_array() {
            if wanted.contains(&node.index()) {
                let first_hidden = format!("{path}/{limit}");
                if compare_pointers(last, &first_hidden) != Ordering::Less {
                    return false;
                }
                remaining -= 1;
                if remaining == 0 {
                    return true;
                }
            }
            for (i, item) in array.elements().enumerate() {
                if item.as_array().is_some() || item.as_object().is_some() {
                    stack.push((item, format!("{path}/{i}")));
                }
            }
        } else if let Some(object) = node.as_object() {
            for (key, item) in object.members() {
                if item.as_array().is_some() || item.as_object().is_some() {
                    let segment = key.as_ref().replace('~', "~0").replace('/', "~1");
                    stack.push((item, format!("{path}/{segment}")));
                }
            }
        }
    }
    remaining == 0
}

/// The first `max_errors` issues in order, and whether there are more. The
/// order depends only on an error's instance path, keyword and schema path,
/// so the errors are sorted by those and only the ones reported become
/// issues: writing a message (and redacting it) is the costly part, and a
/// pass through a prefix view may find many more errors than are reported.
fn finish(errors: &[ValidationError<'_>], max_errors: usize) -> (Vec<Issue>, bool) {
    let mut order: Vec<&ValidationError<'_>> = errors.iter().collect();
    guard_sort::sort_by(&mut order, |a, b| {
        compare_issue_keys(issue_key(a), issue_key(b))
    });
    let more = order.len() > max_errors;
    let issues = order.into_iter().take(max_errors).map(to_issue).collect();
    (issues, more)
}

/// Whether this error, seen through a prefix view, might not be an error of
/// the whole value.
fn may_flip(error: &ValidationError<'_>) -> bool {
    use ValidationErrorKind as K;
    let under_conditional = error
        .schema_path()
        .as_str()
        .split('/')
        .any(|s| s == "then" || s == "else");
    under_conditional
        || match error.kind() {
            K::Not { .. }
            | K::Contains
            | K::OneOfMultipleValid { .. }
            | K::UnevaluatedItems { .. }
            | K::UnevaluatedProperties { .. } => true,
            // Each branch holds its first error at most (see
            // `CONTEXT_BRANCHES`); a branch whose first error holds for the
            // whole value fails there too. A branch without one (its
            // context was not collected) may not.
            K::AnyOf { context } | K::OneOfNotValid { context } => context
                .iter()
                .any(|branch| branch.first().is_none_or(may_flip)),
            K::PropertyNames { error } => may_flip(error),
            _ => false,
        }
}

/// What an error's issue sorts by: instance path, code, schema path.
fn issue_key<'e>(error: &'e ValidationError<'_>) -> (&'e str, &'e str, &'e str) {
    (
        error.instance_path().as_str(),
        error.kind().keyword(),
        error.schema_path().as_str(),
    )
}

/// Issues sort by instance path, then code, then schema path.
fn compare_issue_keys(a: (&str, &str, &str), b: (&str, &str, &str)) -> Ordering {
    compare_pointers(a.0, b.0)
        .then_with(|| a.1.cmp(b.1))
        .then_with(|| a.2.cmp(b.2))
}

/// Array indices compare as numbers, so `/rows/2` comes before `/rows/10`.
fn compare_pointers(a: &str, b: &str) -> Ordering {
    let mut left = a.split('/');
    let mut right = b.split('/');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(m), Ok(n)) => m.cmp(&n),
                    _ => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

fn to_issue(error: &ValidationError<'_>) -> Issue {
    let path = error.instance_path().as_str().to_owned();
    let [root, at] = subjects();
    let subject = if path.is_empty() {
        root.to_owned()
    } else {
        // The path holds object keys the model wrote.
        format!("{at}{}", crate::redact::redact_pointer(&path))
    };
    let sentence = format!("{subject} {}.", describe(error.kind(), 0));
    // Redacted, then made safe to print: the path is the model's, and the
    // schema's words (a pattern, a format's name) may be anyone's.
    let message = crate::display::escape_for_display(&crate::redact::redact_secrets(&sentence));
    Issue {
        schema_path: error.schema_path().as_str().to_owned(),
        code: error.kind().keyword().to_owned(),
        // Redacted before it is shortened, as `short_json` does.
        message: shorten(&message, MAX_MESSAGE_CHARS),
        path,
        rule: None,
        params: params(error.kind()),
    }
}

/// An issue of `kind` in parts, for a check program that collects issues
/// itself (see src/check_program.rs): its code, its params (as [`params`]
/// gives them) and the predicate of its sentence made safe to print, or
/// `None` for the predicate where redaction could change a sentence that
/// holds it (the core then writes the issues). The sentence is the
/// subject ("The response", or "The value at " and the path), a space, the
/// predicate and a full stop, as `to_issue` writes it: redaction looks for
/// no keyword across a space, so a subject and a predicate in which it
/// finds none make a sentence it leaves as it is, and the escape for
/// display is made character by character.
#[must_use]
pub fn issue_parts(kind: &ValidationErrorKind) -> (&str, Option<Value>, Option<String>) {
    let predicate = describe(kind, 0);
    let safe = !predicate.contains('~') && !crate::redact::may_hold_secret(&predicate);
    (
        kind.keyword(),
        params(kind),
        safe.then(|| crate::display::escape_for_display(&predicate)),
    )
}

/// The subjects of an issue's sentence (at the root, and before a path)
/// and the verdict's message around its count and first issue, for a check
/// program (see src/check_program.rs): `[root, before a path]`.
#[must_use]
pub fn subjects() -> [&'static str; 2] {
    ["The response", "The value at "]
}

/// Appends `issues` as a JSON list, each as serde_json writes an [`Issue`]
/// (the same members in the same order): a rejected document's verdict is
/// mostly its issues, and serde_json's writer cost more than building them.
pub fn push_issues_json(out: &mut String, issues: &[Issue]) {
    use crate::json_text::{push_json_str, push_json_value};
    out.push('[');
    for (i, issue) in issues.iter().enumerate() {
        out.push_str(if i == 0 { "{\"path\":" } else { ",{\"path\":" });
        push_json_str(out, &issue.path);
        out.push_str(",\"schemaPath\":");
        push_json_str(out, &issue.schema_path);
        out.push_str(",\"code\":");
        push_json_str(out, &issue.code);
        out.push_str(",\"message\":");
        push_json_str(out, &issue.message);
        if let Some(rule) = &issue.rule {
            out.push_str(",\"rule\":");
            push_json_str(out, rule);
        }
        if let Some(params) = &issue.params {
            out.push_str(",\"params\":");
            push_json_value(out, params);
        }
        out.push('}');
    }
    out.push(']');
}

/// An issue's parameters, named as ajv names them: `missingProperty` for
/// `required`; `limit` for the length, count and bound keywords;
/// `multipleOf`; `format`; `pattern`; `type` (a name, or a list of names
/// in a fixed order: null, boolean, integer, number, string, array, object).
/// Other keywords have none: their schema value can be large (`enum`,
/// `const`), or what they would name was written by the model
/// (`additionalProperties`).
#[must_use]
pub fn params(kind: &ValidationErrorKind) -> Option<Value> {
    use ValidationErrorKind as K;
    let (name, value) = match kind {
        K::Required { property } => ("missingProperty", property.clone()),
        K::MinLength { limit }
        | K::MaxLength { limit }
        | K::MinItems { limit }
        | K::MaxItems { limit }
        | K::MinProperties { limit }
        | K::MaxProperties { limit } => ("limit", Value::from(*limit)),
        K::Minimum { limit }
        | K::Maximum { limit }
        | K::ExclusiveMinimum { limit }
        | K::ExclusiveMaximum { limit } => ("limit", limit.clone()),
        K::MultipleOf { multiple_of } => ("multipleOf", serde_json::to_value(multiple_of).ok()?),
        K::Format { format } => ("format", Value::from(format.as_str())),
        K::Pattern { pattern } => ("pattern", Value::from(pattern.as_str())),
        K::Type { kind } => (
            "type",
            match kind {
                TypeKind::Single(t) => Value::from(t.to_string()),
                TypeKind::Multiple(set) => set.iter().map(|t| Value::from(t.to_string())).collect(),
            },
        ),
        _ => return None,
    };
    let mut params = serde_json::Map::new();
    params.insert(name.to_owned(), value);
    Some(Value::Object(params))
}

/// `text` cut to at most `max_chars` characters, the last of them "…".
fn shorten(text: &str, max_chars: usize) -> String {
    if text.char_indices().nth(max_chars).is_none() {
        return text.to_owned();
    }
    let kept = max_chars.saturating_sub(1);
    let end = text
        .char_indices()
        .nth(kept)
        .map_or(text.len(), |(at, _)| at);
    format!("{}…", text.get(..end).unwrap_or_default())
}

/// Alternatives nested deeper than this are described without their
/// branches' problems, so a message grows with neither the nesting nor the
/// width of a tree of `anyOf`s.
const BRANCH_LEVELS: usize = 2;

/// The predicate of an issue's sentence: what the value must be or do;
/// `level` counts the `anyOf`/`oneOf` descriptions around this one.
fn describe(kind: &ValidationErrorKind, level: usize) -> String {
    use ValidationErrorKind as K;
    match kind {
        K::Type { kind } => format!("must be {}", type_phrase(kind)),
        K::Enum { options } => format!("must be one of: {}", list_values(options)),
        K::Constant { expected_value } => format!("must be exactly {}", short_json(expected_value)),
        K::Required { property } => {
            format!("is missing the required property {}", short_json(property))
        }
        K::Format { format } => format!("must be a valid {format} (format \"{format}\")"),
        K::Minimum { limit } => format!("must be at least {limit}"),
        K::Maximum { limit } => format!("must be at most {limit}"),
        K::ExclusiveMinimum { limit } => format!("must be greater than {limit}"),
        K::ExclusiveMaximum { limit } => format!("must be less than {limit}"),
        K::MultipleOf { multiple_of } => {
            format!(
                "must be a multiple of {}",
                jsonschema::PlainDecimal(*multiple_of)
            )
        }
        K::MinLength { limit } => format!(
            "must be at least {limit} {} long",
            plural(*limit, "character")
        ),
        K::MaxLength { limit } => format!(
            "must be at most {limit} {} long",
            plural(*limit, "character")
        ),
        K::MinItems { limit } => format!("must have at least {limit} {}", plural(*limit, "item")),
        K::MaxItems { limit } => format!("must have at most {limit} {}", plural(*limit, "item")),
        K::MinProperties { limit } => {
            format!("must have at least {limit} {}", plural(*limit, "property"))
        }
        K::MaxProperties { limit } => {
            format!("must have at most {limit} {}", plural(*limit, "property"))
        }
        K::Pattern { pattern } => format!("must match the pattern {pattern}"),
        K::BacktrackLimitExceeded {
            error: fancy_regex::Error::RuntimeError(fancy_regex::RuntimeError::StepLimitExceeded),
        } => "could not be matched against its pattern: the check's budget for pattern matching \
              ran out, so it is rejected"
            .to_owned(),
        K::BacktrackLimitExceeded { .. } | K::RegexEngineFailure { .. } => {
            "could not be matched against its pattern within the work limit, so it is rejected"
                .to_owned()
        }
        K::UniqueItems => "must not contain duplicate items".to_owned(),
        K::Contains => "must contain the items that \"contains\" asks for".to_owned(),
        K::AdditionalProperties { unexpected } | K::UnevaluatedProperties { unexpected } => {
            let n = unexpected.len();
            format!(
                "has {n} {} that the schema does not allow",
                plural(n as u64, "property")
            )
        }
        K::AdditionalItems { .. } | K::UnevaluatedItems { .. } => {
            "has more items than the schema allows".to_owned()
        }
        K::PropertyNames { error } => format!(
            "has a property name that is not allowed (a name {})",
            describe(error.kind(), level)
        ),
        K::FalseSchema => "is not allowed here".to_owned(),
        K::Not { .. } => "must not match the schema under \"not\"".to_owned(),
        K::AnyOf { context } => format!(
            "must match at least one alternative of anyOf{}",
            branches(context, level)
        ),
        K::OneOfNotValid { context } => format!(
            "must match exactly one alternative of oneOf, but matches none{}",
            branches(context, level)
        ),
        K::OneOfMultipleValid { .. } => {
            "must match exactly one alternative of oneOf, but matches more than one".to_owned()
        }
        K::ContentEncoding { content_encoding } => format!("must be valid {content_encoding}"),
        K::FromUtf8 { .. } => "must decode to valid UTF-8".to_owned(),
        K::ContentMediaType { content_media_type } => format!("must be valid {content_media_type}"),
        K::Custom { message, .. } => message.clone(),
        K::Referencing(_) => "could not be checked because a $ref could not be resolved".to_owned(),
    }
}

/// " (alternative 1: must be a string; alternative 2: ...)" — the first
/// problem of each of the first few branches, which is usually what tells a
/// reader (or a model) which branch was meant; nothing when no branch's
/// problem is known (its context was not collected) or the description is
/// nested [`BRANCH_LEVELS`] deep.
fn branches(context: &[Vec<ValidationError<'static>>], level: usize) -> String {
    let [alternative, at_place, before_problem, between, more, open, close] = BRANCH_WORDS;
    if level >= BRANCH_LEVELS || context.iter().all(Vec::is_empty) {
        return String::new();
    }
    let mut parts: Vec<String> = context
        .iter()
        .take(BRANCHES_SHOWN)
        .enumerate()
        .map(|(i, errors)| match errors.first() {
            Some(first) => {
                let at = crate::redact::redact_pointer(first.instance_path().as_str());
                let place = if at.is_empty() {
                    String::new()
                } else {
                    format!("{at_place}{at}")
                };
                format!(
                    "{alternative}{}{place}{before_problem}{}",
                    i + 1,
                    describe(first.kind(), level + 1)
                )
            }
            None => format!("{alternative}{}: no detail", i + 1),
        })
        .collect();
    if context.len() > BRANCHES_SHOWN {
        parts.push(format!("{}{more}", context.len() - BRANCHES_SHOWN));
    }
    format!("{open}{}{close}", parts.join(between))
}

/// The branches of an `anyOf`/`oneOf` whose first problems a message names.
pub const BRANCHES_SHOWN: usize = 3;

/// The words [`branches`] puts around each branch's problem: before its
/// number, before its place, before its problem, between two branches,
/// after the count of the branches not shown, and around them all.
pub const BRANCH_WORDS: [&str; 7] = ["alternative ", " at ", ": ", "; ", " more", " (", ")"];

fn type_phrase(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => article(&t.to_string()),
        TypeKind::Multiple(set) => {
            let names: Vec<String> = set.iter().map(|t| t.to_string()).collect();
            alternatives(&names)
        }
    }
}

fn article(type_name: &str) -> String {
    match type_name {
        "null" => "null".to_owned(),
        "array" | "object" | "integer" => format!("an {type_name}"),
        other => format!("a {other}"),
    }
}

/// Types a value may have, as one phrase: "a string or null", "an integer,
/// a string or null" (`null` last, the way a nullable value is spoken of).
pub fn alternatives<S: AsRef<str>>(names: &[S]) -> String {
    let mut phrases: Vec<String> = names
        .iter()
        .map(AsRef::as_ref)
        .filter(|name| *name != "null")
        .map(article)
        .collect();
    if names.iter().any(|name| name.as_ref() == "null") {
        phrases.push("null".to_owned());
    }
    match phrases.split_last() {
        None => "of no type".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn plural(n: u64, word: &str) -> String {
    match (n, word) {
        (1, w) => w.to_owned(),
        (_, "property") => "properties".to_owned(),
        (_, w) => format!("{w}s"),
    }
}

fn list_values(options: &Value) -> String {
    const SHOWN: usize = 12;
    match options {
        Value::Array(items) => {
            let mut parts: Vec<String> = items.iter().take(SHOWN).map(short_json).collect();
            if items.len() > SHOWN {
                parts.push(format!("and {} more", items.len() - SHOWN));
            }
            parts.join(", ")
        }
        other => short_json(other),
    }
}

/// Schema values are quoted as JSON, shortened so a huge `const` cannot
/// flood a log line.
fn short_json(value: &Value) -> String {
    const MAX_CHARS: usize = 80;
    // Redacted before it is shortened: a credential cut short is no longer
    // recognisable as one.
    let mut written = String::new();
    crate::json_text::push_json_value(&mut written, value);
    let text = crate::redact::redact_secrets(&written).into_owned();
    if text.chars().count() <= MAX_CHARS {
        text
    } else {
        let cut: String = text.chars().take(MAX_CHARS).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
