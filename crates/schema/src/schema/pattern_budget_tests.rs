//! One budget of pattern-matching work per check (`one_check`): matches
//! share it across array items, object keys, validators, `isValid` and the
//! issue collection, the work a backreference or a lookaround does counts,
//! and each check starts with a full budget whatever the one before spent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use jsonschema::{pattern_steps_left, with_pattern_budget};
use serde_json::json;

use super::*;

/// A backreference pattern whose first alternative tries every way of
/// splitting a run of a's: it costs about twice as much per extra `a`, and
/// the second alternative decides the string in the end.
const COSTLY: &str = "^(?:(a*)*\\1c|a+!)$";

fn costly(a_count: usize) -> String {
    format!("{}!", "a".repeat(a_count))
}

fn schema(schema: Value) -> Arc<CompiledSchema> {
    compile(&schema, &CompileOptions::default()).unwrap()
}

fn codes(report: &Report) -> Vec<(String, String)> {
    report
        .errors
        .iter()
        .map(|issue| (issue.path.clone(), issue.code.clone()))
        .collect()
}

/// Steps `run` spends inside a budget of its own.
fn steps_spent<T>(run: impl FnOnce() -> T) -> (T, usize) {
    with_pattern_budget(usize::MAX, || {
        let result = run();
        (result, usize::MAX - pattern_steps_left().unwrap())
    })
}

const RAN_OUT: &str = "the check's budget for pattern matching ran out";

#[test]
fn items_share_one_budget() {
    let v = schema(json!({"items": {"pattern": COSTLY}}));
    let (valid, one) = steps_spent(|| v.is_valid(&json!([costly(10)])));
    assert!(valid);
    assert!(one > 1_000, "a costly match spends {one} steps");
    let ten = json!(vec![costly(10); 10]);
    let (valid, all) = steps_spent(|| v.is_valid(&ten));
    assert!(valid);
    assert_eq!(
        all,
        one * 10,
        "steps are counted, so the count repeats exactly"
    );
    // A budget for nine and a half items runs out on the tenth.
    with_pattern_budget(one * 19 / 2, || {
        assert!(!v.is_valid(&ten));
        assert_eq!(pattern_steps_left(), Some(0));
    });
    // Outside any budget only the per-match limit applies.
    assert!(v.is_valid(&ten));
}

#[test]
fn the_issue_names_the_budget_and_where_it_ran_out() {
    let v = schema(json!({"items": {"pattern": COSTLY}}));
    let (_, one) = steps_spent(|| v.is_valid(&json!([costly(10)])));
    let report = with_pattern_budget(one * 5 / 2, || v.validate(&json!(vec![costly(10); 10]), 5));
    assert!(!report.valid);
    // The isValid pass spent the budget, so the issue collection that
    // shares it stops at the first costly match.
    assert_eq!(codes(&report), [("/0".to_owned(), "pattern".to_owned())]);
    assert_eq!(
        report.errors[0].message,
        format!("The value at /0 could not be matched against its pattern: {RAN_OUT}, so it is rejected.")
    );
}

#[test]
fn is_valid_and_the_issue_collection_share_the_check_budget() {
    // Valid keys but a wrong type at the end: `validate` runs the patterns
    // in the isValid pass and again in the collection.
    let v = schema(json!({
        "propertyNames": {"pattern": COSTLY},
        "additionalProperties": {"type": "integer"}
    }));
    let mut instance = serde_json::Map::new();
    instance.insert(costly(10), json!("x"));
    let instance = Value::Object(instance);
    let (_, is_valid) = steps_spent(|| v.is_valid(&instance));
    let (report, validate) = steps_spent(|| v.validate(&instance, 5));
    assert_eq!(
        codes(&report),
        [(format!("/{}", costly(10)), "type".to_owned())]
    );
    assert!(validate > is_valid, "the collection matched the key again");
    // A budget that covers the isValid pass but not the collection's
    // second match turns the collection's issue into the budget's.
    let report = with_pattern_budget(is_valid + is_valid / 2, || v.validate(&instance, 5));
    assert!(!report.valid);
    assert!(
        report
            .errors
            .iter()
            .any(|issue| issue.message.contains(RAN_OUT)),
        "{report:?}"
    );
}

#[test]
fn a_check_spends_at_most_its_budget_and_the_next_check_starts_afresh() {
    let v = schema(json!({"items": {"pattern": COSTLY}}));
    // Each costs about 630,000 steps: 20 are more than the budget.
    let hostile = json!(vec![costly(15); 20]);
    let report = v.validate(&hostile, 5);
    assert!(!report.valid);
    assert!(report.errors[0].message.contains(RAN_OUT), "{report:?}");
    // The next check, on its own, has the whole budget again.
    let innocent = json!([costly(15), costly(15)]);
    assert!(v.is_valid(&innocent));
    assert!(v.validate(&innocent, 5).valid);
    assert_eq!(pattern_steps_left(), None);
}

#[test]
fn a_spent_budget_decides_nothing_by_assuming_outcomes() {
    // Valid whatever the pattern decides; with the budget spent the guard
    // cannot tell it from a schema that depends on the match, and refuses.
    let v = schema(json!({"anyOf": [{"pattern": COSTLY}, {"type": "string"}]}));
    with_pattern_budget(0, || assert!(!v.is_valid(&json!(costly(3)))));
    assert!(v.is_valid(&json!(costly(3))));
}

