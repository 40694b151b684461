//! Where the values near the root of a streamed JSON text lie, so that an
//! accepted value can be read in parts.
//!
//! The caller turns the accepted JSON into a value with `JSON.parse`. A
//! text of a few hundred kilobytes is then one string that large, and on
//! V8 every string past 128 KB is an allocation of its own in the
//! large-object space, whose fresh pages cost about as much per byte as
//! the parse (Node 20: 0.45 ms of 1.3 for 480 KB). The check has the text
//! in wasm memory already: parsed in parts of a few tens of kilobytes,
//! each decoded on its own, the value costs what the parse of an existing
//! string does. [`Outline`] notes, as the stream's parser meets them, where
//! the root's members or items begin, and theirs, with their members'
//! names; [`Outline::parts`] turns that into the plan the caller follows.
//!
//! A part only needs to begin and end between siblings, not at each of
//! them: of the siblings that follow each other closely, only one in
//! about [`GAP`] bytes is noted (and what lies inside those not noted is
//! read with them), so the outline holds a few bytes per kilobyte of text
//! whatever its values, never one entry per value of `[1,1,1,...]`.

use crate::json_text::{push_json_str, push_usize};
use crate::tape::{offset, skip_whitespace, Kind};

/// The deepest values noted (the root is 0): the root's members or items,
/// and theirs.
const DEPTH: usize = 2;

/// The bytes from one noted sibling to the next, at least (the first
/// child of a noted container is always noted).
pub const GAP: usize = 1024;

/// `Outline::last` before a container's first child.
const NONE: u32 = u32::MAX;

/// A value noted where it begins.
#[derive(Debug, Clone, Copy)]
struct Placed {
    depth: u8,
    kind: Kind,
    /// Where it begins among its siblings: a member's name (its opening
    /// quote), or else the value's first byte.
    key: u32,
    /// The raw length of a member's name (between its quotes), else 0.
    key_len: u32,
    /// A container's end (past its closing bracket), once it has closed.
    end: u32,
}

/// Some of the values at depth 0 to [`DEPTH`] of one JSON text, in text
/// order: the root, and of the children of each noted container the first
/// and then one at least `gap` bytes past the last noted.
#[derive(Debug)]
pub struct Outline {
    placed: Vec<Placed>,
    /// Containers open now.
    open: usize,
    /// Of those, how many from the root down are noted, and their entries.
    noted: Vec<usize>,
    /// Where the last child noted at each depth began ([`NONE`] before the
    /// first child of the container last noted above it).
    last: [u32; DEPTH + 1],
    gap: u32,
    /// The name just read: its opening quote and raw length.
    name: Option<(u32, u32)>,
}

impl Outline {
    /// An outline whose noted siblings are at least `gap` bytes apart.
    pub fn with_gap(gap: usize) -> Self {
        Outline {
            placed: Vec::new(),
            open: 0,
            noted: Vec::new(),
            last: [NONE; DEPTH + 1],
            gap: offset(gap),
            name: None,
        }
    }

    /// A value of `kind` begins at byte `at`, `depth` deep.
    pub(crate) fn begin(&mut self, depth: usize, kind: Kind, at: usize) {
        let name = self.name.take();
        let container = matches!(kind, Kind::Array | Kind::Object);
        // Only where every container it is in was noted.
        if depth <= DEPTH && self.noted.len() == self.open {
            let start = offset(at);
            let last = self.last.get(depth).copied().unwrap_or(NONE);
            if last == NONE || start >= last.saturating_add(self.gap) {
                let (key, key_len) = name.unwrap_or((start, 0));
                self.placed.push(Placed {
                    depth: depth as u8,
                    kind,
                    key,
                    key_len,
                    end: 0,
                });
                if let Some(last) = self.last.get_mut(depth) {
                    *last = start;
                }
                if container {
                    self.noted.push(self.placed.len() - 1);
                    if let Some(first) = self.last.get_mut(depth + 1) {
                        *first = NONE;
                    }
                }
            }
        }
        if container {
            self.open += 1;
        }
    }

    /// A member name was read: its raw text begins at byte `start`, after
    /// the opening quote, and is `len` bytes long.
    pub(crate) fn name(&mut self, start: usize, len: usize) {
        self.name = Some((offset(start.saturating_sub(1)), offset(len)));
    }

    /// An object or array closed, its bracket ending before byte `at`.
    pub(crate) fn close(&mut self, at: usize) {
        if self.noted.len() == self.open {
            if let Some(placed) = self.noted.pop().and_then(|i| self.placed.get_mut(i)) {
                placed.end = offset(at);
            }
        }
        self.open = self.open.saturating_sub(1);
    }

