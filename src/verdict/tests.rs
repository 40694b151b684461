#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::*;
use serde_json::json;

fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["observations"],
        "properties": {
            "observations": {"type": "array", "items": {
                "type": "object",
                "required": ["type", "text", "importance"],
                "properties": {
                    "type": {"enum": ["fact", "decision", "question"]},
                    "text": {"type": "string"},
                    "importance": {"type": "integer"}
                }
            }}
        }
    })
}

const VALID: &str = r#"{"observations":[{"type":"fact","text":"Sky is blue","importance":2}]}"#;

/// The accepted JSON text, parsed (a verdict holds no value of its own).
fn parsed(v: &Verdict) -> Value {
    serde_json::from_str(v.text.as_deref().unwrap()).unwrap()
}

fn check(output: Value) -> Verdict {
    check_output(
        &output,
        SchemaInput::Json(&schema()),
        &CheckOptions::default(),
    )
    .unwrap()
}

#[test]
fn conforming_response_is_accepted() {
    let v = check(json!(VALID));
    assert!(v.ok());
    assert_eq!(v.rescue, Rescue::None);
    assert_eq!(parsed(&v)["observations"][0]["type"], "fact");
    assert_eq!(v.schema_hash.as_deref().map(str::len), Some(64));
    assert!(!v.degraded);
    assert_eq!(v.error_hash(), None);
}

#[test]
fn fenced_json_is_rescued() {
    let v = check(json!(format!("```json\n{VALID}\n```")));
    assert!(v.ok(), "{}", v.message);
    assert_eq!(v.rescue, Rescue::CodeFence);
    let inner =
        r#"{"observations":[{"type":"fact","text":"use ```js\nx()\n``` here","importance":1}]}"#;
    let v = check(json!(format!("```\n{inner}\n```")));
    assert!(v.ok(), "{}", v.message);
    assert_eq!(
        parsed(&v)["observations"][0]["text"],
        "use ```js\nx()\n``` here"
    );
}

#[test]
fn prose_trailing_text_and_cut_json_are_unparseable() {
    for text in [
        format!("Here is the JSON: {VALID}"),
        format!("{VALID} Let me know if you need more."),
        VALID[..VALID.len() - 10].to_owned(),
    ] {
        let v = check(json!(text));
        assert_eq!(v.failure, Some(Failure::Unparseable), "{text}");
        assert!(
            !v.message.contains("Sky is blue"),
            "message must not quote output"
        );
    }
}

#[test]
fn token_limit_finish_reasons_are_truncated_even_when_json_parses() {
    for reason in ["MAX_TOKENS", "length", "max_tokens", "model_length"] {
        let v = check(json!({"content": VALID, "finishReason": reason}));
        assert_eq!(v.failure, Some(Failure::Truncated), "{reason}");
        assert!(v.message.contains(reason));
    }
    for reason in ["end_turn", "stop", "STOP"] {
        assert!(
            check(json!({"content": VALID, "finishReason": reason})).ok(),
            "{reason}"
        );
    }
}

#[test]
fn provider_responses_are_read() {
    let anthropic =
        json!({"content": [{"type": "text", "text": VALID}], "stop_reason": "max_tokens"});
    assert_eq!(check(anthropic).failure, Some(Failure::Truncated));
    let openai = json!({"choices": [{"message": {"content": VALID}, "finish_reason": "stop"}]});
    assert!(check(openai).ok());
}

#[test]
fn hollow_row_fails_schema_with_enum_at_path() {
    let v = check(json!(
        r#"{"observations":[{"type":"","text":"","importance":0}]}"#
    ));
    assert_eq!(v.failure, Some(Failure::Schema));
    assert!(v
        .errors
        .iter()
        .any(|i| i.path == "/observations/0/type" && i.code == "enum"));
    assert!(v.error_hash().is_some());
}

#[test]
fn root_array_is_not_object_unless_allowed() {
    let v = check(json!("[1,2]"));
    assert_eq!(v.failure, Some(Failure::NotObject));
    let options = CheckOptions {
        require_object: false,
        ..Default::default()
    };
    let v = check_output(
        &json!("[1,2]"),
        SchemaInput::Json(&json!({"type": "array"})),
        &options,
    )
    .unwrap();
    assert!(v.ok());
}

