//! What `guardedCall` does after each attempt.
//!
//! Tools run inside the provider call: retrying a request that carries tools
//! would run them again and repeat their side effects, so such a request
//! gets exactly one attempt however its output looks. An aborted caller, a
//! passed deadline, a spent budget or a model that makes the same mistake
//! twice in a row gets no further attempt either. These rules live here, as
//! one pure function, so the JavaScript wrapper only awaits and never decides.
//! Which requests carry tools is read by `crate::providers::tools`.

use serde::Serialize;

use crate::error::Failure;
pub use crate::error::{Action, StopReason, DEFAULT_TOTAL_RETRIES, MAX_RETRIES};

/// Retries allowed after failures of each class, and in total.
///
/// A retry is any attempt after the first. A class with its own budget is
/// retried at most that many times; every class shares `total`. Without any
/// budget, `total` is 1: one retry whatever failed. When only class budgets
/// are given, `total` defaults to the largest of them, so `{ schema: 3 }`
/// means what it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    per_class: [Option<u32>; Failure::ALL.len()],
    total: u32,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            per_class: [None; Failure::ALL.len()],
            total: DEFAULT_TOTAL_RETRIES,
        }
    }
}

impl Budgets {
    pub fn new(per_class: [Option<u32>; Failure::ALL.len()], total: Option<u32>) -> Self {
        let largest = per_class.iter().flatten().copied().max();
        let total = total
            .or(largest)
            .unwrap_or(DEFAULT_TOTAL_RETRIES)
            .min(MAX_RETRIES);
        Budgets {
            per_class: per_class.map(|b| b.map(|n| n.min(MAX_RETRIES))),
            total,
        }
    }

    pub fn total(&self) -> u32 {
        self.total
    }

    pub fn for_class(&self, failure: Failure) -> Option<u32> {
        self.per_class.get(failure.index()).copied().flatten()
    }
}

/// What one attempt came to, as the record of attempts keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt<'a> {
    /// `None` when the attempt was accepted.
    pub failure: Option<Failure>,
    pub error_hash: Option<&'a str>,
}

/// How a failed attempt is retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RetryMode {
    /// The identical request again.
    #[default]
    Resample,
    /// The original request plus feedback on what to fix.
    Repair,
}

/// Everything besides the record of attempts the decision depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Situation {
    pub carries_tools: bool,
    pub aborted: bool,
    pub deadline_passed: bool,
    /// `false` is the lenient legacy path: one attempt, never an error.
    pub strict: bool,
    pub retry: RetryMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub action: Action,
    /// Why no (further) attempt happens; `None` while retrying.
    pub stopped_by: Option<StopReason>,
}

impl Decision {
    fn stop(action: Action, reason: StopReason) -> Self {
        Decision {
            action,
            stopped_by: Some(reason),
        }
    }
}

/// The next step after `current`, given the attempts before it (all failed,
/// or there would be no `current`). Reasons to stop are checked in a fixed
/// order, so the reported one is the most fundamental: tools, then the
/// caller's abort, the deadline, a repeated error, and the budgets.
pub fn next_action(
    previous: &[Attempt<'_>],
    current: Attempt<'_>,
    budgets: &Budgets,
    s: Situation,
) -> Decision {
    let Some(failure) = current.failure else {
        return Decision::stop(Action::Accept, StopReason::Accepted);
    };
    if !s.strict {
        return Decision::stop(Action::ReturnWithWarning, StopReason::Lenient);
    }
    if s.carries_tools {
        return Decision::stop(Action::Reject, StopReason::Tools);
    }
    if s.aborted {
        return Decision::stop(Action::Reject, StopReason::Aborted);
    }
    if s.deadline_passed {
        return Decision::stop(Action::Reject, StopReason::Deadline);
    }
    let repeated = match (previous.last(), current.error_hash) {
        (Some(last), Some(hash)) => last.error_hash == Some(hash),
        _ => false,
    };
    if repeated {
        return Decision::stop(Action::Reject, StopReason::RepeatedError);
    }
    // Every attempt before `current` failed and was retried once.
    let retries = previous.len();
    let class_retries = previous
        .iter()
        .filter(|a| a.failure == Some(failure))
        .count();
    let below = |used: usize, budget: u32| usize::try_from(budget).is_ok_and(|b| used < b);
    let class_left = budgets
        .for_class(failure)
        .is_none_or(|budget| below(class_retries, budget));
    if !below(retries, budgets.total()) || !class_left {
        return Decision::stop(Action::Reject, StopReason::Budget);
    }
    Decision {
        action: match s.retry {
            RetryMode::Resample => Action::Resample,
            RetryMode::Repair => Action::Repair,
        },
        stopped_by: None,
    }
}

#[cfg(test)]
mod tests;
