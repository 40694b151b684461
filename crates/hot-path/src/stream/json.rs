//! The checks of a response that is still arriving.
//!
//! A [`JsonStream`] reads the response's JSON as it comes, with the
//! resumable tape parser, and rejects it as soon as no continuation could
//! make it valid. Only definite outcomes reject; everything else waits for
//! the whole text, which the caller checks in full at the end anyway.
//!
//! What rejects early:
//!
//! * a byte that cannot continue any JSON text, and nesting past the limit;
//! * a root that is not an object, when an object is required;
//! * a complete value that fails a subschema applying to its location
//!   unconditionally: reached from the root through `properties`,
//!   `patternProperties`, `additionalProperties`, `items`, `prefixItems`,
//!   `additionalItems`, `allOf` and `$ref`s within the document, in any
//!   chain. The value is checked against the whole subschema (its
//!   `required`, `anyOf`, `oneOf`, `not`, `if`, `unevaluated*`... included,
//!   since every keyword of a subschema depends only on the value, and the
//!   value is complete). Checked are the items of every array and the
//!   members of the root object; a member deeper down is checked with the
//!   item or root member that holds it;
//! * a member name that the object's schema refuses (`additionalProperties:
//!   false`, a `false` subschema, `propertyNames`), once the name is read;
//! * an array with more items than `maxItems`, when the next item begins;
//! * a string longer than `maxLength`, or one that can no longer be any of
//!   the strings `enum` or `const` allow, while it is still open.
//!
//! An array item that the text read in one `feed` holds whole is read
//! through without a look at what is inside it (the tape is built all the
//! same), and checked whole as it closes: that check covers its names,
//! strings and inner arrays (see `Loc::covers_inside`). The items after it
//! that the text also holds whole are read through in one run, each
//! checked as it closes (see `Watch::items_alike`), unless the array's
//! `maxItems` is watched. So the `feed` that
//! brings a violation inside it rejects either way, and `at` is then the
//! item's end. Only the item that the text cuts is followed value by value,
//! and in such a run, when the caller allows (see [`JsonStream::hold_items`]),
//! not even that one: it waits for the next `feed`.
//!
//! What waits for the value to close, or for the end: the root object's own
//! keywords, and every keyword whose outcome depends on what is still to
//! come (`required`, `minItems`, `minLength`, `contains`, `anyOf`, `oneOf`,
//! `not`, `if`, `dependent*`, `unevaluated*`, `uniqueItems`, `format`,
//! `pattern`...) of a value not yet complete.
//!
//! One assumption: a value, once complete, is final. JSON lets an object
//! repeat a member name, and the last occurrence wins (as with
//! `JSON.parse`), so strictly a later repetition could still replace a
//! value rejected here; the checks treat a response that would need that
//! to pass as failing. Repeated names among what is already complete are
//! resolved exactly as the whole-text check resolves them.
//!
//! Where the schema's meaning could depend on more than the location
//! (`$dynamicRef`, `$recursiveRef`, an `$id` or `$schema` below the root,
//! a custom meta-schema), or the schema is very large, only the syntax and
//! the root's type reject early.

use std::ops::ControlFlow;
use std::sync::Arc;

use jsonschema::types::JsonType;
use serde_json::Value;

use crate::schema::{
    budget_spent, collect_issues, node_is_valid, with_own_budget, CompiledSchema, Issue,
    PATTERN_STEPS_PER_CHECK,
};
use crate::stream::outline::Outline;
use crate::stream::plan::{escape_segment, LocId, Locs, NodeId, Plan};
use crate::tape::{self, Fed, Flow, Incremental, Kind, Lend, Partial, Stop, Tape, TapeNode, Watch};

/// Why a stream was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum Rejected {
    /// The bytes cannot continue any JSON text; the caller words it (the
    /// last byte is inside a `\\u` escape when `escape`).
    Syntax { escape: bool },
    /// The root is JSON of this type, not an object.
    NotObject(JsonType),
    /// A definite schema violation, with its issues.
    Schema {
        errors: Vec<Issue>,
        more_errors: bool,
    },
}

