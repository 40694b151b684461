#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use super::*;
use serde_json::json;

fn observations_schema() -> Value {
    json!({
        "type": "object",
        "required": ["observations"],
        "properties": {
            "observations": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["type", "text", "importance"],
                    "properties": {
                        "type": {"enum": ["fact", "decision", "question"]},
                        "text": {"type": "string", "minLength": 1},
                        "importance": {"type": "integer", "minimum": 1, "maximum": 5}
                    }
                }
            }
        }
    })
}

fn codes(report: &Report) -> Vec<(String, String)> {
    report
        .errors
        .iter()
        .map(|i| (i.path.clone(), i.code.clone()))
        .collect()
}

#[test]
fn hollow_row_names_path_and_enum() {
    let v = compile(&observations_schema(), &CompileOptions::default()).unwrap();
    let report = v.validate(
        &json!({"observations": [{"type": "", "text": "", "importance": 0}]}),
        5,
    );
    assert!(!report.valid);
    assert_eq!(
        codes(&report),
        vec![
            ("/observations/0/importance".into(), "minimum".into()),
            ("/observations/0/text".into(), "minLength".into()),
            ("/observations/0/type".into(), "enum".into()),
        ]
    );
    let type_issue = &report.errors[2];
    assert_eq!(
        type_issue.schema_path,
        "/properties/observations/items/properties/type/enum"
    );
    assert_eq!(
        type_issue.message,
        "The value at /observations/0/type must be one of: \"fact\", \"decision\", \"question\"."
    );
}

#[test]
fn errors_are_capped_and_flagged() {
    let v = compile(&observations_schema(), &CompileOptions::default()).unwrap();
    let rows: Vec<Value> = (0..50)
        .map(|_| json!({"type": "x", "text": "", "importance": 9}))
        .collect();
    let report = v.validate(&json!({ "observations": rows }), 5);
    assert_eq!(report.errors.len(), 5);
    assert!(report.more_errors);
    assert_eq!(report.errors[0].path, "/observations/0/importance");
    let exact = v.validate(
        &json!({"observations": [{"type": "x", "text": "t", "importance": 1}]}),
        1,
    );
    assert_eq!(exact.errors.len(), 1);
    assert!(!exact.more_errors);
}

#[test]
fn formats_are_asserted_by_default() {
    let schema = json!({"type": "object", "properties": {
        "d": {"format": "date"}, "dt": {"format": "date-time"},
        "e": {"format": "email"}, "u": {"format": "uuid"}, "h": {"format": "idn-hostname"}
    }});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    for bad in [
        json!({"d": "2026-02-30"}),
        json!({"dt": "2026-01-01T10:00:00"}),
        json!({"e": "not-an-email"}),
        json!({"u": "1234-not-a-uuid"}),
        json!({"h": "-bad-.com"}),
    ] {
        let report = v.validate(&bad, 5);
        assert_eq!(
            report.errors.first().map(|i| i.code.as_str()),
            Some("format"),
            "{bad}"
        );
    }
    assert!(v.is_valid(&json!({
        "d": "2024-02-29", "dt": "2026-01-01T10:00:00Z", "e": "a@example.com",
        "u": "123e4567-e89b-12d3-a456-426614174000", "h": "münchen.de"
    })));
    let annotate = CompileOptions {
        formats: FormatMode::Annotate,
        ..Default::default()
    };
    let lax = compile(&schema, &annotate).unwrap();
    assert!(lax.is_valid(&json!({"d": "2026-02-30"})));
}

