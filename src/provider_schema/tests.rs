#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use super::*;
use serde_json::json;

/// An extraction schema of the kind executors send: enum, format, string
/// lengths, pattern, numeric bounds, array bounds, optional properties and
/// shared definitions.
fn invoice_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Invoice",
        "type": "object",
        "required": ["invoiceNumber", "issuedOn", "currency", "vendor", "lines", "total"],
        "additionalProperties": false,
        "properties": {
            "invoiceNumber": {"type": "string", "pattern": "^INV-[0-9]{4,}$", "minLength": 8, "description": "As printed"},
            "issuedOn": {"type": "string", "format": "date"},
            "currency": {"enum": ["EUR", "USD", "GBP"]},
            "vendor": {"$ref": "#/$defs/party"},
            "buyer": {"$ref": "#/$defs/party"},
            "lines": {"type": "array", "minItems": 1, "maxItems": 50, "items": {"$ref": "#/$defs/line"}},
            "total": {"type": "number", "minimum": 0, "multipleOf": 0.01},
            "notes": {"type": "string", "maxLength": 500},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "minItems": 2}
        },
        "$defs": {
            "party": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "email": {"type": "string", "format": "email"},
                    "website": {"type": "string", "format": "uri"},
                    "kind": {"const": "company"}
                }
            },
            "line": {
                "type": "object",
                "required": ["description", "quantity", "unitPrice"],
                "additionalProperties": false,
                "properties": {
                    "description": {"type": "string", "minLength": 1, "maxLength": 200},
                    "quantity": {"type": "integer", "exclusiveMinimum": 0},
                    "unitPrice": {"type": "number", "minimum": 0, "maximum": 1000000}
                }
            }
        }
    })
}

/// Nearly every keyword of 2020-12, for the cross-checks.
fn kitchen_sink() -> Value {
    json!({
        "type": "object",
        "required": ["id", "kind"],
        "minProperties": 2,
        "maxProperties": 20,
        "propertyNames": {"maxLength": 30},
        "patternProperties": {"^x-": {"type": "string", "minLength": 2}},
        "dependentRequired": {"start": ["end"]},
        "dependentSchemas": {"start": {"properties": {"end": {"minLength": 10}}}},
        "unevaluatedProperties": false,
        "if": {"properties": {"kind": {"const": "range"}}},
        "then": {"required": ["start"]},
        "else": {"not": {"required": ["start"]}},
        "allOf": [{"properties": {"id": {"minLength": 3}}}],
        "properties": {
            "id": {"type": "string", "format": "uuid"},
            "kind": {"oneOf": [{"const": "range"}, {"const": "point", "description": "One instant"}]},
            "start": {"type": "string", "format": "date-time"},
            "end": {"type": "string", "format": "date-time"},
            "link": {"type": "string", "format": "uri-reference", "maxLength": 2000},
            "score": {"type": "number", "exclusiveMaximum": 1, "exclusiveMinimum": 0, "multipleOf": 0.5},
            "level": {"type": "integer", "minimum": 1, "maximum": 5},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer", "minimum": 0}], "items": false},
            "bag": {"type": "array", "contains": {"const": "x"}, "minContains": 1, "maxContains": 3, "uniqueItems": true, "maxItems": 9, "minItems": 1},
            "meta": {"type": "object", "additionalProperties": {"type": "integer", "maximum": 9}},
            "choice": {"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "integer", "multipleOf": 3}], "oneOf": [{"minLength": 1}, {"minimum": 1}]},
            "fixed": {"const": {"a": 1}},
            "colour": {"type": "string", "enum": ["red", "green"], "default": "red", "examples": ["red"]},
            "nothing": {"not": {}},
            "anything": {},
            "tree": {"$ref": "#/$defs/node"}
        },
        "$defs": {
            "node": {
                "type": "object",
                "required": ["label"],
                "properties": {
                    "label": {"type": "string", "minLength": 1},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 4}
                }
            }
        }
    })
}

fn convert(schema: &Value, provider: Provider) -> ProviderSchema {
    to_provider_schema(schema, provider)
        .unwrap_or_else(|e| panic!("{} rejected the schema: {e}", provider.as_str()))
}

fn listed(result: &ProviderSchema) -> Vec<(String, String)> {
    result
        .unenforced
        .iter()
        .map(|u| (u.path.clone(), u.keyword.clone()))
        .collect()
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(p, k)| ((*p).to_owned(), (*k).to_owned()))
        .collect()
}

fn changes(result: &ProviderSchema) -> Vec<(String, ChangeKind)> {
    result
        .changes
        .iter()
        .map(|c| (c.path.clone(), c.change))
        .collect()
}

/// Calls `f(path, map)` for every subschema of `schema` reachable through
/// applicator keywords, with its JSON Pointer.
fn each_subschema(schema: &Value, path: &str, f: &mut dyn FnMut(&str, &Map<String, Value>)) {
    let Value::Object(map) = schema else { return };
    f(path, map);
    for (key, value) in map {
        let here = child(path, key);
        let maps = [
            "properties",
            "patternProperties",
            "$defs",
            "definitions",
            "dependentSchemas",
        ];
        let lists = ["allOf", "anyOf", "oneOf", "prefixItems"];
        let singles = [
            "items",
            "additionalItems",
            "contains",
            "additionalProperties",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
            "unevaluatedItems",
            "unevaluatedProperties",
        ];
        if maps.contains(&key.as_str()) {
            for (name, sub) in value.as_object().into_iter().flatten() {
                each_subschema(sub, &child(&here, name), f);
            }
        } else if lists.contains(&key.as_str()) || (key == "items" && value.is_array()) {
            for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                each_subschema(sub, &child(&here, &i.to_string()), f);
            }
        } else if singles.contains(&key.as_str()) {
            each_subschema(value, &here, f);
        }
    }
}

