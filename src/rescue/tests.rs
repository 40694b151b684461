use super::*;

fn rescued(text: &str) -> (String, Rescue) {
    let r = rescue_code_fence(text);
    (r.text.to_owned(), r.rescue)
}

#[test]
fn plain_json_is_trimmed_and_unchanged() {
    assert_eq!(rescued("  {\"a\":1}\n"), ("{\"a\":1}".into(), Rescue::None));
    // Braces at both ends: the text as it is, not trimmed.
    assert_eq!(
        rescued("{ \"a\": 1 }"),
        ("{ \"a\": 1 }".into(), Rescue::None)
    );
    assert_eq!(rescued("{\"a\":1} }"), ("{\"a\":1} }".into(), Rescue::None));
}

#[test]
fn fence_with_language_tag_yields_body() {
    assert_eq!(
        rescued("```json\n{\"a\": 1}\n```"),
        ("{\"a\": 1}".into(), Rescue::CodeFence)
    );
}

#[test]
fn fence_without_tag_and_crlf_and_surrounding_space() {
    assert_eq!(
        rescued("\n  ```\r\n{\"a\": [1, 2]}\r\n```  \n"),
        ("{\"a\": [1, 2]}".into(), Rescue::CodeFence)
    );
}

#[test]
fn tilde_fence_and_longer_closing_fence() {
    assert_eq!(
        rescued("~~~json\n{}\n~~~~"),
        ("{}".into(), Rescue::CodeFence)
    );
    assert_eq!(rescued("````\n{}\n````"), ("{}".into(), Rescue::CodeFence));
}

#[test]
fn fence_marker_inside_json_string_does_not_end_the_fence() {
    let text = "```json\n{\"code\": \"```python\\nprint(1)\\n```\"}\n```";
    assert_eq!(
        rescued(text),
        (
            "{\"code\": \"```python\\nprint(1)\\n```\"}".into(),
            Rescue::CodeFence
        )
    );
}

#[test]
fn prose_around_fence_is_not_rescued() {
    let text = "Here you go:\n```json\n{}\n```";
    assert_eq!(rescued(text), (text.into(), Rescue::None));
    let text = "```json\n{}\n```\nHope this helps!";
    assert_eq!(rescued(text), (text.into(), Rescue::None));
}

#[test]
fn two_fences_are_not_rescued() {
    let text = "```json\n{\"a\":1}\n```\n\n```json\n{\"b\":2}\n```";
    assert_eq!(rescued(text), (text.into(), Rescue::None));
}

#[test]
fn unclosed_fence_is_not_rescued() {
    let text = "```json\n{\"a\": 1}";
    assert_eq!(rescued(text), (text.into(), Rescue::None));
}

#[test]
fn shorter_closing_fence_is_not_a_close() {
    let text = "````json\n{}\n```";
    assert_eq!(rescued(text), (text.into(), Rescue::None));
}

#[test]
fn inline_code_on_one_line_is_not_a_fence() {
    let text = "```{\"a\":1}```";
    assert_eq!(rescued(text), (text.into(), Rescue::None));
}

#[test]
fn empty_fence_gives_empty_body() {
    assert_eq!(rescued("```json\n```"), (String::new(), Rescue::CodeFence));
}

#[test]
fn short_or_odd_inputs_do_not_panic() {
    for text in [
        "",
        "`",
        "``",
        "```",
        "```\n",
        "~~~",
        "\n\n",
        "```é\n",
        "```\n\"\\",
    ] {
        let r = rescue_code_fence(text);
        assert!(r.text.len() <= text.len());
    }
}
