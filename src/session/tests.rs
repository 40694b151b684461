#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::json;

use super::*;
use crate::dialect::compile;
use hot_path::schema::CompileOptions;

fn city() -> Arc<CompiledSchema> {
    let schema = json!({
        "type": "object",
        "required": ["city"],
        "properties": { "city": { "type": "string", "minLength": 2 } }
    });
    compile(&schema, &CompileOptions::default()).unwrap()
}

fn setup() -> Setup {
    Setup {
        check: Value::Null,
        strict: Value::Null,
        has_tools: Value::Null,
        retry: Value::Null,
        budgets: Value::Null,
        wrapper_strict: None,
        tools: vec![Found::Nothing; crate::providers::tools::TOOL_PATHS.len()],
        request: RequestShape::default(),
        append_feedback: false,
        feedback_schema: None,
        step_usage: true,
        summary_attempts: true,
    }
}

/// The usage the ledger recorded for the last attempt, as the step's result gives it.
fn last_usage(s: &Session) -> Value {
    serde_json::from_str(s.last_usage_json()).unwrap()
}

fn session(setup: Setup) -> Session {
    Session::with_compiled(setup, city()).unwrap()
}

fn chat(content: &str, prompt: u64, completion: u64) -> Value {
    json!({
        "choices": [{ "message": { "role": "assistant", "content": content }, "finish_reason": "stop" }],
        "usage": { "prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion }
    })
}

/// One step on a whole chat completion, which carries its own usage.
fn step(s: &mut Session, content: &str) -> Step {
    let response = chat(content, 10, 5);
    s.step(
        Output {
            copy: &response.to_string(),
            texts: vec![],
        },
        &response,
        false,
        false,
    )
    .unwrap()
}

#[test]
fn an_accepted_first_attempt_stops_at_once() {
    let mut s = session(setup());
    let out = step(&mut s, r#"{"city":"Oslo"}"#);
    assert_eq!(out.decision.action, Action::Accept);
    assert_eq!(out.decision.stopped_by, Some(StopReason::Accepted));
    assert!(out.message.is_none() && out.feedback.is_none() && out.warning.is_none());
    assert_eq!(out.verdict.text.as_deref(), Some(r#"{"city":"Oslo"}"#));
}

#[test]
fn an_accepted_first_attempt_is_accepted_in_every_setup_the_policy_knows() {
    let mut with_tools = setup();
    with_tools.tools[0] = Found::Tools;
    let mut lenient = setup();
    lenient.strict = json!(false);
    let mut no_retries = setup();
    no_retries.budgets = json!({ "total": 0 });
    let mut repair = setup();
    repair.retry = json!("repair");
    repair.append_feedback = true;
    for (name, made) in [
        ("default", setup()),
        ("tools", with_tools),
        ("lenient", lenient),
        ("no retries", no_retries),
        ("repair", repair),
    ] {
        let s = session(made.clone());
        assert!(s.accepts_first_accepted(), "{name}");
        // What the session's own first step decides, aborted and past the deadline too.
        for (aborted, deadline_passed) in [(false, false), (true, true)] {
            let mut s = session(made.clone());
            let response = chat(r#"{"city":"Oslo"}"#, 10, 5);
            let out = s
                .step(
                    Output {
                        copy: &response.to_string(),
                        texts: vec![],
                    },
                    &response,
                    aborted,
                    deadline_passed,
                )
                .unwrap();
            assert_eq!(out.decision.action, Action::Accept, "{name}");
            assert_eq!(
                out.decision.stopped_by,
                Some(StopReason::Accepted),
                "{name}"
            );
        }
    }
}

#[test]
fn a_request_with_tools_is_never_resampled() {
    let mut with_tools = setup();
    with_tools.tools[0] = Found::Tools;
    let mut s = session(with_tools);
    assert!(s.carries_tools());
    let out = step(&mut s, "not json");
    assert_eq!(out.decision.action, Action::Reject);
    assert_eq!(out.decision.stopped_by, Some(StopReason::Tools));
    assert_eq!(
        out.message.as_deref(),
        Some("The model's output was rejected (unparseable; the request carries tools, so it is not retried). The response is not valid JSON (expected ident at line 1 column 2).")
    );
    // hasTools: true says the same of a request the reader found none in;
    // false cannot say a request that has tools has none.
    let mut flagged = setup();
    flagged.has_tools = json!(true);
    assert!(session(flagged).carries_tools());
    let mut denied = setup();
    denied.tools[0] = Found::Tools;
    denied.has_tools = json!(false);
    assert!(session(denied).carries_tools());
    // Even with budgets to spare.
    let mut budgeted = setup();
    budgeted.tools[1] = Found::Unreadable;
    budgeted.budgets = json!({ "total": 5 });
    let mut s = session(budgeted);
    assert_eq!(
        step(&mut s, "[]").decision.stopped_by,
        Some(StopReason::Tools)
    );
}

#[test]
fn the_default_budget_is_one_retry() {
    let mut s = session(setup());
    let first = step(&mut s, "nope");
    assert_eq!(first.decision.action, Action::Resample);
    assert_eq!(first.decision.stopped_by, None);
    assert!(first.message.is_none());
    let second = step(&mut s, "[1]");
    assert_eq!(second.decision.action, Action::Reject);
    assert_eq!(second.decision.stopped_by, Some(StopReason::Budget));
    assert_eq!(
        second.message.as_deref(),
        Some("The model's output was rejected (not_object; no retries are left after 2 attempts). The response is JSON but not an object (it is an array).")
    );
}

#[test]
fn budgets_per_class_and_in_total() {
    let mut per_class = setup();
    per_class.budgets = json!({ "schema": 2 });
    let mut s = session(per_class);
    // Different mistakes each time, so none is a repeated error.
    assert_eq!(
        step(&mut s, r#"{"city":"a"}"#).decision.action,
        Action::Resample
    );
    assert_eq!(
        step(&mut s, r#"{"city":1}"#).decision.action,
        Action::Resample
    );
    assert_eq!(
        step(&mut s, "{}").decision.stopped_by,
        Some(StopReason::Budget)
    );

    let mut none = setup();
    none.budgets = json!({ "total": 0 });
    let mut s = session(none);
    let out = step(&mut s, "nope");
    assert_eq!(out.decision.stopped_by, Some(StopReason::Budget));
    assert!(out
        .message
        .unwrap()
        .contains("no retries are left after 1 attempt)"));

    let mut wrong = setup();
    wrong.budgets = json!({ "total": -1 });
    assert!(matches!(
        Session::with_compiled(wrong, city()),
        Err(SetupError::Argument(_))
    ));
}

#[test]
fn the_same_error_twice_stops_even_with_budget_left() {
    let mut generous = setup();
    generous.budgets = json!({ "total": 5 });
    let mut s = session(generous);
    assert_eq!(
        step(&mut s, r#"{"city":"a"}"#).decision.action,
        Action::Resample
    );
    // The same (path, code) pairs: the model repeats itself.
    let out = step(&mut s, r#"{"city":"b"}"#);
    assert_eq!(out.decision.stopped_by, Some(StopReason::RepeatedError));
    assert!(out
        .message
        .unwrap()
        .contains("(schema; the same error came twice in a row)"));
}

#[test]
fn abort_and_deadline_stop_a_failed_attempt() {
    let mut s = session(setup());
    let response = chat("nope", 1, 1);
    let aborted = s
        .step(
            Output {
                copy: &response.to_string(),
                texts: vec![],
            },
            &response,
            true,
            false,
        )
        .unwrap();
    assert_eq!(aborted.decision.stopped_by, Some(StopReason::Aborted));
    let mut s = session(setup());
    let late = s
        .step(
            Output {
                copy: &response.to_string(),
                texts: vec![],
            },
            &response,
            false,
            true,
        )
        .unwrap();
    assert_eq!(late.decision.stopped_by, Some(StopReason::Deadline));
    assert!(late.message.unwrap().contains("the deadline passed"));
    assert_eq!(
        s.deadline_message("250", 2),
        "No accepted output within the deadline of 250 ms (attempt 2 was still running); the last finished attempt failed: unparseable."
    );
    assert_eq!(
        session(setup()).deadline_message("0.5", 1),
        "No accepted output within the deadline of 0.5 ms (attempt 1 was still running)."
    );
}

#[test]
fn repair_produces_feedback_and_needs_a_known_shape_or_an_appender() {
    let mut repair = setup();
    repair.retry = json!("repair");
    repair.request.kinds[2] = Kind::Array; // messages
    repair.feedback_schema = Some(json!({
        "type": "object",
        "required": ["city"],
        "properties": { "city": { "type": "string", "minLength": 2 } }
    }));
    let mut s = session(repair.clone());
    assert_eq!(s.feedback_shape(), Some(FeedbackShape::OpenAiChat));
    let out = step(&mut s, r#"{"city":"a"}"#);
    assert_eq!(out.decision.action, Action::Repair);
    let feedback = out.feedback.unwrap();
    assert!(feedback.contains("/city"), "{feedback}");
    assert!(feedback.contains("minLength"), "{feedback}");
    assert!(
        !feedback.contains("\"a\""),
        "the output is never quoted: {feedback}"
    );

    // No shape the appenders know, and no appender of the caller's: misuse.
    let mut unknown = repair.clone();
    unknown.request = RequestShape::default();
    let Err(SetupError::Argument(e)) = Session::with_compiled(unknown.clone(), city()) else {
        panic!("a repair without an appender must be refused");
    };
    assert!(e.message.contains("options.appendFeedback"));
    unknown.append_feedback = true;
    let s = session(unknown);
    assert_eq!(s.feedback_shape(), None);

    let mut wrong = setup();
    wrong.retry = json!("again");
    let Err(SetupError::Argument(e)) = Session::with_compiled(wrong, city()) else {
        panic!("an unknown retry mode must be refused");
    };
    assert_eq!(
        e.message,
        "options.retry must be \"identical\" (or \"resample\"), or \"repair\", not another string"
    );
}

#[test]
fn the_provider_guess_for_feedback() {
    let shape = |set: &[(usize, Kind)], model: Option<&str>| {
        let mut request = RequestShape::default();
        for (i, kind) in set {
            request.kinds[*i] = *kind;
        }
        request.model = model.map(str::to_owned);
        feedback_shape_for(&request)
    };
    assert_eq!(
        shape(&[(0, Kind::String)], None),
        Some(FeedbackShape::Gemini)
    );
    assert_eq!(
        shape(&[(0, Kind::Null), (2, Kind::Array)], None),
        Some(FeedbackShape::OpenAiChat)
    );
    assert_eq!(
        shape(&[(1, Kind::String)], None),
        Some(FeedbackShape::OpenAiResponses)
    );
    assert_eq!(shape(&[(1, Kind::Other)], None), None);
    assert_eq!(
        shape(&[(2, Kind::Array)], Some("Claude-Sonnet-4")),
        Some(FeedbackShape::Anthropic)
    );
    assert_eq!(
        shape(&[(2, Kind::Array), (3, Kind::String)], None),
        Some(FeedbackShape::Anthropic)
    );
    assert_eq!(
        shape(
            &[(2, Kind::Array), (5, Kind::String), (6, Kind::Other)],
            None
        ),
        Some(FeedbackShape::Anthropic)
    );
    assert_eq!(
        shape(&[(2, Kind::Array), (5, Kind::String)], None),
        Some(FeedbackShape::OpenAiChat)
    );
    assert_eq!(shape(&[(2, Kind::Other)], None), None);
}

#[test]
fn strict_defaults_to_the_wrapper_then_true() {
    assert!(session(setup()).strict());
    let mut wrapper = setup();
    wrapper.wrapper_strict = Some(false);
    assert!(!session(wrapper.clone()).strict());
    wrapper.strict = json!(true);
    assert!(session(wrapper).strict());
}

#[test]
fn the_lenient_path_returns_the_object_it_found() {
    let mut lenient = setup();
    lenient.strict = json!(false);
    let mut s = session(lenient.clone());
    let out = step(&mut s, r#"{"city":"a"}"#);
    assert_eq!(out.decision.action, Action::ReturnWithWarning);
    assert_eq!(out.decision.stopped_by, Some(StopReason::Lenient));
    assert!(out.lenient_value);
    assert!(out
        .warning
        .unwrap()
        .starts_with("schema: The response does not match the schema"));
    // Not JSON, and JSON that is not an object: no value.
    for (content, failure) in [("not json", "unparseable"), ("[1]", "not_object")] {
        let mut s = session(lenient.clone());
        let out = step(&mut s, content);
        assert!(!out.lenient_value, "{content}");
        assert!(out.warning.unwrap().starts_with(&format!("{failure}: ")));
    }
    // A text output, with the JSON after some whitespace.
    let mut s = session(lenient);
    let out = s
        .step(
            Output {
                copy: r#"["\u0000",0]"#,
                texts: vec!["  \n{\"city\":\"a\"}"],
            },
            &Value::Null,
            false,
            false,
        )
        .unwrap();
    assert!(out.lenient_value);
    assert_eq!(out.text, Some(0));
    assert_eq!(out.verdict.span, Some(3..15));
}

#[test]
fn usage_is_merged_across_attempts_the_failed_one_included() {
    let mut s = session(setup());
    let first = chat("nope", 300, 4096);
    let out = s
        .step(
            Output {
                copy: &first.to_string(),
                texts: vec![],
            },
            &first,
            false,
            false,
        )
        .unwrap();
    assert_eq!(out.decision.action, Action::Resample);
    assert_eq!(
        last_usage(&s),
        json!({ "tokens": { "input": 300, "output": 4096, "total": 4396 } })
    );
    let second = chat(r#"{"city":"Oslo"}"#, 300, 12);
    s.step(
        Output {
            copy: &second.to_string(),
            texts: vec![],
        },
        &second,
        false,
        false,
    )
    .unwrap();
    let summary = s.summary(Some(StopReason::Accepted));
    assert_eq!(
        summary["usage"],
        json!({ "tokens": { "input": 600, "output": 4108, "total": 4708 } })
    );
    assert_eq!(summary["attempts"][0]["failure"], "unparseable");
    assert_eq!(summary["attempts"][1]["failure"], Value::Null);
    assert_eq!(summary["audit"]["stoppedBy"], "accepted");
    assert_eq!(summary["audit"]["attempts"][0]["failure"], "unparseable");
    assert_eq!(summary["audit"]["attempts"][1]["rescue"], "none");
    assert_eq!(summary["audit"]["schemaHash"], city().schema_hash());
    assert_eq!(
        summary["audit"]["validatorVersion"],
        crate::VALIDATOR_VERSION
    );
}

#[test]
fn an_attempt_without_a_verdict_still_counts_its_usage() {
    let mut s = session(setup());
    let first = chat("nope", 10, 5);
    s.step(
        Output {
            copy: &first.to_string(),
            texts: vec![],
        },
        &first,
        false,
        false,
    )
    .unwrap();
    // The caller's usage reader, in the Usage shape already.
    s.record_unchecked(&json!({ "tokens": { "input": 7, "output": 3 }, "cost": { "total": 0.5 } }));
    assert_eq!(s.attempts(), 2);
    let summary = s.summary(None);
    assert_eq!(
        summary["usage"],
        json!({ "tokens": { "input": 17, "output": 8, "total": 15 }, "cost": { "total": 0.5 } })
    );
    assert_eq!(summary["attempts"][1]["failure"], "unreadable");
    assert_eq!(summary["audit"]["attempts"].as_array().unwrap().len(), 1);
}

#[test]
fn a_read_copy_is_checked_where_its_answer_lies() {
    let answer = "```json\n{\"city\":\"Oslo\"}\n```";
    let copy =
        json!({ "choices": [{ "message": { "content": ["\u{0}", 0] }, "finish_reason": "stop" }] });
    let mut s = session(setup());
    let out = s
        .step(
            Output {
                copy: &copy.to_string(),
                texts: vec![answer],
            },
            &Value::Null,
            false,
            false,
        )
        .unwrap();
    assert_eq!(out.decision.action, Action::Accept);
    assert_eq!(out.text, Some(0));
    assert_eq!(out.verdict.rescue, Rescue::CodeFence);
    assert_eq!(out.verdict.finish_reason.as_deref(), Some("stop"));
    assert_eq!(
        answer.get(out.verdict.span.clone().unwrap()),
        Some("{\"city\":\"Oslo\"}")
    );

    // The same copy read through the buffer the wrapper fills.
    let usage = "{\"prompt_tokens\":2}";
    let tail = format!("[[{},{}],{copy}]", answer.len(), usage.len());
    let whole = format!("{answer}{usage}{tail}");
    let (texts, read, usage) =
        crate::providers::read::read_step(&whole, answer.len() + usage.len()).unwrap();
    assert_eq!(texts, vec![answer]);
    assert_eq!(serde_json::from_str::<Value>(read).unwrap(), copy);
    assert_eq!(usage, "{\"prompt_tokens\":2}");
    let usage = hot_path::usage::normalize_usage_text(usage).unwrap();
    let out = s
        .step_normalized(Output { copy: read, texts }, usage, false, false)
        .unwrap();
    assert_eq!(out.decision.action, Action::Accept);
    assert_eq!(
        last_usage(&s),
        json!({ "tokens": { "input": 2, "total": 2 } })
    );

    // An empty answer beside a tool call says so, as checkOutput does.
    let copy = json!({ "choices": [{ "message": { "content": ["\u{0}", 0], "tool_calls": [{ "id": "c1", "type": "function", "function": { "name": "lookup", "arguments": ["\u{0}", 1] } }] } }] });
    let out = s
        .step(
            Output {
                copy: &copy.to_string(),
                texts: vec!["", "{}"],
            },
            &Value::Null,
            false,
            false,
        )
        .unwrap();
    assert_eq!(out.verdict.failure, Some(Failure::Empty));
    assert!(
        out.verdict.message.contains("\"lookup\""),
        "{}",
        out.verdict.message
    );
}

#[test]
fn a_tool_named_output_is_read_from_the_copy_with_its_texts() {
    let mut named = setup();
    named.check = json!({ "toolName": "answer" });
    let mut s = session(named);
    let copy = json!({ "choices": [{ "message": { "content": null, "tool_calls": [{ "id": "c1", "type": "function", "function": { "name": "answer", "arguments": ["\u{0}", 0] } }] }, "finish_reason": "tool_calls" }] });
    let out = s
        .step(
            Output {
                copy: &copy.to_string(),
                texts: vec![r#"{"city":"Oslo"}"#],
            },
            &Value::Null,
            false,
            false,
        )
        .unwrap();
    assert_eq!(out.decision.action, Action::Accept, "{:?}", out.verdict);
    assert_eq!(out.text, None);
    assert_eq!(out.verdict.text.as_deref(), Some(r#"{"city":"Oslo"}"#));
}

#[test]
fn a_schema_that_cannot_compile_degrades_unless_asked_to_throw() {
    let bad = || {
        Ok(SchemaInput::Json(Box::leak(Box::new(
            json!({ "type": "objekt" }),
        ))))
    };
    let mut throwing = setup();
    throwing.check = json!({ "onInvalidSchema": "throw" });
    assert!(matches!(
        Session::new(throwing.clone(), bad()),
        Err(SetupError::Schema(_))
    ));
    assert!(matches!(
        Session::new(throwing, Err(SchemaError::new("not JSON"))),
        Err(SetupError::Schema(_))
    ));
    // The default, and the option said out loud: the check degrades, and
    // the verdict and the audit say so.
    for check in [Value::Null, json!({ "onInvalidSchema": "degrade" })] {
        let mut degrade = setup();
        degrade.check = check;
        let mut s = Session::new(degrade, bad()).unwrap();
        assert!(s.degraded());
        let out = step(&mut s, r#"{"anything":true}"#);
        assert_eq!(out.decision.action, Action::Accept);
        assert!(out.verdict.degraded);
        assert_eq!(
            s.summary(Some(StopReason::Accepted))["audit"]["degraded"],
            json!(true)
        );
    }
    let mut unreadable = Session::new(setup(), Err(SchemaError::new("not JSON"))).unwrap();
    assert!(step(&mut unreadable, "{}").verdict.degraded);
    let mut fine = Session::with_compiled(setup(), city()).unwrap();
    assert!(!fine.degraded());
    step(&mut fine, r#"{"city":"Oslo","population":1}"#);
    assert_eq!(fine.summary(None)["audit"]["degraded"], json!(false));
}

#[test]
fn a_rule_that_cannot_compile_is_refused_before_any_attempt() {
    let mut ruled = setup();
    ruled.check = json!({ "onInvalidSchema": "degrade", "rules": [{ "name": "x", "then": { "minimum": "zero" }, "message": "m" }] });
    assert!(matches!(
        Session::with_compiled(ruled, city()),
        Err(SetupError::Schema(_))
    ));
}

#[test]
fn a_content_string_is_checked_as_content_even_with_a_tool_name() {
    let mut named = setup();
    named.check = json!({ "toolName": "answer" });
    let mut s = session(named);
    let text = Output {
        copy: r#"["\u0000",0]"#,
        texts: vec![r#"{"city":"Oslo"}"#],
    };
    let out = s.step(text, &Value::Null, false, false).unwrap();
    assert_eq!(out.decision.action, Action::Accept, "{:?}", out.verdict);
    assert_eq!(out.text, Some(0));
}

fn facts(bytes: usize, stopped_early: bool, usage_reported: bool) -> StreamFacts {
    StreamFacts {
        bytes,
        stopped_early,
        usage_reported,
    }
}

fn rejection() -> Value {
    json!({
        "status": "rejected", "failure": "schema", "message": "The output does not match the schema: /city: too short.",
        "errors": [{ "path": "/city", "schemaPath": "/properties/city/minLength", "code": "minLength", "message": "too short" }],
        "moreErrors": false, "errorHash": "ignored: recomputed", "atByte": 12
    })
}

#[test]
fn a_stream_stopped_early_is_resampled_as_a_whole_failed_response_would_be() {
    let mut s = session(setup());
    assert!(s.stops_streams_early());
    let verdict = s.stream_verdict(&rejection()).unwrap();
    assert_eq!(verdict.failure, Some(Failure::Schema));
    assert_eq!(verdict.rescue, Rescue::None);
    assert_eq!(verdict.finish_reason, None);
    assert_eq!(verdict.schema_hash.as_deref(), Some(city().schema_hash()));
    // The hash a whole response with the same mistake gets.
    let whole = step(&mut session(setup()), r#"{"city":"O"}"#);
    assert_eq!(verdict.error_hash(), whole.verdict.error_hash());

    let reports = [json!({ "prompt_tokens": 10, "completion_tokens": 3 })];
    let out = s
        .step_stream(verdict, &reports, facts(12, true, true), false, false)
        .unwrap();
    assert_eq!(out.decision.action, Action::Resample);
    assert_eq!(last_usage(&s)["tokens"]["output"], 3);
    let accepted = json!({ "ok": true, "rescue": "none", "schemaHash": "h", "degraded": false, "finishReason": "stop" });
    let verdict = s.stream_verdict(&accepted).unwrap();
    // The second attempt reported no usage: counted as nothing, not guessed.
    let out = s
        .step_stream(verdict, &[], facts(15, false, false), false, false)
        .unwrap();
    assert_eq!(out.decision.action, Action::Accept);
    let summary = s.summary(out.decision.stopped_by);
    assert_eq!(summary["usage"]["tokens"]["output"], 3);
    assert_eq!(summary["audit"]["attempts"][0]["bytes"], 12);
    assert_eq!(summary["audit"]["attempts"][0]["stoppedEarly"], true);
    assert_eq!(summary["audit"]["attempts"][0]["failure"], "schema");
    assert_eq!(summary["audit"]["attempts"][1]["usageReported"], false);
    assert_eq!(summary["audit"]["attempts"][1]["stoppedEarly"], false);
    assert_eq!(summary["audit"]["stoppedBy"], "accepted");
}

#[test]
fn a_stream_follows_the_same_policy_as_a_call() {
    let stopped = |s: &mut Session, aborted: bool, deadline: bool| {
        let verdict = s.stream_verdict(&rejection()).unwrap();
        s.step_stream(verdict, &[], facts(12, true, false), aborted, deadline)
            .unwrap()
            .decision
    };
    let mut with_tools = setup();
    with_tools.tools[0] = Found::Tools;
    assert_eq!(
        stopped(&mut session(with_tools), false, false).stopped_by,
        Some(StopReason::Tools)
    );
    assert_eq!(
        stopped(&mut session(setup()), true, false).stopped_by,
        Some(StopReason::Aborted)
    );
    assert_eq!(
        stopped(&mut session(setup()), false, true).stopped_by,
        Some(StopReason::Deadline)
    );
    // The same rejection twice in a row.
    let mut budgets = setup();
    budgets.budgets = json!({ "total": 3 });
    let mut s = session(budgets);
    assert_eq!(stopped(&mut s, false, false).action, Action::Resample);
    assert_eq!(
        stopped(&mut s, false, false).stopped_by,
        Some(StopReason::RepeatedError)
    );
    // Repair feedback is made from the stopped stream's issues.
    let mut repair = setup();
    repair.retry = json!("repair");
    repair.append_feedback = true;
    let mut s = session(repair);
    let verdict = s.stream_verdict(&rejection()).unwrap();
    let out = s
        .step_stream(verdict, &[], facts(12, true, false), false, false)
        .unwrap();
    assert_eq!(out.decision.action, Action::Repair);
    assert!(out.feedback.unwrap().contains("/city"));
}

#[test]
fn a_lenient_session_never_stops_a_stream() {
    let mut lenient = setup();
    lenient.strict = json!(false);
    assert!(!session(lenient).stops_streams_early());
}

#[test]
fn a_stream_verdict_that_cannot_be_read_is_refused() {
    let s = session(setup());
    assert!(s.stream_verdict(&json!({ "status": "rejected" })).is_err());
    assert!(s
        .stream_verdict(&json!({ "ok": false, "failure": "bogus" }))
        .is_err());
    assert!(s
        .stream_verdict(&json!({ "ok": false, "failure": "schema", "errors": [{ "code": "x" }] }))
        .is_err());
    let truncated = s.stream_verdict(&json!({ "ok": false, "failure": "truncated", "message": "cut", "finishReason": "length", "rescue": "none" })).unwrap();
    assert_eq!(
        (truncated.failure, truncated.finish_reason.as_deref()),
        (Some(Failure::Truncated), Some("length"))
    );
}

#[test]
fn a_streamed_attempt_counts_its_reports_as_running_totals() {
    let mut s = session(setup());
    // Anthropic: input at message_start, output so far at each message_delta.
    let reports = [
        json!({ "input_tokens": 25, "cache_read_input_tokens": 5, "output_tokens": 1 }),
        json!({ "output_tokens": 15 }),
    ];
    s.record_stream_unchecked(&reports, facts(40, false, true));
    let summary = s.summary(Some(StopReason::Aborted));
    assert_eq!(summary["usage"]["tokens"]["input"], 30);
    assert_eq!(summary["usage"]["tokens"]["output"], 15);
    assert_eq!(summary["attempts"][0]["failure"], "unreadable");
    // Nothing reported: nothing counted.
    s.record_stream_unchecked(&[], facts(0, false, false));
    assert_eq!(s.summary(None)["attempts"][1]["usage"], json!({}));
}

#[test]
fn a_stream_check_from_the_session_gives_the_steps_verdict() {
    let s = session(setup());
    let mut check = s.stream_check().unwrap();
    assert!(check.push_str(r#"{"city":"O"}"#).is_some());
    let mut ok = s.stream_check().unwrap();
    assert!(ok.push_str(r#"{"city":"Oslo"}"#).is_none());
    assert!(ok.end(Some("stop")).ok());
}

#[test]
fn the_lenient_path_checks_a_streams_whole_text_and_returns_its_object() {
    let mut lenient = setup();
    lenient.strict = json!(false);
    let mut s = session(lenient);
    let copy = json!({ "content": ["\u{0}", 0], "finishReason": "stop" });
    let reports = [json!({ "prompt_tokens": 4 })];
    let out = s
        .step_stream_text(
            Output {
                copy: &copy.to_string(),
                texts: vec![r#"{"city":"O"}"#],
            },
            &reports,
            facts(12, false, true),
            false,
            false,
        )
        .unwrap();
    assert_eq!(out.decision.action, Action::ReturnWithWarning);
    assert!(out.lenient_value);
    assert_eq!(out.verdict.finish_reason.as_deref(), Some("stop"));
    assert_eq!(last_usage(&s)["tokens"]["input"], 4);
    assert_eq!(s.summary(None)["audit"]["attempts"][0]["bytes"], 12);
}

#[test]
fn a_single_attempts_summary_usage_is_its_merged_usage() {
    for usage in [
        json!({ "prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4 }),
        json!({ "prompt_tokens": 3, "prompt_tokens_details": null, "completion_tokens_details": { "reasoning_tokens": null, "audio_tokens": 1 } }),
        json!({ "tokens": { "input": 1, "output": null }, "cost": null, "timing": { "timeSegments": [null, 1] } }),
        json!(null),
    ] {
        let mut s = session(setup());
        let response = json!({ "choices": [{ "message": { "content": r#"{"city":"Oslo"}"# }, "finish_reason": "stop" }], "usage": usage });
        let out = s
            .step(
                Output {
                    copy: &response.to_string(),
                    texts: vec![],
                },
                &response,
                false,
                false,
            )
            .unwrap();
        assert_eq!(out.decision.action, Action::Accept);
        assert_eq!(
            s.summary(None)["usage"],
            hot_path::usage::merge_usage(&[response]),
            "{usage}"
        );
    }
}

#[test]
fn the_telemetry_names_of_each_request_shape() {
    assert_eq!(
        FeedbackShape::OpenAiChat.telemetry_names(),
        ("openai", "chat")
    );
    assert_eq!(
        FeedbackShape::OpenAiResponses.telemetry_names(),
        ("openai", "chat")
    );
    assert_eq!(
        FeedbackShape::Anthropic.telemetry_names(),
        ("anthropic", "chat")
    );
    assert_eq!(
        FeedbackShape::Gemini.telemetry_names(),
        ("gcp.gen_ai", "generate_content")
    );
}