#[test]
fn key_order_hits_the_same_cache_entry_and_hash() {
    clear_cache();
    let a: Value = serde_json::from_str(r#"{"type":"object","required":["a"]}"#).unwrap();
    let b: Value = serde_json::from_str(r#"{"required":["a"],"type":"object"}"#).unwrap();
    let first = compile(&a, &CompileOptions::default()).unwrap();
    let second = compile(&b, &CompileOptions::default()).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!(first.schema_hash(), second.schema_hash());
    let other = compile(
        &a,
        &CompileOptions {
            reject_unknown_fields: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!Arc::ptr_eq(&first, &other));
}

#[test]
fn a_cache_entry_is_handed_out_only_for_the_schema_it_was_compiled_from() {
    clear_cache();
    let options = CompileOptions::default();
    let a = json!({"enum": ["a"]});
    let b = json!({"enum": ["b"]});
    let compiled_a = compile(&a, &options).unwrap();
    // B's key holding A's validator, as a hash collision would leave it.
    let key_b = options.cache_key(&content_hash(&b));
    cache::put(key_b, canonical_json(&a).into(), Arc::clone(&compiled_a));
    let compiled_b = compile(&b, &options).unwrap();
    assert!(!Arc::ptr_eq(&compiled_a, &compiled_b));
    assert!(compiled_b.is_valid(&json!("b")));
    assert!(!compiled_b.is_valid(&json!("a")));
    // And A still finds its own.
    assert!(Arc::ptr_eq(&compile(&a, &options).unwrap(), &compiled_a));
}

#[test]
fn the_schema_hash_is_the_sha256_of_the_canonical_schema() {
    let schema = json!({"type": "object", "required": ["a"]});
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    assert_eq!(
        compiled.schema_hash(),
        crate::hash::sha256_hex(br#"{"required":["a"],"type":"object"}"#)
    );
}

#[test]
fn cache_is_bounded_by_a_count_when_given_one() {
    clear_cache();
    set_cache_capacity(4);
    for i in 0..20 {
        compile(&json!({"maxLength": i}), &CompileOptions::default()).unwrap();
    }
    assert_eq!(cache_len(), 4);
    set_cache_memory(DEFAULT_CACHE_BYTES);
}

thread_local! {
    /// A heap that grows by 1,000 bytes each time it is measured: every
    /// compilation measures it twice, so each validator weighs 1,000 bytes
    /// and its texts.
    static FAKE_HEAP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn fake_heap() -> usize {
    FAKE_HEAP.with(|heap| {
        heap.set(heap.get() + 1000);
        heap.get()
    })
}

#[test]
fn cache_is_bounded_by_the_memory_its_validators_hold() {
    set_memory_meter(fake_heap);
    clear_cache();
    assert_eq!(cache_bound(), CacheBound::Bytes(DEFAULT_CACHE_BYTES));
    let schema = |i: usize| json!({"maxLength": i});
    let first = compile(&schema(0), &CompileOptions::default()).unwrap();
    let weight = first.memory_bytes();
    assert!(weight > 1000 && weight < 1200, "{weight}");
    assert_eq!(cache_bytes(), weight);
    // By default, a few thousand small schemas all stay.
    for i in 1..3000 {
        compile(&schema(i), &CompileOptions::default()).unwrap();
    }
    assert_eq!(cache_len(), 3000);
    assert!(cache_bytes() >= 3000 * 1000);
    // A smaller bound keeps what fits, the most recently used.
    set_cache_memory(10 * weight);
    assert!(cache_bytes() <= 10 * weight, "{}", cache_bytes());
    assert!((9..=10).contains(&cache_len()), "{}", cache_len());
    let (len, bytes) = (cache_len(), cache_bytes());
    let kept = compile(&schema(2999), &CompileOptions::default()).unwrap();
    assert_eq!(
        (cache_len(), cache_bytes()),
        (len, bytes),
        "found again, not compiled again"
    );
    assert!(Arc::ptr_eq(
        &kept,
        &compile(&schema(2999), &CompileOptions::default()).unwrap()
    ));
    // The validator used last stays, however large.
    set_cache_memory(1);
    assert_eq!(cache_len(), 1);
    assert!(Arc::ptr_eq(
        &kept,
        &compile(&schema(2999), &CompileOptions::default()).unwrap()
    ));
    // A count bound replaces the memory bound, and back.
    set_cache_capacity(3);
    for i in 0..5 {
        compile(&schema(i), &CompileOptions::default()).unwrap();
    }
    assert_eq!((cache_len(), cache_bound()), (3, CacheBound::Count(3)));
    set_cache_memory(DEFAULT_CACHE_BYTES);
    clear_cache();
    assert_eq!((cache_len(), cache_bytes()), (0, 0));
}

#[test]
fn invalid_schemas_are_named() {
    let err = compile(&json!({"type": "strnig"}), &CompileOptions::default()).unwrap_err();
    assert!(err.message.contains("/type"), "{}", err.message);
    let err = compile(&json!(42), &CompileOptions::default()).unwrap_err();
    assert_eq!(
        err.message,
        "a schema must be an object or a boolean, not a number"
    );
    let err = parse_schema_text("{\"type\": ").unwrap_err();
    assert!(
        err.message.starts_with("the schema is not valid JSON"),
        "{}",
        err.message
    );
}

#[test]
fn remote_references_are_not_fetched() {
    let err = compile(
        &json!({"$ref": "https://example.com/s.json"}),
        &CompileOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.message.contains("remote references are not fetched"),
        "{}",
        err.message
    );
}

#[test]
fn deep_schemas_are_refused_not_overflowed() {
    // Building and dropping a 1,000-level Value recurses in serde_json itself,
    // so this runs on a thread with room for that; compile must not recurse.
    let run = std::thread::Builder::new().stack_size(256 << 20).spawn(|| {
        let mut schema = json!({"type": "string"});
        for _ in 0..1000 {
            schema = json!({"properties": {"a": schema}});
        }
        compile(&schema, &CompileOptions::default()).unwrap_err()
    });
    let err = run.unwrap().join().unwrap();
    assert!(err.message.contains("deeper than"), "{}", err.message);
}

#[test]
fn catastrophic_pattern_finishes() {
    let v = compile(&json!({"pattern": "^(a+)+$"}), &CompileOptions::default()).unwrap();
    let start = std::time::Instant::now();
    let report = v.validate(&json!(format!("{}!", "a".repeat(40))), 5);
    assert!(!report.valid);
    assert_eq!(report.errors[0].code, "pattern");
    assert!(start.elapsed().as_secs() < 2);
}

#[test]
fn reject_unknown_fields_closes_objects() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let open = compile(&schema, &CompileOptions::default()).unwrap();
    assert!(open.is_valid(&json!({"a": "x", "extra": 1})));
    let closed = compile(
        &schema,
        &CompileOptions {
            reject_unknown_fields: true,
            ..Default::default()
        },
    )
    .unwrap();
    let report = closed.validate(&json!({"a": "x", "extra": 1}), 5);
    assert_eq!(report.errors[0].code, "additionalProperties");
    assert!(
        !report.errors[0].message.contains("extra"),
        "messages never quote output"
    );
}

#[test]
fn draft_option_changes_semantics() {
    // draft 4 has boolean exclusiveMaximum; 2020-12 rejects it as a schema.
    let schema = json!({"maximum": 5, "exclusiveMaximum": true});
    let d4 = CompileOptions {
        draft: parse_draft("4"),
        ..Default::default()
    };
    let v = compile(&schema, &d4).unwrap();
    assert!(!v.is_valid(&json!(5)));
    assert!(v.is_valid(&json!(4)));
    assert!(parse_draft("3").is_none());
}

#[test]
fn resources_serve_refs_from_memory() {
    let options = CompileOptions {
        resources: vec![(
            "https://schemas.example/id.json".into(),
            json!({"type": "string", "pattern": "^id-"}),
        )],
        ..Default::default()
    };
    let v = compile(
        &json!({"properties": {"id": {"$ref": "https://schemas.example/id.json"}}}),
        &options,
    )
    .unwrap();
    assert!(v.is_valid(&json!({"id": "id-1"})));
    assert_eq!(v.validate(&json!({"id": "x"}), 5).errors[0].code, "pattern");
}

#[test]
fn custom_formats_and_unknown_formats() {
    let schema = json!({"format": "ticket"});
    let plain = compile(&schema, &CompileOptions::default()).unwrap();
    assert!(
        plain.is_valid(&json!("anything")),
        "unknown formats are ignored by default"
    );
    let strict = CompileOptions {
        unknown_formats_error: true,
        ..Default::default()
    };
    let err = compile(&schema, &strict).unwrap_err();
    assert!(err.message.contains("ticket"), "{}", err.message);
    let custom = CompileOptions {
        custom_formats: vec![("ticket".into(), "^T-[0-9]+$".into())],
        ..strict
    };
    let v = compile(&schema, &custom).unwrap();
    assert!(v.is_valid(&json!("T-42")));
    assert_eq!(v.validate(&json!("T-x"), 5).errors[0].code, "format");
    let bad = CompileOptions {
        custom_formats: vec![("x".into(), "(".into())],
        ..Default::default()
    };
    assert!(compile(&schema, &bad)
        .unwrap_err()
        .message
        .contains("custom format \"x\""));
}

fn rows_schema() -> Value {
    json!({"type": "object", "properties": {"rows": {"type": "array", "items": {
        "type": "object", "required": ["type", "n"],
        "properties": {"type": {"enum": ["a", "b"]}, "n": {"type": "integer", "minimum": 0}}
    }}}})
}

fn rows(count: usize, bad: impl Fn(usize) -> bool) -> Value {
    let rows: Vec<Value> = (0..count)
        .map(|i| {
            if bad(i) {
                json!({"type": "zz", "n": -1})
            } else {
                json!({"type": "a", "n": i})
            }
        })
        .collect();
    json!({ "rows": rows })
}

#[test]
fn collecting_from_many_invalid_rows_builds_few_errors() {
    let v = compile(&rows_schema(), &CompileOptions::default()).unwrap();
    let (report, work) = v.validate_counted(&rows(2000, |_| true), 5);
    assert_eq!(report.errors.len(), 5);
    assert!(report.more_errors);
    assert_eq!(report.errors[0].path, "/rows/0/n");
    assert_eq!(report.errors[4].path, "/rows/2/n");
    assert_eq!(work.passes, 1);
    assert!(work.errors_built <= 40, "{work:?}");
}

#[test]
fn capped_list_matches_the_head_of_the_full_list() {
    let v = compile(&rows_schema(), &CompileOptions::default()).unwrap();
    let instance = rows(300, |i| i % 7 == 3);
    let capped = v.validate(&instance, 5);
    let full = v.validate(&instance, usize::MAX);
    assert_eq!(capped.errors[..], full.errors[..5]);
    assert!(capped.more_errors);
    assert!(!full.more_errors);
}

#[test]
fn an_error_past_the_prefix_is_still_found_exactly() {
    let v = compile(&rows_schema(), &CompileOptions::default()).unwrap();
    let (report, work) = v.validate_counted(&rows(2000, |i| i == 1999), 5);
    let paths: Vec<&str> = report.errors.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["/rows/1999/n", "/rows/1999/type"]);
    assert!(!report.more_errors);
    assert!(work.passes > 1, "{work:?}");
}

#[test]
fn keywords_that_can_flip_are_never_reported_from_a_prefix() {
    // `contains` is satisfied only by an element far past any first prefix;
    // the other elements break `items`, so the instance is invalid.
    let schema = json!({"type": "array", "contains": {"const": "x"}, "items": {"type": "integer"}});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let mut items: Vec<Value> = (0..200).map(|i| json!(i)).collect();
    items[150] = json!("x");
    let report = v.validate(&Value::Array(items), 5);
    assert_eq!(codes(&report), vec![("/150".into(), "type".into())]);

    let schema = json!({"type": "object", "properties": {
        "a": {"not": {"items": {"type": "integer"}}},
        "b": {"type": "string"}
    }});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let mut a: Vec<Value> = (0..100).map(|i| json!(i)).collect();
    a[90] = json!("s");
    let report = v.validate(&json!({"a": a, "b": 1}), 5);
    assert_eq!(codes(&report), vec![("/b".into(), "type".into())]);

    let schema = json!({"type": "array", "items": {"type": "integer"},
        "oneOf": [{"maxItems": 3}, {"items": {"maximum": 10}}]});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let mut big: Vec<Value> = (0..60).map(|_| json!(1)).collect();
    big[59] = json!(99);
    big[0] = json!("s");
    let report = v.validate(&Value::Array(big), 5);
    assert!(
        report
            .errors
            .iter()
            .all(|i| i.code != "oneOf" || !i.message.contains("more than one")),
        "{report:?}"
    );
}

#[test]
fn capped_list_does_not_depend_on_member_order() {
    let schema = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let forward: serde_json::Map<String, Value> =
        (0..30).map(|i| (format!("k{i:02}"), json!("x"))).collect();
    let reverse: serde_json::Map<String, Value> = (0..30)
        .rev()
        .map(|i| (format!("k{i:02}"), json!("x")))
        .collect();
    let a = v.validate(&Value::Object(forward), 2);
    let b = v.validate(&Value::Object(reverse), 2);
    let paths: Vec<&str> = a.errors.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["/k00", "/k01"]);
    assert_eq!(a, b);
}

/// A small deterministic generator, so the differential test needs no crate.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn capped_list_is_the_head_of_the_full_sorted_list() {
    let schema = json!({"type": "object", "properties": {
        "rows": {"type": "array", "uniqueItems": true, "items": {
            "type": "object", "required": ["id"],
            "properties": {
                "id": {"type": "integer"},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 6},
                "meta": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        }},
        "z": {"type": "string"}
    }});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let mut rng = Lcg(7);
    for case in 0..300 {
        let rows: Vec<Value> = (0..rng.next(60))
            .map(|_| {
                let mut row = serde_json::Map::new();
                if rng.next(10) > 0 {
                    row.insert(
                        "id".into(),
                        if rng.next(8) == 0 {
                            json!("x")
                        } else {
                            json!(rng.next(5))
                        },
                    );
                }
                let tags: Vec<Value> = (0..rng.next(30))
                    .map(|_| json!(["a", "b", "c"][rng.next(3) as usize]))
                    .collect();
                row.insert("tags".into(), Value::Array(tags));
                let meta: serde_json::Map<String, Value> = (0..rng.next(4))
                    .map(|k| {
                        (
                            format!("m{}", rng.next(20) + k),
                            if rng.next(6) == 0 {
                                json!(1)
                            } else {
                                json!("s")
                            },
                        )
                    })
                    .collect();
                row.insert("meta".into(), Value::Object(meta));
                Value::Object(row)
            })
            .collect();
        let instance =
            json!({"rows": rows, "z": if rng.next(3) == 0 { json!(0) } else { json!("ok") }});
        if v.is_valid(&instance) {
            continue;
        }
        let full = v.validate(&instance, usize::MAX);
        for max in [1, 2, 5, 9] {
            let capped = v.validate(&instance, max);
            let head = &full.errors[..max.min(full.errors.len())];
            assert_eq!(capped.errors, head, "case {case}, max {max}");
            assert_eq!(
                capped.more_errors,
                full.errors.len() > max,
                "case {case}, max {max}"
            );
        }
    }
}

#[test]
fn deep_schema_text_names_the_nesting_limit() {
    let mut text = String::from("{\"type\":\"string\"}");
    for _ in 0..70 {
        text = format!("{{\"type\":\"object\",\"properties\":{{\"a\":{text}}}}}");
    }
    let err = parse_schema_text(&text).unwrap_err();
    assert_eq!(err.message, "the schema nests deeper than 127 levels");
}

#[test]
fn resource_keys_are_normalised_like_refs() {
    for key in [
        "http://example.com/int.json#",
        "http://Example.COM/int.json",
        "http://example.com/a/../int.json",
    ] {
        let options = CompileOptions {
            resources: vec![(key.into(), json!({"type": "integer"}))],
            ..Default::default()
        };
        let v = compile(&json!({"$ref": "http://example.com/int.json"}), &options)
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        assert!(v.is_valid(&json!(1)) && !v.is_valid(&json!("a")), "{key}");
    }
}

#[test]
fn custom_meta_schema_vocabulary_wins_over_an_explicit_draft() {
    let meta = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "http://localhost:1234/no-validation.json",
        "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                        "https://json-schema.org/draft/2020-12/vocab/applicator": true}
    });
    let options = CompileOptions {
        draft: parse_draft("2020-12"),
        resources: vec![("http://localhost:1234/no-validation.json".into(), meta)],
        ..Default::default()
    };
    let schema = json!({"$schema": "http://localhost:1234/no-validation.json", "minimum": 10});
    let v = compile(&schema, &options).unwrap();
    assert!(
        v.is_valid(&json!(1)),
        "minimum belongs to a vocabulary the meta-schema leaves out"
    );
}

