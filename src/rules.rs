//! Business rules: what a schema for one field cannot say about a whole
//! response ("if verdict is fail then confidence is at most 0.5", "the
//! reviewers are exactly general, risk and boundary").
//!
//! A rule is a pair of JSON Schemas with a name and a message: when the
//! response matches `if` (or always, without one) it must match `then`.
//! Rules run only once the schema stage has passed, so they see a response
//! of the right shape, and a broken rule is a `rule` failure whose issue
//! names the rule, carries its message and points at where `then` failed.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::dialect::compile;
use crate::error::ArgumentError;
use hot_path::redact::redact_secrets;
use hot_path::schema::{type_name, CompileOptions, CompiledSchema, Issue, SchemaError};
use hot_path::tape::Tape;

/// A rule as the caller wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSpec {
    pub name: String,
    pub when: Option<Value>,
    pub then: Value,
    pub message: String,
}

/// A rule ready to run.
#[derive(Debug, Clone)]
pub struct Rule {
    index: usize,
    name: String,
    message: String,
    when: Option<Arc<CompiledSchema>>,
    then: Arc<CompiledSchema>,
}

/// More rules than this is a program, not a guard; the bound keeps a
/// runaway list from costing a compile per entry on every call.
pub const MAX_RULES: usize = 256;

/// Reads `options.rules`: `[{ name, if?, then, message }]`.
pub fn parse_rules(value: Option<&Value>) -> Result<Vec<RuleSpec>, ArgumentError> {
    let items = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(ArgumentError::new(format!(
                "options.rules must be an array of rules, not {}",
                type_name(other)
            )))
        }
    };
    if items.len() > MAX_RULES {
        return Err(ArgumentError::new(format!(
            "options.rules holds {} rules; at most {MAX_RULES} are allowed",
            items.len()
        )));
    }
    let mut specs: Vec<RuleSpec> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("options.rules[{i}]");
        let Some(map) = item.as_object() else {
            return Err(ArgumentError::new(format!(
                "{at} must be an object {{ name, if?, then, message }}, not {}",
                type_name(item)
            )));
        };
        if let Some(key) = map
            .keys()
            .find(|k| !["name", "if", "then", "message"].contains(&k.as_str()))
        {
            return Err(ArgumentError::new(format!(
                "{at} has an unknown member \"{key}\" (a rule has name, if, then and message)"
            )));
        }
        let name = text_member(map, "name", &at)?;
        if specs.iter().any(|s| s.name == name) {
            return Err(ArgumentError::new(format!(
                "{at}: another rule is already named \"{name}\"; names must be unique"
            )));
        }
        let message = text_member(map, "message", &at)?;
        let then = match map.get("then") {
            Some(schema @ (Value::Object(_) | Value::Bool(_))) => schema.clone(),
            Some(other) => {
                return Err(ArgumentError::new(format!(
                    "{at}.then must be a JSON Schema (an object or a boolean), not {}",
                    type_name(other)
                )))
            }
            None => return Err(ArgumentError::new(format!("{at} needs a \"then\" schema"))),
        };
        let when = match map.get("if") {
            None | Some(Value::Null) => None,
            Some(schema @ (Value::Object(_) | Value::Bool(_))) => Some(schema.clone()),
            Some(other) => {
                return Err(ArgumentError::new(format!(
                    "{at}.if must be a JSON Schema (an object or a boolean), not {}",
                    type_name(other)
                )))
            }
        };
        specs.push(RuleSpec {
            name,
            when,
            then,
            message,
        });
    }
    Ok(specs)
}

fn text_member(map: &Map<String, Value>, key: &str, at: &str) -> Result<String, ArgumentError> {
    match map.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(ArgumentError::new(format!("{at}.{key} must not be empty"))),
        Some(other) => Err(ArgumentError::new(format!(
            "{at}.{key} must be a string, not {}",
            type_name(other)
        ))),
        None => Err(ArgumentError::new(format!("{at} needs a \"{key}\""))),
    }
}

/// Compiles every rule with the response schema's options (same draft,
/// formats and resources). Rules are never closed against unknown fields:
/// `then` names the fields it constrains, not every field there is; and they
/// are the caller's JSON Schema, whatever dialect the response schema is in.
/// Compiled schemas come from the shared cache, so repeat calls are cheap.
pub fn compile_rules(
    specs: &[RuleSpec],
    options: &CompileOptions,
) -> Result<Vec<Rule>, SchemaError> {
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let options = CompileOptions {
        reject_unknown_fields: false,
        dialect: None,
        ..options.clone()
    };
    specs
        .iter()
        .enumerate()
        .map(|(index, spec)| {
            let named = |part: &str, e: SchemaError| {
                SchemaError::new(format!(
                    "rule \"{}\" ({part}) is not a valid schema: {}",
                    spec.name, e.message
                ))
            };
            let when = match &spec.when {
                Some(schema) => Some(compile(schema, &options).map_err(|e| named("if", e))?),
                None => None,
            };
            let then = compile(&spec.then, &options).map_err(|e| named("then", e))?;
            Ok(Rule {
                index,
                name: spec.name.clone(),
                message: spec.message.clone(),
                when,
                then,
            })
        })
        .collect()
}

/// The broken rules, in rule order, at most `max_errors` of them, and
/// whether more are broken. Each issue points where `then` failed first.
pub fn check_rules(rules: &[Rule], instance: &Tape<'_>, max_errors: usize) -> (Vec<Issue>, bool) {
    let mut issues = Vec::new();
    let mut more = false;
    for rule in rules {
        if let Some(when) = &rule.when {
            if !when.is_valid_tape(instance) {
                continue;
            }
        }
        if rule.then.is_valid_tape(instance) {
            continue;
        }
        if issues.len() >= max_errors {
            more = true;
            break;
        }
        let report = rule.then.validate_tape(instance, 1);
        let (path, schema_path) = report
            .errors
            .first()
            .map(|first| (first.path.clone(), first.schema_path.clone()))
            .unwrap_or_default();
        issues.push(Issue {
            path,
            schema_path: format!("/rules/{}/then{schema_path}", rule.index),
            code: crate::error::RULE_ISSUE_CODE.to_owned(),
            message: hot_path::display::escape_for_display(&redact_secrets(&rule.message)),
            rule: Some(rule.name.clone()),
            params: None,
        });
    }
    (issues, more)
}

#[cfg(test)]
mod tests;