/// Whether a restricted mode closes this subschema of the original.
fn closed_by(provider: Provider, node: &Map<String, Value>) -> bool {
    matches!(provider, Provider::OpenAi | Provider::Anthropic)
        && !node.contains_key("$ref")
        && match node.get("type") {
            Some(t) => {
                t == "object" || t.as_array().is_some_and(|ts| ts.contains(&json!("object")))
            }
            None => node.contains_key("properties") || node.contains_key("additionalProperties"),
        }
}

/// What docs/providers.md says each mode enforces, written out independently of
/// the module's tables.
fn enforced_per_providers_md(
    provider: Provider,
    keyword: &str,
    value: &Value,
    node: &Map<String, Value>,
) -> bool {
    let tuple_items = keyword == "items" && (value.is_array() || node.contains_key("prefixItems"));
    // The restricted modes take `required` only as part of an object schema.
    let required = keyword == "required"
        && (matches!(provider, Provider::Gemini | Provider::Ollama) || closed_by(provider, node));
    let shape = required
        || matches!(keyword, "type" | "properties" | "$ref")
        || (keyword == "items" && !tuple_items);
    shape
        || match provider {
            // "supports pattern, formats date-time/time/date/duration/email/
            // hostname/ipv4/ipv6/uuid, multipleOf, (exclusive)minimum/maximum,
            // minItems, maxItems, anyOf, $defs, recursion"; enum per OpenAI's
            // own list of supported types, const as a one-value enum.
            Provider::OpenAi => {
                matches!(
                    keyword,
                    "pattern" | "minItems" | "maxItems" | "anyOf" | "enum"
                ) || (matches!(
                    keyword,
                    "multipleOf" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
                ) && value.is_number())
                    || (keyword == "format"
                        && [
                            "date-time",
                            "time",
                            "date",
                            "duration",
                            "email",
                            "hostname",
                            "ipv4",
                            "ipv6",
                            "uuid",
                        ]
                        .contains(&value.as_str().unwrap_or("")))
                    || (keyword == "const"
                        && !value.is_object()
                        && !value.is_array()
                        && !node.contains_key("enum"))
            }
            // "keeps type, properties, required, enum, const, anyOf (oneOf
            // becomes anyOf), allOf, $ref/$defs, description, title, formats
            // date-time/time/date/duration/email/hostname/uri/ipv4/ipv6/uuid,
            // and minItems 0 or 1"
            Provider::Anthropic => {
                matches!(keyword, "enum" | "const" | "anyOf" | "allOf")
                    || (keyword == "format"
                        && [
                            "date-time",
                            "time",
                            "date",
                            "duration",
                            "email",
                            "hostname",
                            "uri",
                            "ipv4",
                            "ipv6",
                            "uuid",
                        ]
                        .contains(&value.as_str().unwrap_or("")))
                    || (keyword == "minItems" && matches!(value.as_u64(), Some(0 | 1)))
            }
            // Silent beyond the shape.
            Provider::Gemini | Provider::Ollama => false,
        }
}

/// Every constraint keyword of the original is enforced per docs/providers.md,
/// listed at its own path, or inside the subschemas of a keyword that is
/// listed or made moot (a closed object has no other properties to
/// constrain); and every listed entry names a keyword that is there.
fn unaccounted(schema: &Value, provider: Provider, result: &ProviderSchema) -> Vec<String> {
    let listed = listed(result);
    let mut covered_subtrees: Vec<String> = listed.iter().map(|(p, k)| child(p, k)).collect();
    each_subschema(schema, "", &mut |path, map| {
        if closed_by(provider, map) {
            covered_subtrees.push(child(path, "additionalProperties"));
            covered_subtrees.push(child(path, "unevaluatedProperties"));
        }
    });
    let mut missing = Vec::new();
    each_subschema(schema, "", &mut |path, map| {
        let moot = closed_by(provider, map);
        for (keyword, value) in map {
            if !CONSTRAINTS.contains(&keyword.as_str()) || is_trivial(keyword, value) {
                continue;
            }
            let covered = enforced_per_providers_md(provider, keyword, value, map)
                || (moot
                    && matches!(
                        keyword.as_str(),
                        "additionalProperties" | "unevaluatedProperties"
                    ))
                || listed.contains(&(path.to_owned(), keyword.clone()))
                || covered_subtrees
                    .iter()
                    .any(|inside| path == inside || path.starts_with(&format!("{inside}/")));
            if !covered {
                missing.push(format!("{path} {keyword}"));
            }
        }
    });
    for (path, keyword) in &listed {
        if schema
            .pointer(path)
            .and_then(|node| node.get(keyword))
            .is_none()
        {
            missing.push(format!("listed but absent: {path} {keyword}"));
        }
    }
    missing
}

fn assert_every_constraint_accounted_for(schema: &Value, provider: Provider) {
    let result = convert(schema, provider);
    let missing = unaccounted(schema, provider, &result);
    assert!(
        missing.is_empty(),
        "{}: neither enforced nor listed: {missing:?}",
        provider.as_str()
    );
}

#[test]
fn every_constraint_is_enforced_or_listed_for_every_provider() {
    for provider in Provider::ALL {
        assert_every_constraint_accounted_for(&invoice_schema(), provider);
        assert_every_constraint_accounted_for(&kitchen_sink(), provider);
    }
}

