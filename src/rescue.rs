//! Code-fence rescue: the one lossless repair a guard may make.
//!
//! Models often wrap otherwise valid JSON in a Markdown fence. Taking the body
//! of a fence that is the *whole* response loses nothing; anything more
//! (dropping prose, closing brackets, fixing quotes) would accept output the
//! model did not produce, so it is deliberately not done here.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rescue {
    None,
    CodeFence,
}

impl Rescue {
    pub fn as_str(self) -> &'static str {
        match self {
            Rescue::None => "none",
            Rescue::CodeFence => "code_fence",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rescued<'a> {
    pub text: &'a str,
    pub rescue: Rescue,
}

/// Returns the body when the whole trimmed text is exactly one fenced code
/// block (backticks or tildes, optional info string); otherwise the trimmed
/// text unchanged.
pub fn rescue_code_fence(text: &str) -> Rescued<'_> {
    // JSON as models give it starts with `{` and ends with `}`: nothing to
    // trim and no fence, decided without `trim`'s walk by characters.
    if text.as_bytes().first() == Some(&b'{') && text.as_bytes().last() == Some(&b'}') {
        return Rescued {
            text,
            rescue: Rescue::None,
        };
    }
    let trimmed = text.trim();
    let unchanged = Rescued {
        text: trimmed,
        rescue: Rescue::None,
    };
    match fence_body(trimmed) {
        Some(body) => Rescued {
            text: body.trim(),
            rescue: Rescue::CodeFence,
        },
        None => unchanged,
    }
}

fn fence_body(trimmed: &str) -> Option<&str> {
    let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let open_len = trimmed.chars().take_while(|c| *c == marker).count();
    if open_len < 3 {
        return None;
    }
    let first_newline = trimmed.find('\n')?;
    let info = trimmed.get(open_len..first_newline)?.trim();
    // CommonMark: a backtick fence's info string may not contain backticks,
    // so "```{...}```" on one line is inline code, not a fence.
    if marker == '`' && info.contains('`') {
        return None;
    }
    let last_newline = trimmed.rfind('\n')?;
    if last_newline < first_newline {
        return None;
    }
    let closing = trimmed.get(last_newline + 1..)?;
    if !is_closing_fence(closing, marker, open_len) {
        return None;
    }
    if last_newline == first_newline {
        return Some("");
    }
    let body = trimmed.get(first_newline + 1..last_newline)?;
    if has_inner_closing_fence(body, marker, open_len) {
        return None;
    }
    Some(body)
}

fn is_closing_fence(line: &str, marker: char, open_len: usize) -> bool {
    let line = line.trim();
    line.chars().count() >= open_len && line.chars().all(|c| c == marker)
}

/// A closing-fence line inside the body means the text holds more than one
/// block (or a block plus prose), which is not ours to pick from. A fence
/// marker inside a JSON string is content, so string state is tracked.
fn has_inner_closing_fence(body: &str, marker: char, open_len: usize) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for line in body.split('\n') {
        if !in_string && is_closing_fence(line, marker, open_len) {
            return true;
        }
        for c in line.chars() {
            if escaped {
                escaped = false;
            } else if in_string && c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = !in_string;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests;
