//! Compiled schemas (`RawValidator`, `compileSchema`) and the schema cache.

use std::sync::Arc;

use wasm_bindgen::prelude::*;

use super::check::leave_verdict;
use super::{
    argument_error, coded_error, parse_argument, schema_error, schema_from_text, to_js, with_input,
    INPUT,
};
use crate::options::{compile_options, max_errors, reject_unknown, COMPILE_OPTION_NAMES};
use crate::status;
use hot_path::schema;
use hot_path::schema::CompiledSchema;

/// An instance the facade serialised, read as a tape.
fn read_instance(text: &str) -> Result<hot_path::tape::Tape<'_>, JsValue> {
    hot_path::tape::parse(text).map_err(|e| {
        coded_error(
            "invalid_argument",
            &format!("the instance could not be read as JSON ({e})"),
        )
    })
}

/// A compiled schema. Cheap to clone on the Rust side: the compiled form is
/// shared with the cache.
#[wasm_bindgen(js_name = RawValidator)]
pub struct RawValidator {
    pub(super) compiled: Arc<CompiledSchema>,
    /// Its check program, made on first request (see `checkProgram`).
    program: std::cell::OnceCell<Option<crate::check_program::CheckProgram>>,
}

impl RawValidator {
    fn program(&self) -> Option<&crate::check_program::CheckProgram> {
        self.program
            .get_or_init(|| crate::check_program::program_of(&self.compiled))
            .as_ref()
    }
}

#[wasm_bindgen(js_class = RawValidator)]
impl RawValidator {
    pub fn validate(&self, instance_json: &str, options_json: &str) -> Result<JsValue, JsValue> {
        let options = parse_argument("options", options_json)?;
        reject_unknown(&options, &[&["maxErrors"]], "Validator.validate")
            .map_err(argument_error)?;
        let cap = max_errors(&options).map_err(argument_error)?;
        let instance = read_instance(instance_json)?;
        to_js(&self.compiled.validate_tape(&instance, cap))
    }

    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self, instance_json: &str) -> Result<bool, JsValue> {
        let instance = read_instance(instance_json)?;
        Ok(self.compiled.is_valid_tape(&instance))
    }

    /// `validate` of the instance whose JSON text the facade encoded into
    /// the first `len` bytes of the input buffer (see `inputBuffer`), with
    /// at most `max_errors` issues. A status (`crate::status`): `OK` for a
    /// valid instance, which costs no result text; `FAILED` with the
    /// report waiting as JSON text for `laneTakeVerdict`; `UNAVAILABLE`
    /// when the bytes are not UTF-8 or not JSON the tape reads, which
    /// `validate` then reports. Encoding the text with `encodeInto` and
    /// answering a valid instance with a number made a Standard Schema
    /// `validate` of a small object several times cheaper than passing the
    /// text as a string argument and the report back as text.
    #[wasm_bindgen(js_name = validateInput)]
    pub fn validate_input(&self, len: usize, max_errors: u32) -> u32 {
        with_input(len, |text| {
            let Ok(instance) = hot_path::tape::parse(text) else {
                return status::UNAVAILABLE;
            };
            let cap = usize::try_from(max_errors).unwrap_or(usize::MAX);
            let report = self.compiled.validate_tape(&instance, cap);
            if report.valid {
                return status::OK;
            }
            leave_verdict(report.to_json());
            status::FAILED
        })
    }

    /// `isValid` of the instance in the first `len` bytes of the input
    /// buffer, as `validateInput` reads it: `status::VALID`, `INVALID`, or
    /// `UNAVAILABLE` when `isValid` must read the text itself.
    #[wasm_bindgen(js_name = isValidInput)]
    pub fn is_valid_input(&self, len: usize) -> u32 {
        with_input(len, |text| match hot_path::tape::parse(text) {
            Ok(instance) if self.compiled.is_valid_tape(&instance) => status::VALID,
            Ok(_) => status::INVALID,
            Err(_) => status::UNAVAILABLE,
        })
    }

    /// The schema's check program as JSON text (see src/check_program.rs),
    /// or undefined when the core checks it alone.
    #[wasm_bindgen(js_name = checkProgram)]
    pub fn check_program(&self) -> Option<String> {
        self.program().map(|program| program.text.clone())
    }

    /// Judges the program's string checks for the batch in the first `len`
    /// bytes of the input buffer (see `CheckProgram::judge_strings`): their
    /// verdicts, a byte a string, are written over the start of the buffer,
    /// and the number that failed is returned; `status::NOT_JUDGED` when
    /// the core must check the whole value instead.
    #[wasm_bindgen(js_name = judgeStrings)]
    pub fn judge_strings(&self, len: usize) -> u32 {
        let Some(program) = self.program() else {
            return status::NOT_JUDGED;
        };
        let mut verdicts = Vec::new();
        let judged = INPUT.with(|input| {
            let input = input.borrow();
            let text = std::str::from_utf8(input.get(..len)?).ok()?;
            program.judge_strings(text, &mut verdicts)
        });
        let Some(failed) = judged
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n != status::NOT_JUDGED)
        else {
            return status::NOT_JUDGED;
        };
        super::write_input(&verdicts);
        failed
    }

    #[wasm_bindgen(getter, js_name = schemaHash)]
    pub fn schema_hash(&self) -> String {
        self.compiled.schema_hash().to_owned()
    }

    /// The memory the compiled schema holds, in bytes (what the schema
    /// cache's memory bound weighs).
    #[wasm_bindgen(getter, js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> u32 {
        u32::try_from(self.compiled.memory_bytes()).unwrap_or(u32::MAX)
    }

    /// The dialect the schema was read in.
    #[wasm_bindgen(getter)]
    pub fn dialect(&self) -> String {
        self.compiled.dialect().as_str().to_owned()
    }

    /// What of the schema the guard cannot enforce, as JSON text (a list of
    /// `{ path, keyword }`).
    #[wasm_bindgen(getter)]
    pub fn unenforced(&self) -> Result<JsValue, JsValue> {
        to_js(self.compiled.unenforced())
    }
}

