//! Arbitrary JSON through `normalize_usage` and `merge_usage`, read the way
//! the `mergeUsage` export reads it (an array is the list of attempts,
//! anything else is one attempt).
//!
//! Beyond "never panics", the merge is checked against what it promises:
//! a number every attempt records under the same path (with objects all the
//! way down) is the sum over the attempts, in attempt order; `startTime`
//! keeps the earliest, `endTime` the latest, `timeSegments` concatenate,
//! `cost.pricing` is the latest; a single attempt merges to its normal form;
//! and no object member of the result is null.

#![no_main]

use std::cmp::Ordering;
use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Number, Value};
use hot_path::usage::{merge_usage, normalize_usage};

const USAGE_MEMBERS: [&str; 3] = ["tokens", "cost", "timing"];

/// The value at `path` when every container on the way is an object;
/// `Err` when something on the way is neither an object nor absent.
fn walk<'a>(root: &'a Value, path: &[String]) -> Result<Option<&'a Value>, ()> {
    let mut current = root;
    for key in path {
        match current {
            Value::Object(map) => match map.get(key) {
                Some(Value::Null) | None => return Ok(None),
                Some(child) => current = child,
            },
            _ => return Err(()),
        }
    }
    Ok(Some(current))
}

/// Paths to numbers that the merge adds up: everything under `tokens` and
/// `cost`, and under `timing` except `startTime`, `endTime` and
/// `timeSegments`; `cost.pricing` holds rates and is replaced instead.
fn summed_paths(value: &Value, path: &mut Vec<String>, out: &mut BTreeSet<Vec<String>>) {
    match value {
        Value::Number(_) if !path.is_empty() => {
            out.insert(path.clone());
        }
        Value::Object(map) => {
            for (key, child) in map {
                let excluded = match path.as_slice() {
                    [] => !USAGE_MEMBERS.contains(&key.as_str()),
                    [top] if top == "timing" => {
                        ["startTime", "endTime", "timeSegments"].contains(&key.as_str())
                    }
                    [top] if top == "cost" => key == "pricing",
                    _ => false,
                };
                if !excluded {
                    path.push(key.clone());
                    summed_paths(child, path, out);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

fn as_integer(n: &Number) -> Option<i128> {
    if n.is_f64() {
        return None;
    }
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// A sum as the Usage shape defines it: integers stay exact integers while
/// they fit in u64 or i64; otherwise the f64 sum, saturated to the finite range.
fn add(a: &Number, b: &Number) -> Number {
    let finite = |f: f64| {
        let f = f.clamp(f64::MIN, f64::MAX);
        Number::from_f64(f).expect("finite")
    };
    match (as_integer(a), as_integer(b)) {
        (Some(x), Some(y)) => {
            let sum = x + y;
            u64::try_from(sum)
                .map(Number::from)
                .or_else(|_| i64::try_from(sum).map(Number::from))
                .unwrap_or_else(|_| finite(x as f64 + y as f64))
        }
        _ => finite(a.as_f64().expect("finite") + b.as_f64().expect("finite")),
    }
}

fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (as_integer(a), as_integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

fn assert_no_null_members(value: &Value, at: &str) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                assert!(!child.is_null(), "null member at {at}/{key}");
                assert_no_null_members(child, &format!("{at}/{key}"));
            }
        }
        // Array elements are recorded data (segments) and stay as given.
        _ => {}
    }
}

fn strip_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, child)| !child.is_null())
                .map(|(key, child)| (key.clone(), strip_nulls(child)))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

fn path_of(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| (*k).to_owned()).collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let attempts = match input {
        Value::Array(items) => items,
        other => vec![other],
    };

    let normal: Vec<Value> = attempts.iter().map(normalize_usage).collect();
    for (attempt, n) in attempts.iter().zip(&normal) {
        let map = n.as_object().expect("a normal form is an object");
        assert!(
            map.keys().all(|k| USAGE_MEMBERS.contains(&k.as_str())),
            "{n}"
        );
        // A single attempt merges to its normal form, without null members.
        let alone = merge_usage(std::slice::from_ref(attempt));
        assert_eq!(alone, strip_nulls(n));
    }

    let merged = merge_usage(&attempts);
    let members = merged.as_object().expect("a merge is an object");
    assert!(members.keys().all(|k| USAGE_MEMBERS.contains(&k.as_str())));
    assert_no_null_members(&merged, "");

    // Sums: a path where every attempt holds a number or nothing (with
    // objects all the way down) holds the sum of those numbers.
    let mut paths = BTreeSet::new();
    for n in &normal {
        summed_paths(n, &mut Vec::new(), &mut paths);
    }
    'paths: for path in &paths {
        let mut total: Option<Number> = None;
        for n in &normal {
            match walk(n, path) {
                Ok(None) => {}
                Ok(Some(Value::Number(x))) => {
                    total = Some(total.map_or_else(|| x.clone(), |t| add(&t, x)));
                }
                _ => continue 'paths,
            }
        }
        let got = walk(&merged, path).ok().flatten();
        assert_eq!(got, total.map(Value::Number).as_ref(), "sum at {path:?}");
    }

    // Times, segments and pricing, when no attempt gives a conflicting shape.
    let timings: Option<Vec<&Value>> = normal
        .iter()
        .map(|n| walk(n, &path_of(&["timing"])).ok())
        .collect::<Option<Vec<_>>>()
        .map(|all| all.into_iter().flatten().collect());
    if let Some(timings) = timings.filter(|t| t.iter().all(|v| v.is_object())) {
        for (key, wanted) in [
            ("startTime", Ordering::Less),
            ("endTime", Ordering::Greater),
        ] {
            let present: Vec<&Value> = timings
                .iter()
                .filter_map(|t| t.get(key))
                .filter(|v| !v.is_null())
                .collect();
            let expected = if present.iter().all(|v| v.is_number()) {
                present
                    .iter()
                    .copied()
                    .fold(None::<&Value>, |best, v| match best {
                        Some(b)
                            if compare(
                                v.as_number().expect("number"),
                                b.as_number().expect("number"),
                            ) != Some(wanted) =>
                        {
                            Some(b)
                        }
                        _ => Some(v),
                    })
            } else if present.iter().all(|v| v.is_string()) {
                present
                    .iter()
                    .copied()
                    .fold(None::<&Value>, |best, v| match best {
                        Some(b) if v.as_str().cmp(&b.as_str()) != wanted => Some(b),
                        _ => Some(v),
                    })
            } else {
                continue;
            };
            assert_eq!(merged.pointer(&format!("/timing/{key}")), expected, "{key}");
        }
        let segments: Vec<&Value> = timings
            .iter()
            .filter_map(|t| t.get("timeSegments"))
            .filter(|v| !v.is_null())
            .collect();
        if !segments.is_empty() && segments.iter().all(|v| v.is_array()) {
            let all: Vec<Value> = segments
                .iter()
                .flat_map(|v| v.as_array().expect("array").iter().cloned())
                .collect();
            assert_eq!(
                merged.pointer("/timing/timeSegments"),
                Some(&Value::Array(all))
            );
        }
    }
    let costs: Option<Vec<&Value>> = normal
        .iter()
        .map(|n| walk(n, &path_of(&["cost"])).ok())
        .collect::<Option<Vec<_>>>()
        .map(|all| all.into_iter().flatten().collect());
    if let Some(costs) = costs.filter(|c| c.iter().all(|v| v.is_object())) {
        let latest = costs
            .iter()
            .filter_map(|c| c.get("pricing"))
            .filter(|v| !v.is_null())
            .last()
            .map(strip_nulls);
        assert_eq!(merged.pointer("/cost/pricing").cloned(), latest, "pricing");
    }
});
