//! Arbitrary schema text through the path `compileSchema` takes
//! (`parse_schema_text`, then `compile`) under several option sets, then a
//! few small instances through the compiled validator. Nothing here may
//! panic or hang: a schema is caller input, and a trap poisons the wasm
//! instance.
//!
//! With default options the guard compiles exactly the schemas jsonschema
//! over `serde_json` compiles (with the meta-schema check done over
//! `serde_json` too), a schema in another dialect as the JSON Schema it
//! means, and the compiled validator agrees with it on the same instances
//! (read as the guard reads JSON text, see `js_view`).

#![no_main]

use std::sync::Arc;

use jsonschema::Draft;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use hot_path::schema::{
    depth_exceeds, parse_schema_text, CompileOptions, CompiledSchema, FormatMode,
    OfflineRetriever, MAX_SCHEMA_DEPTH,
};
use hot_path::tape;
use structured_output_guard::dialect::{self, compile};
use structured_output_guard_fuzz::{check_schema_over_serde, js_view};

/// Where the option set that serves the schema as a resource finds it.
const RESOURCE_URI: &str = "https://schemas.example.com/fuzzed.json";

/// Small instances of every type, a few strings that formats care about,
/// the schema itself and the values it names as examples.
fn instances(schema: &Value) -> Vec<Value> {
    let mut out = vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-7),
        json!(2.5),
        json!(1e300),
        json!(""),
        json!("2026-02-30"),
        json!("user@example.com"),
        json!("https://example.com/a?b#c"),
        json!([]),
        json!([1, "a", 1]),
        json!({}),
        json!({ "id": "AB-12", "tags": ["x", "y"], "n": null }),
        schema.clone(),
    ];
    for key in ["const", "default"] {
        if let Some(v) = schema.get(key) {
            out.push(v.clone());
        }
    }
    for key in ["enum", "examples"] {
        if let Some(v) = schema.get(key).and_then(|v| v.get(0)) {
            out.push(v.clone());
        }
    }
    out
}

fn option_sets(schema: &Value) -> Vec<CompileOptions> {
    // A `$comment` doubles as the source of a custom format, so regular
    // expressions from the input reach the custom-format builder too.
    let custom_formats = schema
        .get("$comment")
        .and_then(Value::as_str)
        .map(|source| vec![("fuzzed".to_owned(), source.to_owned())])
        .unwrap_or_default();
    vec![
        CompileOptions::default(),
        CompileOptions {
            reject_unknown_fields: true,
            ..CompileOptions::default()
        },
        CompileOptions {
            formats: FormatMode::Annotate,
            draft: Some(Draft::Draft7),
            reject_unknown_fields: true,
            unknown_formats_error: true,
            custom_formats: custom_formats.clone(),
            ..CompileOptions::default()
        },
        CompileOptions {
            draft: Some(Draft::Draft4),
            unknown_formats_error: true,
            resources: vec![(RESOURCE_URI.to_owned(), schema.clone())],
            custom_formats,
            ..CompileOptions::default()
        },
    ]
}

fn exercise(compiled: &Arc<CompiledSchema>, instance: &Value) -> bool {
    let valid = compiled.is_valid(instance);
    let report = compiled.validate(instance, 3);
    assert_eq!(report.valid, valid);
    assert!(report.errors.len() <= 3);
    if valid {
        assert!(report.errors.is_empty() && !report.more_errors);
    } else {
        // An invalid instance always comes with at least one reason.
        assert!(!report.errors.is_empty(), "invalid without an issue");
        assert!(!report.more_errors || report.errors.len() == 3);
    }
    valid
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let schema = match parse_schema_text(text) {
        Ok(schema) => schema,
        Err(e) => {
            assert!(serde_json::from_str::<Value>(text).is_err());
            assert!(!e.message.is_empty());
            return;
        }
    };
    let within_shape = matches!(schema, Value::Object(_) | Value::Bool(_))
        && !depth_exceeds(&schema, MAX_SCHEMA_DEPTH);
    let instances = instances(&schema);
    // The JSON Schema the guard reads the text as (Gemini's Schema, OpenAPI's
    // `nullable`: see src/dialect.rs), which jsonschema is held to; none when
    // the guard refuses to read it so.
    let meant = match dialect::translate(&schema, dialect::detect(&schema)) {
        Ok(Some(translated)) => Some(translated.schema),
        Ok(None) => Some(schema.clone()),
        Err(_) => None,
    };
    for (set, options) in option_sets(&schema).iter().enumerate() {
        // jsonschema over serde_json, with the options of the first set.
        let plain = meant.as_ref().filter(|_| set == 0).map(|meant| {
            jsonschema::options()
                .should_validate_formats(true)
                .should_ignore_unknown_formats(true)
                .with_schema_check(check_schema_over_serde)
                .with_retriever(OfflineRetriever::default())
                .build(meant)
        });
        let compiled = match compile(&schema, options) {
            Ok(compiled) => compiled,
            Err(e) => {
                assert!(!e.message.is_empty());
                if let (Some(Ok(_)), true) = (&plain, within_shape) {
                    panic!("only jsonschema over serde_json compiles it: {}", e.message);
                }
                continue;
            }
        };
        assert!(within_shape, "compiled a schema of the wrong shape");
        // The second compile of the same content and options is the cached one.
        let again = compile(&schema, options).expect("compiled once, compiles again");
        assert!(Arc::ptr_eq(&compiled, &again));
        let verdicts: Vec<bool> = instances.iter().map(|i| exercise(&compiled, i)).collect();

        if let Some(plain) = plain {
            let plain = plain.expect("compiles over serde_json when it compiles over the tape");
            for (instance, valid) in instances.iter().zip(&verdicts) {
                if depth_exceeds(instance, tape::MAX_DEPTH - 1) {
                    // Deeper than any JSON text the guard reads: refused.
                    assert!(!valid);
                } else {
                    let read = js_view(instance.clone());
                    assert_eq!(plain.is_valid(&read), *valid, "instance {instance}");
                }
            }
        }
        if set == 3 {
            // The schema reached through a `$ref` to it as a resource.
            let by_ref = json!({ "$ref": RESOURCE_URI });
            if let Ok(compiled) = compile(&by_ref, options) {
                for instance in &instances {
                    exercise(&compiled, instance);
                }
            }
        }
    }
});