    /// The plan for reading the value that spans `span` of `text` in parts
    /// of about `part` bytes, as JSON text: `["a", ...]` for an array,
    /// `["o", ...]` for an object, each entry either `[start, end]`, a run
    /// of consecutive items or members (their text without the brackets,
    /// offsets from `span.start`), or, for a container too large for a
    /// part, its own plan (an item's, or a member's as `[name, plan]`).
    /// `None` when the root was not noted as a container with its members
    /// or items (then it is read whole), or the outline does not match the
    /// text (never seen; the value is then read whole).
    pub fn parts(&self, text: &str, span: std::ops::Range<usize>, part: usize) -> Option<String> {
        let root = self.placed.first()?;
        if root.key as usize != span.start || !matches!(root.kind, Kind::Array | Kind::Object) {
            return None;
        }
        // One past each value's last noted descendant.
        let mut after = vec![self.placed.len(); self.placed.len()];
        let mut open: Vec<usize> = Vec::new();
        for (i, placed) in self.placed.iter().enumerate() {
            while let Some(&top) = open.last() {
                if self.placed.get(top)?.depth < placed.depth {
                    break;
                }
                *after.get_mut(top)? = i;
                open.pop();
            }
            open.push(i);
        }
        let reader = Reader {
            outline: self,
            after: &after,
            bytes: text.as_bytes(),
            text,
            base: span.start,
            part: part.max(1),
        };
        let mut out = String::new();
        reader.container(&mut out, 0, span.end)?;
        Some(out)
    }
}

/// What [`Outline::parts`] reads the outline with.
struct Reader<'a> {
    outline: &'a Outline,
    after: &'a [usize],
    bytes: &'a [u8],
    text: &'a str,
    base: usize,
    part: usize,
}

impl Reader<'_> {
    fn placed(&self, i: usize) -> Option<Placed> {
        self.outline.placed.get(i).copied()
    }

    /// Back from `at` over JSON white space.
    fn trim_back(&self, mut at: usize) -> usize {
        while at > 0
            && self
                .bytes
                .get(at - 1)
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            at -= 1;
        }
        at
    }

    /// Where the value after the one ending at `at` begins (past white
    /// space, a comma and white space), or `None` when no comma follows.
    fn next_after(&self, at: usize) -> Option<usize> {
        let comma = skip_whitespace(self.bytes, at);
        (self.bytes.get(comma) == Some(&b',')).then(|| skip_whitespace(self.bytes, comma + 1))
    }

    /// The end of the value before `at`, where the separator `sep` (a
    /// comma, or the container's closing bracket) ends.
    fn end_before(&self, at: usize, sep: u8) -> Option<usize> {
        let at = self.trim_back(at);
        (at > 0 && self.bytes.get(at - 1) == Some(&sep)).then(|| self.trim_back(at - 1))
    }

    /// Writes the plan of container `i`, whose text ends at `end`. Its
    /// noted children each begin a region that runs to the next one (or
    /// to the bracket), holding the siblings not noted after it; regions
    /// are gathered into runs of about `part` bytes. A noted child that is
    /// a container with noted children, whose end is known and which is
    /// larger than a part, gets a plan of its own, and what follows it in
    /// its region goes on in a run.
    fn container(&self, out: &mut String, i: usize, end: usize) -> Option<()> {
        let here = self.placed(i)?;
        let object = here.kind == Kind::Object;
        let close = if object { b'}' } else { b']' };
        out.push_str(if object { "[\"o\"" } else { "[\"a\"" });
        let stop = *self.after.get(i)?;
        let mut child = i + 1;
        // The run of children not yet written: where it begins and ends.
        let mut run: Option<(usize, usize)> = None;
        while child < stop {
            let placed = self.placed(child)?;
            let next = *self.after.get(child)?;
            let region_end = if next < stop {
                self.end_before(self.placed(next)?.key as usize, b',')?
            } else {
                self.end_before(end, close)?
            };
            let key = placed.key as usize;
            let own_end = placed.end as usize;
            // An end of 0: not closed, or not a container.
            let splits = own_end.saturating_sub(key) > self.part
                && matches!(placed.kind, Kind::Array | Kind::Object)
                && next > child + 1;
            let rest = if splits {
                self.flush(out, run.take());
                out.push(',');
                if object {
                    out.push('[');
                    let raw = self.text.get(key + 1..key + 1 + placed.key_len as usize)?;
                    push_json_str(out, &crate::tape::decode_string(raw));
                    out.push(',');
                    self.container(out, child, own_end)?;
                    out.push(']');
                } else {
                    self.container(out, child, own_end)?;
                }
                // The siblings not noted after it, if any.
                (region_end > own_end)
                    .then(|| self.next_after(own_end))
                    .flatten()
            } else {
                Some(key)
            };
            if let Some(start) = rest {
                run = match run {
                    Some((first, _)) if region_end.saturating_sub(first) <= self.part => {
                        Some((first, region_end))
                    }
                    earlier => {
                        self.flush(out, earlier);
                        Some((start, region_end))
                    }
                };
            }
            child = next;
        }
        self.flush(out, run);
        out.push(']');
        Some(())
    }

    fn flush(&self, out: &mut String, run: Option<(usize, usize)>) {
        if let Some((start, end)) = run {
            out.push_str(",[");
            push_usize(out, start.saturating_sub(self.base));
            out.push(',');
            push_usize(out, end.saturating_sub(self.base));
            out.push(']');
        }
    }
}

#[cfg(test)]
mod tests;
