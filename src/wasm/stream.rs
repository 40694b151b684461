//! Stream checks (`RawStream`, `streamOpen`, `streamOpenWith`).

use std::sync::Arc;

use wasm_bindgen::prelude::*;

use super::schemas::RawValidator;
use super::{schema_error, schema_input};
use crate::status;
use crate::verdict::SchemaInput;
use hot_path::schema::parse_schema_text;

/// A streamed response being checked as it arrives (see `crate::stream`).
/// The facade writes pieces into `staging` with `TextEncoder.encodeInto`
/// and hands them over with `push`: the text crosses once, into the
/// check's own copy, and the facade keeps none.
#[wasm_bindgen(js_name = RawStream)]
pub struct RawStream {
    check: crate::stream::StreamCheck,
    staging: Vec<u8>,
    /// The accepted JSON's place in the text, after `end`.
    accepted: Option<std::ops::Range<usize>>,
    /// What `partialWords` gave last.
    words: Vec<u32>,
}

impl RawStream {
    /// A stream check, with a staging buffer kept from an earlier one.
    pub(super) fn new(check: crate::stream::StreamCheck, reuse_staging: bool) -> RawStream {
        let staging = if reuse_staging {
            crate::buffer_pool::take(&SPARE_STAGING)
        } else {
            Vec::new()
        };
        RawStream {
            check,
            staging,
            accepted: None,
            words: Vec::new(),
        }
    }
}

fn open_stream(input: SchemaInput<'_>, options_json: &str) -> Result<RawStream, JsValue> {
    let options = super::parse_argument("options", options_json)?;
    let check = crate::options::stream_check_options_of(&options).map_err(super::argument_error)?;
    let check = crate::stream::StreamCheck::new(input, check).map_err(schema_error)?;
    Ok(RawStream::new(check, true))
}

/// The largest staging buffer kept for the next stream check: 4 MiB, so
/// that what stays held after a long response is bounded.
const SPARE_STAGING_BYTES: usize = 4 << 20;

