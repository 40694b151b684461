//! The ECMA-262 pattern translation (`vendor/jsonschema-regex/src/ecma.rs`)
//! over arbitrary text: the first line is a pattern, the other lines
//! subjects to match it on.
//!
//! What must hold for every pattern: the translation never panics; it only
//! translates what `format: "regex"` accepts; and what it writes, fancy-regex
//! reads (a pattern it cannot read would be a `SchemaError` the translation
//! should have given, with its reason) unless it is too large to compile;
//! matching it never panics. Its answers are held to JavaScript's by the
//! property test in tests/js/checking/regex-dialect.test.mjs.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (pattern, subjects) = text.split_once('\n').unwrap_or((&text, ""));
    let Ok(translated) = jsonschema_regex::translate_ecma_regex(pattern) else {
        return;
    };
    assert!(jsonschema_regex::is_valid_ecma_regex(pattern), "{pattern:?} translated though not ECMA-262");
    // Bounded as the guard bounds its automata (hot_path::schema), so that a
    // count no bounded automaton holds is a size limit, not a heap run out.
    let regex = match fancy_regex::RegexBuilder::new(&translated)
        .backtrack_limit(100_000)
        .delegate_size_limit(10 << 20)
        .build()
    {
        Ok(regex) => regex,
        Err(fancy_regex::Error::CompileError(error))
            if matches!(
                *error,
                fancy_regex::CompileError::InnerError(_)
                    | fancy_regex::CompileError::PatternTooComplex
                    | fancy_regex::CompileError::DfaBuildError(..)
            ) =>
        {
            // The engines' size limits: a pattern too large to compile (a
            // lookbehind's automaton included: `(?<=a{4294967296,}|b)` has
            // a count no automaton holds).
            return;
        }
        Err(error) => panic!("{pattern:?} was written as {translated:?}, which fancy-regex refuses: {error}"),
    };
    for subject in subjects.split('\n') {
        let _ = regex.is_match(subject);
    }
});