/// What the text so far shows.
#[derive(Debug, PartialEq)]
pub enum Progress {
    /// Nothing definite yet; the root value is still open (or not begun).
    Pending,
    /// The root value is complete; the text from `end` on is not JSON's.
    Complete { end: usize },
    /// No continuation can make the response valid; `at` bytes showed it
    /// (for a syntax error, the offending byte is the last of them).
    Rejected { why: Rejected, at: usize },
    /// The checks stopped without a verdict (a text past 4 GiB); the end
    /// decides.
    Unchecked,
}

/// The JSON of a response read as it arrives, and the checks on it.
pub struct JsonStream {
    parser: Incremental,
    watcher: Watcher,
    /// It stopped (rejected or unchecked), or the root value is complete.
    over: bool,
    /// Pattern-matching steps left of the one check's budget that the
    /// stream's checks share (`schema::PATTERN_STEPS_PER_CHECK`): they do
    /// the work of the whole-text check's schema stage, value by value, and
    /// what they leave is what the end's stage may still spend.
    steps: usize,
}

impl JsonStream {
    /// A stream whose JSON begins at byte `start` of the text, checked
    /// against `schema` (if any).
    pub fn new(
        start: usize,
        schema: Option<&CompiledSchema>,
        require_object: bool,
        max_errors: usize,
    ) -> Self {
        let plan = schema.and_then(|schema| schema.derived(Plan::derive));
        JsonStream {
            parser: Incremental::new(start),
            watcher: Watcher {
                plan,
                locs: Locs::default(),
                levels: Vec::new(),
                member: None,
                scalar: None,
                string: None,
                require_object,
                max_errors,
                found: None,
                outline: None,
                alike: None,
                lapsed: false,
            },
            over: false,
            steps: PATTERN_STEPS_PER_CHECK,
        }
    }

    /// From now on, an item that the text cuts within `bytes` of its end
    /// waits for the next `feed` (see [`Incremental::hold_items`]): what is
    /// wrong inside it is found then. 0 (the default): none waits.
    pub fn hold_items(&mut self, bytes: usize) {
        self.parser.hold_items(bytes);
    }

    /// Reads `text` (all of it so far) from where the last call stopped.
    /// Once it has answered anything but `Pending`, it reads no more.
    pub fn feed(&mut self, text: &str) -> Progress {
        if self.over {
            return Progress::Unchecked;
        }
        let (fed, left) = with_own_budget(self.steps, || self.parser.feed(text, &mut self.watcher));
        self.steps = left;
        let progress = match fed {
            Ok(Fed::Pending) => return Progress::Pending,
            Ok(Fed::Complete { end }) => Progress::Complete { end },
            Err(Stop::Syntax { at, escape }) => Progress::Rejected {
                why: Rejected::Syntax { escape },
                // Through the whole of the offending character.
                at: (at + 1..=text.len())
                    .find(|&end| text.is_char_boundary(end))
                    .unwrap_or(text.len()),
            },
            Err(Stop::Watcher) => match self.watcher.found.take() {
                Some((why, at)) => Progress::Rejected { why, at },
                None => Progress::Unchecked,
            },
            Err(Stop::TooLarge) => Progress::Unchecked,
        };
        self.over = true;
        progress
    }

    /// Where the array items checked so far end: every item of an array
    /// that ends within the first bytes given passed every subschema
    /// checked at its location (items are checked as they close). 0 once
    /// the stream stopped (rejected, unchecked, or complete), or when the
    /// pattern budget ran out, after which a check says nothing.
    pub fn items_passed_through(&self) -> usize {
        if self.over || self.steps == 0 || self.watcher.lapsed || self.watcher.plan.is_none() {
            return 0;
        }
        self.parser.position()
    }

