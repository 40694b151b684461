//! What collecting the issues of an invalid value may cost: bounded work
//! whatever the applicators (subschemas shared through references, trees of
//! `anyOf`/`oneOf`, many property names, long `required` lists), messages of
//! bounded size, and the same issues as an unbounded collection would give.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use jsonschema::error::ValidationErrorKind;
use serde_json::{json, Value};

use super::issues::{CONTEXT_BRANCHES, MAX_MESSAGE_CHARS};
use super::{compile, CompileOptions};
use crate::tape::{self, TapeJson, TapeNode};

/// `$defs` d0 .. d(levels-1), each an `applicator` of two references to the
/// next, and a last one that `{"x": {}}` fails at `/x`: 2^levels paths lead
/// to that last subschema.
fn shared_tree(applicator: &str, levels: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
        defs.insert(format!("d{i}"), json!({applicator: [next.clone(), next]}));
    }
    defs.insert(format!("d{levels}"), json!({"type": "string"}));
    json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs})
}

fn members(count: usize, name: impl Fn(usize) -> String) -> Value {
    Value::Object((0..count).map(|i| (name(i), json!(i))).collect())
}

#[test]
fn a_subschema_that_many_references_reach_adds_its_error_once() {
    let v = compile(&shared_tree("allOf", 14), &CompileOptions::default()).unwrap();
    let (report, work) = v.validate_counted(&json!({"x": {}}), 5);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].path, "/x");
    assert_eq!(report.errors[0].schema_path, "/$defs/d14/type");
    assert!(!report.more_errors);
    // 2^14 without the bound.
    assert_eq!(work.errors_built, 1, "{work:?}");
}

/// An error and the errors its context holds.
fn held(error: &jsonschema::ValidationError<'_>) -> usize {
    1 + match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context.iter().flatten().map(held).sum()
        }
        _ => 0,
    }
}

#[test]
fn anyof_and_oneof_contexts_hold_a_bounded_number_of_errors() {
    for applicator in ["anyOf", "oneOf"] {
        let schema = shared_tree(applicator, 12);
        let v = compile(&schema, &CompileOptions::default()).unwrap();
        let (report, work) = v.validate_counted(&json!({"x": {}}), 5);
        assert_eq!(report.errors.len(), 1, "{applicator}");
        assert_eq!(report.errors[0].code, applicator);
        // The error and one error per branch collected.
        assert!(
            work.errors_built <= 1 + CONTEXT_BRANCHES,
            "{applicator}: {work:?}"
        );
        // As the collection builds them: 2^13 without the bound.
        let tape = tape::parse(r#"{"x": {}}"#).unwrap();
        let errors: Vec<_> = v
            .validator
            .iter_errors_bounded(TapeNode::full(&tape), CONTEXT_BRANCHES)
            .collect();
        let built: usize = errors.iter().map(held).sum();
        assert!(
            built <= 1 + CONTEXT_BRANCHES,
            "{applicator}: {built} errors"
        );
    }
}

#[test]
fn messages_are_bounded_however_deep_or_wide_the_alternatives() {
    let mut schemas = vec![
        (shared_tree("anyOf", 12), json!({"x": {}})),
        (shared_tree("oneOf", 12), json!({"x": {}})),
    ];
    // Two levels of three alternatives, each naming long enum values.
    let long: Vec<String> = (0..12)
        .map(|i| format!("{i}-{}", "v".repeat(100)))
        .collect();
    let mut wide = json!({"enum": long});
    for _ in 0..2 {
        wide = json!({"anyOf": [wide.clone(), wide.clone(), wide]});
    }
    schemas.push((
        json!({"type": "object", "properties": {"x": wide}}),
        json!({"x": "b"}),
    ));
    let pattern = json!({"type": "object", "properties": {"x": {"pattern": "a".repeat(5000)}}});
    schemas.push((pattern, json!({"x": "b"})));
    for (schema, instance) in schemas {
        let v = compile(&schema, &CompileOptions::default()).unwrap();
        let report = v.validate(&instance, 5);
        assert!(!report.errors.is_empty());
        for issue in &report.errors {
            let chars = issue.message.chars().count();
            assert!(
                chars <= MAX_MESSAGE_CHARS,
                "{chars} characters: {}",
                &issue.message[..200]
            );
        }
    }
    let v = compile(
        &json!({"pattern": "a".repeat(5000)}),
        &CompileOptions::default(),
    )
    .unwrap();
    let message = &v.validate(&json!("b"), 5).errors[0].message;
    assert_eq!(message.chars().count(), MAX_MESSAGE_CHARS);
    assert!(message.starts_with("The response must match the pattern aaa"));
    assert!(message.ends_with('…'));
}

#[test]
fn a_message_names_the_problems_two_levels_of_alternatives_deep() {
    let schema = json!({"type": "object", "properties": {"x": {"anyOf": [
        {"anyOf": [{"type": "integer"}, {"anyOf": [{"type": "null"}, {"type": "boolean"}]}]},
        {"type": "string", "maxLength": 1}
    ]}}});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let report = v.validate(&json!({"x": "abc"}), 5);
    assert_eq!(
        report.errors[0].message,
        "The value at /x must match at least one alternative of anyOf (alternative 1 at /x: must \
         match at least one alternative of anyOf (alternative 1 at /x: must be an integer; \
         alternative 2 at /x: must match at least one alternative of anyOf); alternative 2 at \
         /x: must be at most 1 character long)."
    );
}

#[test]
fn alternatives_past_the_bound_are_named_without_detail_and_found_exactly() {
    // More branches than the contexts may collect: the issue names none of
    // their problems, and since the prefix view cannot tell whether such an
    // issue holds for the whole array, the whole array is looked at.
    let branches: Vec<Value> = (0..CONTEXT_BRANCHES + 1)
        .map(|i| json!({"const": i}))
        .collect();
    let schema = json!({"type": "array", "items": {"anyOf": branches}});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let mut items: Vec<Value> = (0..300).map(|i| json!(i % 60)).collect();
    items[7] = json!("x");
    items[250] = json!("y");
    let instance = Value::Array(items);
    let (report, work) = v.validate_counted(&instance, 1);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].path, "/7");
    assert_eq!(
        report.errors[0].message,
        "The value at /7 must match at least one alternative of anyOf."
    );
    assert!(report.more_errors);
    assert!(work.passes >= 2, "{work:?}");
    let full = v.validate(&instance, usize::MAX);
    assert_eq!(full.errors.len(), 2);
    assert_eq!(full.errors[..1], report.errors[..]);
}

