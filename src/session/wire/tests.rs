#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::sync::Arc;

use serde_json::{json, Value};

use super::*;
use crate::session::Output;
use hot_path::schema::{CompileOptions, CompiledSchema};

fn city() -> Arc<CompiledSchema> {
    let schema = json!({ "type": "object", "required": ["city"] });
    crate::dialect::compile(&schema, &CompileOptions::default()).unwrap()
}

fn lean_setup() -> Setup {
    Setup::read(r#"{"stepUsage":false,"summaryAttempts":false}"#).unwrap()
}

const LEAN: Reads = Reads {
    step_usage: false,
    summary_attempts: false,
};

/// One step of `texts[0]`, the content string, with a reason.
fn step(session: &mut Session, text: &str, reason: &str) -> Step {
    let copy = format!(
        r#"{{"choices":[{{"message":{{"content":["\u0000",0]}},"finish_reason":"{reason}"}}]}}"#
    );
    let usage = hot_path::usage::normalize_usage_text("{\"prompt_tokens\":3}").unwrap();
    let output = Output {
        copy: &copy,
        texts: vec![text],
    };
    session
        .step_normalized(output, usage, false, false)
        .unwrap()
}

#[test]
fn a_setup_is_read_with_its_codes() {
    let setup = Setup::read(
        r#"{"tools":[0,1,2,3,3],"toolTexts":[null,null,null,"{}"],"shape":[2,0],"model":"m","appendFeedback":true,"stepUsage":false}"#,
    )
    .unwrap();
    assert_eq!(
        setup.tools,
        vec![
            Found::Nothing,
            Found::Tools,
            Found::Unreadable,
            Found::Text("{}".to_owned()),
            Found::Unreadable
        ]
    );
    assert_eq!(setup.request.kinds[0], Kind::String);
    assert_eq!(setup.request.kinds[1], Kind::Missing);
    assert_eq!(setup.request.model.as_deref(), Some("m"));
    assert!(setup.append_feedback && !setup.step_usage && setup.summary_attempts);
    let error = Setup::read("{").unwrap_err();
    assert!(error
        .message
        .starts_with("the guarded call's setup could not be read as JSON"));
}

#[test]
fn a_first_attempt_accepted_is_answered_by_a_status() {
    let mut session = Session::with_compiled(lean_setup(), city()).unwrap();
    let text = "```json\n{\"city\":\"Oslo\"}\n```";
    let step = step(&mut session, text, "stop");
    let mut pending = String::new();
    let lean = lean_status(&session, LEAN, &step, &[text], true, &mut pending).unwrap();
    assert_eq!(status::decode(lean.status), (status::OK_FENCE, 0, Some(4)));
    assert_eq!(lean.offsets, Some((8, 23)));
    assert!(pending.starts_with("stop{"));
    let usage: Value = serde_json::from_str(&pending[4..]).unwrap();
    assert!(usage.is_object());
}

#[test]
fn a_step_that_is_not_lean_is_written_whole() {
    let mut session = Session::with_compiled(lean_setup(), city()).unwrap();
    let text = "{\"town\":\"Oslo\"}";
    let step = step(&mut session, text, "stop");
    let mut pending = String::new();
    assert_eq!(
        lean_status(&session, LEAN, &step, &[text], true, &mut pending),
        None
    );
    let reads = Reads {
        step_usage: true,
        summary_attempts: false,
    };
    let written: Value = serde_json::from_str(&step_json(&session, reads, step, &[text])).unwrap();
    assert_eq!(written["verdict"]["failure"], json!("schema"));
    assert_eq!(
        (written["at"].clone(), written["textStart"].clone()),
        (json!(0), json!(0))
    );
    assert!(written.get("textEnd").is_none());
    assert!(written["usage"].is_object());
}

#[test]
fn a_deadline_summary_carries_the_message() {
    let session = Session::with_compiled(lean_setup(), city()).unwrap();
    let summary: Value = serde_json::from_str(&session.summary_at(Some("50"), 1)).unwrap();
    assert_eq!(summary["audit"]["stoppedBy"], json!("deadline"));
    assert!(summary["message"].as_str().unwrap().contains("50"));
    let plain: Value = serde_json::from_str(&session.summary_at(None, 0)).unwrap();
    assert!(plain.get("message").is_none());
}

#[test]
fn the_request_plan_lists_the_paths_in_the_order_of_the_setups_codes() {
    let plan: Value = serde_json::from_str(&request_plan_json().unwrap()).unwrap();
    assert_eq!(
        plan["tools"].as_array().unwrap().len(),
        crate::providers::tools::TOOL_PATHS.len()
    );
    assert_eq!(
        plan["shape"]["members"],
        json!(crate::session::SHAPE_MEMBERS)
    );
    assert_eq!(plan["shape"]["text"], json!(crate::session::SHAPE_TEXT));
    for key in ["declarations", "declarationRules", "schemas"] {
        assert!(plan[key].is_array() || plan[key].is_object(), "{key}");
    }
}

#[test]
fn telemetry_names_come_from_the_request_shape() {
    assert_eq!(telemetry_names_json(&[0; 7], None), None);
    let some = (0..=4u8)
        .flat_map(|code| (0..7).map(move |at| (at, code)))
        .find_map(|(at, code)| {
            let mut kinds = [0u8; 7];
            kinds[at] = code;
            telemetry_names_json(&kinds, Some("m".to_owned()))
        })
        .unwrap();
    let names: Value = serde_json::from_str(&some).unwrap();
    assert!(names["provider"].is_string() && names["operation"].is_string());
}