#[test]
fn the_cross_check_notices_a_missing_or_invented_entry() {
    // The check above is only as good as its ability to fail.
    let schema = invoice_schema();
    let mut result = convert(&schema, Provider::Anthropic);
    result.unenforced.retain(|u| u.keyword != "pattern");
    assert_eq!(
        unaccounted(&schema, Provider::Anthropic, &result),
        ["/properties/invoiceNumber pattern"]
    );
    let mut result = convert(&schema, Provider::Gemini);
    result.unenforced.push(Unenforced {
        path: "/properties/total".to_owned(),
        keyword: "maximum".to_owned(),
    });
    assert_eq!(
        unaccounted(&schema, Provider::Gemini, &result),
        ["listed but absent: /properties/total maximum"]
    );
}

/// The keywords a restricted mode may receive, per docs/providers.md.
fn assert_sends_only(schema: &Value, allowed: &[&str], formats: &[&str]) {
    each_subschema(schema, "", &mut |path, map| {
        for (keyword, value) in map {
            assert!(
                allowed.contains(&keyword.as_str()),
                "{path} sends {keyword}"
            );
            if keyword == "format" {
                assert!(
                    formats.contains(&value.as_str().unwrap()),
                    "{path} sends format {value}"
                );
            }
        }
        if let Some(extra) = map.get("additionalProperties") {
            assert_eq!(
                extra,
                &json!(false),
                "{path}: additionalProperties is sent only as false"
            );
        }
    });
}

#[test]
fn restricted_modes_receive_only_keywords_they_accept() {
    let openai_allowed = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "$ref",
        "$defs",
        "description",
        "title",
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
    ];
    let anthropic_allowed = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "description",
        "title",
        "format",
        "minItems",
    ];
    for schema in [invoice_schema(), kitchen_sink()] {
        let openai = convert(&schema, Provider::OpenAi).schema;
        assert_sends_only(&openai, &openai_allowed, &OPENAI_FORMATS);
        let anthropic = convert(&schema, Provider::Anthropic).schema;
        assert_sends_only(&anthropic, &anthropic_allowed, &ANTHROPIC_FORMATS);
        each_subschema(&anthropic, "", &mut |path, map| {
            if let Some(n) = map.get("minItems") {
                assert!(
                    n == &json!(0) || n == &json!(1),
                    "{path} sends minItems {n}"
                );
            }
        });
        let gemini = convert(&schema, Provider::Gemini).schema;
        each_subschema(&gemini, "", &mut |path, map| {
            for keyword in ["minLength", "maxLength", "pattern", "const"] {
                assert!(
                    !map.contains_key(keyword),
                    "{path} sends {keyword} to Gemini"
                );
            }
        });
    }
}

#[test]
fn restricted_modes_close_every_object_and_openai_requires_every_property() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let sent = convert(&kitchen_sink(), provider).schema;
        each_subschema(&sent, "", &mut |path, map| {
            if map.get("type") == Some(&json!("object")) {
                assert_eq!(
                    map.get("additionalProperties"),
                    Some(&json!(false)),
                    "{path}"
                );
                if provider == Provider::OpenAi {
                    let names: Vec<Value> = map["properties"]
                        .as_object()
                        .unwrap()
                        .keys()
                        .map(|k| json!(k))
                        .collect();
                    assert_eq!(map["required"], Value::Array(names), "{path}");
                }
            }
        });
    }
}

#[test]
fn openai_lists_exactly_what_strict_mode_leaves_unenforced() {
    let result = convert(&invoice_schema(), Provider::OpenAi);
    assert_eq!(
        listed(&result),
        pairs(&[
            ("/$defs/line/properties/description", "maxLength"),
            ("/$defs/line/properties/description", "minLength"),
            ("/$defs/party/properties/name", "minLength"),
            ("/$defs/party/properties/website", "format"),
            ("/properties/invoiceNumber", "minLength"),
            ("/properties/notes", "maxLength"),
            ("/properties/tags", "uniqueItems"),
        ])
    );
}

#[test]
fn openai_makes_optional_properties_nullable_and_reports_it() {
    let result = convert(&invoice_schema(), Provider::OpenAi);
    assert_eq!(
        changes(&result),
        vec![
            ("/$defs/party".to_owned(), ChangeKind::ClosedObject),
            (
                "/$defs/party/properties/email".to_owned(),
                ChangeKind::OptionalNullable
            ),
            (
                "/$defs/party/properties/kind".to_owned(),
                ChangeKind::OptionalNullable
            ),
            (
                "/$defs/party/properties/website".to_owned(),
                ChangeKind::OptionalNullable
            ),
            ("/properties/buyer".to_owned(), ChangeKind::OptionalNullable),
            ("/properties/notes".to_owned(), ChangeKind::OptionalNullable),
            ("/properties/tags".to_owned(), ChangeKind::OptionalNullable),
        ]
    );
    let sent = &result.schema;
    assert_eq!(
        sent["required"],
        json!([
            "invoiceNumber",
            "issuedOn",
            "currency",
            "vendor",
            "buyer",
            "lines",
            "total",
            "notes",
            "tags"
        ])
    );
    assert_eq!(
        sent["properties"]["buyer"],
        json!({"anyOf": [{"$ref": "#/$defs/party"}, {"type": "null"}]})
    );
    assert_eq!(
        sent["properties"]["vendor"],
        json!({"$ref": "#/$defs/party"})
    );
    assert_eq!(
        sent["properties"]["notes"],
        json!({"type": ["string", "null"], "description": "{maxLength: 500}"})
    );
    assert_eq!(sent["properties"]["tags"]["type"], json!(["array", "null"]));
    assert_eq!(
        sent["$defs"]["party"]["properties"]["kind"],
        json!({"enum": ["company", null], "type": ["string", "null"]})
    );
    assert_eq!(
        sent["$defs"]["party"]["properties"]["name"],
        json!({"type": "string", "description": "{minLength: 1}"})
    );
    assert_eq!(sent["$defs"]["party"]["additionalProperties"], json!(false));
    assert_eq!(
        sent["$defs"]["party"]["required"],
        json!(["name", "email", "website", "kind"])
    );
}

