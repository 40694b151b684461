//! Model output, as arbitrary text with one of a few finish reasons, through
//! the same check the wasm exports run (`check_content` over the tape parser
//! with a compiled schema), against one realistic extraction schema.
//!
//! The verdict is checked stage by stage against independent readings of
//! the same text: `rescue_code_fence`, `serde_json` for parsing (with big
//! integers read as JavaScript reads them, see `js_view`), and jsonschema
//! validating that `serde_json::Value` for the schema stage.
//!
//! Input: the first byte picks the finish reason, the rest is the content.

#![no_main]

use std::sync::{Arc, LazyLock};

use jsonschema::Validator;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use structured_output_guard::finish::is_token_limit;
use structured_output_guard::rescue::rescue_code_fence;
use hot_path::schema::{CompileOptions, CompiledSchema, OfflineRetriever};
use hot_path::tape::{self, TapeJson};
use structured_output_guard::dialect::compile;
use structured_output_guard::verdict::{
    check_content, check_output, CheckOptions, Failure, SchemaInput, Verdict, DEFAULT_MAX_ERRORS,
};
use structured_output_guard_fuzz::js_view;

const FINISH_REASONS: [Option<&str>; 6] = [
    None,
    Some("stop"),
    Some("end_turn"),
    Some("length"),
    Some("MAX_TOKENS"),
    Some("tool_calls"),
];

static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../schemas/extraction.json")).expect("the schema is JSON")
});

/// The crate's compiled form, as `compileSchema` builds it.
static COMPILED: LazyLock<Arc<CompiledSchema>> =
    LazyLock::new(|| compile(&SCHEMA, &CompileOptions::default()).expect("the schema compiles"));

/// jsonschema over `serde_json::Value`: the reference for the schema stage.
static PLAIN: LazyLock<Validator> = LazyLock::new(|| {
    jsonschema::options()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .with_retriever(OfflineRetriever::default())
        .build(&SCHEMA)
        .expect("the schema compiles over serde_json")
});

/// jsonschema over the tape, with the options `compile` uses.
static TAPED: LazyLock<Validator<TapeJson>> = LazyLock::new(|| {
    jsonschema::options_for::<TapeJson>()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .with_retriever(OfflineRetriever::default())
        .build(&SCHEMA)
        .expect("the schema compiles over the tape")
});

/// Instance path, schema path and keyword of every error, sorted.
fn error_keys<'a>(errors: impl Iterator<Item = jsonschema::ValidationError<'a>>) -> Vec<String> {
    let mut keys: Vec<String> = errors
        .map(|e| {
            format!(
                "{} | {} | {}",
                e.instance_path().as_str(),
                e.schema_path().as_str(),
                e.kind().keyword()
            )
        })
        .collect();
    keys.sort();
    keys
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let reason = FINISH_REASONS[usize::from(selector) % FINISH_REASONS.len()];
    let content = String::from_utf8_lossy(rest);
    let options = CheckOptions::default();
    let verdict = check_content(
        &content,
        reason,
        SchemaInput::Compiled(Arc::clone(&COMPILED)),
        &options,
    )
    .expect("a compiled schema never fails to resolve");
    check_stages(&content, reason, &verdict);
    if verdict.failure != Some(Failure::Schema) {
        assert!(verdict.errors.is_empty() && !verdict.more_errors);
    }
    assert!(verdict.errors.len() <= DEFAULT_MAX_ERRORS);
    assert_eq!(verdict.schema_hash.as_deref(), Some(COMPILED.schema_hash()));
    assert_eq!(verdict.finish_reason.as_deref(), reason);
    assert!(verdict.text.is_none());

    // Without a schema and without requiring an object, the stages before
    // the schema decide alone, and any JSON that parsed is accepted.
    let lenient = CheckOptions {
        require_object: false,
        ..CheckOptions::default()
    };
    let bare = check_content(&content, reason, SchemaInput::None, &lenient)
        .expect("no schema never fails to resolve");
    let early = matches!(
        verdict.failure,
        Some(Failure::Truncated | Failure::Empty | Failure::Unparseable)
    );
    assert_eq!(bare.failure, if early { verdict.failure } else { None });
    assert_eq!((&bare.span, bare.rescue), (&verdict.span, verdict.rescue));
    assert_eq!(bare.schema_hash, None);

    // The same content inside a `{ content, finishReason }` object is read
    // out and judged identically; only then does the verdict carry the text.
    let mut output = json!({ "content": &*content });
    if let Some(reason) = reason {
        output["finishReason"] = json!(reason);
    }
    let from_object = check_output(
        &output,
        SchemaInput::Compiled(Arc::clone(&COMPILED)),
        &options,
    )
    .expect("a compiled schema never fails to resolve");
    let mut expected = verdict.clone();
    expected.text = verdict.span.clone().map(|span| {
        content
            .get(span)
            .expect("span on char boundaries")
            .to_owned()
    });
    assert_eq!(from_object, expected);
});

