//! Schemas are checked against their draft's meta-schema by validators over
//! the tape, the same representation responses are checked in. jsonschema's
//! own meta-schema validators run over `serde_json::Value`, and keeping them
//! would build every keyword validator a second time into the wasm module
//! (about 600 KB of code); the `external-schema-check` feature leaves them
//! out and calls `check_against_meta_schema` instead.

use std::sync::OnceLock;

use jsonschema::{Draft, ValidationError, Validator};
use serde_json::Value;

use crate::tape::{self, TapeJson, TapeNode};

/// One meta-schema validator per draft, built on first use: building one
/// costs milliseconds, checking a schema with it microseconds.
static META_VALIDATORS: [OnceLock<Option<Validator<TapeJson>>>; 5] = [const { OnceLock::new() }; 5];

fn meta_validator(draft: Draft) -> Option<&'static Validator<TapeJson>> {
    let (slot, meta_schema): (usize, &Value) = match draft {
        Draft::Draft4 => (0, &referencing::meta::DRAFT4),
        Draft::Draft6 => (1, &referencing::meta::DRAFT6),
        Draft::Draft7 => (2, &referencing::meta::DRAFT7),
        Draft::Draft201909 => (3, &referencing::meta::DRAFT201909),
        _ => (4, &referencing::meta::DRAFT202012),
    };
    META_VALIDATORS
        .get(slot)?
        .get_or_init(|| {
            // A meta-schema is not checked against itself (that would ask
            // for the validator being built).
            jsonschema::options_for::<TapeJson>()
                .should_validate_schema(false)
                .build(meta_schema)
                .ok()
        })
        .as_ref()
}

/// The schema document against the meta-schema of `draft`, as jsonschema
/// would check it. The published meta-schemas always compile, and a schema
/// that reached compilation is within the tape's nesting limit (the same as
/// `MAX_SCHEMA_DEPTH`), so the two early returns do not happen in practice.
pub(super) fn check_against_meta_schema(
    draft: Draft,
    schema: &Value,
) -> Result<(), ValidationError<'static>> {
    let Some(validator) = meta_validator(draft) else {
        return Ok(());
    };
    let text = schema.to_string();
    let Ok(tape) = tape::parse(&text) else {
        return Ok(());
    };
    validator
        .validate(TapeNode::full(&tape))
        .map_err(|error| error.to_owned())
}