#[test]
fn empty_content_is_empty() {
    for output in [
        json!(""),
        json!("   \n"),
        json!({"content": null}),
        json!("```json\n```"),
    ] {
        assert_eq!(
            check(output.clone()).failure,
            Some(Failure::Empty),
            "{output}"
        );
    }
}

#[test]
fn uncompilable_schema_degrades_or_throws() {
    let bad = json!({"type": "strnig"});
    let v = check_output(
        &json!(VALID),
        SchemaInput::Json(&bad),
        &CheckOptions::default(),
    )
    .unwrap();
    assert!(v.ok());
    assert!(v.degraded);
    assert_eq!(v.schema_hash, None);
    let v = check_output(
        &json!("nope"),
        SchemaInput::Json(&bad),
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(v.failure, Some(Failure::Unparseable));
    assert!(v.degraded);
    let throw = CheckOptions {
        on_invalid_schema: OnInvalidSchema::Throw,
        ..Default::default()
    };
    assert!(check_output(&json!(VALID), SchemaInput::Json(&bad), &throw).is_err());
}

#[test]
fn response_format_wrapper_is_unwrapped() {
    let wrapper = json!({"name": "obs", "strict": true, "schema": schema()});
    let (inner, strict) = unwrap_response_format(&wrapper);
    assert_eq!(inner, &schema());
    assert_eq!(strict, Some(true));
    let v = check_output(
        &json!(r#"{"observations":[{"type":"?","text":"","importance":1}]}"#),
        SchemaInput::Json(&wrapper),
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(v.failure, Some(Failure::Schema));
    // A schema describing a property called "schema" is not a wrapper.
    let real = json!({"type": "object", "schema": {"type": "string"}});
    assert_eq!(unwrap_response_format(&real).0, &real);
}

#[test]
fn the_providers_request_forms_unwrap_too() {
    // OpenAI Chat's response_format.
    let chat = json!({"type": "json_schema", "json_schema": {"name": "obs", "strict": false, "schema": schema()}});
    assert_eq!(unwrap_response_format(&chat), (&schema(), Some(false)));
    // The Responses API's text.format.
    let responses =
        json!({"type": "json_schema", "name": "obs", "strict": true, "schema": schema()});
    assert_eq!(unwrap_response_format(&responses), (&schema(), Some(true)));
    let v = check_output(
        &json!(r#"{"observations":[{"type":"?","text":"","importance":1}]}"#),
        SchemaInput::Json(&chat),
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(v.failure, Some(Failure::Schema));
    // Not the forms: another type, extra members, a json_schema that wraps nothing.
    for other in [
        json!({"type": "object", "json_schema": {"schema": schema()}}),
        json!({"type": "json_schema", "json_schema": {"schema": schema()}, "x": 1}),
        json!({"type": "json_schema", "json_schema": {"type": "object"}}),
    ] {
        assert_eq!(unwrap_response_format(&other).0, &other, "{other}");
    }
}

#[test]
fn error_hash_depends_on_class_and_pairs_only() {
    let a = check(json!(
        r#"{"observations":[{"type":"x","text":"a","importance":1}]}"#
    ));
    let b = check(json!(
        r#"{"observations":[{"type":"y","text":"bbb","importance":1}]}"#
    ));
    let c = check(json!(
        r#"{"observations":[{"type":"fact","text":1,"importance":1}]}"#
    ));
    assert_eq!(a.error_hash(), b.error_hash());
    assert_ne!(a.error_hash(), c.error_hash());
    let t1 = check(json!({"content": "{", "finishReason": "length"}));
    let t2 = check(json!({"content": "{\"a\"", "finishReason": "max_tokens"}));
    assert_eq!(t1.error_hash(), t2.error_hash());
    assert_ne!(t1.error_hash(), a.error_hash());
}

#[test]
fn formats_in_responses_are_rejected() {
    let s = json!({"type": "object", "properties": {"when": {"type": "string", "format": "date"}}});
    let v = check_output(
        &json!(r#"{"when":"2026-02-30"}"#),
        SchemaInput::Json(&s),
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(v.failure, Some(Failure::Schema));
    assert_eq!(v.errors[0].code, "format");
}

#[test]
fn span_locates_the_json_in_the_content() {
    let fenced = format!("  ```json\n{VALID}\n```\n");
    let v = check_content(
        &fenced,
        Some("stop"),
        SchemaInput::Json(&schema()),
        &CheckOptions::default(),
    )
    .unwrap();
    assert!(v.ok());
    assert_eq!(&fenced[v.span.clone().unwrap()], VALID);
    assert_eq!(v.text, None);
    let from_object = check(json!({"content": fenced, "finishReason": "stop"}));
    assert_eq!(from_object.text.as_deref(), Some(VALID));
    let truncated = check_content(
        VALID,
        Some("length"),
        SchemaInput::None,
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(truncated.span, None);
}

#[test]
fn json_shape_matches_the_contract() {
    let ok = check(json!(VALID)).to_json();
    assert_eq!(ok["ok"], json!(true));
    assert_eq!(ok["rescue"], json!("none"));
    assert!(ok.get("text").is_none());
    assert!(ok.get("failure").is_none());
    let bad = check(json!({"content": "[]", "finishReason": "stop"})).to_json();
    assert_eq!(bad["ok"], json!(false));
    assert_eq!(bad["failure"], json!("not_object"));
    assert_eq!(bad["errors"], json!([]));
    assert_eq!(bad["moreErrors"], json!(false));
    assert_eq!(bad["finishReason"], json!("stop"));
    assert_eq!(bad["errorHash"].as_str().map(str::len), Some(32));
}

/// The caller gets JSON.parse's value, so integers past 2^53 are checked as
/// the doubles JavaScript reads them as: what is accepted is what is returned.
#[test]
fn integers_past_2_53_are_checked_as_javascript_reads_them() {
    let schema = json!({"type": "object", "properties": {
        "ids": {"uniqueItems": true},
        "n": {"exclusiveMaximum": 9007199254740992_u64}
    }});
    let check = |text: &str| {
        check_content(
            text,
            None,
            SchemaInput::Json(&schema),
            &CheckOptions::default(),
        )
        .unwrap()
    };
    let v = check(r#"{"ids":[9007199254740993,9007199254740992]}"#);
    assert_eq!(v.failure, Some(Failure::Schema));
    assert_eq!(v.errors[0].code, "uniqueItems");
    // 9007199254740993 reads as 9007199254740992, which is not below it.
    assert_eq!(
        check(r#"{"n":9007199254740993}"#).failure,
        Some(Failure::Schema)
    );
    assert!(check(r#"{"ids":[9007199254740994,9007199254740992],"n":9007199254740991}"#).ok());
}

#[test]
fn a_forced_tool_call_is_the_output_with_tool_name() {
    let schema =
        json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}});
    let with_tool = CheckOptions {
        tool_name: Some("extract".into()),
        ..CheckOptions::default()
    };
    let anthropic = json!({"content": [{"type": "tool_use", "id": "t", "name": "extract", "input": {"a": "x"}}], "stop_reason": "tool_use"});
    let chat = json!({"choices": [{"message": {"content": null, "tool_calls": [
        {"id": "c", "function": {"name": "extract", "arguments": "{\"a\":1}"}}]}, "finish_reason": "tool_calls"}]});
    let cut = json!({"choices": [{"message": {"content": null, "tool_calls": [
        {"id": "c", "function": {"name": "extract", "arguments": "{\"a\":"}}]}, "finish_reason": "length"}]});
    let broken = json!({"choices": [{"message": {"content": null, "tool_calls": [
        {"id": "c", "function": {"name": "extract", "arguments": "{\"a\":"}}]}, "finish_reason": "tool_calls"}]});
    let run = |output: &Value, options: &CheckOptions| {
        check_output(output, SchemaInput::Json(&schema), options).unwrap()
    };
    // A parsed value is checked as it is; argument text goes through every stage.
    assert_eq!(run(&anthropic, &with_tool).failure, Some(Failure::Schema));
    assert!(run(&chat, &with_tool).ok());
    assert_eq!(run(&cut, &with_tool).failure, Some(Failure::Truncated));
    assert_eq!(run(&broken, &with_tool).failure, Some(Failure::Unparseable));
    // Without toolName the response has no output, and says what to pass.
    let empty = run(&chat, &CheckOptions::default());
    assert_eq!(empty.failure, Some(Failure::Empty));
    assert!(
        empty.message.contains("\"extract\"") && empty.message.contains("toolName"),
        "{}",
        empty.message
    );
    // Another tool's call is not the output.
    let other = CheckOptions {
        tool_name: Some("lookup".into()),
        ..CheckOptions::default()
    };
    let missing = run(&chat, &other);
    assert_eq!(missing.failure, Some(Failure::Empty));
    assert!(
        missing.message.contains("\"lookup\""),
        "{}",
        missing.message
    );
    // A name the model wrote that is not a plain identifier is not echoed.
    let odd =
        json!({"content": [{"type": "tool_use", "name": "sk-ant-secret value", "input": {}}]});
    let message = run(&odd, &CheckOptions::default()).message;
    assert!(
        !message.contains("secret") && message.contains("1 tool call"),
        "{message}"
    );
}

#[test]
fn push_json_appends_what_serde_json_writes() {
    let values = [
        json!("plain"),
        json!("quote \" backslash \\ slash / tab \t newline \n return \r \u{8} \u{c} \u{1} \u{1f} \u{7f}"),
        json!("é 漢字 😀 \u{2028}"),
        json!(null),
        json!(true),
        json!(0),
        json!(-12345678901234i64),
        json!(18432.5),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!([9, 10, 99, 100, -1, -10, 1u64 << 63, 4_294_967_296u64]),
        json!(0.1),
        json!(-0.0),
        json!(5e-324),
        json!(123456789012345680000.0),
        serde_json::from_str::<Value>("[1.0, 1e2, -0, 12345678901234567890123, 0.30000000000000004]").unwrap(),
        json!({ "tokens": { "input": 1, "output": 2.5 }, "é\"": ["a", null, { "b": [] }] }),
        json!([]),
    ];
    for value in &values {
        let mut out = String::from("before:");
        push_json(&mut out, value);
        assert_eq!(
            out,
            format!("before:{}", serde_json::to_string(value).unwrap())
        );
        let mut by_hand = String::from("before:");
        push_json_value(&mut by_hand, value);
        assert_eq!(by_hand, out);
    }
    for n in [0, 7, 10, 65_535, 4_294_967_295, usize::MAX] {
        let mut out = String::from("n=");
        push_usize(&mut out, n);
        assert_eq!(out, format!("n={n}"));
    }
    let mut out = String::from("[");
    push_json(&mut out, &Some("a\"b"));
    push_json(&mut out, &None::<&str>);
    assert_eq!(out, r#"["a\"b"null"#);
    // A value serde_json refuses (a map with keys that are not strings)
    // leaves what was written before it, and null in its place.
    let refused: std::collections::BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
    let mut out = String::from("{\"a\":");
    push_json(&mut out, &refused);
    assert_eq!(out, "{\"a\":null");
}

#[test]
fn push_json_str_escapes_as_serde_json_does() {
    let mut texts: Vec<String> = (0u8..0x80)
        .map(|b| format!("a{}b", char::from(b)))
        .collect();
    texts.extend(
        [
            "",
            "plain",
            "\"\\\"",
            "é 漢字 😀 \u{2028} \u{7f}",
            "\u{0}\u{1f}\n\r\t\u{8}\u{c}",
            r#"{"a":"b\"c"}"#,
        ]
        .map(str::to_owned),
    );
    for text in &texts {
        let mut out = String::from("x");
        push_json_str(&mut out, text);
        assert_eq!(
            out,
            format!("x{}", serde_json::to_string(text).unwrap()),
            "{text:?}"
        );
    }
    let mut out = String::new();
    push_json_opt(&mut out, None);
    push_json_opt(&mut out, Some("é"));
    assert_eq!(out, "null\"é\"");
}

/// `accepted` accepts exactly what the whole check accepts, at the same span
/// with the same rescue, and hands back a parse only of JSON it refused.
#[test]
fn the_lean_acceptance_agrees_with_the_whole_check() {
    let contents = [
        VALID.to_owned(),
        format!("  {VALID}\n"),
        format!("```json\n{VALID}\n```"),
        format!("~~~\n{VALID}\n~~~"),
        format!("```json\n{VALID}"),
        r#"{"observations":[{"type":"guess","text":"x","importance":2}]}"#.to_owned(),
        r#"{"observations":[{"type":"fact","text":"x"}]}"#.to_owned(),
        r#"{"observations":[]}"#.to_owned(),
        "{}".to_owned(),
        "{ }".to_owned(),
        "{\"observations\":[}".to_owned(),
        "{\"a\":1} trailing }".to_owned(),
        "[1, 2]".to_owned(),
        "\"text\"".to_owned(),
        String::new(),
        "   ".to_owned(),
        "```\n```".to_owned(),
        "\u{3000}{}\u{3000}".to_owned(),
    ];
    // The schema above, and one that accepts any JSON, so that only
    // `require_object` refuses a root that is not an object.
    let schemas = [schema(), json!({})];
    for (compiled, require_object) in schemas
        .iter()
        .flat_map(|schema| [(schema, true), (schema, false)])
        .map(|(schema, require_object)| {
            let compiled = crate::dialect::compile(schema, &CompileOptions::default()).unwrap();
            (compiled, require_object)
        })
    {
        let options = CheckOptions {
            require_object,
            ..CheckOptions::default()
        };
        for content in &contents {
            let whole = check_content(
                content,
                None,
                SchemaInput::Compiled(Arc::clone(&compiled)),
                &options,
            )
            .unwrap();
            match accepted(content, &compiled, require_object) {
                Ok((span, rescue)) => {
                    assert!(
                        whole.ok(),
                        "{content:?}: accepted, but the check says {:?}",
                        whole.failure
                    );
                    assert_eq!(whole.span, Some(span), "{content:?}");
                    assert_eq!(whole.rescue, rescue, "{content:?}");
                }
                Err(prepared) => {
                    assert!(
                        !whole.ok(),
                        "{content:?}: the check accepts what the lean path refused"
                    );
                    // A parse handed back is of the JSON the whole check found there.
                    if let Some(prepared) = prepared {
                        assert_eq!(whole.span, Some(prepared.span.clone()), "{content:?}");
                        let again = check_prepared(
                            Some(content),
                            None,
                            Some(Arc::clone(&compiled)),
                            false,
                            &[],
                            &options,
                            Some(prepared),
                        );
                        assert_eq!(again.failure, whole.failure, "{content:?}");
                        assert_eq!(again.message, whole.message, "{content:?}");
                        assert_eq!(again.errors, whole.errors, "{content:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn utf16_offsets_count_code_units_and_leave_out_an_end_at_the_end() {
    let text = "é{\"a\":\"😀\"} x";
    let start = text.find('{').unwrap();
    let end = text.find(" x").unwrap();
    assert_eq!(
        utf16_units(text),
        text.chars().map(char::len_utf16).sum::<usize>()
    );
    assert_eq!(utf16_range(text, start..end), (1, 11));
    assert_eq!(utf16_offsets(text, start..end), (1, Some(11)));
    assert_eq!(utf16_offsets(text, start..text.len()), (1, None));
}

#[test]
fn a_verdict_written_with_offsets_carries_them_instead_of_its_text() {
    let mut verdict = check_content(
        "x {\"a\":1} y",
        None,
        SchemaInput::None,
        &CheckOptions::default(),
    )
    .unwrap();
    verdict.text = Some("{\"a\":1}".to_owned());
    let at: Value =
        serde_json::from_str(&write_with_offsets(&verdict, Some((2, Some(9))))).unwrap();
    assert_eq!(
        (at["textStart"].clone(), at["textEnd"].clone()),
        (json!(2), json!(9))
    );
    assert!(at.get("text").is_none());
    let to_end: Value =
        serde_json::from_str(&write_with_offsets(&verdict, Some((2, None)))).unwrap();
    assert!(to_end.get("textEnd").is_none());
    let whole: Value = serde_json::from_str(&write_with_offsets(&verdict, None)).unwrap();
    assert_eq!(whole["text"], json!("{\"a\":1}"));
}