#[test]
fn openai_keeps_what_it_enforces_and_describes_the_rest() {
    let sent = convert(&invoice_schema(), Provider::OpenAi).schema;
    assert!(sent.get("$schema").is_none());
    assert_eq!(sent["title"], json!("Invoice"));
    assert_eq!(
        sent["properties"]["invoiceNumber"],
        json!({"type": "string", "pattern": "^INV-[0-9]{4,}$", "description": "As printed\n\n{minLength: 8}"})
    );
    assert_eq!(
        sent["properties"]["issuedOn"],
        json!({"type": "string", "format": "date"})
    );
    assert_eq!(
        sent["properties"]["currency"],
        json!({"enum": ["EUR", "USD", "GBP"], "type": "string"})
    );
    assert_eq!(
        sent["properties"]["total"],
        json!({"type": "number", "minimum": 0, "multipleOf": 0.01})
    );
    assert_eq!(
        sent["properties"]["lines"],
        json!({"type": "array", "minItems": 1, "maxItems": 50, "items": {"$ref": "#/$defs/line"}})
    );
    assert_eq!(
        sent["$defs"]["party"]["properties"]["website"],
        json!({"type": ["string", "null"], "description": "{format: \"uri\"}"})
    );
    assert_eq!(
        sent["$defs"]["line"]["properties"]["quantity"],
        json!({"type": "integer", "exclusiveMinimum": 0})
    );
}

#[test]
fn openai_removes_unsupported_applicators_and_lists_them_once() {
    let result = convert(&kitchen_sink(), Provider::OpenAi);
    let listed = listed(&result);
    for (path, keyword) in [
        ("", "allOf"),
        ("", "if"),
        ("", "then"),
        ("", "else"),
        ("", "dependentRequired"),
        ("", "dependentSchemas"),
        ("", "patternProperties"),
        ("", "propertyNames"),
        ("", "minProperties"),
        ("", "maxProperties"),
        ("/properties/pair", "prefixItems"),
        ("/properties/pair", "items"),
        ("/properties/bag", "contains"),
        ("/properties/bag", "uniqueItems"),
        ("/properties/kind", "oneOf"),
        ("/properties/fixed", "const"),
        ("/properties/nothing", "not"),
        ("/properties/link", "format"),
        ("/properties/link", "maxLength"),
    ] {
        assert!(
            listed.contains(&(path.to_owned(), keyword.to_owned())),
            "{path} {keyword} not listed"
        );
    }
    // Inside a removed keyword only the keyword itself is listed.
    assert!(!listed
        .iter()
        .any(|(p, _)| p.starts_with("/allOf") || p.starts_with("/dependentSchemas")));
    // A closed object already rules out unevaluated properties.
    assert!(!listed.contains(&(String::new(), "unevaluatedProperties".to_owned())));
    let sent = &result.schema;
    for removed in [
        "allOf",
        "if",
        "then",
        "else",
        "dependentRequired",
        "patternProperties",
        "unevaluatedProperties",
    ] {
        assert!(sent.get(removed).is_none(), "{removed} was sent");
    }
    let description = sent["description"].as_str().unwrap();
    assert!(
        description
            .starts_with("{minProperties: 2, maxProperties: 20, propertyNames: {\"maxLength\":30}"),
        "{description}"
    );
    assert!(
        description.contains("allOf: [{\"properties\":{\"id\":{\"minLength\":3}}}]"),
        "{description}"
    );
}

#[test]
fn one_of_is_sent_as_any_of_and_listed() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let result = convert(&kitchen_sink(), provider);
        let kind = &result.schema["properties"]["kind"];
        assert!(kind.get("oneOf").is_none());
        let expected = match provider {
            Provider::OpenAi => json!([
                {"enum": ["range"], "type": "string"},
                {"enum": ["point"], "description": "One instant", "type": "string"}
            ]),
            _ => json!([
                {"const": "range", "type": "string"},
                {"const": "point", "description": "One instant", "type": "string"}
            ]),
        };
        assert_eq!(kind["anyOf"], expected);
        assert!(listed(&result).contains(&("/properties/kind".to_owned(), "oneOf".to_owned())));
        // Beside an anyOf there is no second anyOf to become: described.
        let choice = &result.schema["properties"]["choice"];
        assert!(choice["description"]
            .as_str()
            .unwrap()
            .contains("oneOf: [{\"minLength\":1},{\"minimum\":1}]"));
        assert!(listed(&result).contains(&("/properties/choice".to_owned(), "oneOf".to_owned())));
    }
}

