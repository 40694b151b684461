//! Programs against the normaliser: for every usage shape, any counts give
//! what normalising the usage with those counts gives.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use super::*;

/// `text` with its numbers, in order, replaced by `counts`.
fn with_counts(text: &str, counts: &[i64]) -> String {
    let (probe, own) = probed(text).expect("a text of integer counts");
    assert_eq!(own.len(), counts.len());
    let mut out = probe;
    // The probe's numbers are distinct powers of two: replace the largest first,
    // so that no replaced number is read again as part of another.
    for (i, count) in counts.iter().enumerate().rev() {
        let marker = (1u64 << i).to_string();
        let at = find_number(&out, &marker).expect("the probe's marker");
        out.replace_range(at..at + marker.len(), &count.to_string());
    }
    out
}

/// Where the number `digits` stands alone (not inside a string or a longer number).
fn find_number(text: &str, digits: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(digits) {
        let at = from + found;
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + digits.len()).copied();
        let alone = |b: Option<u8>| !b.is_some_and(|b| b.is_ascii_digit() || b == b'"');
        if alone(before) && alone(after) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

const USAGES: &[&str] = &[
    r#"{"usage":{"prompt_tokens":512,"completion_tokens":180,"total_tokens":692,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}"#,
    r#"{"usage":{"service_tier":"standard","input_tokens":20,"cache_read_input_tokens":100,"cache_creation_input_tokens":5,"output_tokens":9}}"#,
    r#"{"usage":{"input_tokens":20,"output_tokens":9,"input_tokens_details":{"cached_tokens":4},"output_tokens_details":{"reasoning_tokens":3},"total_tokens":29}}"#,
    r#"{"usageMetadata":{"promptTokenCount":80,"candidatesTokenCount":20,"thoughtsTokenCount":7,"totalTokenCount":107,"cachedContentTokenCount":2}}"#,
    r#"{"usage":{"inputTokens":30,"outputTokens":10,"totalTokens":40,"cacheReadInputTokens":3,"cacheWriteInputTokens":1}}"#,
    r#"{"usage":{"inputTokens":30,"outputTokens":10,"totalTokens":40,"reasoningTokens":2,"cachedInputTokens":5}}"#,
    r#"{"usage":{"prompt_eval_count":11,"eval_count":3}}"#,
    r#"{"prompt_tokens":512,"completion_tokens":180}"#,
    r#"{"usage":{"prompt_tokens":-3,"completion_tokens":9007199254740991}}"#,
    r#"{}"#,
];

/// A small seeded generator (xorshift), so the counts never change.
fn counts_for(seed: &mut u64, n: usize) -> Vec<i64> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            match *seed % 4 {
                0 => 0,
                1 => i64::try_from(*seed % 100).unwrap(),
                2 => i64::try_from(*seed % 10_000_000).unwrap(),
                _ => i64::try_from(*seed % (1 << 50)).unwrap(),
            }
        })
        .collect()
}

#[test]
fn a_program_gives_what_normalising_gives_for_any_counts() {
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    for text in USAGES {
        let program = UsageProgram::of(text).unwrap_or_else(|| panic!("a program for {text}"));
        for _ in 0..200 {
            let counts = counts_for(&mut seed, program.counts());
            let written = with_counts(text, &counts);
            let expected = normalize_usage_text(&written).expect("JSON");
            assert_eq!(program.apply(&counts), Some(expected), "{written}");
        }
    }
}

#[test]
fn the_template_names_the_counts_each_count_sums() {
    let program = UsageProgram::of(USAGES[1]).unwrap();
    let mut template = String::new();
    program.write_template(&mut template);
    // Anthropic's input leaves out the cached part: the input is the sum of three counts.
    assert_eq!(
        template,
        r#"{"tokens":{"input":[0,1,2],"output":[3],"total":[0,1,2,3],"cacheRead":[1],"cacheWrite":[2]}}"#
    );
    let program = UsageProgram::of(USAGES[0]).unwrap();
    let mut template = String::new();
    program.write_template(&mut template);
    assert_eq!(
        template,
        r#"{"tokens":{"input":[0],"output":[1],"total":[2],"cacheRead":[3],"reasoning":[5],"prompt_tokens_details":{"audio_tokens":[4]},"completion_tokens_details":{"audio_tokens":[6],"accepted_prediction_tokens":[7],"rejected_prediction_tokens":[8]}}}"#
    );
}

#[test]
fn usages_a_program_cannot_say_have_none() {
    let many: Vec<String> = (0..=MOST_COUNTS).map(|i| format!("\"n{i}\":{i}")).collect();
    let many = format!("{{\"usage\":{{\"prompt_tokens\":1,{}}}}}", many.join(","));
    for text in [
        // Money, not a count.
        r#"{"usage":{"prompt_tokens":5,"cost":0.0012}}"#,
        r#"{"usage":{"prompt_tokens":5e2}}"#,
        r#"{"usage":{"prompt_tokens":9007199254740992}}"#,
        // Kept as they are: an array of counts, an executor's timing.
        r#"{"usageMetadata":{"promptTokenCount":8,"promptTokensDetails":[{"modality":"TEXT","tokenCount":8}]}}"#,
        r#"{"usage":{"tokens":{"input":1},"timing":{"ms":5}}}"#,
        // JavaScript would put this member first.
        r#"{"usage":{"prompt_tokens":1,"7":2}}"#,
        "not JSON",
        many.as_str(),
    ] {
        assert_eq!(UsageProgram::of(text), None, "{text}");
    }
}

#[test]
fn counts_are_found_outside_strings_only() {
    let text = r#"{"usage":{"note":"12 \"34\" 5","prompt_tokens":7,"completion_tokens":8}}"#;
    let (probe, counts) = probed(text).unwrap();
    assert_eq!(counts, [7, 8]);
    assert_eq!(
        probe,
        r#"{"usage":{"note":"12 \"34\" 5","prompt_tokens":1,"completion_tokens":2}}"#
    );
}

#[test]
fn a_program_refuses_counts_it_was_not_made_for() {
    let program = UsageProgram::of(USAGES[6]).unwrap();
    assert_eq!(program.apply(&[1]), None);
    assert_eq!(program.apply(&[1, 1 << 53]), None);
    assert!(program.apply(&[1, 2]).is_some());
}
