//! One allowance of pattern-matching work, shared by every match validation makes inside
//! [`with_pattern_budget`].
//!
//! The backtrack limit bounds each match on its own, so a value with many subjects that each
//! match just under it (array items, object keys, the same instance checked by several
//! validators) costs that much once per subject. A budget bounds them all together.
//!
//! The same budget bounds the references validation follows: subschemas that refer to shared
//! subschemas (each `anyOf` branch a `$ref` to the next level, say) make the number of
//! references followed exponential in the schema's size, whatever the instance.
use std::cell::Cell;

/// References validation may follow inside one budget. Ordinary schemas follow a few per
/// instance value; a 2,000-row response whose rows each refer to a row schema follows
/// thousands. Following this many takes about a second in a WebAssembly build.
pub const REFERENCES_PER_BUDGET: usize = 10_000_000;

thread_local! {
    /// Steps left in the budget in force on this thread; `None` outside [`with_pattern_budget`].
    static STEPS_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
    /// References left to follow in the budget in force; `None` outside one.
    static REFERENCES_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
    /// Whether a reference was left unfollowed because none were left.
    static REFERENCE_REFUSED: Cell<bool> = const { Cell::new(false) };
}

/// Starts the reference allowance of a budget, or ends it (`None`).
fn set_references(allowance: Option<usize>) {
    REFERENCES_LEFT.with(|left| left.set(allowance));
    REFERENCE_REFUSED.with(|refused| refused.set(false));
}

/// Spends one reference from the budget in force, if any: `false` when none is left, and the
/// reference must not be followed. Validation then cannot say what the instance is: `is_valid`
/// is `false`, and the errors are incomplete; [`reference_refused`] tells the caller so.
#[inline]
pub(crate) fn follow_reference() -> bool {
    REFERENCES_LEFT.with(|left| match left.get() {
        None => true,
        Some(0) => {
            REFERENCE_REFUSED.with(|refused| refused.set(true));
            false
        }
        Some(n) => {
            left.set(Some(n - 1));
            true
        }
    })
}

/// Whether validation inside the budget in force left a reference unfollowed because the
/// budget had none left: its outcome is then `false` without being decided, and its errors
/// are not the instance's.
#[must_use]
pub fn reference_refused() -> bool {
    REFERENCE_REFUSED.with(Cell::get)
}

/// Runs `run` with one allowance of `steps` steps of pattern-matching work for every `pattern`
/// and `patternProperties` match (and every other keyword's) that validation on this thread makes
/// until it returns, however many validators and calls that takes.
///
/// A step is about one instruction of the backtracking engine; each byte a backreference compares
/// and each byte a lookaround's inner engine may read is a step too (see
/// [`fancy_regex::Regex::is_match_within`]). Patterns the linear-time engines match spend
/// nothing: their work is bounded by the subject's length. A match that would need more than is
/// left cannot be finished, and neither can any match after it: validation treats them as it
/// treats a match that reaches the backtrack limit, except that it does not run again under
/// assumed outcomes (nothing is left to decide them with), so `is_valid` is `false` and the
/// errors name the match where the budget ran out.
///
/// Inside another call's `run`, `run` shares that call's budget: the outermost call decides the
/// allowance, and the budget ends when it returns.
pub fn with_pattern_budget<T>(steps: usize, run: impl FnOnce() -> T) -> T {
    if STEPS_LEFT.with(Cell::get).is_some() {
        return run();
    }
    /// Ends the budget however `run` leaves.
    struct End;
    impl Drop for End {
        fn drop(&mut self) {
            STEPS_LEFT.with(|left| left.set(None));
            set_references(None);
        }
    }
    STEPS_LEFT.with(|left| left.set(Some(steps)));
    set_references(Some(REFERENCES_PER_BUDGET));
    let _end = End;
    run()
}

/// Starts a budget of `steps` that lasts until [`end_pattern_budget`], for work made of several
/// calls that cannot all run inside one closure (calls into a WebAssembly module each return
/// before the next begins). Calls to [`with_pattern_budget`] in between share it. It replaces
/// any budget in force.
pub fn begin_pattern_budget(steps: usize) {
    STEPS_LEFT.with(|left| left.set(Some(steps)));
    set_references(Some(REFERENCES_PER_BUDGET));
}

/// Ends the budget in force, whoever started it.
pub fn end_pattern_budget() {
    STEPS_LEFT.with(|left| left.set(None));
    set_references(None);
}

/// Runs `run` outside the budget in force, if any: its matches spend nothing from it, and only
/// the backtrack limit bounds them. For work whose result must not depend on what a budget has
/// left, such as building a validator that outlives the budget.
pub fn outside_pattern_budget<T>(run: impl FnOnce() -> T) -> T {
    /// Puts the budget back however `run` leaves.
    struct Restore(Option<usize>, Option<usize>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            STEPS_LEFT.with(|left| left.set(self.0));
            REFERENCES_LEFT.with(|left| left.set(self.1));
            REFERENCE_REFUSED.with(|refused| refused.set(self.2));
        }
    }
    let _restore = Restore(
        STEPS_LEFT.with(Cell::take),
        REFERENCES_LEFT.with(Cell::take),
        REFERENCE_REFUSED.with(Cell::get),
    );
    run()
}

/// Steps left in the budget in force on this thread, if any.
#[must_use]
pub fn pattern_steps_left() -> Option<usize> {
    STEPS_LEFT.with(Cell::get)
}

/// Whether a budget is in force and has run out.
pub(crate) fn exhausted() -> bool {
    STEPS_LEFT.with(Cell::get) == Some(0)
}

/// `regex.is_match(text)`, spending from the budget in force, if any.
pub(crate) fn is_match(regex: &fancy_regex::Regex, text: &str) -> Result<bool, fancy_regex::Error> {
    match STEPS_LEFT.with(Cell::get) {
        None => regex.is_match(text),
        Some(mut steps) => {
            let matched = regex.is_match_within(text, &mut steps);
            STEPS_LEFT.with(|left| left.set(Some(steps)));
            matched
        }
    }
}
