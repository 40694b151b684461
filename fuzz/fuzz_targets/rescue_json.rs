//! Code-fence rescue over arbitrary text (invalid UTF-8 is replaced, as a
//! JavaScript string reaching `rescueJson` would be).
//!
//! What must hold for every text: the result is a trimmed slice of the
//! input, unchanged unless the whole trimmed text is one fenced block, in
//! which case it lies strictly between the opening and closing fence lines;
//! and a single line wrapped in a fence always comes back out.

#![no_main]

use libfuzzer_sys::fuzz_target;
use structured_output_guard::rescue::{rescue_code_fence, Rescue, Rescued};

/// Byte offset of `part` within `whole`, when `part` is a slice of it.
/// `check_content` turns a non-empty result into a span this way; an empty
/// result (an empty fence) is any empty string and reports offset 0.
fn offset_in(whole: &str, part: &str) -> usize {
    if part.is_empty() {
        return 0;
    }
    let start = (part.as_ptr() as usize)
        .checked_sub(whole.as_ptr() as usize)
        .expect("the result starts inside the input");
    assert!(
        start + part.len() <= whole.len(),
        "the result ends inside the input"
    );
    assert_eq!(whole.get(start..start + part.len()), Some(part));
    start
}

fn check(text: &str) -> Rescued<'_> {
    let r = rescue_code_fence(text);
    offset_in(text, r.text);
    assert_eq!(r.text, r.text.trim());
    let trimmed = text.trim();
    match r.rescue {
        Rescue::None => {
            assert_eq!(r.text, trimmed);
            assert_eq!(offset_in(text, r.text), offset_in(text, trimmed));
        }
        Rescue::CodeFence => {
            let marker = trimmed.chars().next().expect("a fence is not empty");
            assert!(marker == '`' || marker == '~');
            let open = trimmed.chars().take_while(|c| *c == marker).count();
            assert!(open >= 3);
            let first_newline = trimmed.find('\n').expect("a fence has an opening line");
            let last_newline = trimmed.rfind('\n').expect("a fence has a closing line");
            let info = &trimmed[open..first_newline];
            assert!(marker == '~' || !info.contains('`'));
            let closing = trimmed[last_newline + 1..].trim();
            assert!(closing.chars().count() >= open && closing.chars().all(|c| c == marker));
            let at = offset_in(trimmed, r.text);
            assert!(r.text.is_empty() || (at > first_newline && at + r.text.len() <= last_newline));
            assert!(r.text.len() < trimmed.len());
        }
    }
    r
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let r = check(&text);

    // Surrounding whitespace never changes the answer.
    let padded = format!(" \r\n{text}\n\t ");
    let p = check(&padded);
    assert_eq!((p.text, p.rescue), (r.text, r.rescue));

    // One line of anything that is not itself a fence marker line comes
    // back out of a fence of either kind, info string or not.
    let line = text.trim();
    if !line.is_empty() && !line.contains('\n') {
        for (open, close, marker, len) in [("```json", "```", '`', 3), ("~~~~", "~~~~~", '~', 4)] {
            let wrapped = format!("{open}\n{line}\n{close}");
            let w = check(&wrapped);
            let is_marker_line = line.chars().count() >= len && line.chars().all(|c| c == marker);
            if is_marker_line {
                assert_eq!(w.rescue, Rescue::None);
            } else {
                assert_eq!((w.text, w.rescue), (line, Rescue::CodeFence), "{wrapped:?}");
            }
        }
    }
});
