//! Tool calls: reading a response's calls, their repair feedback, the one
//! check they make together, and the tools a request declares.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{argument_error, parse_argument, to_js, INPUT};
use crate::response::CallsRead;

/// The tool calls in a response read along `readPlans().output`, as JSON
/// text: `{ finishReason, calls: [{ id, name, arguments }] }`, the
/// arguments as JSON text (written here when the SDK had parsed them), ""
/// when the call has none.
#[wasm_bindgen(js_name = readToolCalls)]
pub fn read_tool_calls(response_json: &str) -> Result<JsValue, JsValue> {
    let response = parse_argument("the response", response_json)?;
    Ok(JsValue::from_str(
        &CallsRead::of((&response).into(), 0).to_json(),
    ))
}

/// `readToolCalls` of a response the facade read as `checkReadLane` reads
/// one (see `encodeCopy`), with every string that stands at a tool call's
/// `arguments` (or `input`) or id among the strings: the input buffer holds
/// the strings, then at `copy_start` the `copy_len` bytes of
/// `[[byte length of each string], copy]`. A call whose arguments are one
/// of the strings gives its index as `text` instead of the text, so that
/// arguments are neither parsed here nor written back: the facade checks
/// its own string. An id stands in the copy as the facade wrote it (see
/// `call_id` in src/providers/read.rs) and is given back so, which makes
/// the answer a function of the copy alone. `None` when the bytes cannot be
/// read so; the facade then reads the response as `readToolCalls` does.
#[wasm_bindgen(js_name = readToolCallsAt)]
pub fn read_tool_calls_at(copy_start: usize, copy_len: usize) -> Option<String> {
    INPUT.with(|input| {
        let input = input.borrow();
        let whole =
            simdutf8::basic::from_utf8(input.get(..copy_start.checked_add(copy_len)?)?).ok()?;
        Some(CallsRead::of_copy(whole, copy_start)?.to_json())
    })
}

/// The repair feedback for each refused call of a `checkToolCalls` verdict,
/// as JSON text `[{ id, text }]`; `schemas_json` maps tool names to their
/// input schemas.
#[wasm_bindgen(js_name = toolCallsFeedback)]
pub fn tool_calls_feedback(verdict_json: &str, schemas_json: &str) -> Result<JsValue, JsValue> {
    let verdict = parse_argument("the verdict", verdict_json)?;
    let schemas = parse_argument("the tools' schemas", schemas_json)?;
    let empty = serde_json::Map::new();
    let schemas = schemas.as_object().unwrap_or(&empty);
    let feedback: Vec<Value> = crate::repair::tool_calls_feedback(&verdict, schemas)
        .map_err(argument_error)?
        .into_iter()
        .map(|(id, text)| serde_json::json!({ "id": id, "text": text }))
        .collect();
    to_js(&feedback)
}

/// Starts one check made of the calls until `endCheck`: checking the tool
/// calls of one response is one check, with one pattern budget for all of
/// them (see `schema::one_check`), although each call is checked by a call
/// of its own.
#[wasm_bindgen(js_name = beginCheck)]
pub fn begin_check() {
    hot_path::schema::begin_check();
}

#[wasm_bindgen(js_name = endCheck)]
pub fn end_check() {
    hot_path::schema::end_check();
}

/// The error hash of a failure that carries no issues (a call of a tool
/// nobody declared), as a verdict's `errorHash` would be.
#[wasm_bindgen(js_name = failureHash)]
pub fn failure_hash(failure: &str) -> String {
    hot_path::hash::hex_digest(failure.as_bytes())
}

/// The tools declared in `tools_json` (declarations in any shape, or a
/// whole request), as JSON text: `[{ name, schemaPointer }]`, the pointer
/// null for a tool that takes no arguments.
#[wasm_bindgen(js_name = declaredTools)]
pub fn declared_tools(tools_json: &str) -> Result<JsValue, JsValue> {
    let tools = parse_argument("the tools", tools_json)?;
    declared_json(crate::providers::declarations::declared_tools(&tools))
}

/// `declaredTools` of a list or record found at one of a request's
/// declaration paths (see `requestPlan`), its pointers into the list.
#[wasm_bindgen(js_name = declaredToolsIn)]
pub fn declared_tools_in(list_json: &str) -> Result<JsValue, JsValue> {
    let list = parse_argument("the tools", list_json)?;
    declared_json(crate::providers::declarations::declared_in(&list))
}

fn declared_json(
    declared: Vec<crate::providers::declarations::Declared>,
) -> Result<JsValue, JsValue> {
    let declared: Vec<Value> = declared
        .into_iter()
        .map(|d| serde_json::json!({ "name": d.name, "schemaPointer": d.schema_pointer }))
        .collect();
    to_js(&declared)
}