#[test]
fn anthropic_follows_the_sdk_transform() {
    let result = convert(&invoice_schema(), Provider::Anthropic);
    assert_eq!(
        listed(&result),
        pairs(&[
            ("/$defs/line/properties/description", "maxLength"),
            ("/$defs/line/properties/description", "minLength"),
            ("/$defs/line/properties/quantity", "exclusiveMinimum"),
            ("/$defs/line/properties/unitPrice", "maximum"),
            ("/$defs/line/properties/unitPrice", "minimum"),
            ("/$defs/party/properties/name", "minLength"),
            ("/properties/invoiceNumber", "minLength"),
            ("/properties/invoiceNumber", "pattern"),
            ("/properties/lines", "maxItems"),
            ("/properties/notes", "maxLength"),
            ("/properties/tags", "minItems"),
            ("/properties/tags", "uniqueItems"),
            ("/properties/total", "minimum"),
            ("/properties/total", "multipleOf"),
        ])
    );
    assert_eq!(
        changes(&result),
        vec![("/$defs/party".to_owned(), ChangeKind::ClosedObject)]
    );
    let sent = &result.schema;
    // Optional properties stay optional.
    assert_eq!(sent["required"], invoice_schema()["required"]);
    assert_eq!(
        sent["properties"]["buyer"],
        json!({"$ref": "#/$defs/party"})
    );
    assert_eq!(
        sent["properties"]["invoiceNumber"],
        json!({"type": "string", "description": "As printed\n\n{pattern: \"^INV-[0-9]{4,}$\", minLength: 8}"})
    );
    assert_eq!(
        sent["properties"]["lines"],
        json!({"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/line"}, "description": "{maxItems: 50}"})
    );
    assert_eq!(
        sent["properties"]["tags"],
        json!({"type": "array", "items": {"type": "string"}, "description": "{uniqueItems: true, minItems: 2}"})
    );
    assert_eq!(
        sent["$defs"]["party"]["properties"]["website"],
        json!({"type": "string", "format": "uri"})
    );
    assert_eq!(
        sent["$defs"]["party"]["properties"]["kind"],
        json!({"const": "company", "type": "string"})
    );
    assert_eq!(sent["$defs"]["party"]["additionalProperties"], json!(false));
    assert!(sent.get("$schema").is_none());
}

#[test]
fn gemini_removes_what_response_json_schema_rejects_and_lists_the_rest() {
    let result = convert(&invoice_schema(), Provider::Gemini);
    assert_eq!(
        listed(&result),
        pairs(&[
            ("", "additionalProperties"),
            ("/$defs/line", "additionalProperties"),
            ("/$defs/line/properties/description", "maxLength"),
            ("/$defs/line/properties/description", "minLength"),
            ("/$defs/line/properties/quantity", "exclusiveMinimum"),
            ("/$defs/line/properties/unitPrice", "maximum"),
            ("/$defs/line/properties/unitPrice", "minimum"),
            ("/$defs/party/properties/email", "format"),
            ("/$defs/party/properties/kind", "const"),
            ("/$defs/party/properties/name", "minLength"),
            ("/$defs/party/properties/website", "format"),
            ("/properties/currency", "enum"),
            ("/properties/invoiceNumber", "minLength"),
            ("/properties/invoiceNumber", "pattern"),
            ("/properties/issuedOn", "format"),
            ("/properties/lines", "maxItems"),
            ("/properties/lines", "minItems"),
            ("/properties/notes", "maxLength"),
            ("/properties/tags", "minItems"),
            ("/properties/tags", "uniqueItems"),
            ("/properties/total", "minimum"),
            ("/properties/total", "multipleOf"),
        ])
    );
    assert!(result.changes.is_empty());
    let sent = &result.schema;
    assert_eq!(sent["$schema"], invoice_schema()["$schema"]);
    assert_eq!(
        sent["properties"]["issuedOn"],
        json!({"type": "string", "format": "date"})
    );
    assert_eq!(
        sent["properties"]["tags"],
        invoice_schema()["properties"]["tags"]
    );
    assert_eq!(
        sent["properties"]["invoiceNumber"],
        json!({"type": "string", "description": "As printed\n\n{pattern: \"^INV-[0-9]{4,}$\", minLength: 8}"})
    );
    assert_eq!(
        sent["$defs"]["party"]["properties"]["kind"],
        json!({"description": "{const: \"company\"}"})
    );
    // Nothing is closed or made required.
    assert_eq!(sent["required"], invoice_schema()["required"]);
    assert!(sent["$defs"]["party"].get("additionalProperties").is_none());
}

#[test]
fn ollama_sends_the_schema_unchanged_and_lists_everything_beyond_shape() {
    for schema in [invoice_schema(), kitchen_sink()] {
        let result = convert(&schema, Provider::Ollama);
        assert_eq!(result.schema, schema);
        assert!(result.changes.is_empty());
        for (path, keyword) in listed(&result) {
            assert!(
                !matches!(
                    keyword.as_str(),
                    "type" | "properties" | "required" | "$ref"
                ),
                "{path} {keyword} is shape"
            );
        }
    }
    let listed = listed(&convert(&invoice_schema(), Provider::Ollama));
    for entry in [
        ("/properties/currency", "enum"),
        ("/properties/invoiceNumber", "pattern"),
        ("", "additionalProperties"),
    ] {
        assert!(
            listed.contains(&(entry.0.to_owned(), entry.1.to_owned())),
            "{entry:?}"
        );
    }
}

#[test]
fn the_lists_are_sorted_without_duplicates_and_deterministic() {
    for provider in Provider::ALL {
        for schema in [invoice_schema(), kitchen_sink()] {
            let result = convert(&schema, provider);
            let mut sorted = result.unenforced.clone();
            sorted.sort_by(|a, b| (&a.path, &a.keyword).cmp(&(&b.path, &b.keyword)));
            sorted.dedup();
            assert_eq!(result.unenforced, sorted);
            let mut sorted_changes = result.changes.clone();
            sorted_changes.sort();
            sorted_changes.dedup();
            assert_eq!(result.changes, sorted_changes);
            assert_eq!(convert(&schema, provider), result);
        }
    }
}