    /// The same stream, noting where the values near the root begin (see
    /// [`Outline`]): for a caller that reads an accepted value in parts.
    pub fn with_outline(self) -> Self {
        self.with_outline_gap(crate::stream::outline::GAP)
    }

    /// The same, noting siblings at least `gap` bytes apart (see
    /// [`Outline::with_gap`]).
    pub(crate) fn with_outline_gap(mut self, gap: usize) -> Self {
        self.watcher.outline = Some(Outline::with_gap(gap));
        self
    }

    /// The outline (see [`JsonStream::with_outline`]), for once the root
    /// value is complete; the stream keeps none after.
    pub fn take_outline(&mut self) -> Option<Outline> {
        self.watcher.outline.take()
    }

    /// Once the root value is complete and nothing was rejected: its tape
    /// (the one `tape::parse` builds from its text, with offsets into the
    /// whole `text`), and, when the schema is already known to accept it,
    /// the pattern steps left of the check's budget. It is known when the
    /// subschemas checked as values closed cover the rest: the schema with
    /// those replaced by `true` accepts the tape within what the budget
    /// still had.
    pub fn finish(self, text: &str) -> Option<(Tape<'_>, Option<usize>)> {
        let tape = self.parser.into_tape(text)?;
        let watcher = self.watcher;
        let steps = self.steps;
        let known = watcher.plan.as_ref().and_then(|plan| {
            // Per node: values it applied to, and those that passed it
            // when they closed (only where it has a validator of its own).
            let mut applied = vec![0u64; plan.nodes.len()];
            let mut passed = vec![0u64; plan.nodes.len()];
            for loc in watcher.locs.all() {
                for &id in &loc.check {
                    if let Some(count) = applied.get_mut(id) {
                        *count += u64::from(loc.begun);
                    }
                    if let (Some(count), Some(_)) = (passed.get_mut(id), plan.validator(id)) {
                        *count += u64::from(loc.passed);
                    }
                }
            }
            let replaced: Vec<NodeId> = (0..plan.nodes.len())
                .filter(|&id| {
                    let applied = applied.get(id).copied().unwrap_or(0);
                    plan.nodes.get(id).is_some_and(|n| n.replaceable)
                        && applied > 0
                        && passed.get(id).copied() == Some(applied)
                })
                .collect();
            if replaced.is_empty() || steps == 0 {
                return None;
            }
            let (valid, left) = with_own_budget(steps, || plan.residual_valid(replaced, &tape));
            valid.then_some(left)
        });
        Some((tape, known))
    }
}

struct Level {
    loc: Option<LocId>,
    object: bool,
    /// Items begun so far (arrays).
    items: u32,
    /// Some value inside was checked when it closed.
    checked_inside: bool,
}

struct Watcher {
    plan: Option<Arc<Plan>>,
    locs: Locs,
    levels: Vec<Level>,
    /// The location of the member whose name was just read.
    member: Option<LocId>,
    /// The location of the scalar in progress.
    scalar: Option<LocId>,
    /// The location of the open string being compared while open.
    string: Option<LocId>,
    require_object: bool,
    max_errors: usize,
    found: Option<(Rejected, usize)>,
    /// Where the values near the root begin, for reading the value in
    /// parts, when the caller asked for it.
    outline: Option<Outline>,
    /// The location of the items read through one after another (see
    /// `Watch::items_alike`).
    alike: Option<LocId>,
    /// A value failed a check here without the stream stopping (its
    /// issues all set aside): the items read after it are no longer
    /// vouched for (see `JsonStream::items_passed_through`).
    lapsed: bool,
}

/// `The response` or `The value at /a/b`: how an issue's message begins
/// (the path redacted and made safe to print, as in every message).
fn subject(path: &str) -> String {
    if path.is_empty() {
        "The response".to_owned()
    } else {
        format!("The value at {}", shown_pointer(path))
    }
}

