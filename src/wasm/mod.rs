//! The JavaScript boundary: the only module that knows about wasm-bindgen.
//! Its files hold bindings only, one per export group (parameters in, one
//! call into the module that decides, the result out): `check.rs` (the
//! checks and the lanes), `schemas.rs` (compiled schemas and their cache),
//! `stream.rs` (stream checks), `session.rs` (guarded calls), `usage.rs`,
//! `tools.rs` (tool calls and declarations), `providers.rs` (the plans and
//! tables the facade walks), `services.rs` (feedback, Standard Schema,
//! display, version). This file holds what they share: the start, the
//! errors, the conversions, and the input buffer.
//!
//! Values come in as JSON text that the JS facade made with `JSON.stringify`
//! (or that the caller already had); a response comes as the copy the
//! facade's reader made of it along a read plan (`crate::providers::read`),
//! and on the lanes as bytes the facade encoded into the input buffer.
//! Parsing text here is cheaper than walking JS objects through js-sys, and
//! serde_json's recursion limit turns hostile nesting into a clear error
//! instead of a stack overflow. Results leave as
//! JSON text too, which the facade turns into plain objects with one
//! `JSON.parse`: measured, that is several times cheaper than building the
//! object one property at a time through wasm-bindgen imports. Calls that
//! answer with a number instead use the statuses of `crate::status`.
//!
//! These exports are the raw layer; the modules in `js/` give them their public
//! names, shapes and error classes.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::options::ArgumentError;
use crate::status;
use crate::verdict::SchemaInput;
use hot_path::redact::redact_secrets;
use hot_path::schema;
use hot_path::schema::{parse_schema_text, SchemaError};

mod check;
mod providers;
mod schemas;
mod services;
mod session;
mod stream;
mod tools;
mod usage;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
    // The schema cache weighs each validator by the heap its compilation keeps.
    #[cfg(not(target_feature = "atomics"))]
    schema::set_memory_meter(crate::heap::in_use);
}

/// An `Error` carrying a stable `code` the facade maps to its error classes.
fn coded_error(code: &str, message: &str) -> JsValue {
    // Made safe to print: an error's message may quote a schema or an option.
    let error = js_sys::Error::new(&hot_path::display::escape_for_display(message));
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

// Both messages may quote a schema or an option value: they are redacted
// like everything else that can reach a log.
fn argument_error(e: ArgumentError) -> JsValue {
    coded_error("invalid_argument", &redact_secrets(&e.message))
}

fn schema_error(e: SchemaError) -> JsValue {
    coded_error("invalid_schema", &redact_secrets(&e.message))
}

/// A result as JSON text, for the facade to `JSON.parse`.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    serde_json::to_string(value)
        .map(|text| JsValue::from_str(&text))
        .map_err(|e| coded_error("internal", &format!("could not build the result: {e}")))
}

fn parse_argument(what: &str, text: &str) -> Result<Value, JsValue> {
    serde_json::from_slice(text.as_bytes()).map_err(|e| {
        coded_error(
            "invalid_argument",
            &format!("{what} could not be read as JSON ({e})"),
        )
    })
}

fn schema_from_text(schema_json: &str) -> Result<Value, JsValue> {
    parse_schema_text(schema_json).map_err(schema_error)
}

/// Schema text as read (none given, a schema, or why it could not be read)
/// as a check takes it.
fn schema_input(read: Option<&Result<Value, SchemaError>>) -> SchemaInput<'_> {
    match read {
        None => SchemaInput::None,
        Some(Ok(value)) => SchemaInput::Json(value),
        Some(Err(e)) => SchemaInput::Unreadable(e.clone()),
    }
}

thread_local! {
    /// Where the facade encodes a response for the lane (see `inputBuffer`).
    static INPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A buffer of at least `capacity` bytes for the facade to encode the next
/// response into with `TextEncoder.encodeInto`: the browser's native encoder
/// is several times faster than copying a string in byte by byte. The
/// pointer is valid until the next call into the module.
#[wasm_bindgen(js_name = inputBuffer)]
pub fn input_buffer(capacity: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut buffer = input.borrow_mut();
        if buffer.len() < capacity {
            buffer.resize(capacity, 0);
        }
        buffer.as_mut_ptr()
    })
}

/// `lane` over the first `len` bytes of the input buffer as text, or
/// `status::UNAVAILABLE` when they are not there or not UTF-8. encodeInto
/// writes well-formed UTF-8; anything else is refused. simdutf8 checks it
/// with simd128, several times faster than core's check, which goes a
/// 32-bit word at a time in wasm: on a 425 KB response the check was about
/// 6% of the call.
fn with_input(len: usize, lane: impl FnOnce(&str) -> u32) -> u32 {
    INPUT.with(
        |input| match input.borrow().get(..len).map(simdutf8::basic::from_utf8) {
            Some(Ok(text)) => lane(text),
            _ => status::UNAVAILABLE,
        },
    )
}

/// Writes `bytes` over the start of the input buffer (for the facade to
/// read back), as far as it reaches.
fn write_input(bytes: &[u8]) {
    INPUT.with(|input| {
        if let Some(start) = input.borrow_mut().get_mut(..bytes.len()) {
            start.copy_from_slice(bytes);
        }
    });
}