fn check_stages(content: &str, reason: Option<&str>, verdict: &Verdict) {
    if reason.is_some_and(is_token_limit) {
        assert_eq!(verdict.failure, Some(Failure::Truncated));
        assert_eq!(verdict.span, None);
        return;
    }
    let rescued = rescue_code_fence(content);
    assert_eq!(verdict.rescue, rescued.rescue);
    if rescued.text.is_empty() {
        assert_eq!(verdict.failure, Some(Failure::Empty));
        assert_eq!(verdict.span, None);
        return;
    }

    // The tape accepts exactly what serde_json accepts, with the same error.
    let parsed = tape::parse(rescued.text);
    let value = match (&parsed, serde_json::from_str::<Value>(rescued.text)) {
        (Ok(_), Ok(value)) => js_view(value),
        (Err(ours), Err(theirs)) => {
            assert_eq!(ours.to_string(), theirs.to_string());
            assert_eq!(verdict.failure, Some(Failure::Unparseable));
            assert_eq!(verdict.span, None);
            return;
        }
        (ours, theirs) => panic!(
            "tape and serde_json disagree: tape {:?}, serde_json {:?}",
            ours.as_ref().err(),
            theirs.err()
        ),
    };
    let Ok(tape) = parsed else { unreachable!() };
    assert_eq!(tape.to_value(), value);

    // The span locates exactly the rescued text within the content.
    let span = verdict.span.clone().expect("parsed JSON has a span");
    assert_eq!(content.get(span.clone()), Some(rescued.text));
    assert_eq!(
        span.start,
        rescued.text.as_ptr() as usize - content.as_ptr() as usize
    );

    if !value.is_object() {
        assert_eq!(verdict.failure, Some(Failure::NotObject));
        return;
    }

    // Schema stage: the tape-based verdict agrees with jsonschema validating
    // the serde_json value, and both validators report the same errors.
    let valid = PLAIN.is_valid(&value);
    assert_eq!(verdict.ok(), valid, "verdict {verdict:?}");
    assert_eq!(TAPED.is_valid(tape.root()), valid);
    let plain_keys = error_keys(PLAIN.iter_errors(&value));
    assert_eq!(error_keys(TAPED.iter_errors(tape.root())), plain_keys);
    if valid {
        return;
    }
    assert_eq!(verdict.failure, Some(Failure::Schema));

    // The capped list is exactly the head of the full sorted list, whatever
    // the cap, and the full list holds one issue per jsonschema error.
    let full = COMPILED.validate_tape(&tape, usize::MAX);
    assert!(!full.valid && !full.more_errors);
    let mut full_keys: Vec<String> = full
        .errors
        .iter()
        .map(|i| format!("{} | {} | {}", i.path, i.schema_path, i.code))
        .collect();
    full_keys.sort();
    assert_eq!(full_keys, plain_keys);
    for cap in [1, DEFAULT_MAX_ERRORS] {
        let capped = COMPILED.validate_tape(&tape, cap);
        let head = &full.errors[..full.errors.len().min(cap)];
        assert_eq!(capped.errors, head, "cap {cap}");
        assert_eq!(capped.more_errors, full.errors.len() > cap, "cap {cap}");
    }
    let head = &full.errors[..full.errors.len().min(DEFAULT_MAX_ERRORS)];
    assert_eq!(verdict.errors, head);
    assert_eq!(verdict.more_errors, full.errors.len() > DEFAULT_MAX_ERRORS);
    // Validating the value (written out and read back) gives the same report.
    assert_eq!(COMPILED.validate(&value, DEFAULT_MAX_ERRORS).errors, head);
}
