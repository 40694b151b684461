//! The contract's names and defaults against every other place that states
//! them: the generated JavaScript module, `js/index.d.ts`, README.md, the
//! user pages (`docs/api.md`, `docs/governance.md`), and the engine's
//! keyword names.
//! Every test here is named `contract_…`, so `cargo test contract` runs
//! them all.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};

use super::*;

const GENERATED: &str = "js/generated/contract.mjs";

fn at_root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &str) -> String {
    let full = at_root(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn failure_classes() -> Vec<&'static str> {
    Failure::ALL.iter().map(|f| f.as_str()).collect()
}

fn stop_reasons() -> Vec<&'static str> {
    StopReason::ALL.iter().map(|r| r.as_str()).collect()
}

fn actions() -> Vec<&'static str> {
    Action::ALL.iter().map(|a| a.as_str()).collect()
}

/// A JavaScript array literal of `names`, on one line when it fits.
fn js_array(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let line = format!("[{}]", quoted.join(", "));
    if line.len() <= 72 {
        return line;
    }
    let mut out = String::from("[\n");
    for q in quoted {
        out.push_str(&format!("  {q},\n"));
    }
    out.push(']');
    out
}

/// `js/generated/contract.mjs` as it must read.
fn rendered_contract() -> String {
    format!(
        "// Generated from src/error.rs and src/status.rs by the tests of\n\
         // src/error.rs: do not edit. After a change there,\n\
         // `UPDATE_CONTRACT=1 cargo test contract` rewrites this file.\n\
         \n\
         /** The failure classes of a verdict, in the order the stages run. */\n\
         export const FAILURE_CLASSES = Object.freeze({failures});\n\
         \n\
         /** What a guarded call does after an attempt (`AttemptEvent.action`). */\n\
         export const ACTIONS = Object.freeze({actions});\n\
         \n\
         /** Why a guarded call made no further attempt (`stoppedBy`). */\n\
         export const STOP_REASONS = Object.freeze({stops});\n\
         \n\
         /** Every code an issue can carry. */\n\
         export const ISSUE_CODES = Object.freeze({codes});\n\
         \n\
         /** Defaults: issues per check, retries without budgets, and the most any budget allows. */\n\
         export const DEFAULTS = Object.freeze({{ maxErrors: {max_errors}, totalRetries: {total}, maxRetries: {max_retries} }});\n\
         \n\
         /** Limits: the levels of nesting a schema may have; the most counts a usage program sums from. */\n\
         export const LIMITS = Object.freeze({{ schemaDepth: {schema_depth}, usageCounts: {usage_counts} }});\n\
         \n\
         /**\n\
         \x20* A lane status (the lanes, `validateInput`, a session's lean step): a code\n\
         \x20* (accepted at offsets, accepted from a code fence, failed, unavailable,\n\
         \x20* accepted whole) in its low bits; above them the finish-reason flag, the\n\
         \x20* index of the answer's text and the reason's length. Decoded by\n\
         \x20* `decodeLaneStatus` in check.mjs.\n\
         \x20*/\n\
         export const LANE_STATUS = Object.freeze({{\n\
         \x20 ok: {ok},\n\
         \x20 okFence: {ok_fence},\n\
         \x20 failed: {failed},\n\
         \x20 unavailable: {unavailable},\n\
         \x20 okWhole: {ok_whole},\n\
         \x20 codeMask: {code_mask},\n\
         \x20 hasReason: {has_reason},\n\
         \x20 textShift: {text_shift},\n\
         \x20 reasonShift: {reason_shift},\n\
         \x20 fieldMask: {field_mask},\n\
         }});\n\
         \n\
         /** `isValidInput`'s answers besides `LANE_STATUS.unavailable`, a stream push's, and `judgeStrings`' when it judged nothing. */\n\
         export const INPUT_STATUS = Object.freeze({{ valid: {valid}, invalid: {invalid}, pushPending: {push_pending}, pushRejected: {push_rejected}, notJudged: {not_judged} }});\n",
        failures = js_array(&failure_classes()),
        actions = js_array(&actions()),
        stops = js_array(&stop_reasons()),
        codes = js_array(&ISSUE_CODES),
        max_errors = DEFAULT_MAX_ERRORS,
        total = DEFAULT_TOTAL_RETRIES,
        max_retries = MAX_RETRIES,
        schema_depth = hot_path::schema::MAX_SCHEMA_DEPTH,
        usage_counts = hot_path::usage::MOST_COUNTS,
        ok = crate::status::OK,
        ok_fence = crate::status::OK_FENCE,
        failed = crate::status::FAILED,
        unavailable = crate::status::UNAVAILABLE,
        ok_whole = crate::status::OK_WHOLE,
        code_mask = crate::status::CODE_MASK,
        has_reason = crate::status::HAS_REASON,
        text_shift = crate::status::TEXT_SHIFT,
        reason_shift = crate::status::REASON_SHIFT,
        field_mask = crate::status::FIELD_LIMIT - 1,
        valid = crate::status::VALID,
        invalid = crate::status::INVALID,
        push_pending = crate::status::PUSH_PENDING,
        push_rejected = crate::status::PUSH_REJECTED,
        not_judged = crate::status::NOT_JUDGED,
    )
}

