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