/// A path as a message shows it: redacted, and safe to print.
fn shown_pointer(path: &str) -> String {
    crate::display::escape_for_display(&crate::redact::redact_pointer(path))
}

/// A message's "alternative N at /path" (the first problem of each anyOf
/// or oneOf branch) with the path placed at `base` too.
fn rebase_branches(message: &str, base: &str) -> String {
    if base.is_empty() {
        return message.to_owned();
    }
    let base = shown_pointer(base);
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("alternative ") {
        let (before, after) = rest.split_at(at + "alternative ".len());
        out.push_str(before);
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (number, tail) = after.split_at(digits);
        out.push_str(number);
        rest = match (tail.strip_prefix(" at /"), tail.starts_with(':')) {
            (Some(path), _) if digits > 0 => {
                out.push_str(" at ");
                out.push_str(&base);
                out.push('/');
                path
            }
            // At the value itself, which is at `base` in the document.
            (None, true) if digits > 0 => {
                out.push_str(" at ");
                out.push_str(&base);
                tail
            }
            _ => tail,
        };
    }
    out.push_str(rest);
    out
}

/// An issue of a value checked on its own, placed at `base` in the
/// document (its schema path is already the schema's: the validator
/// reaches the subschema inside the schema document).
fn placed(issue: Issue, base: &str) -> Issue {
    let path = format!("{base}{}", issue.path);
    let message = match issue.message.strip_prefix(&subject(&issue.path)) {
        Some(rest) => format!("{}{}", subject(&path), rebase_branches(rest, base)),
        None => issue.message,
    };
    Issue {
        schema_path: issue.schema_path,
        message,
        path,
        code: issue.code,
        rule: issue.rule,
        params: issue.params,
    }
}

impl Watcher {
    /// Stops with `why`, unless the pattern budget ran out (then a match
    /// may have failed for want of steps: the checks stop undecided).
    fn reject(&mut self, why: Rejected, at: usize) -> Flow {
        self.found = (!budget_spent()).then_some((why, at));
        ControlFlow::Break(())
    }

    /// The issues `tape` (a value standing at `base`) has against each of
    /// `nodes`, kept only where `keep` says; `None` when none are kept.
    /// With `keep` absent every issue counts (the value itself is checked).
    fn issues(
        &self,
        plan: &Plan,
        nodes: &[NodeId],
        tape: &Tape<'_>,
        base: &str,
        keep: Option<&dyn Fn(&Issue) -> bool>,
    ) -> Option<Rejected> {
        let mut errors = Vec::new();
        let mut more = false;
        for &id in nodes {
            let Some(validator) = plan.validator(id) else {
                continue;
            };
            if node_is_valid(validator, TapeNode::full(tape)) {
                continue;
            }
            // A few more than reported, so that the ones `keep` drops
            // leave enough.
            let (found, beyond) =
                collect_issues(validator, tape, self.max_errors.saturating_add(16));
            more |= beyond && keep.is_none();
            errors.extend(
                found
                    .into_iter()
                    .filter(|i| keep.is_none_or(|keep| keep(i)))
                    .map(|i| placed(i, base)),
            );
        }
        if errors.is_empty() {
            return None;
        }
        more |= errors.len() > self.max_errors;
        errors.truncate(self.max_errors);
        Some(Rejected::Schema {
            errors,
            more_errors: more,
        })
    }

    /// Rejects for the witness `json` (a value that has the definite
    /// violation and stands at `base`), with the issues `keep` accepts.
    fn reject_with_witness(
        &mut self,
        plan: &Plan,
        nodes: &[NodeId],
        json: &str,
        base: &str,
        at: usize,
        keep: impl Fn(&Issue) -> bool,
    ) -> Flow {
        let Ok(tape) = tape::parse(json) else {
            return ControlFlow::Continue(());
        };
        match self.issues(plan, nodes, &tape, base, Some(&keep)) {
            Some(why) => self.reject(why, at),
            None => ControlFlow::Continue(()),
        }
    }