#[test]
fn constraints_that_constrain_nothing_are_not_listed() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "minLength": 0},
            "b": {"type": "array", "uniqueItems": false, "items": true},
            "c": {"type": "object", "additionalProperties": true, "minProperties": 0}
        }
    });
    for provider in Provider::ALL {
        assert_eq!(
            listed(&convert(&schema, provider)),
            Vec::<(String, String)>::new(),
            "{}",
            provider.as_str()
        );
    }
}

#[test]
fn paths_escape_slash_and_tilde() {
    let schema =
        json!({"type": "object", "properties": {"a/b~c": {"type": "string", "maxLength": 3}}});
    for provider in Provider::ALL {
        let result = convert(&schema, provider);
        assert_eq!(
            listed(&result),
            pairs(&[("/properties/a~1b~0c", "maxLength")])
        );
        assert!(schema.pointer(&result.unenforced[0].path).is_some());
    }
}

#[test]
fn openai_nullable_covers_each_shape_of_subschema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "plain": {"type": "integer"},
            "already": {"type": ["integer", "null"]},
            "choice": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "coded": {"type": "string", "enum": ["a", "b"]},
            "never": false,
            "kept": {"type": "string"}
        },
        "required": ["kept", "ghost"]
    });
    let result = convert(&schema, Provider::OpenAi);
    let props = &result.schema["properties"];
    assert_eq!(props["plain"], json!({"type": ["integer", "null"]}));
    assert_eq!(props["already"], json!({"type": ["integer", "null"]}));
    assert_eq!(
        props["choice"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})
    );
    assert_eq!(
        props["coded"],
        json!({"type": ["string", "null"], "enum": ["a", "b", null]})
    );
    assert_eq!(props["kept"], json!({"type": "string"}));
    assert!(props.get("never").is_none());
    assert_eq!(
        result.schema["required"],
        json!(["plain", "already", "choice", "coded", "kept"])
    );
    // "ghost" is required but can never be sent: listed.
    assert_eq!(listed(&result), pairs(&[("", "required")]));
    let nullable: Vec<String> = result
        .changes
        .iter()
        .filter(|c| c.change == ChangeKind::OptionalNullable)
        .map(|c| c.path.clone())
        .collect();
    assert_eq!(
        nullable,
        [
            "/properties/already",
            "/properties/choice",
            "/properties/coded",
            "/properties/plain"
        ]
    );
}

#[test]
fn an_object_that_was_already_closed_is_not_reported_as_a_change() {
    let closed = json!({"type": "object", "additionalProperties": false, "required": ["a"], "properties": {"a": {"type": "string"}}});
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        assert!(convert(&closed, provider).changes.is_empty());
    }
    let open_map = json!({"type": "object", "additionalProperties": {"type": "string"}});
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let result = convert(&open_map, provider);
        assert_eq!(
            changes(&result),
            vec![(String::new(), ChangeKind::ClosedObject)]
        );
        assert_eq!(result.schema["additionalProperties"], json!(false));
        // The rule for other properties is moot once there are none.
        assert!(result.unenforced.is_empty());
    }
}

#[test]
fn draft_7_definitions_become_defs_and_references_follow() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "required": ["definitions", "term", "alias"],
        "properties": {
            "definitions": {"type": "array", "items": {"$ref": "#/definitions/term"}},
            "term": {"$ref": "#/definitions/term"},
            "alias": {"$ref": "#/properties/definitions"}
        },
        "definitions": {"term": {"type": "string", "minLength": 2}}
    });
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let result = convert(&schema, provider);
        let sent = &result.schema;
        assert!(sent.get("definitions").is_none());
        assert_eq!(sent["$defs"]["term"]["type"], json!("string"));
        assert_eq!(sent["properties"]["term"], json!({"$ref": "#/$defs/term"}));
        assert_eq!(
            sent["properties"]["definitions"]["items"],
            json!({"$ref": "#/$defs/term"})
        );
        // A property that happens to be called "definitions" keeps its name.
        assert_eq!(
            sent["properties"]["alias"],
            json!({"$ref": "#/properties/definitions"})
        );
        // Paths still point into the original.
        assert!(listed(&result).contains(&("/definitions/term".to_owned(), "minLength".to_owned())));
    }
    // The other modes take the schema as written.
    for provider in [Provider::Gemini, Provider::Ollama] {
        let sent = convert(&schema, provider).schema;
        assert_eq!(
            sent["properties"]["term"],
            json!({"$ref": "#/definitions/term"})
        );
        assert!(sent.get("definitions").is_some());
    }
}

#[test]
fn references_into_one_of_follow_it_to_any_of() {
    let schema = json!({
        "type": "object",
        "required": ["a", "b"],
        "properties": {
            "a": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "b": {"$ref": "#/properties/a/oneOf/0"}
        }
    });
    let sent = convert(&schema, Provider::Anthropic).schema;
    assert_eq!(
        sent["properties"]["b"],
        json!({"$ref": "#/properties/a/anyOf/0"})
    );
}