#[test]
fn errors_over_a_tape_carry_no_copy_of_the_value() {
    // A copy per error made a thousand bad property names cost a thousand
    // copies of the whole object.
    let schema = json!({"type": "object", "propertyNames": {"maxLength": 1}, "required": ["zz"]});
    let validator = jsonschema::options_for::<TapeJson>()
        .build(&schema)
        .unwrap();
    let text = members(50, |i| format!("key{i}")).to_string();
    let tape = tape::parse(&text).unwrap();
    let errors: Vec<_> = validator
        .iter_errors_bounded(TapeNode::full(&tape), 8)
        .collect();
    assert_eq!(errors.len(), 51);
    for error in &errors {
        assert_eq!(error.instance().as_ref(), &Value::Null);
        if let ValidationErrorKind::PropertyNames { error } = error.kind() {
            assert_eq!(error.instance().as_ref(), &Value::Null);
        }
    }
    // What jsonschema says of an error, which it compares errors by, needs
    // no copy either.
    let validator = jsonschema::options_for::<TapeJson>()
        .with_draft(jsonschema::Draft::Draft7)
        .build(&json!({"items": [{"type": "string"}], "additionalItems": false}))
        .unwrap();
    let tape = tape::parse(r#"["a", 1, 2]"#).unwrap();
    let said: Vec<String> = validator
        .iter_errors(TapeNode::full(&tape))
        .map(|e| e.to_string())
        .collect();
    assert_eq!(said, ["Additional items are not allowed"]);
}

fn timed<T>(run: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let result = run();
    (result, started.elapsed())
}

#[test]
fn many_bad_property_names_and_required_names_cost_little() {
    // Each took seconds natively: 8,000 bad names (a copy of the whole object
    // per error), 30,000 required names against 30,000 other members (a scan
    // of the members per name). The bound is generous for a debug build on a
    // loaded machine.
    let names = compile(
        &json!({"type": "object", "propertyNames": {"maxLength": 1}}),
        &CompileOptions::default(),
    )
    .unwrap();
    let (report, spent) = timed(|| names.validate(&members(8000, |i| format!("key{i}")), 5));
    assert_eq!(report.errors.len(), 5);
    assert!(report.more_errors);
    assert!(spent < Duration::from_secs(3), "{spent:?}");

    let required: Vec<String> = (0..30_000).map(|i| format!("r{i}")).collect();
    let v = compile(
        &json!({"type": "object", "required": required}),
        &CompileOptions::default(),
    )
    .unwrap();
    let (report, spent) = timed(|| v.validate(&members(30_000, |i| format!("k{i}")), 5));
    let missing: Vec<&str> = report.errors.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        missing[0],
        "The response is missing the required property \"r0\"."
    );
    assert_eq!(
        missing[4],
        "The response is missing the required property \"r4\"."
    );
    assert!(spent < Duration::from_secs(3), "{spent:?}");
}

