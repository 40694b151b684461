//! The services beside the checks: the option names the facade checks
//! against, repair feedback, Standard JSON Schema's source, text as the
//! package shows it, and the version for audit records.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{argument_error, parse_argument, schema_error, to_js};
use crate::options::{
    CHECK_OPTION_NAMES, COMPILE_OPTION_NAMES, GUARD_OPTION_NAMES, STREAM_OPTION_NAMES,
};
use hot_path::schema::parse_schema_text;

/// Every option name `guardedCall` takes, as JSON text: `{ own, check }`,
/// its own and those it hands to each check (`checkOutput`'s).
#[wasm_bindgen(js_name = guardOptionNames)]
pub fn guard_option_names() -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Names {
        own: &'static [&'static str],
        check: Vec<&'static str>,
        stream: &'static [&'static str],
    }
    let check = CHECK_OPTION_NAMES
        .iter()
        .chain(&COMPILE_OPTION_NAMES)
        .copied()
        .collect();
    to_js(&Names {
        own: &GUARD_OPTION_NAMES,
        check,
        stream: &STREAM_OPTION_NAMES,
    })
}

/// A compiled schema's source as Standard JSON Schema's `jsonSchema.input`
/// and `output` give it, as JSON text (see
/// `crate::standard::source_for_target`); `options_json` holds the compile
/// options the schema was compiled with.
#[wasm_bindgen(js_name = standardJsonSchema)]
pub fn standard_json_schema(
    schema_json: &str,
    target: &str,
    options_json: &str,
) -> Result<JsValue, JsValue> {
    use crate::standard::{source_for_target, Refused};
    let schema = parse_schema_text(schema_json).map_err(schema_error)?;
    let options = parse_argument("the options", options_json)?;
    match source_for_target(schema, target, &options) {
        Ok(out) => to_js(&out),
        Err(Refused::Schema(e)) => Err(schema_error(e)),
        Err(Refused::Argument(e)) => Err(argument_error(e)),
    }
}

/// Feedback for a failed verdict; `schema_json` is undefined without a schema.
#[wasm_bindgen(js_name = repairFeedback)]
pub fn repair_feedback(verdict_json: &str, schema_json: Option<String>) -> Result<String, JsValue> {
    let verdict = parse_argument("the verdict", verdict_json)?;
    let schema = match schema_json {
        None => None,
        Some(text) => Some(parse_schema_text(&text).map_err(schema_error)?),
    };
    crate::repair::repair_feedback(&verdict, schema.as_ref()).map_err(argument_error)
}

/// Text as the package shows it. With `pointer`, `text` is a JSON Pointer
/// whose segments that look like a credential are redacted (an issue's path
/// names the output's own keys, which the model wrote: the audit's tables
/// keep them so). With `escape`, every character a terminal or log viewer
/// would act on (C0 and C1 controls, DEL, the bidirectional overrides and
/// isolates) is then written as `\uXXXX`: the one function every message
/// of the package passes through (see `hot_path::display`), for the facade's
/// own messages, the matchers and the command line. One export for both,
/// as each export's glue costs the package's size budget.
#[wasm_bindgen(js_name = shownText)]
pub fn shown_text(text: &str, pointer: bool, escape: bool) -> String {
    let text = if pointer {
        hot_path::redact::redact_pointer(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    if escape {
        hot_path::display::escape_for_display(&text)
    } else {
        text.into_owned()
    }
}

/// What checked a response, for audit records.
#[wasm_bindgen(js_name = validatorVersion)]
pub fn validator_version() -> String {
    crate::VALIDATOR_VERSION.to_owned()
}
