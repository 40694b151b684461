use super::*;

#[test]
fn c0_del_c1_and_bidirectional_marks_are_escaped() {
    for c in ('\u{0}'..='\u{1f}')
        .chain('\u{7f}'..='\u{9f}')
        .chain('\u{202a}'..='\u{202e}')
        .chain('\u{2066}'..='\u{2069}')
    {
        let text = format!("a{c}b");
        let escaped = escape_for_display(&text);
        assert_eq!(
            escaped,
            format!("a\\u{:04x}b", u32::from(c)),
            "{:#x}",
            u32::from(c)
        );
        // The escape is JSON's: read as a JSON string, it is the text again.
        let read: String = serde_json::from_str(&format!("\"{escaped}\"")).unwrap_or_default();
        assert_eq!(read, text);
    }
}

#[test]
fn the_reproductions_print_as_visible_escapes() {
    assert_eq!(
        escape_for_display("/\u{1b}]0;PWNED\u{7}\u{1b}[2J"),
        "/\\u001b]0;PWNED\\u0007\\u001b[2J"
    );
    assert_eq!(escape_for_display("a\u{9b}2Jb"), "a\\u009b2Jb");
    assert_eq!(escape_for_display("user\u{202e}nimda"), "user\\u202enimda");
    assert_eq!(escape_for_display("x\u{2066}y\u{2069}"), "x\\u2066y\\u2069");
}

#[test]
fn everything_else_is_kept_and_escaping_twice_changes_nothing() {
    for text in [
        "",
        "plain /a/b~1c",
        "café ünïcode ✓ 日本語 🦀",
        "\u{a0}\u{200e}\u{2028}\u{202f}\u{2065}\u{206a}",
    ] {
        assert_eq!(escape_for_display(text), text);
    }
    let once = escape_for_display("\u{1b}[31m\u{9b}\u{202e}");
    assert_eq!(escape_for_display(&once), once);
}
