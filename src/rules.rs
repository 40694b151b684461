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

use crate::error::ArgumentError;
use crate::redact::redact_secrets;
use crate::schema::{compile, type_name, CompileOptions, CompiledSchema, Issue, SchemaError};
use crate::tape::Tape;

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
            None => {
                return Err(ArgumentError::new(format!(
                    "{at} needs a \"then\" schema"
                )))
            }
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
pub fn compile_rules(specs: &[RuleSpec], options: &CompileOptions) -> Result<Vec<Rule>, SchemaError> {
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
            message: crate::display::escape_for_display(&redact_secrets(&rule.message)),
            rule: Some(rule.name.clone()),
            params: None,
        });
    }
    (issues, more)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;

    fn run(rules: &Value, instance: &str) -> (Vec<Issue>, bool) {
        let specs = parse_rules(Some(rules)).unwrap();
        let compiled = compile_rules(&specs, &CompileOptions::default()).unwrap();
        let tape = crate::tape::parse(instance).unwrap();
        check_rules(&compiled, &tape, 5)
    }

    fn fail_needs_low_confidence() -> Value {
        json!([{
            "name": "fail-needs-low-confidence",
            "if": {"properties": {"verdict": {"const": "fail"}}, "required": ["verdict"]},
            "then": {"properties": {"confidence": {"maximum": 0.5}}},
            "message": "when the verdict is \"fail\", confidence must be at most 0.5"
        }])
    }

    #[test]
    fn conditional_rule() {
        let rules = fail_needs_low_confidence();
        let (issues, more) = run(&rules, r#"{"verdict":"fail","confidence":0.9}"#);
        assert!(!more);
        assert_eq!(issues.len(), 1);
        let issue = &issues[0];
        assert_eq!(issue.code, "rule");
        assert_eq!(issue.rule.as_deref(), Some("fail-needs-low-confidence"));
        assert_eq!(issue.path, "/confidence");
        assert_eq!(issue.schema_path, "/rules/0/then/properties/confidence/maximum");
        assert_eq!(
            issue.message,
            "when the verdict is \"fail\", confidence must be at most 0.5"
        );
        // The condition does not hold, or the consequence does: no issue.
        assert!(run(&rules, r#"{"verdict":"pass","confidence":0.9}"#).0.is_empty());
        assert!(run(&rules, r#"{"verdict":"fail","confidence":0.5}"#).0.is_empty());
    }

    #[test]
    fn unconditional_rule() {
        let rules = json!([{
            "name": "reasoning-length",
            "then": {"properties": {"reasoning": {"type": "string", "minLength": 20}}},
            "message": "reasoning must be at least 20 characters"
        }]);
        let (issues, _) = run(&rules, r#"{"reasoning":"too short"}"#);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].path, "/reasoning");
        assert!(run(&rules, r#"{"reasoning":"long enough to pass the rule"}"#)
            .0
            .is_empty());
    }

    /// Exactly the roles general, risk and boundary, each once, in any order.
    #[test]
    fn reviewers_hold_each_role_once() {
        let role = |name: &str| {
            json!({"contains": {"properties": {"role": {"const": name}}, "required": ["role"]},
                   "minContains": 1, "maxContains": 1})
        };
        let rules = json!([{
            "name": "reviewer-roles",
            "then": {"properties": {"reviewers": {
                "type": "array", "minItems": 3, "maxItems": 3,
                "allOf": [role("general"), role("risk"), role("boundary")]
            }}, "required": ["reviewers"]},
            "message": "reviewers must be exactly one general, one risk and one boundary reviewer"
        }]);
        let ok = r#"{"reviewers":[{"role":"risk"},{"role":"boundary"},{"role":"general"}]}"#;
        assert!(run(&rules, ok).0.is_empty());
        for bad in [
            r#"{"reviewers":[{"role":"risk"},{"role":"risk"},{"role":"general"}]}"#,
            r#"{"reviewers":[{"role":"risk"},{"role":"general"}]}"#,
            r#"{"reviewers":[{"role":"risk"},{"role":"boundary"},{"role":"general"},{"role":"general"}]}"#,
            r#"{"reviewers":[]}"#,
            r#"{}"#,
        ] {
            let (issues, _) = run(&rules, bad);
            assert_eq!(issues.len(), 1, "{bad}");
            assert_eq!(issues[0].rule.as_deref(), Some("reviewer-roles"));
        }
        let (issues, _) = run(&rules, r#"{"reviewers":[{"role":"risk"},{"role":"general"}]}"#);
        assert_eq!(issues[0].path, "/reviewers");
    }

    #[test]
    fn issues_are_capped_in_rule_order() {
        let rules: Vec<Value> = (0..4)
            .map(|i| json!({"name": format!("r{i}"), "then": false, "message": format!("rule {i}")}))
            .collect();
        let specs = parse_rules(Some(&Value::Array(rules))).unwrap();
        let compiled = compile_rules(&specs, &CompileOptions::default()).unwrap();
        let tape = crate::tape::parse("{}").unwrap();
        let (issues, more) = check_rules(&compiled, &tape, 2);
        assert!(more);
        let names: Vec<_> = issues.iter().map(|i| i.rule.clone().unwrap()).collect();
        assert_eq!(names, ["r0", "r1"]);
        let (all, more) = check_rules(&compiled, &tape, 4);
        assert_eq!(all.len(), 4);
        assert!(!more);
    }

    #[test]
    fn rules_are_never_closed_against_unknown_fields() {
        let specs = parse_rules(Some(&fail_needs_low_confidence())).unwrap();
        let closed = CompileOptions {
            reject_unknown_fields: true,
            ..Default::default()
        };
        let compiled = compile_rules(&specs, &closed).unwrap();
        let tape = crate::tape::parse(r#"{"verdict":"fail","confidence":0.1,"other":1}"#).unwrap();
        assert!(check_rules(&compiled, &tape, 5).0.is_empty());
    }

    #[test]
    fn misuse_is_named() {
        let cases = [
            (json!({}), "options.rules must be an array of rules, not an object"),
            (json!([1]), "options.rules[0] must be an object { name, if?, then, message }, not a number"),
            (json!([{"then": true, "message": "m"}]), "options.rules[0] needs a \"name\""),
            (json!([{"name": " ", "then": true, "message": "m"}]), "options.rules[0].name must not be empty"),
            (json!([{"name": "a", "message": "m"}]), "options.rules[0] needs a \"then\" schema"),
            (json!([{"name": "a", "then": 3, "message": "m"}]), "options.rules[0].then must be a JSON Schema (an object or a boolean), not a number"),
            (json!([{"name": "a", "then": true, "if": "x", "message": "m"}]), "options.rules[0].if must be a JSON Schema (an object or a boolean), not a string"),
            (json!([{"name": "a", "then": true}]), "options.rules[0] needs a \"message\""),
            (json!([{"name": "a", "then": true, "message": "m", "else": {}}]), "options.rules[0] has an unknown member \"else\" (a rule has name, if, then and message)"),
            (json!([{"name": "a", "then": true, "message": "m"}, {"name": "a", "then": true, "message": "m"}]), "options.rules[1]: another rule is already named \"a\"; names must be unique"),
        ];
        for (input, message) in cases {
            assert_eq!(parse_rules(Some(&input)).unwrap_err().message, message, "{input}");
        }
        let too_many = Value::Array(vec![json!({"name": "a", "then": true, "message": "m"}); MAX_RULES + 1]);
        assert!(parse_rules(Some(&too_many)).is_err());
    }

    #[test]
    fn a_broken_rule_schema_names_the_rule() {
        let specs = parse_rules(Some(&json!([{
            "name": "bad", "then": {"type": "no-such-type"}, "message": "m"
        }])))
        .unwrap();
        let e = compile_rules(&specs, &CompileOptions::default()).unwrap_err();
        assert!(e.message.starts_with("rule \"bad\" (then) is not a valid schema"), "{}", e.message);
    }
}