#[test]
fn contract_generated_module_matches() {
    let expected = rendered_contract();
    if std::env::var_os("UPDATE_CONTRACT").is_some() {
        std::fs::write(at_root(GENERATED), &expected).unwrap();
        return;
    }
    let actual = std::fs::read_to_string(at_root(GENERATED)).unwrap_or_default();
    assert!(
        actual == expected,
        "{GENERATED} is not what src/error.rs and src/status.rs say; run `UPDATE_CONTRACT=1 cargo test contract`.\n\
         It should read:\n{expected}"
    );
}

#[test]
fn contract_names_are_the_serialised_names() {
    for f in Failure::ALL {
        assert_eq!(serde_json::to_value(f).unwrap(), f.as_str());
        assert_eq!(Failure::parse(f.as_str()), Some(f));
        assert_eq!(Failure::ALL.get(f.index()), Some(&f));
    }
    for a in Action::ALL {
        assert_eq!(serde_json::to_value(a).unwrap(), a.as_str());
    }
    for r in StopReason::ALL {
        assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
    }
    let mut codes = ISSUE_CODES.to_vec();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(
        codes.len(),
        ISSUE_CODES.len(),
        "an issue code is listed twice"
    );
}

/// The string literals of the text from `marker` to the end of its statement
/// (`;`, or the end of the line).
fn literals_after(text: &str, marker: &str, what: &str) -> Vec<String> {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("{what}: `{marker}` not found"));
    let rest = &text[start + marker.len()..];
    let end = rest.find([';', '\n']).unwrap_or(rest.len());
    rest[..end]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The member names of `interface <name> { ... }` in a declaration file.
fn interface_members(text: &str, name: &str) -> Vec<String> {
    let marker = format!("export interface {name} {{");
    let start = text
        .find(&marker)
        .unwrap_or_else(|| panic!("no interface {name}"));
    let body = &text[start + marker.len()..];
    let body = &body[..body.find("\n}").unwrap()];
    body.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('/') && !l.starts_with('*'))
        .filter_map(|l| l.split_once('?').or_else(|| l.split_once(':')))
        .map(|(member, _)| member.trim().to_owned())
        .collect()
}

#[test]
fn contract_unions_of_the_type_declarations() {
    let dts = read("js/index.d.ts");
    assert_eq!(
        literals_after(&dts, "export type FailureClass =", "FailureClass"),
        failure_classes()
    );
    assert_eq!(
        literals_after(&dts, "export type StopReason =", "StopReason"),
        stop_reasons()
    );
    let event = &dts[dts.find("export interface AttemptEvent {").unwrap()..];
    assert_eq!(
        literals_after(event, "action:", "AttemptEvent.action"),
        actions()
    );
    let mut budgets = failure_classes();
    budgets.push("total");
    assert_eq!(interface_members(&dts, "Budgets"), budgets);
    // StructuredOutputError.failure: a failure class, or the stop reason
    // when no attempt finished in time.
    let error = &dts[dts
        .find("export declare class StructuredOutputError")
        .unwrap()..];
    assert_eq!(
        literals_after(
            error,
            "failure: FailureClass |",
            "StructuredOutputError.failure"
        ),
        [StopReason::Deadline.as_str()]
    );
    let tool_calls = literals_after(&dts, "export type ToolCallFailure =", "ToolCallFailure");
    assert!(
        tool_calls
            .iter()
            .all(|f| f == "unknown_tool" || Failure::parse(f).is_some()),
        "ToolCallFailure names something that is no failure class: {tool_calls:?}"
    );
    let max_errors = format!("Default {DEFAULT_MAX_ERRORS}.");
    assert!(
        dts.contains(&format!(
            "Caps the issue list and the work spent building it. {max_errors}"
        )),
        "index.d.ts does not give maxErrors' default as {DEFAULT_MAX_ERRORS}"
    );
    assert!(
        dts.contains(&format!("(0 to {MAX_RETRIES}\n * each). Default: `{{ total: {DEFAULT_TOTAL_RETRIES} }}`")),
        "index.d.ts does not give the budgets' default and limit as {DEFAULT_TOTAL_RETRIES} and {MAX_RETRIES}"
    );
}

