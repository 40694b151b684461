//! Reading the options objects that JavaScript callers pass.
//!
//! A wrong option type is misuse and must be a clear thrown error, not a
//! silently ignored setting: `formats: "asert"` that quietly turned format
//! checks off would be worse than no option at all.

use serde_json::{Map, Value};

// The error every decoder here returns; the boundary takes it from here
// with the decoders.
pub use crate::error::ArgumentError;
use crate::error::{Failure, DEFAULT_MAX_ERRORS, MAX_RETRIES};
use crate::policy::Budgets;
use crate::verdict::{CheckOptions, OnInvalidSchema};
use hot_path::schema::{parse_draft, CompileOptions, Dialect, FormatMode};

fn as_map(options: &Value) -> Result<Option<&Map<String, Value>>, ArgumentError> {
    match options {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        other => Err(ArgumentError::new(format!(
            "options must be an object, not {}",
            hot_path::schema::type_name(other)
        ))),
    }
}

/// The options `compileSchema` takes.
pub const COMPILE_OPTION_NAMES: [&str; 8] = [
    "formats",
    "draft",
    "rejectUnknownFields",
    "unknownFormats",
    "resources",
    "customFormats",
    "dialect",
    "baseUri",
];

/// The options `checkOutput` takes besides `compileSchema`'s.
pub const CHECK_OPTION_NAMES: [&str; 5] = [
    "maxErrors",
    "requireObject",
    "onInvalidSchema",
    "rules",
    "toolName",
];

/// The options `guardedCall` takes besides `checkOutput`'s.
pub const GUARD_OPTION_NAMES: [&str; 13] = [
    "schema",
    "strict",
    "hasTools",
    "signal",
    "read",
    "usage",
    "onAttempt",
    "retry",
    "appendFeedback",
    "budgets",
    "deadlineMs",
    "stats",
    "telemetry",
];

/// The options `guardedStream` takes besides `guardedCall`'s (whose
/// `read` and `usage` it takes per stream event).
pub const STREAM_OPTION_NAMES: [&str; 2] = ["onText", "onToolCall"];

/// The check options of `checkOutput` or `createStreamCheck` (`what`),
/// compile options allowed beside them.
pub fn check_options_of(options: &Value, what: &str) -> Result<CheckOptions, ArgumentError> {
    reject_unknown(options, &[&COMPILE_OPTION_NAMES, &CHECK_OPTION_NAMES], what)?;
    check_options(options)
}

/// Refuses an option name none of `known` has: a typo such as
/// `maxError: 0` must not quietly mean "the default".
pub fn reject_unknown(
    options: &Value,
    known: &[&[&str]],
    function: &str,
) -> Result<(), ArgumentError> {
    let Some(map) = as_map(options)? else {
        return Ok(());
    };
    let unknown = map
        .keys()
        .find(|key| !known.iter().any(|names| names.contains(&key.as_str())));
    match unknown {
        None => Ok(()),
        Some(key) => {
            let shown: String = key.chars().take(40).collect();
            let all: Vec<&str> = known
                .iter()
                .flat_map(|names| names.iter().copied())
                .collect();
            Err(ArgumentError::new(format!(
                "\"{shown}\" is not an option of {function}; its options are {}",
                all.join(", ")
            )))
        }
    }
}

/// A member that is absent or null means "use the default".
fn member<'a>(map: Option<&'a Map<String, Value>>, key: &str) -> Option<&'a Value> {
    map.and_then(|m| m.get(key)).filter(|v| !v.is_null())
}

fn bool_option(
    map: Option<&Map<String, Value>>,
    key: &str,
    default: bool,
) -> Result<bool, ArgumentError> {
    match member(map, key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(ArgumentError::new(format!(
            "options.{key} must be a boolean, not {}",
            hot_path::schema::type_name(other)
        ))),
    }
}

fn choice<'a>(
    map: Option<&'a Map<String, Value>>,
    key: &str,
    allowed: &[&str],
) -> Result<Option<&'a str>, ArgumentError> {
    match member(map, key) {
        None => Ok(None),
        Some(Value::String(s)) if allowed.contains(&s.as_str()) => Ok(Some(s.as_str())),
        Some(other) => Err(ArgumentError::new(format!(
            "options.{key} must be one of {}, not {}",
            allowed
                .iter()
                .map(|a| format!("\"{a}\""))
                .collect::<Vec<_>>()
                .join(", "),
            other
        ))),
    }
}

/// `maxErrors`: a whole number from 0 up.
pub fn max_errors(options: &Value) -> Result<usize, ArgumentError> {
    let map = as_map(options)?;
    match member(map, "maxErrors") {
        None => Ok(DEFAULT_MAX_ERRORS),
        Some(v) => v
            .as_u64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            })
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .ok_or_else(|| {
                ArgumentError::new(format!(
                    "options.maxErrors must be a whole number from 0 up, not {v}"
                ))
            }),
    }
}