#[test]
fn one_of_and_any_of_name_each_branch_problem() {
    let schema = json!({"type": "object", "properties": {
        "contact": {"oneOf": [
            {"type": "object", "required": ["email"], "properties": {"email": {"type": "string", "format": "email"}}},
            {"type": "object", "required": ["phone"]}
        ]},
        "id": {"anyOf": [{"type": "integer"}, {"type": "string", "format": "uuid"}]}
    }});
    let v = compile(&schema, &CompileOptions::default()).unwrap();
    let report = v.validate(&json!({"contact": {"email": "nope"}, "id": "x"}), 5);
    let messages: Vec<&str> = report.errors.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(messages, [
        "The value at /contact must match exactly one alternative of oneOf, but matches none (alternative 1 at /contact/email: must be a valid email (format \"email\"); alternative 2 at /contact: is missing the required property \"phone\").",
        "The value at /id must match at least one alternative of anyOf (alternative 1 at /id: must be an integer; alternative 2 at /id: must be a valid uuid (format \"uuid\")).",
    ]);
    let both = v.validate(&json!({"contact": {"email": "a@b.co", "phone": "+1"}}), 5);
    assert_eq!(both.errors[0].message, "The value at /contact must match exactly one alternative of oneOf, but matches more than one.");
    assert!(
        report
            .errors
            .iter()
            .all(|i| !i.message.contains("nope") && !i.message.contains("\"x\"")),
        "no instance values"
    );
}