    /// The open string (its `raw` text so far, `chars` long) against
    /// `maxLength` and the strings `enum`/`const` allow.
    fn check_string(&mut self, tape: &Lend<'_>, raw: &str, chars: u64) -> Flow {
        let (Some(plan), Some(loc)) = (self.plan.clone(), self.string) else {
            return ControlFlow::Continue(());
        };
        let Some(here) = self.locs.get(loc) else {
            return ControlFlow::Continue(());
        };
        let depth = self.levels.len();
        if let Some(max) = here.max_length.filter(|max| chars > *max) {
            let nodes: Vec<NodeId> = here
                .expanded
                .iter()
                .copied()
                .filter(|&id| {
                    plan.node(id)
                        .and_then(|n| n.max_length)
                        .is_some_and(|m| m == max)
                })
                .collect();
            let json = Value::String(tape::decode_string(raw)).to_string();
            return self.reject_with_witness(
                &plan,
                &nodes,
                &json,
                &tape.pointer(depth),
                tape.read(),
                |i: &Issue| i.code == "maxLength" && i.path.is_empty(),
            );
        }
        if here.strings.is_empty() {
            return ControlFlow::Continue(());
        }
        let decoded = tape::decode_string(raw);
        let failing: Vec<NodeId> = here
            .strings
            .iter()
            .copied()
            .filter(|&id| {
                plan.node(id).is_some_and(|n| {
                    n.strings
                        .iter()
                        .any(|allowed| !allowed.iter().any(|s| s.starts_with(decoded.as_str())))
                })
            })
            .collect();
        if failing.is_empty() {
            return ControlFlow::Continue(());
        }
        let json = Value::String(decoded).to_string();
        self.reject_with_witness(
            &plan,
            &failing,
            &json,
            &tape.pointer(depth),
            tape.read(),
            |i: &Issue| (i.code == "enum" || i.code == "const") && i.path.is_empty(),
        )
    }
}

impl Watcher {
    /// Item `index` of the array at `loc` (at `depth - 1`) begins: past its
    /// `maxItems`, that is definite.
    fn too_many_items(
        &mut self,
        plan: &Plan,
        tape: &Lend<'_>,
        loc: LocId,
        index: u32,
        depth: usize,
    ) -> Flow {
        let Some(here) = self.locs.get(loc) else {
            return ControlFlow::Continue(());
        };
        if here.max_items.is_none_or(|max| u64::from(index) < max) {
            return ControlFlow::Continue(());
        }
        let array = depth.saturating_sub(1);
        let Some(witness) = tape.open_array_and_one(array) else {
            return ControlFlow::Continue(());
        };
        let keep = |i: &Issue| i.code == "maxItems" && i.path.is_empty();
        match self.issues(
            plan,
            &here.expanded,
            &witness,
            &tape.pointer(array),
            Some(&keep),
        ) {
            Some(why) => self.reject(why, tape.read() + 1),
            None => ControlFlow::Continue(()),
        }
    }
}