#[wasm_bindgen(js_name = compileSchema)]
pub fn compile_schema(schema_json: &str, options_json: &str) -> Result<RawValidator, JsValue> {
    let options = parse_argument("options", options_json)?;
    reject_unknown(&options, &[&COMPILE_OPTION_NAMES], "compileSchema").map_err(argument_error)?;
    let compile = compile_options(&options).map_err(argument_error)?;
    let schema = schema_from_text(schema_json)?;
    // A response-format wrapper compiles to its schema, as checkOutput reads
    // it: taken as a schema itself it would accept everything.
    let (inner, _) = crate::verdict::unwrap_response_format(&schema);
    let compiled = crate::dialect::compile(inner, &compile).map_err(schema_error)?;
    Ok(RawValidator {
        compiled,
        program: std::cell::OnceCell::new(),
    })
}

#[wasm_bindgen(js_name = clearSchemaCache)]
pub fn clear_schema_cache() {
    schema::clear_cache();
}

#[wasm_bindgen(js_name = setSchemaCacheCapacity)]
pub fn set_schema_cache_capacity(capacity: u32) {
    schema::set_cache_capacity(usize::try_from(capacity).unwrap_or(usize::MAX));
}

/// Bounds the schema cache by the memory its validators hold, in bytes.
#[wasm_bindgen(js_name = setSchemaCacheMemory)]
pub fn set_schema_cache_memory(bytes: u32) {
    schema::set_cache_memory(usize::try_from(bytes).unwrap_or(usize::MAX));
}

#[wasm_bindgen(js_name = schemaCacheSize)]
pub fn schema_cache_size() -> u32 {
    u32::try_from(schema::cache_len()).unwrap_or(u32::MAX)
}

/// The memory the cached validators hold, in bytes, as each was weighed.
#[wasm_bindgen(js_name = schemaCacheBytes)]
pub fn schema_cache_bytes() -> u32 {
    u32::try_from(schema::cache_bytes()).unwrap_or(u32::MAX)
}

/// The schema cache's default memory bound, in bytes.
#[wasm_bindgen(js_name = schemaCacheDefaultBytes)]
pub fn schema_cache_default_bytes() -> u32 {
    u32::try_from(schema::DEFAULT_CACHE_BYTES).unwrap_or(u32::MAX)
}