/// Patterns are ECMA-262: Unicode general categories, scripts and binary
/// properties work, while properties ECMA-262
/// does not have (and whose tables the module leaves out) are schema errors.
#[test]
fn patterns_take_the_unicode_properties_ecma_262_has() {
    let options = CompileOptions::default();
    let accepts = |pattern: &str, text: &str| {
        compile(&json!({ "type": "string", "pattern": pattern }), &options)
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
            .is_valid(&json!(text))
    };
    assert!(accepts(r"^\p{Letter}+$", "Ålesund"));
    assert!(!accepts(r"^\p{Letter}+$", "Ålesund 2"));
    assert!(accepts(r"^\p{Script=Greek}+$", "λόγος"));
    assert!(!accepts(r"^\p{Script=Greek}+$", "logos"));
    assert!(accepts(r"^\p{Alphabetic}\p{Nd}$", "ж٣"));
    assert!(accepts(r"^\w+$", "abc_123"));
    assert!(!accepts(r"^\w+$", "héllo"), "\\w is ASCII in ECMA-262");
    for pattern in [
        r"\p{Age=3.0}",
        r"\p{Grapheme_Cluster_Break=Extend}",
        r"\p{Word_Break=ALetter}",
        r"\p{Sentence_Break=Upper}",
    ] {
        assert!(
            compile(&json!({ "type": "string", "pattern": pattern }), &options).is_err(),
            "{pattern} should be refused"
        );
    }
}

