//! One export: compile a schema text with jsonschema (formats asserted) and
//! say whether an instance text is valid. No error list, no meta-schema
//! check, no parser of its own: everything the package adds to this is left
//! out, so the module's size is what jsonschema alone costs.
#![allow(clippy::missing_safety_doc)]

use std::alloc::{alloc, Layout};

/// A buffer of `len` bytes for the caller to write a text into.
#[no_mangle]
pub extern "C" fn buffer(len: usize) -> *mut u8 {
    match Layout::from_size_align(len.max(1), 1) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) => unsafe { alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// 1 valid, 0 invalid, 2 or 3 a text is not JSON, 4 the schema does not compile.
#[no_mangle]
pub unsafe extern "C" fn check(schema: *const u8, schema_len: usize, instance: *const u8, instance_len: usize) -> u32 {
    // SAFETY: the caller wrote these many bytes at these addresses.
    let (schema, instance) = unsafe {
        (std::slice::from_raw_parts(schema, schema_len), std::slice::from_raw_parts(instance, instance_len))
    };
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(schema) else { return 2 };
    let Ok(instance) = serde_json::from_slice::<serde_json::Value>(instance) else { return 3 };
    let Ok(validator) = jsonschema::options().should_validate_formats(true).build(&schema) else { return 4 };
    u32::from(validator.is_valid(&instance))
}