/// The first backquoted word of each row of the markdown table whose
/// header row is `header`.
fn table_names(text: &str, header: &str) -> Vec<String> {
    let start = text
        .find(header)
        .unwrap_or_else(|| panic!("no table `{header}`"));
    text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('`').nth(1).unwrap_or_default().to_owned())
        .collect()
}

/// The backquoted words between `from` and `to`, each once, in order.
fn quoted_words(text: &str, from: &str, to: &str) -> Vec<String> {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` not found"));
    let rest = &text[start..];
    let rest = &rest[..rest.find(to).unwrap_or_else(|| panic!("`{to}` not found"))];
    let mut words: Vec<String> = Vec::new();
    for word in rest.split('`').skip(1).step_by(2) {
        if !words.iter().any(|w| w == word) {
            words.push(word.to_owned());
        }
    }
    words
}

/// The user pages' lists and defaults, each where a reader looks it up: the
/// failure classes, the exported functions' table and the issue codes in
/// `docs/api.md`, the stop reasons and budget bounds in `docs/governance.md`,
/// and the classes a guarded call throws in the README's example.
#[test]
fn contract_lists_of_the_user_pages() {
    let readme = read("README.md");
    let api = read("docs/api.md");
    let governance = read("docs/governance.md");
    assert_eq!(
        table_names(&api, "| failure | meaning |"),
        failure_classes()
    );
    assert_eq!(
        table_names(&governance, "| `stoppedBy` | when |"),
        stop_reasons()
    );
    let mut thrown = failure_classes();
    thrown.push(StopReason::Deadline.as_str());
    assert_eq!(
        literals_after(&readme, "// error.failure:", "README example"),
        thrown
    );
    assert_eq!(
        quoted_words(
            &api,
            "| `checkOutput(output, schema, options?)` |",
            "; returns"
        ),
        [
            &["checkOutput(output, schema, options?)"][..],
            &failure_classes()
        ]
        .concat()
    );
    let mut codes = quoted_words(
        &api,
        "`code` is the JSON Schema keyword that failed",
        "Issues are ordered",
    );
    codes.retain(|w| w != "code" && w != "dependentRequired");
    assert_eq!(codes, ISSUE_CODES);
    assert!(
        api.contains(&format!("`maxErrors` ({DEFAULT_MAX_ERRORS})")),
        "docs/api.md does not say the maxErrors default"
    );
    for default in [
        format!("`budgets.total` (default {DEFAULT_TOTAL_RETRIES})"),
        format!("every budget is 0 to {MAX_RETRIES}"),
    ] {
        assert!(
            governance.contains(&default),
            "docs/governance.md does not say {default}"
        );
    }
}

/// The project's API reference (`docs/api.md`) names every failure class
/// and default as the core defines them.
#[test]
fn contract_names_of_the_api_document() {
    let api = read("docs/api.md");
    // The verdict's union, in the order the stages run.
    let first = literals_after(&api, "| { ok: false, failure:", "docs/api.md Verdict");
    assert_eq!(
        first,
        failure_classes()[..first.len()],
        "docs/api.md's failure union"
    );
    for class in failure_classes() {
        assert!(
            api.contains(&format!("`{class}`")),
            "docs/api.md never names the failure class {class}"
        );
    }
    for part in [
        format!("`maxErrors` defaults to {DEFAULT_MAX_ERRORS}"),
        format!("maxErrors?: number ({DEFAULT_MAX_ERRORS})"),
    ] {
        assert!(api.contains(&part), "docs/api.md does not say {part}");
    }
    let streamed = literals_after(
        &api,
        "{ status: \"rejected\", failure:",
        "docs/api.md StreamState",
    );
    assert!(
        streamed.iter().all(|f| Failure::parse(f).is_some()),
        "{streamed:?}"
    );
    let tool_calls = literals_after(&api, "ToolCallFailure =", "docs/api.md ToolCallFailure");
    assert!(
        tool_calls
            .iter()
            .all(|f| f == "unknown_tool" || Failure::parse(f).is_some()),
        "{tool_calls:?}"
    );
}

/// The engine names each issue by its keyword (`ValidationErrorKind::keyword`
/// in the vendored jsonschema); every name it can give is an issue code here.
#[test]
fn contract_issue_codes_are_the_engines_keywords() {
    let source = read("vendor/jsonschema/src/error.rs");
    let start = source.find("fn keyword_name(").unwrap();
    let body = &source[start..];
    let body = &body[..body.find("\n    }\n").unwrap()];
    let mut engine: Vec<&str> = body.split('"').skip(1).step_by(2).collect();
    engine.sort_unstable();
    let mut ours: Vec<&str> = ISSUE_CODES
        .iter()
        .copied()
        .filter(|c| *c != RULE_ISSUE_CODE)
        .collect();
    ours.sort_unstable();
    assert_eq!(engine, ours);
}