/// Schemas built one after another share compiled patterns: each still
/// matches exactly as its own, an invalid pattern is refused every time it
/// comes back, and the sharing survives the cache starting afresh.
#[test]
fn schemas_share_compiled_patterns_without_changing_answers() {
    let options = CompileOptions::default();
    let for_schema = |i: u32, pattern: &str| {
        json!({
            "$comment": format!("revision {i}"),
            "type": "object",
            "properties": { "id": { "type": "string", "pattern": pattern }, "n": { "maximum": i } }
        })
    };
    for i in 0..(PATTERN_CACHE_BUILDS * 2 + 3) {
        let v = compile(&for_schema(i, "^C-[0-9]{5}$"), &options).unwrap();
        assert!(v.is_valid(&json!({ "id": "C-12345", "n": i })));
        assert!(!v.is_valid(&json!({ "id": "C-1234", "n": i })));
        assert!(!v.is_valid(&json!({ "id": "C-12345", "n": i + 1 })));
        let other = compile(&for_schema(i, "^[a-z]+$"), &options).unwrap();
        assert!(other.is_valid(&json!({ "id": "abc" })));
        assert!(!other.is_valid(&json!({ "id": "C-12345" })));
        assert!(compile(&for_schema(i, "^(unclosed"), &options).is_err());
    }
}