#[test]
fn long_required_lists_find_every_name_present_or_missing() {
    // Past the length where the members' names are gathered once: in each
    // row every name but one is present, behind other members and in a prefix
    // view of the array.
    let required: Vec<String> = (0..100).map(|i| format!("n{i}")).collect();
    let schema = json!({"type": "array", "items": {"type": "object", "required": required}});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let row = |missing: usize| {
        let mut row: serde_json::Map<String, Value> =
            (0..50).map(|i| (format!("other{i}"), json!(i))).collect();
        for i in (0..100).rev().filter(|&i| i != missing) {
            row.insert(format!("n{i}"), json!(i));
        }
        Value::Object(row)
    };
    let full_row = {
        let mut row = row(0);
        row.as_object_mut().unwrap().insert("n0".into(), json!(0));
        row
    };
    assert!(v.is_valid(&json!([full_row.clone(), full_row.clone()])));
    let mut rows: Vec<Value> = (0..200).map(|_| full_row.clone()).collect();
    rows[3] = row(42);
    rows[190] = row(99);
    let report = v.validate(&Value::Array(rows), 5);
    let found: Vec<(&str, &str)> = report
        .errors
        .iter()
        .map(|i| (i.path.as_str(), i.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "/3",
                "The value at /3 is missing the required property \"n42\"."
            ),
            (
                "/190",
                "The value at /190 is missing the required property \"n99\"."
            ),
        ]
    );
}

/// Where an error is, which keyword and which subschema raised it, and what
/// it says without the value.
fn error_set(
    errors: impl Iterator<Item = jsonschema::ValidationError<'static>>,
) -> BTreeSet<String> {
    errors
        .map(|e| {
            format!(
                "{} | {} | {}",
                e.instance_path().as_str(),
                e.schema_path().as_str(),
                e.masked()
            )
        })
        .collect()
}

