//! The plans and tables the facade walks (read plans, stream readers, the
//! request plan), a request's telemetry names, and provider schemas.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{argument_error, coded_error, schema_error, schema_from_text, to_js};

/// Where each provider's stream events keep the text, the finish reason and
/// the usage (`crate::providers::stream_events`), as JSON text.
#[wasm_bindgen(js_name = streamReaders)]
pub fn stream_readers() -> String {
    crate::providers::stream_events::stream_readers_json()
}

/// Which members of a response the reader copies
/// (`crate::providers::read`), as JSON text.
#[wasm_bindgen(js_name = readPlans)]
pub fn read_plans() -> String {
    crate::providers::read::plans_json()
}

/// What the wrapper reads of a request (`crate::session::wire::request_plan_json`).
#[wasm_bindgen(js_name = requestPlan)]
pub fn request_plan() -> Result<JsValue, JsValue> {
    crate::session::wire::request_plan_json()
        .map(|text| JsValue::from_str(&text))
        .map_err(|e| coded_error("internal", &format!("could not build the result: {e}")))
}

/// The telemetry names of a request (`crate::session::wire::telemetry_names_json`).
#[wasm_bindgen(js_name = requestTelemetryNames)]
pub fn request_telemetry_names(kinds: &[u8], model: Option<String>) -> Option<String> {
    crate::session::wire::telemetry_names_json(kinds, model)
}

/// The strict flag a response-format wrapper carries, if `schema_json` is one.
#[wasm_bindgen(js_name = wrapperStrict)]
pub fn wrapper_strict(schema_json: &str) -> Option<bool> {
    let schema: Value = serde_json::from_slice(schema_json.as_bytes()).ok()?;
    crate::verdict::unwrap_response_format(&schema).1
}

/// The schema to send in a provider's structured-output mode, with what that
/// mode leaves unenforced. An unknown provider is misuse; a schema that
/// cannot be read, compiled or expressed in the mode is a schema error.
#[wasm_bindgen(js_name = toProviderSchema)]
pub fn to_provider_schema(schema_json: &str, provider: &str) -> Result<JsValue, JsValue> {
    use crate::provider_schema::Provider;
    let provider = Provider::parse(provider).map_err(argument_error)?;
    let schema = schema_from_text(schema_json)?;
    let converted =
        crate::provider_schema::to_provider_schema(&schema, provider).map_err(schema_error)?;
    to_js(&converted)
}