pub fn compile_options(options: &Value) -> Result<CompileOptions, ArgumentError> {
    let map = as_map(options)?;
    let formats = match choice(map, "formats", &["assert", "annotate"])? {
        Some("annotate") => FormatMode::Annotate,
        _ => FormatMode::Assert,
    };
    let draft = match member(map, "draft") {
        None => None,
        Some(v) => {
            let name = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => String::new(),
            };
            Some(parse_draft(&name).ok_or_else(|| {
                ArgumentError::new(format!(
                    "options.draft must be one of \"2020-12\", \"2019-09\", \"7\", \"6\", \"4\", not {v}"
                ))
            })?)
        }
    };
    Ok(CompileOptions {
        formats,
        draft,
        reject_unknown_fields: bool_option(map, "rejectUnknownFields", false)?,
        unknown_formats_error: choice(map, "unknownFormats", &["ignore", "error"])?
            == Some("error"),
        resources: resources(map)?,
        custom_formats: custom_formats(map)?,
        dialect: choice(map, "dialect", &["json-schema", "gemini"])?.and_then(Dialect::parse),
        base_uri: base_uri(map)?,
    })
}

/// `baseUri`: an absolute URI, the schema's initial base URI.
fn base_uri(map: Option<&Map<String, Value>>) -> Result<Option<String>, ArgumentError> {
    match member(map, "baseUri") {
        None => Ok(None),
        Some(Value::String(uri)) if hot_path::schema::is_absolute_uri(uri) => Ok(Some(uri.clone())),
        Some(other) => Err(ArgumentError::new(format!(
            "options.baseUri must be an absolute URI (with a scheme, such as \"https://example.com/schema.json\"), not {other}"
        ))),
    }
}

fn object_member<'a>(
    map: Option<&'a Map<String, Value>>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, ArgumentError> {
    match member(map, key) {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(ArgumentError::new(format!(
            "options.{key} must be an object, not {}",
            hot_path::schema::type_name(other)
        ))),
    }
}

fn resources(map: Option<&Map<String, Value>>) -> Result<Vec<(String, Value)>, ArgumentError> {
    let Some(entries) = object_member(map, "resources")? else {
        return Ok(Vec::new());
    };
    entries
        .iter()
        .map(|(uri, schema)| match schema {
            Value::Object(_) | Value::Bool(_) => Ok((uri.clone(), schema.clone())),
            other => Err(ArgumentError::new(format!(
                "options.resources[\"{uri}\"] must be a schema (an object or a boolean), not {}",
                hot_path::schema::type_name(other)
            ))),
        })
        .collect()
}

fn custom_formats(
    map: Option<&Map<String, Value>>,
) -> Result<Vec<(String, String)>, ArgumentError> {
    let Some(entries) = object_member(map, "customFormats")? else {
        return Ok(Vec::new());
    };
    entries
        .iter()
        .map(|(name, source)| match source {
            Value::String(s) => Ok((name.clone(), s.clone())),
            other => Err(ArgumentError::new(format!(
                "options.customFormats[\"{name}\"] must be a regular expression source string, not {}",
                hot_path::schema::type_name(other)
            ))),
        })
        .collect()
}

pub fn check_options(options: &Value) -> Result<CheckOptions, ArgumentError> {
    let map = as_map(options)?;
    Ok(CheckOptions {
        max_errors: max_errors(options)?,
        require_object: bool_option(map, "requireObject", true)?,
        on_invalid_schema: match choice(map, "onInvalidSchema", &["degrade", "throw"])? {
            Some("throw") => OnInvalidSchema::Throw,
            _ => OnInvalidSchema::Degrade,
        },
        compile: compile_options(options)?,
        rules: crate::rules::parse_rules(member(map, "rules"))?,
        tool_name: match member(map, "toolName") {
            None => None,
            Some(Value::String(name)) if !name.is_empty() => Some(name.clone()),
            Some(other) => {
                return Err(ArgumentError::new(format!(
                    "options.toolName must be a tool's name (a non-empty string), not {}",
                    hot_path::schema::type_name(other)
                )))
            }
        },
    })
}

/// `budgets`: retries allowed per failure class and in total. See
/// `crate::policy::Budgets` for what each number means.
pub fn budgets(value: &Value) -> Result<Budgets, ArgumentError> {
    let map = match value {
        Value::Null => return Ok(Budgets::default()),
        Value::Object(map) => map,
        other => {
            return Err(ArgumentError::new(format!(
                "options.budgets must be an object, not {}",
                hot_path::schema::type_name(other)
            )))
        }
    };
    let count = |key: &str, v: &Value| -> Result<u32, ArgumentError> {
        v.as_u64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= f64::from(MAX_RETRIES))
                    .map(|f| f as u64)
            })
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n <= MAX_RETRIES)
            .ok_or_else(|| {
                ArgumentError::new(format!(
                    "options.budgets.{key} must be a whole number from 0 to {MAX_RETRIES}, not {v}"
                ))
            })
    };
    let mut per_class = [None; Failure::ALL.len()];
    let mut total = None;
    for (key, v) in map {
        if v.is_null() {
            continue;
        }
        if key == "total" {
            total = Some(count(key, v)?);
            continue;
        }
        let Some(failure) = Failure::parse(key) else {
            let classes: Vec<&str> = Failure::ALL.iter().map(|f| f.as_str()).collect();
            return Err(ArgumentError::new(format!(
                "options.budgets has an unknown member \"{key}\" (budgets are {} and total)",
                classes.join(", ")
            )));
        };
        if let Some(slot) = per_class.get_mut(failure.index()) {
            *slot = Some(count(key, v)?);
        }
    }
    Ok(Budgets::new(per_class, total))
}

#[cfg(test)]
mod tests;
