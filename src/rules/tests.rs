#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use super::*;
use serde_json::json;

fn run(rules: &Value, instance: &str) -> (Vec<Issue>, bool) {
    let specs = parse_rules(Some(rules)).unwrap();
    let compiled = compile_rules(&specs, &CompileOptions::default()).unwrap();
    let tape = hot_path::tape::parse(instance).unwrap();
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
    assert_eq!(
        issue.schema_path,
        "/rules/0/then/properties/confidence/maximum"
    );
    assert_eq!(
        issue.message,
        "when the verdict is \"fail\", confidence must be at most 0.5"
    );
    // The condition does not hold, or the consequence does: no issue.
    assert!(run(&rules, r#"{"verdict":"pass","confidence":0.9}"#)
        .0
        .is_empty());
    assert!(run(&rules, r#"{"verdict":"fail","confidence":0.5}"#)
        .0
        .is_empty());
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
    assert!(
        run(&rules, r#"{"reasoning":"long enough to pass the rule"}"#)
            .0
            .is_empty()
    );
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
    let (issues, _) = run(
        &rules,
        r#"{"reviewers":[{"role":"risk"},{"role":"general"}]}"#,
    );
    assert_eq!(issues[0].path, "/reviewers");
}

#[test]
fn issues_are_capped_in_rule_order() {
    let rules: Vec<Value> = (0..4)
        .map(|i| json!({"name": format!("r{i}"), "then": false, "message": format!("rule {i}")}))
        .collect();
    let specs = parse_rules(Some(&Value::Array(rules))).unwrap();
    let compiled = compile_rules(&specs, &CompileOptions::default()).unwrap();
    let tape = hot_path::tape::parse("{}").unwrap();
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
    let tape = hot_path::tape::parse(r#"{"verdict":"fail","confidence":0.1,"other":1}"#).unwrap();
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
        assert_eq!(
            parse_rules(Some(&input)).unwrap_err().message,
            message,
            "{input}"
        );
    }
    let too_many = Value::Array(vec![
        json!({"name": "a", "then": true, "message": "m"});
        MAX_RULES + 1
    ]);
    assert!(parse_rules(Some(&too_many)).is_err());
}

#[test]
fn a_broken_rule_schema_names_the_rule() {
    let specs = parse_rules(Some(&json!([{
        "name": "bad", "then": {"type": "no-such-type"}, "message": "m"
    }])))
    .unwrap();
    let e = compile_rules(&specs, &CompileOptions::default()).unwrap_err();
    assert!(
        e.message
            .starts_with("rule \"bad\" (then) is not a valid schema"),
        "{}",
        e.message
    );
}