/// A `$ref` holding characters a URI reference cannot (`<`, `>`, a space,
/// `|`, non-ASCII letters) is percent-encoded, then resolved, as ajv does:
/// real-world schemas name definitions after generic types.
#[test]
fn a_ref_with_characters_a_uri_cannot_hold_is_encoded_then_resolved() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Foo<Bar>": { "type": "object", "required": ["bar"] },
            "Map<string, number>": { "additionalProperties": { "type": "number" } },
            "Größe|{x}^`\"": { "type": "integer" },
            "100%": { "const": 1 }
        },
        "properties": {
            "foo": { "$ref": "#/definitions/Foo<Bar>" },
            "map": { "$ref": "#/definitions/Map<string, number>" },
            "size": { "$ref": "#/definitions/Größe|{x}^`\"" },
            "encoded": { "$ref": "#/definitions/Foo%3CBar%3E" },
            "percent": { "$ref": "#/definitions/100%25" },
            "const": { "const": { "$ref": "#/a b" } }
        }
    });
    let compiled = compile(&schema, &CompileOptions::default()).unwrap();
    assert!(compiled.is_valid(&json!({ "foo": { "bar": 1 }, "map": { "a": 1 }, "size": 3, "encoded": { "bar": 1 }, "percent": 1 })));
    assert!(!compiled.is_valid(&json!({ "foo": {} })));
    assert!(!compiled.is_valid(&json!({ "map": { "a": "1" } })));
    assert!(!compiled.is_valid(&json!({ "size": 3.5 })));
    assert!(!compiled.is_valid(&json!({ "encoded": {} })));
    assert!(!compiled.is_valid(&json!({ "percent": 2 })));
    // Data is left as it is: a `const` holding a `$ref` member still means that value.
    assert!(compiled.is_valid(&json!({ "const": { "$ref": "#/a b" } })));
    assert!(!compiled.is_valid(&json!({ "const": { "$ref": "#/a%20b" } })));
}