thread_local! {
    /// The staging buffer of the last stream check freed, for the next
    /// one, which would otherwise grow its own from nothing, copying and
    /// zeroing on the way (see `crate::buffer_pool`; the lane keeps its
    /// input buffer too). Kept as it is: what it holds is written over
    /// before it is read.
    static SPARE_STAGING: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for RawStream {
    fn drop(&mut self) {
        let staging = std::mem::take(&mut self.staging);
        if (1..=SPARE_STAGING_BYTES).contains(&staging.capacity()) {
            crate::buffer_pool::keep(&SPARE_STAGING, staging, Vec::capacity);
        }
    }
}

/// A stream check against schema text, read as `checkOutput` reads it
/// (undefined: no schema).
#[wasm_bindgen(js_name = streamOpen)]
pub fn stream_open(schema_json: Option<String>, options_json: &str) -> Result<RawStream, JsValue> {
    let schema = schema_json.map(|text| parse_schema_text(&text));
    open_stream(schema_input(schema.as_ref()), options_json)
}

/// The same against an already compiled validator.
#[wasm_bindgen(js_name = streamOpenWith)]
pub fn stream_open_with(
    validator: &RawValidator,
    options_json: &str,
) -> Result<RawStream, JsValue> {
    open_stream(
        SchemaInput::Compiled(Arc::clone(&validator.compiled)),
        options_json,
    )
}

#[wasm_bindgen(js_class = RawStream)]
impl RawStream {
    /// A buffer of at least `capacity` bytes for the pieces still to be
    /// pushed (what was written there before stays). The pointer is valid
    /// until the next call into the module.
    pub fn staging(&mut self, capacity: usize) -> *mut u8 {
        hot_path::stream::grow_zeroed(&mut self.staging, capacity);
        self.staging.as_mut_ptr()
    }

    /// The next piece of the response: the first `len` staged bytes, an
    /// array item cut within `hold` bytes of the end waiting for the next
    /// piece (see `StreamCheck::hold_items`; 0: none waits).
    /// `status::PUSH_PENDING`: nothing definite yet; `status::PUSH_REJECTED`:
    /// rejected (now or before; the state is read with `rejection`).
    pub fn push(&mut self, len: usize, hold: usize) -> u32 {
        self.check.hold_items(hold);
        let bytes = self.staging.get(..len).unwrap_or_default();
        // encodeInto writes well-formed UTF-8, checked as the lane checks it.
        let rejected = match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => self.check.push_str(text),
            Err(_) => self.check.push(bytes),
        };
        if rejected.is_some() {
            status::PUSH_REJECTED
        } else {
            status::PUSH_PENDING
        }
    }

    /// The rejected state as JSON text, once there is one.
    pub fn rejection(&self) -> Option<String> {
        self.check.rejection().map(|r| r.to_json().to_string())
    }

    /// The whole response's verdict, as `checkOutput` shapes it (without
    /// the value: see `json_at`); after a rejection the caller was shown
    /// (`reported`), that rejection (see `StreamCheck::end_json`).
    pub fn end(
        &mut self,
        finish_reason: Option<String>,
        reported: bool,
    ) -> Result<JsValue, JsValue> {
        let (out, accepted) = self.check.end_json(finish_reason.as_deref(), reported);
        self.accepted = accepted;
        Ok(JsValue::from_str(&out))
    }

    /// Where the accepted JSON text lies in wasm memory, for the facade to
    /// decode and `JSON.parse` once, without a copy of it made here: its
    /// address (null when the verdict was not accepted), valid until the
    /// next call into the module; `json_length` gives its bytes.
    #[wasm_bindgen(js_name = jsonAt)]
    pub fn json_at(&self) -> *const u8 {
        self.accepted_json().map_or(std::ptr::null(), str::as_ptr)
    }

    /// A tool call the stream carries, by its name, as it begins (see
    /// `StreamCheck::note_tool_call`).
    #[wasm_bindgen(js_name = noteToolCall)]
    pub fn note_tool_call(&mut self, name: &str) {
        self.check.note_tool_call(name);
    }

    /// Asks the check to note what `valueParts` needs, before the first
    /// push (see `StreamCheck::note_outline`).
    #[wasm_bindgen(js_name = noteOutline)]
    pub fn note_outline(&mut self) {
        self.check.note_outline();
    }

    /// The plan for reading the accepted JSON text in parts of about
    /// `part` bytes (see `hot_path::stream::outline`), its offsets from
    /// `json_at`; undefined when it is to be read whole.
    #[wasm_bindgen(js_name = valueParts)]
    pub fn value_parts(&self, part: usize) -> Option<String> {
        self.check.value_parts(self.accepted.clone()?, part)
    }

    /// The first `len` staged bytes kept (not yet checked: the next `push`
    /// checks them, see `StreamCheck::append`), and what changed in the
    /// partial value of the text since the last call, as numbers (see
    /// `StreamCheck::partial_words`), after one more first: the address of
    /// the text the places in them are in. Gives the numbers' address;
    /// both are valid until the next call into the module.
    #[wasm_bindgen(js_name = partialWords)]
    pub fn partial_words(&mut self, len: usize) -> *const u32 {
        let bytes = self.staging.get(..len).unwrap_or_default();
        self.check.append(bytes);
        let mut words = std::mem::take(&mut self.words);
        self.check.partial_words(&mut words);
        // wasm32 addresses are 32 bits.
        words.insert(0, self.check.text().as_ptr() as usize as u32);
        self.words = words;
        self.words.as_ptr()
    }

    /// The pointers of what fails in the partial value as of the last
    /// `partialWords`, as JSON text.
    #[wasm_bindgen(js_name = partialInvalid)]
    pub fn partial_invalid(&self) -> String {
        self.check.partial_invalid()
    }

    /// The bytes of the accepted JSON text (see `json_at`); 0 when the
    /// verdict was not accepted.
    #[wasm_bindgen(js_name = jsonLength)]
    pub fn json_length(&self) -> usize {
        self.accepted_json().map_or(0, str::len)
    }
}

impl RawStream {
    /// The accepted JSON text, in the text the check keeps, after `end`.
    fn accepted_json(&self) -> Option<&str> {
        let span = self.accepted.clone()?;
        self.check.text().get(span)
    }
}