#[test]
fn a_same_name_in_defs_and_definitions_is_an_error() {
    let schema = json!({"$defs": {"a": {"type": "string"}}, "definitions": {"a": {"type": "integer"}}, "type": "object"});
    let err = to_provider_schema(&schema, Provider::OpenAi).unwrap_err();
    assert_eq!(
        err.message,
        "\"a\" is defined both in $defs and in definitions at the root; rename one of them"
    );
    let distinct = json!({"$defs": {"a": {"type": "string"}}, "definitions": {"b": {"type": "integer"}}, "type": "object"});
    let sent = convert(&distinct, Provider::OpenAi).schema;
    assert_eq!(
        sent["$defs"],
        json!({"a": {"type": "string"}, "b": {"type": "integer"}})
    );
}

#[test]
fn recursive_schemas_convert_in_one_pass() {
    let schema = json!({
        "type": "object",
        "required": ["root"],
        "properties": {"root": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {
            "type": "object",
            "required": ["label", "children"],
            "properties": {
                "label": {"type": "string", "maxLength": 40},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
            }
        }}
    });
    for provider in Provider::ALL {
        let result = convert(&schema, provider);
        assert_eq!(
            result.schema["$defs"]["node"]["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/node"})
        );
        assert_eq!(
            listed(&result),
            pairs(&[("/$defs/node/properties/label", "maxLength")])
        );
    }
}

#[test]
fn openai_takes_a_root_reference_to_an_object_schema() {
    // As zod-to-json-schema writes a named schema.
    let schema = json!({
        "$ref": "#/definitions/Invoice",
        "definitions": {"Invoice": {
            "type": "object",
            "required": ["number"],
            "properties": {"number": {"type": "string", "minLength": 3}, "parent": {"$ref": "#/definitions/Invoice"}},
            "additionalProperties": false
        }},
        "$schema": "http://json-schema.org/draft-07/schema#"
    });
    let result = convert(&schema, Provider::OpenAi);
    let sent = &result.schema;
    assert_eq!(sent["type"], json!("object"));
    assert_eq!(
        sent["properties"]["number"],
        json!({"type": "string", "description": "{minLength: 3}"})
    );
    assert_eq!(
        sent["properties"]["parent"],
        json!({"anyOf": [{"$ref": "#/$defs/Invoice"}, {"type": "null"}]})
    );
    assert_eq!(
        sent["$defs"]["Invoice"]["required"],
        json!(["number", "parent"])
    );
    assert!(sent.get("$ref").is_none());
    assert_eq!(
        listed(&result),
        pairs(&[("/definitions/Invoice/properties/number", "minLength")])
    );
    assert_eq!(
        changes(&result),
        vec![(
            "/definitions/Invoice/properties/parent".to_owned(),
            ChangeKind::OptionalNullable
        )]
    );
}

#[test]
fn openai_refuses_a_root_that_is_not_an_object() {
    let cases = [
        (
            json!({"type": "array", "items": {"type": "string"}}),
            "of type \"array\"",
        ),
        (
            json!({"anyOf": [{"type": "object"}, {"type": "string"}]}),
            "anyOf without type \"object\"",
        ),
        (json!({"$ref": "#"}), "a cycle of references"),
        (
            json!({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}),
            "a cycle of references",
        ),
        (
            json!({"$ref": "#/$defs/s", "$defs": {"s": {"type": "string"}}}),
            "a reference to #/$defs/s, which leads to a schema of type \"string\"",
        ),
        (json!({}), "a schema without type \"object\""),
    ];
    for (schema, what) in cases {
        let err = to_provider_schema(&schema, Provider::OpenAi).unwrap_err();
        assert_eq!(
            err.message,
            format!("OpenAI strict mode needs an object schema at the root (type \"object\"), but this schema's root is {what}")
        );
        // The other modes have no such requirement.
        for provider in [Provider::Anthropic, Provider::Gemini, Provider::Ollama] {
            assert!(
                to_provider_schema(&schema, provider).is_ok(),
                "{} {schema}",
                provider.as_str()
            );
        }
    }
}

#[test]
fn a_reference_the_mode_cannot_resolve_is_an_error() {
    let into_removed = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/allOf/0"}},
        "allOf": [{"type": "object"}]
    });
    let err = to_provider_schema(&into_removed, Provider::OpenAi).unwrap_err();
    assert_eq!(
        err.message,
        "OpenAI strict mode cannot resolve the reference \"#/allOf/0\": only references to subschemas it accepts, by JSON Pointer within the schema, can be sent"
    );
    // Anthropic keeps allOf, so the reference still resolves there.
    assert!(to_provider_schema(&into_removed, Provider::Anthropic).is_ok());
    let by_anchor = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#word"}},
        "$defs": {"w": {"$anchor": "word", "type": "string"}}
    });
    let err = to_provider_schema(&by_anchor, Provider::Anthropic).unwrap_err();
    assert!(
        err.message
            .starts_with("Anthropic structured output cannot resolve the reference \"#word\""),
        "{}",
        err.message
    );
    assert!(to_provider_schema(&by_anchor, Provider::Ollama).is_ok());
}

#[test]
fn a_response_format_wrapper_is_unwrapped() {
    let wrapper = json!({"name": "invoice", "strict": true, "schema": invoice_schema()});
    for provider in Provider::ALL {
        assert_eq!(
            convert(&wrapper, provider),
            convert(&invoice_schema(), provider)
        );
    }
}

