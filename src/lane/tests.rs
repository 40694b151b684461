#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::sync::Arc;

use serde_json::{json, Value};

use super::*;
use hot_path::schema::CompileOptions;

fn compiled(schema: &Value) -> Arc<CompiledSchema> {
    crate::dialect::compile(schema, &CompileOptions::default()).unwrap()
}

fn defaults() -> LaneOptions<'static> {
    LaneOptions {
        max_errors: 5,
        require_object: true,
        json: None,
    }
}

fn schema() -> Arc<CompiledSchema> {
    compiled(&json!({"type": "object", "required": ["a"]}))
}

#[test]
fn a_whole_accepted_text_needs_no_offsets() {
    let answer = check_text("{\"a\":1}", None, &schema(), defaults(), false);
    assert_eq!(answer, Answer::Whole);
    assert_eq!(answer.code(), status::OK_WHOLE);
}

#[test]
fn accepted_json_inside_a_text_is_named_by_utf16_offsets() {
    let answer = check_text(
        "```json\n{\"a\":\"é😀\"}\n```",
        None,
        &schema(),
        defaults(),
        false,
    );
    assert_eq!(
        answer,
        Answer::Slice {
            fenced: true,
            start: 8,
            end: 19
        }
    );
    assert_eq!(answer.code(), status::OK_FENCE);
    let plain = check_text(" {\"a\":1}", None, &schema(), defaults(), false);
    assert_eq!(plain.code(), status::OK);
}

#[test]
fn a_failed_check_writes_the_verdict_with_the_finish_reason() {
    let Answer::Failed(text) = check_text("{\"b\":1}", Some("stop"), &schema(), defaults(), true)
    else {
        panic!("not failed");
    };
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["failure"], json!("schema"));
    assert_eq!(verdict["finishReason"], json!("stop"));
    assert_eq!(verdict["textStart"], json!(0));
}

#[test]
fn a_token_limit_fails_the_check_as_truncated() {
    let Answer::Failed(text) = check_text("{\"a\":1}", Some("length"), &schema(), defaults(), true)
    else {
        panic!("not failed");
    };
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["failure"], json!("truncated"));
}

#[test]
fn options_the_lane_cannot_read_go_to_the_general_path() {
    let bad = LaneOptions {
        json: Some("{\"maxError\":1}"),
        ..defaults()
    };
    assert_eq!(
        check_text("{\"b\":1}", None, &schema(), bad, false),
        Answer::Unavailable
    );
    // A tool call's arguments are not what a response object's lane reads.
    let tool = LaneOptions {
        json: Some("{\"toolName\":\"f\"}"),
        ..defaults()
    };
    assert_eq!(
        check_text("{\"a\":1}", None, &schema(), tool, true),
        Answer::Unavailable
    );
    assert_eq!(
        check_text("{\"a\":1}", None, &schema(), tool, false),
        Answer::Whole
    );
}

#[test]
fn an_empty_answer_of_a_response_object_goes_to_the_general_path() {
    assert_eq!(
        check_text("", None, &schema(), defaults(), true),
        Answer::Unavailable
    );
    assert_eq!(
        check_text("", None, &schema(), defaults(), false).code(),
        status::FAILED
    );
}

#[test]
fn a_response_objects_answer_carries_its_text_and_reason_in_the_status() {
    let texts = "x{\"a\":1}";
    let copy =
        r#"[[1,7],{"choices":[{"message":{"content":["\u0000",1]},"finish_reason":"stop"}]}]"#;
    let whole = format!("{texts}{copy}");
    let read = check_copy(&whole, texts.len(), &schema(), defaults()).unwrap();
    assert_eq!(read.answer, Answer::Whole);
    assert_eq!(read.reason.as_deref(), Some("stop"));
    assert_eq!(status::decode(read.status), (status::OK_WHOLE, 1, Some(4)));
}

#[test]
fn a_response_object_without_one_answer_text_is_not_answered() {
    let texts = "{\"a\":1}";
    let copy = r#"[[4,3],{"content":[{"type":"text","text":["\u0000",0]},{"type":"text","text":["\u0000",1]}]}]"#;
    let whole = format!("{texts}{copy}");
    assert!(check_copy(&whole, texts.len(), &schema(), defaults()).is_none());
}