/// `baseUri` is the initial base URI (the retrieval URI): a root whose
/// `$id` draft 7 ignores beside `$ref` resolves its relative references
/// against it; it is part of the cache key.
#[test]
fn base_uri_is_the_initial_base_uri() {
    let root = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.com/schemas/root.json",
        "$ref": "item.json"
    });
    let item = json!({ "type": "object", "required": ["name"] });
    let other = json!({ "type": "string" });
    let resources = vec![
        ("https://example.com/schemas/item.json".to_owned(), item),
        ("https://example.org/item.json".to_owned(), other),
    ];
    let options = |base: Option<&str>| CompileOptions {
        resources: resources.clone(),
        base_uri: base.map(str::to_owned),
        ..CompileOptions::default()
    };
    assert!(compile(&root, &options(None)).is_err());
    let com = compile(
        &root,
        &options(Some("https://example.com/schemas/root.json")),
    )
    .unwrap();
    assert!(com.is_valid(&json!({ "name": "x" })));
    assert!(!com.is_valid(&json!({})));
    assert!(!com.is_valid(&json!("text")));
    let org = compile(&root, &options(Some("https://example.org/root.json"))).unwrap();
    assert!(org.is_valid(&json!("text")));
    assert!(!org.is_valid(&json!({ "name": "x" })));
}
