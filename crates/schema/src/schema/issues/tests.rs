use super::*;

#[test]
fn pointers_compare_indices_numerically() {
    assert_eq!(compare_pointers("/rows/2", "/rows/10"), Ordering::Less);
    assert_eq!(compare_pointers("/rows/10/a", "/rows/10/b"), Ordering::Less);
    assert_eq!(compare_pointers("", "/a"), Ordering::Less);
    assert_eq!(compare_pointers("/b", "/a/c"), Ordering::Greater);
}

#[test]
fn long_schema_values_are_shortened() {
    let long = Value::String("x".repeat(500));
    assert!(short_json(&long).chars().count() <= 81);
    assert!(short_json(&long).ends_with('…'));
}

#[test]
fn issues_carry_their_keywords_parameters() {
    let schema = serde_json::json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "name": { "type": "string", "maxLength": 3, "pattern": "^[a-z]+$" },
            "age": { "type": ["integer", "null"], "minimum": 18, "multipleOf": 2 },
            "tags": { "type": "array", "minItems": 2 },
            "email": { "format": "email" },
            "kind": { "enum": ["a", "b"] }
        },
        "additionalProperties": false
    });
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let instance = serde_json::json!({
        "name": "ABCDE", "age": 17, "tags": [], "email": "nope", "kind": "c", "extra": 1, "size": "x"
    });
    let mut params = std::collections::BTreeMap::new();
    for error in validator.iter_errors(&instance) {
        let issue = to_issue(&error);
        params.insert(format!("{} {}", issue.path, issue.code), issue.params);
    }
    let expect = |key: &str, value: Option<Value>| {
        assert_eq!(params.get(key), Some(&value), "{key} in {params:?}");
    };
    use serde_json::json;
    expect(" required", Some(json!({ "missingProperty": "id" })));
    expect("/name maxLength", Some(json!({ "limit": 3 })));
    expect("/name pattern", Some(json!({ "pattern": "^[a-z]+$" })));
    expect("/age minimum", Some(json!({ "limit": 18 })));
    expect("/age multipleOf", Some(json!({ "multipleOf": 2.0 })));
    expect("/tags minItems", Some(json!({ "limit": 2 })));
    expect("/email format", Some(json!({ "format": "email" })));
    // Large schema values, and names the model wrote, are not parameters.
    expect("/kind enum", None);
    expect(" additionalProperties", None);
    let typed = validator
        .iter_errors(&json!({ "id": 1, "age": "x" }))
        .map(|e| to_issue(&e))
        .find(|i| i.code == "type");
    // A list of types comes in the validator's fixed order, not the schema's.
    assert_eq!(
        typed.unwrap().params,
        Some(json!({ "type": ["null", "integer"] }))
    );
}

#[test]
fn issues_are_written_as_serde_json_writes_them() {
    use serde_json::json;
    let schema = json!({
        "type": "object",
        "required": ["id", "a\"b\\c\n"],
        "properties": {
            "name": { "type": "string", "maxLength": 3, "pattern": "^[a-z]+\\d\"$" },
            "age": { "type": ["integer", "null"], "minimum": 18.5, "multipleOf": 0.25, "maximum": -3 },
            "tags": { "type": "array", "minItems": 2, "items": { "const": { "k": [1, 2.5, null, true] } } },
            "email": { "format": "email" },
            "kind": { "enum": ["a", "b\u{1}", "é"] }
        },
        "additionalProperties": false
    });
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let instance = json!({
        "name": "ABCDE", "age": 17.3, "tags": [3], "email": "nope", "kind": "c", "x\ty/~": 1, "size": "x"
    });
    let mut issues: Vec<Issue> = validator
        .iter_errors(&instance)
        .map(|e| to_issue(&e))
        .collect();
    assert!(issues.len() >= 8, "{issues:?}");
    let mut ruled = issues.first().cloned().unwrap();
    ruled.code = "rule".to_owned();
    ruled.rule = Some("total \"matches\"\u{7f}\u{2028}".to_owned());
    issues.push(ruled);
    for cut in 0..=issues.len() {
        let mut out = String::new();
        let head = issues.get(..cut).unwrap();
        push_issues_json(&mut out, head);
        assert_eq!(out, serde_json::to_string(head).unwrap());
    }
    for (valid, more) in [(true, false), (false, true), (false, false)] {
        let report = super::super::Report {
            valid,
            errors: issues.clone(),
            more_errors: more,
        };
        assert_eq!(report.to_json(), serde_json::to_string(&report).unwrap());
    }
}

#[test]
fn plurals() {
    assert_eq!(plural(1, "item"), "item");
    assert_eq!(plural(2, "property"), "properties");
    assert_eq!(plural(0, "character"), "characters");
}

/// A multiple is written in the positional notation `{}` writes an `f64`
/// in, with digits that read back as the same number: those `{}` writes
/// wherever it needs at most 15, as many where it needs more (16 or 17
/// digits can name a number two ways, and the two printers may choose
/// differently).
#[test]
fn multiples_are_written_as_display_writes_an_f64() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let special = [
        0.0,
        -0.0,
        1.0,
        2.0,
        0.5,
        0.01,
        0.1 + 0.2,
        1e-7,
        1e15,
        1e16,
        1e17,
        1e21,
        1e300,
        -1e-300,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        123_456.789,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let random = (0..50_000).flat_map(|_| {
        let bits = next();
        #[allow(clippy::cast_precision_loss)]
        let decimal = (bits % 1_000_000) as f64 / 1000.0;
        [f64::from_bits(bits), decimal]
    });
    for value in special.into_iter().chain(random) {
        let written = jsonschema::PlainDecimal(value).to_string();
        let display = value.to_string();
        let significant = display
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .trim_matches('0')
            .len();
        if significant <= 15 {
            assert_eq!(written, display, "{value:?}");
        } else {
            assert_eq!(written.parse::<f64>().unwrap(), value, "{value:?}");
            assert_eq!(written.len(), display.len(), "{value:?}");
        }
    }
    let kind = ValidationErrorKind::MultipleOf { multiple_of: 1e-7 };
    assert_eq!(describe(&kind, 0), "must be a multiple of 0.0000001");
}
