#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use serde_json::json;

/// `n` members named by `name(i)`, each the schema `def(i)`.
fn members(
    n: usize,
    name: impl Fn(usize) -> String,
    def: impl Fn(usize) -> Value,
) -> serde_json::Map<String, Value> {
    (0..n).map(|i| (name(i), def(i))).collect()
}

fn d(i: usize) -> String {
    format!("d{i}")
}

/// `$defs` d0 .. d(n-1), each a `$ref` to the next; the root refers to d0.
fn chain(n: usize) -> Value {
    let defs = members(n, d, |i| {
        if i + 1 < n {
            json!({ "$ref": format!("#/$defs/d{}", i + 1) })
        } else {
            json!({ "type": "string" })
        }
    });
    json!({ "properties": { "x": { "$ref": "#/$defs/d0" } }, "$defs": defs })
}

#[test]
fn a_reference_chain_counts_each_hop() {
    let short = reference_depth(&chain(10), &[]);
    let long = reference_depth(&chain(1_000), &[]);
    assert!((10..20).contains(&short), "{short}");
    assert!((1_000..1_010).contains(&long), "{long}");
    assert!(reference_depth(&chain(20_000), &[]) > MAX_REFERENCE_DEPTH);
}

#[test]
fn anchors_ids_and_percent_encoded_pointers_are_followed() {
    let defs = members(
        3_000,
        |i| format!("d {i}"),
        |i| json!({ "$anchor": format!("a{i}"), "$ref": format!("#/$defs/d%20{}", i + 1) }),
    );
    assert!(reference_depth(&json!({ "$ref": "#/$defs/d%200", "$defs": defs }), &[]) >= 3_000);

    let anchored = members(
        3_000,
        d,
        |i| json!({ "$anchor": format!("a{i}"), "$ref": format!("#a{}", i + 1) }),
    );
    assert!(reference_depth(&json!({ "$ref": "#a0", "$defs": anchored }), &[]) >= 3_000);

    let resources = members(
        3_000,
        d,
        |i| json!({ "$id": format!("https://example.com/s{i}.json"), "$ref": format!("s{}.json", i + 1) }),
    );
    assert!(reference_depth(&json!({ "$ref": "s0.json", "$defs": resources }), &[]) >= 3_000);
}

#[test]
fn a_cycle_in_place_counts_once_and_one_into_the_instance_counts_per_level() {
    let in_place = json!({ "$defs": { "a": { "$ref": "#/$defs/b" }, "b": { "$ref": "#/$defs/a" } }, "$ref": "#/$defs/a" });
    assert!(reference_depth(&in_place, &[]) < 10);
    let tree = json!({ "type": "object", "properties": { "name": { "type": "string" }, "child": { "$ref": "#" } } });
    let depth = reference_depth(&tree, &[]);
    assert!(depth > MAX_SCHEMA_DEPTH && depth < 1_000, "{depth}");
    // A long chain inside a cycle that moves one level into the instance
    // is walked again at every level.
    let mut defs = members(100, d, |i| json!({ "$ref": format!("#/$defs/d{}", i + 1) }));
    defs.insert(
        "d100".into(),
        json!({ "properties": { "next": { "$ref": "#/$defs/d0" } } }),
    );
    let deep = json!({ "$ref": "#/$defs/d0", "$defs": defs });
    assert!(reference_depth(&deep, &[]) > MAX_REFERENCE_DEPTH);
}

#[test]
fn diamonds_are_measured_without_walking_every_path() {
    // Each level an anyOf of two references to the next: 2^60 paths.
    let mut defs = members(60, d, |i| {
        let next = format!("#/$defs/d{}", i + 1);
        json!({ "anyOf": [{ "$ref": next }, { "$ref": next }] })
    });
    defs.insert("d60".into(), json!({ "type": "string" }));
    let started = std::time::Instant::now();
    let depth = reference_depth(&json!({ "$ref": "#/$defs/d0", "$defs": defs }), &[]);
    assert!((180..400).contains(&depth), "{depth}");
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}

#[test]
fn references_into_the_resources_option_are_followed() {
    let resources: Vec<(String, Value)> = (0..5_000)
        .map(|i| {
            (
                format!("https://example.com/r{i}.json"),
                json!({ "$ref": format!("https://example.com/r{}.json", i + 1) }),
            )
        })
        .collect();
    let borrowed: Vec<(&str, &Value)> = resources
        .iter()
        .map(|(uri, schema)| (uri.as_str(), schema))
        .collect();
    let root = json!({ "$ref": "https://example.com/r0.json" });
    assert!(reference_depth(&root, &borrowed) > MAX_REFERENCE_DEPTH);
    assert!(reference_depth(&root, borrowed.get(..10).unwrap()) < 20);
}