#[test]
fn pattern_properties_property_names_and_rules_share_it() {
    let keys: serde_json::Map<String, Value> = (0..20)
        .map(|i| {
            (
                format!("{}{}", "a".repeat(10), char::from_u32(0x100 + i).unwrap()),
                json!(i),
            )
        })
        .collect();
    let instance = Value::Object(keys);
    for keyword in [
        json!({"patternProperties": {COSTLY: {"type": "string"}}}),
        json!({"propertyNames": {"pattern": COSTLY}}),
        json!({"additionalProperties": false, "patternProperties": {COSTLY: true}}),
    ] {
        let v = schema(keyword.clone());
        let (_, all) = steps_spent(|| v.is_valid(&instance));
        assert!(all > 20 * 1_000, "{keyword}: {all} steps");
        let report = with_pattern_budget(all / 2, || v.validate(&instance, 5));
        assert!(!report.valid, "{keyword}");
        assert!(
            report
                .errors
                .iter()
                .any(|issue| issue.message.contains(RAN_OUT)),
            "{keyword}: {report:?}"
        );
    }
}

#[test]
fn a_backreference_pays_for_the_text_it_compares() {
    let v = schema(json!({"pattern": "(a+)\\1b"}));
    let (_, short) = steps_spent(|| v.is_valid(&json!("a".repeat(200))));
    let (_, long) = steps_spent(|| v.is_valid(&json!("a".repeat(400))));
    // Twice the text: four times the backtracking, and each comparison
    // twice as long.
    assert!(long > short * 6, "{short} then {long} steps");
    // (A smaller budget than a check's, which takes a second to spend in a
    // debug build.)
    let report = with_pattern_budget(1_000_000, || v.validate(&json!("a".repeat(16_000)), 5));
    assert!(report.errors[0].message.contains(RAN_OUT), "{report:?}");
}

#[test]
fn a_lookaround_pays_for_the_text_it_may_scan() {
    for pattern in ["(?!a*!)x", "(?<=(a+)+)b"] {
        let v = schema(json!({ "pattern": pattern }));
        let (_, short) = steps_spent(|| v.is_valid(&json!("a".repeat(200))));
        let (_, long) = steps_spent(|| v.is_valid(&json!("a".repeat(400))));
        // Each of twice the positions may scan twice as far.
        assert!(long > short * 3, "{pattern}: {short} then {long} steps");
        let report = with_pattern_budget(1_000_000, || v.validate(&json!("a".repeat(50_000)), 5));
        assert!(
            report.errors[0].message.contains(RAN_OUT),
            "{pattern}: {report:?}"
        );
    }
}

#[test]
fn a_bounded_lookaround_pays_for_what_it_can_match() {
    // `(?=\d\d)` reads a few characters wherever it is tried, not the rest
    // of the text: the cost grows with the text, not with its square.
    let v = schema(json!({"pattern": "(\\w)\\1(?=\\d\\d)"}));
    let (_, short) = steps_spent(|| v.is_valid(&json!("a".repeat(2_000))));
    let (_, long) = steps_spent(|| v.is_valid(&json!("a".repeat(4_000))));
    assert!(long < short * 5 / 2, "{short} then {long} steps");
}

#[test]
fn patterns_without_backtracking_spend_nothing() {
    let v = schema(json!({"items": {"pattern": "^(a+)+$"}}));
    let (valid, spent) = steps_spent(|| v.is_valid(&json!(vec!["a".repeat(100); 100])));
    assert!(valid);
    assert_eq!(spent, 0);
}

#[test]
fn the_budget_is_the_outermost_checks() {
    assert_eq!(pattern_steps_left(), None);
    one_check(|| {
        assert_eq!(pattern_steps_left(), Some(PATTERN_STEPS_PER_CHECK));
        with_pattern_budget(5, || {
            assert_eq!(pattern_steps_left(), Some(PATTERN_STEPS_PER_CHECK))
        });
    });
    assert_eq!(pattern_steps_left(), None);
}

#[test]
fn a_check_made_of_several_calls_shares_one_budget() {
    let v = schema(json!({"pattern": COSTLY}));
    begin_check();
    assert!(v.is_valid(&json!(costly(12))));
    let after_one = pattern_steps_left().unwrap();
    assert!(after_one < PATTERN_STEPS_PER_CHECK);
    assert!(v.validate(&json!(costly(12)), 5).valid);
    assert!(pattern_steps_left().unwrap() < after_one);
    end_check();
    assert_eq!(pattern_steps_left(), None);
    one_check(|| assert_eq!(pattern_steps_left(), Some(PATTERN_STEPS_PER_CHECK)));
}

#[test]
fn compiling_spends_nothing_from_a_check() {
    // A declared property name is matched against patternProperties when
    // the validator is built; a schema compiled during a check must not
    // charge it, or the check's verdict would depend on the cache.
    let declared = costly(11);
    let schema_value = json!({
        "properties": { declared.clone(): {"type": "integer"} },
        "patternProperties": { COSTLY: {"type": "integer"} },
        "additionalProperties": false
    });
    let (_, spent) = steps_spent(|| compile(&schema_value, &CompileOptions::default()).unwrap());
    assert_eq!(spent, 0);
    let v = schema(schema_value);
    assert!(v.is_valid(&json!({ declared: 1 })));
}