impl Watch for Watcher {
    fn begin(&mut self, tape: &mut Lend<'_>, depth: usize, kind: Kind) -> ControlFlow<(), bool> {
        if let Some(outline) = self.outline.as_mut() {
            outline.begin(depth, kind, tape.read());
        }
        if depth == 0 && self.require_object && kind != Kind::Object {
            let at = tape.read() + 1;
            self.found = Some((Rejected::NotObject(kind.json_type()), at));
            return ControlFlow::Break(());
        }
        let Some(plan) = self.plan.clone() else {
            return ControlFlow::Continue(false);
        };
        let mut item = false;
        let loc = match self.levels.last_mut() {
            None => self.locs.intern(&plan, vec![0]),
            Some(parent) if parent.object => self.member.take(),
            Some(parent) => {
                item = true;
                let index = parent.items;
                parent.items = parent.items.saturating_add(1);
                match parent.loc {
                    Some(array) => {
                        if self
                            .too_many_items(&plan, tape, array, index, depth)
                            .is_break()
                        {
                            return ControlFlow::Break(());
                        }
                        self.locs.item(&plan, array, index)
                    }
                    None => None,
                }
            }
        };
        if let Some(here) = loc.and_then(|l| self.locs.get_mut(l)) {
            here.begun = here.begun.saturating_add(1);
        }
        match kind {
            Kind::Object | Kind::Array => {
                self.levels.push(Level {
                    loc,
                    object: kind == Kind::Object,
                    items: 0,
                    checked_inside: false,
                });
                // An item is checked whole when it closes: if it closes in
                // the text at hand, that check is all it needs (see
                // `Loc::covers_inside`).
                let whole = item
                    && loc
                        .and_then(|l| self.locs.get(l))
                        .is_some_and(|l| l.covers_inside);
                ControlFlow::Continue(whole)
            }
            Kind::String => {
                self.scalar = loc;
                let here = loc.and_then(|l| self.locs.get(l));
                let watched = here.is_some_and(|l| l.max_length.is_some() || !l.strings.is_empty());
                let refused = here.is_some_and(|l| l.no_string);
                self.string = if watched { loc } else { None };
                if refused && self.check_string(tape, "", 0).is_break() {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(watched)
            }
            _ => {
                self.scalar = loc;
                ControlFlow::Continue(false)
            }
        }
    }

    fn name(&mut self, tape: &mut Lend<'_>, key: u32) -> Flow {
        if let Some(outline) = self.outline.as_mut() {
            let (start, len) = tape.name_span(key);
            outline.name(start, len);
        }
        self.member = None;
        let (Some(plan), Some(loc)) = (self.plan.clone(), self.levels.last().and_then(|l| l.loc))
        else {
            return ControlFlow::Continue(());
        };
        let name = tape.name(key);
        let member = self.locs.member(&plan, loc, &name);
        self.member = member.loc;
        if !member.refused {
            return ControlFlow::Continue(());
        }
        let json = format!("{{{}:null}}", Value::String(name.clone().into_owned()));
        let nodes = self
            .locs
            .get(loc)
            .map(|l| l.expanded.clone())
            .unwrap_or_default();
        let base = tape.pointer(self.levels.len() - 1);
        let member_path = format!("/{}", escape_segment(&name));
        self.reject_with_witness(
            &plan,
            &nodes,
            &json,
            &base,
            tape.read(),
            |i: &Issue| match i.code.as_str() {
                "additionalProperties" | "propertyNames" => i.path.is_empty(),
                "falseSchema" => i.path == member_path,
                _ => false,
            },
        )
    }

    fn partial(&mut self, tape: &mut Lend<'_>, string: Partial<'_>) -> Flow {
        self.check_string(tape, string.raw, string.chars)
    }

    fn end(&mut self, tape: &mut Lend<'_>, index: u32, depth: usize) -> Flow {
        let kind = tape.kind(index);
        let container = matches!(kind, Kind::Array | Kind::Object);
        if let Some(outline) = self.outline.as_mut().filter(|_| container) {
            outline.close(tape.read());
        }
        let (loc, inside) = if container {
            match self.levels.pop() {
                Some(level) => (level.loc, level.checked_inside),
                None => (None, false),
            }
        } else {
            // A string compared while open needs no comparison now: the
            // check of the value holding it follows soon, and the one of
            // the string itself below when it is checked alone.
            self.string = None;
            (self.scalar.take(), false)
        };
        if depth == 0 {
            return ControlFlow::Continue(());
        }
        let Some(parent) = self.levels.last_mut() else {
            return ControlFlow::Continue(());
        };
        // Items are checked as they close, and so are the root's members
        // unless something inside them was already.
        let checked_here = !parent.object || (depth == 1 && !(container && inside));
        let (Some(loc), true) = (loc, checked_here) else {
            parent.checked_inside |= inside;
            return ControlFlow::Continue(());
        };
        self.check_closed(tape, loc, inside, index, depth, kind)
    }

    fn items_alike(&mut self, depth: usize) -> bool {
        self.alike = None;
        let (Some(_), Some(parent)) = (self.plan.as_ref(), self.levels.last()) else {
            return false;
        };
        let Some(array) = parent
            .loc
            .filter(|_| !parent.object && depth == self.levels.len())
        else {
            return false;
        };
        // Every item from here on has the same location, and no count of
        // them is watched (see `too_many_items`).
        let Some(here) = self.locs.get(array) else {
            return false;
        };
        if here.max_items.is_some() || (parent.items as usize) < here.prefix_len {
            return false;
        }
        let Some(Some(item)) = here.rest else {
            return false;
        };
        if !self.locs.get(item).is_some_and(|l| l.covers_inside) {
            return false;
        }
        self.alike = Some(item);
        true
    }

    fn item(&mut self, tape: &mut Lend<'_>, index: u32, depth: usize, start: usize) -> Flow {
        let kind = tape.kind(index);
        if let Some(outline) = self.outline.as_mut() {
            outline.begin(depth, kind, start);
            outline.close(tape.read());
        }
        let Some(loc) = self.alike else {
            return ControlFlow::Continue(());
        };
        let (Some(plan), Some(parent), Some(here)) = (
            self.plan.as_ref(),
            self.levels.last_mut(),
            self.locs.get_mut(loc),
        ) else {
            return ControlFlow::Continue(());
        };
        parent.items = parent.items.saturating_add(1);
        here.begun = here.begun.saturating_add(1);
        // The common case at once: one subschema checked here, and the
        // item passes it (as `check_closed` would count it).
        if let [id] = here.check[..] {
            if let Some(validator) = plan.validator(id) {
                if tape.with_tape(|t| node_is_valid(validator, TapeNode::at(t, index))) {
                    parent.checked_inside = true;
                    here.passed = here.passed.saturating_add(1);
                    return ControlFlow::Continue(());
                }
            }
        }
        self.check_closed(tape, loc, false, index, depth, kind)
    }
}

impl Watcher {
    /// The value whose entry is `index` (of `kind`, at `depth`, at `loc`)
    /// closed, and is checked here: against every subschema checked at its
    /// location. `inside`: something inside it was checked already.
    fn check_closed(
        &mut self,
        tape: &mut Lend<'_>,
        loc: LocId,
        inside: bool,
        index: u32,
        depth: usize,
        kind: Kind,
    ) -> Flow {
        let (Some(plan), Some(parent)) = (self.plan.as_ref(), self.levels.last_mut()) else {
            return ControlFlow::Continue(());
        };
        let Some(here) = self.locs.get(loc).filter(|l| !l.check.is_empty()) else {
            parent.checked_inside |= inside;
            return ControlFlow::Continue(());
        };
        parent.checked_inside = true;
        let failing: Vec<NodeId> = tape.with_tape(|t| {
            here.check
                .iter()
                .copied()
                .filter(|&id| {
                    plan.validator(id)
                        .is_some_and(|v| !node_is_valid(v, TapeNode::at(t, index)))
                })
                .collect()
        });
        if failing.is_empty() {
            // Passed only where it was checked: a subschema whose validator
            // could not be compiled alone was not (`finish` looks).
            if let Some(here) = self.locs.get_mut(loc) {
                here.passed = here.passed.saturating_add(1);
            }
            return ControlFlow::Continue(());
        }
        let plan = Arc::clone(plan);
        let value = tape.value(index);
        let base = tape.pointer(depth);
        // A number is known complete only at the byte after it.
        let at = tape.read() + usize::from(kind == Kind::Number);
        match self.issues(&plan, &failing, &value, &base, None) {
            Some(why) => self.reject(why, at),
            None => {
                self.lapsed = true;
                ControlFlow::Continue(())
            }
        }
    }
}