#[test]
fn the_bounded_collection_finds_what_the_unbounded_one_finds_without_repeats() {
    let schemas = [
        shared_tree("allOf", 6),
        json!({"$defs": {"n": {"type": "integer", "minimum": 3}},
            "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"allOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}},
            "items": {"$ref": "#/$defs/n"}, "allOf": [{"$ref": "#/$defs/n"}]}),
        // A cycle: the tree's nodes refer to the root.
        json!({"type": "object", "required": ["v"], "properties": {
            "v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#"}},
            "also": {"allOf": [{"$ref": "#"}, {"$ref": "#/properties/kids/items"}]}}}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b", "maxProperties": 1}, "b": {"$ref": "#/$defs/a", "required": ["q"]}},
            "allOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]}),
        json!({"propertyNames": {"allOf": [{"$ref": "#/$defs/s"}, {"$ref": "#/$defs/s"}]},
            "$defs": {"s": {"maxLength": 2, "pattern": "^[a-z]+$"}}}),
        json!({"anyOf": [{"$ref": "#/$defs/s"}, {"type": "array"}], "$defs": {"s": {"required": ["a", "b"]}},
            "properties": {"a": {"oneOf": [{"$ref": "#/$defs/s"}, {"$ref": "#/$defs/s"}]}}}),
    ];
    let instances = [
        json!({"x": {}}),
        json!({"a": 1, "b": 2.5, "v": "s", "kids": [{"v": 1}, {"kids": [{}]}], "also": {"kids": [{"v": "x"}]}}),
        json!({"A-b": 1, "cde": 2, "q": 1}),
        json!([1, "x", 5]),
        json!({"a": {"b": 1}, "x": 1, "y": 2}),
        json!("s"),
    ];
    let mut compared = 0;
    for schema in &schemas {
        let validator = jsonschema::options_for::<TapeJson>().build(schema).unwrap();
        for instance in &instances {
            let text = instance.to_string();
            let tape = tape::parse(&text).unwrap();
            let unbounded: Vec<_> = validator.iter_errors(TapeNode::full(&tape)).collect();
            let bounded: Vec<_> = validator
                .iter_errors_bounded(TapeNode::full(&tape), 1000)
                .collect();
            let (unbounded, bounded): (Vec<_>, Vec<_>) = (
                unbounded.into_iter().map(|e| e.to_owned()).collect(),
                bounded.into_iter().map(|e| e.to_owned()).collect(),
            );
            assert!(bounded.len() <= unbounded.len());
            assert_eq!(
                error_set(bounded.into_iter()),
                error_set(unbounded.into_iter()),
                "{instance} against {schema}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 36);
}

#[test]
fn a_match_the_pattern_budget_cuts_short_gives_issues_though_errors_carry_no_value() {
    // A match that cannot finish sends jsonschema through its errors once
    // per outcome of that match, comparing them by what they say, and to
    // the value at the match: neither may need a copy of the value.
    const COSTLY: &str = "^(?:(a*)*\\1c|a+!)$";
    let costly = format!("{}!", "a".repeat(12));
    let options = CompileOptions {
        draft: super::parse_draft("7"),
        ..CompileOptions::default()
    };
    let schemas = [
        json!({"items": [{"pattern": COSTLY}], "additionalItems": false}),
        json!({"items": [{"pattern": COSTLY}, {"type": "string"}], "additionalItems": {"type": "integer"}}),
        json!({"items": {"pattern": COSTLY}, "maxItems": 1}),
    ];
    for schema in schemas {
        let v = compile(&schema, &options).unwrap();
        let instance = json!([costly, "x", "y"]);
        for budget in [0, 10, 1_000, 100_000] {
            let report = jsonschema::with_pattern_budget(budget, || v.validate(&instance, 5));
            assert!(!report.valid, "{schema} with {budget} steps");
            assert!(!report.errors.is_empty(), "{schema} with {budget} steps");
        }
    }
}

/// The one issue of a check whose references ran out.
fn references_ran_out(report: &super::Report) -> bool {
    !report.valid
        && report.errors.len() == 1
        && report.errors[0].code == "$ref"
        && report.errors[0].path.is_empty()
        && report.errors[0].message.contains("the check's budget")
}

#[test]
fn references_that_fan_out_past_the_budget_reject_the_check_without_deciding_it() {
    // 2^40 paths lead to the last subschema: before the budget, `is_valid`
    // alone never finished. The bound is generous for a debug build.
    for applicator in ["anyOf", "oneOf"] {
        let v = compile(&shared_tree(applicator, 40), &CompileOptions::default()).unwrap();
        let instance = json!({"x": {}});
        let (report, spent) = timed(|| v.validate(&instance, 5));
        assert!(references_ran_out(&report), "{applicator}: {report:?}");
        assert!(spent < Duration::from_secs(60), "{applicator}: {spent:?}");
        assert!(!v.is_valid(&instance));
    }
    // A valid value walks every path of an allOf tree: refused too, never
    // accepted on a partial walk.
    let mut schema = shared_tree("allOf", 40);
    schema["$defs"]["d40"] = json!({"type": "object"});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    assert!(references_ran_out(&v.validate(&json!({"x": {}}), 5)));
}

#[test]
fn an_unfollowed_reference_under_not_never_makes_the_check_accept() {
    // `not` of a subschema the budget cuts short would read "not false":
    // valid. The check is rejected instead, whatever the walk said.
    let mut schema = shared_tree("anyOf", 40);
    schema["properties"]["x"] = json!({"not": {"$ref": "#/$defs/d0"}});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let instance = json!({"x": {}});
    assert!(references_ran_out(&v.validate(&instance, 5)));
    assert!(!v.is_valid(&instance));
}

#[test]
fn each_check_has_a_whole_reference_budget() {
    // The shallow tree follows 2^14 references per check: far below the
    // budget, every time, after a check that spent the whole budget.
    let deep = compile(&shared_tree("anyOf", 40), &CompileOptions::default()).unwrap();
    let shallow = compile(&shared_tree("anyOf", 14), &CompileOptions::default()).unwrap();
    assert!(references_ran_out(&deep.validate(&json!({"x": {}}), 5)));
    let report = shallow.validate(&json!({"x": {}}), 5);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].code, "anyOf");
    assert!(shallow.is_valid(&json!({"x": "a string"})));
}