#[test]
fn schemas_that_cannot_be_converted_name_the_problem() {
    for provider in Provider::ALL {
        let not_object = to_provider_schema(&json!([1, 2]), provider).unwrap_err();
        assert_eq!(
            not_object.message,
            "a schema for a provider must be an object, not an array"
        );
        let boolean = to_provider_schema(&json!(true), provider).unwrap_err();
        assert_eq!(
            boolean.message,
            "a schema for a provider must be an object, not a boolean"
        );
        let invalid = to_provider_schema(
            &json!({"type": "object", "properties": {"a": {"type": "integr"}}}),
            provider,
        )
        .unwrap_err();
        assert!(
            invalid
                .message
                .starts_with("the schema is invalid at /properties/a/type: "),
            "{}",
            invalid.message
        );
        let remote = to_provider_schema(&json!({"$ref": "https://example.com/s.json"}), provider)
            .unwrap_err();
        assert!(
            remote.message.contains("remote references are not fetched"),
            "{}",
            remote.message
        );
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut schema = json!({"type": "string"});
    for _ in 0..300 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    for provider in Provider::ALL {
        let err = to_provider_schema(&schema, provider).unwrap_err();
        assert_eq!(err.message, "the schema nests deeper than 127 levels");
    }
    // The walk is bounded on its own too, whatever checked the schema first.
    let mut walker = Walker {
        provider: Provider::Ollama,
        root: &schema,
        unenforced: Vec::new(),
        changes: Vec::new(),
        refs: Vec::new(),
    };
    assert_eq!(
        walker.convert(&schema, "", 0).unwrap_err().message,
        "the schema nests deeper than 127 levels"
    );
}

#[test]
fn provider_names_are_exact() {
    for provider in Provider::ALL {
        assert_eq!(Provider::parse(provider.as_str()), Ok(provider));
        assert_eq!(
            serde_json::to_value(provider).unwrap(),
            json!(provider.as_str())
        );
    }
    for wrong in ["OpenAI", "claude", "", "gemini "] {
        let err = Provider::parse(wrong).unwrap_err();
        assert_eq!(
            err.message,
            format!("unknown provider \"{wrong}\": expected one of \"openai\", \"anthropic\", \"gemini\", \"ollama\"")
        );
    }
}

#[test]
fn the_result_serialises_as_the_javascript_api_shapes_it() {
    let result = convert(
        &json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 2}}}),
        Provider::OpenAi,
    );
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({
            "schema": {
                "type": "object",
                "properties": {"a": {"type": ["string", "null"], "description": "{maxLength: 2}"}},
                "additionalProperties": false,
                "required": ["a"]
            },
            "unenforced": [{"path": "/properties/a", "keyword": "maxLength"}],
            "changes": [
                {"path": "", "change": "closed_object"},
                {"path": "/properties/a", "change": "optional_nullable"}
            ]
        })
    );
}

#[test]
fn a_bare_required_in_a_branch_is_not_closed_but_listed() {
    // "at least one of email or phone"
    let schema = json!({
        "type": "object",
        "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
        "anyOf": [{"required": ["email"]}, {"required": ["phone"]}]
    });
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let result = convert(&schema, provider);
        assert_eq!(
            result.schema["anyOf"],
            json!([{"description": "{required: [\"email\"]}"}, {"description": "{required: [\"phone\"]}"}])
        );
        assert_eq!(
            listed(&result),
            pairs(&[("/anyOf/0", "required"), ("/anyOf/1", "required")])
        );
        assert_every_constraint_accounted_for(&schema, provider);
    }
    for provider in [Provider::Gemini, Provider::Ollama] {
        assert_eq!(convert(&schema, provider).schema["anyOf"], schema["anyOf"]);
    }
}

#[test]
fn openapi_nullable_is_sent_as_a_null_type_and_listed() {
    let schema = json!({
        "type": "object",
        "properties": {"note": {"type": "string", "nullable": true, "enum": ["a", null]}, "n": {"type": "integer"}},
        "required": ["note", "n"]
    });
    for provider in [Provider::OpenAi, Provider::Gemini, Provider::Ollama] {
        let sent = to_provider_schema(&schema, provider).unwrap();
        assert_eq!(
            sent.schema["properties"]["note"],
            json!({"type": ["string", "null"], "enum": ["a", null]}),
            "{provider:?}"
        );
        assert!(
            sent.changes.contains(&Change {
                path: "/properties/note".into(),
                change: ChangeKind::NullableKeyword
            }),
            "{provider:?}"
        );
        assert!(
            !sent.schema.to_string().contains("nullable"),
            "{provider:?}"
        );
    }
    let sent = to_provider_schema(&schema, Provider::Anthropic).unwrap();
    assert_eq!(
        sent.schema["properties"]["note"],
        json!({"anyOf": [{"type": "string", "enum": ["a", null]}, {"type": "null"}]})
    );
    // Where the guard refuses it (no type), so does the conversion.
    assert!(to_provider_schema(&json!({"type": "object", "properties": {"u": {"anyOf": [{"type": "string"}], "nullable": true}}}), Provider::OpenAi).is_err());
}

#[test]
fn a_gemini_schema_is_converted_as_the_json_schema_it_means() {
    let schema = json!({"type": "OBJECT", "properties": {"rooms": {"type": "ARRAY", "minItems": "1", "items": {"type": "INTEGER", "format": "enum", "enum": ["101"]}}}, "required": ["rooms"], "propertyOrdering": ["rooms"]});
    let sent = to_provider_schema(&schema, Provider::OpenAi).unwrap();
    assert_eq!(
        sent.schema["properties"]["rooms"],
        json!({"type": "array", "minItems": 1, "items": {"type": "integer", "enum": [101]}})
    );
    assert!(sent.unenforced.contains(&Unenforced {
        path: String::new(),
        keyword: "propertyOrdering".into()
    }));
}
