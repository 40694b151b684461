//! Text made safe to show: everything the package prints or puts in a
//! message (issue messages, verdicts, errors, repair feedback, the audit's
//! report, the test matchers' failures) passes through [`escape_for_display`]
//! wherever it may hold what a model, a provider or a schema's author wrote.
//! An issue's path names the output's own keys, and a key can hold an escape
//! sequence that retitles or clears the terminal of whoever reads the log,
//! moves its cursor to rewrite lines already printed, or reverses the order
//! in which a line reads. The data itself (an issue's `path`, a verdict's
//! value) is never changed: only its words for people are.

/// Whether a terminal or a log viewer acts on `c` instead of showing it: the
/// C0 controls (U+0000–U+001F, escape and newline among them), DEL
/// (U+007F), the C1 controls (U+0080–U+009F, U+009B a CSI on its own), and
/// the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069), which reorder what follows them on a line.
#[must_use]
pub const fn acted_on(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with each character a terminal or log viewer acts on (see
/// [`acted_on`]) written as `\uXXXX` (four lowercase hexadecimal digits, as
/// JSON writes it: the same text, read as JSON, is the original again), and
/// everything else as it is. Escaping twice changes nothing more.
#[must_use]
// Not inlined: the package's size budget would pay for a copy at each of the
// places messages are made, and none of them is hot.
#[inline(never)]
pub fn escape_for_display(text: &str) -> String {
    let mut out = String::new();
    // Where the run of characters not yet copied to `out` begins.
    let mut copied = 0;
    for (at, c) in text.char_indices() {
        if acted_on(c) {
            append(&mut out, text.get(copied..at).unwrap_or_default());
            let code = u32::from(c) as usize;
            append(&mut out, "\\u");
            for shift in [12, 8, 4, 0] {
                let digit = (code >> shift) & 0xf;
                append(&mut out, HEX.get(digit..=digit).unwrap_or_default());
            }
            copied = at + c.len_utf8();
        }
    }
    append(&mut out, text.get(copied..).unwrap_or_default());
    out
}

const HEX: &str = "0123456789abcdef";

/// `out.push_str(text)`, kept out of line: the engine is built for speed,
/// and each inlined copy cost the package's size budget.
#[inline(never)]
fn append(out: &mut String, text: &str) {
    out.push_str(text);
}

#[cfg(test)]
mod tests;
