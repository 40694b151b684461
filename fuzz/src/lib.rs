//! What the fuzz targets share: JSON read the way the guard reads it, and a
//! schema check over `serde_json` to compare the guard's own with.

use std::sync::LazyLock;

use jsonschema::{Draft, ValidationError, Validator};
use serde_json::{Number, Value};

/// Every integer up to 2^53 in magnitude is exactly a double.
const MAX_SAFE_MAGNITUDE: u64 = 1 << 53;

/// `value` as the tape parser reads the same text: integers past 2^53 in
/// magnitude become the double JavaScript turns them into, because that
/// double is what the caller gets back (see `crates/tape/src/tape/number.rs`).
/// Everything else is unchanged.
pub fn js_view(value: Value) -> Value {
    match value {
        Value::Number(n) => {
            let beyond_safe = n.as_u64().is_some_and(|u| u > MAX_SAFE_MAGNITUDE)
                || n.as_i64()
                    .is_some_and(|i| i.unsigned_abs() > MAX_SAFE_MAGNITUDE);
            match n.as_f64().and_then(Number::from_f64) {
                Some(double) if beyond_safe => Value::Number(double),
                _ => Value::Number(n),
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(js_view).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, js_view(v))).collect())
        }
        other => other,
    }
}

fn meta_validator(meta_schema: &Value) -> Validator {
    jsonschema::options()
        .should_validate_schema(false)
        .build(meta_schema)
        .expect("a published meta-schema compiles")
}

static DRAFT4: LazyLock<Validator> = LazyLock::new(|| meta_validator(&referencing::meta::DRAFT4));
static DRAFT6: LazyLock<Validator> = LazyLock::new(|| meta_validator(&referencing::meta::DRAFT6));
static DRAFT7: LazyLock<Validator> = LazyLock::new(|| meta_validator(&referencing::meta::DRAFT7));
static DRAFT201909: LazyLock<Validator> =
    LazyLock::new(|| meta_validator(&referencing::meta::DRAFT201909));
static DRAFT202012: LazyLock<Validator> =
    LazyLock::new(|| meta_validator(&referencing::meta::DRAFT202012));

/// A schema against its draft's meta-schema, validated as a
/// `serde_json::Value`: what `crates/schema/src/schema/meta.rs` does over the tape.
/// For `ValidationOptions::with_schema_check`, since the crate's jsonschema
/// features leave jsonschema's own meta-schema validators out.
pub fn check_schema_over_serde(
    draft: Draft,
    schema: &Value,
) -> Result<(), ValidationError<'static>> {
    let validator: &Validator = match draft {
        Draft::Draft4 => &DRAFT4,
        Draft::Draft6 => &DRAFT6,
        Draft::Draft7 => &DRAFT7,
        Draft::Draft201909 => &DRAFT201909,
        _ => &DRAFT202012,
    };
    validator
        .validate(&js_view(schema.clone()))
        .map_err(|error| error.to_owned())
}
