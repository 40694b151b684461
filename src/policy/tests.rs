#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;

/// Two hashes per class, so a history can repeat a mistake or make a
/// different one of the same class.
const HASHES: [&str; 2] = ["h1", "h2"];

fn attempts_of(failures: &[Failure]) -> Vec<(Failure, &'static str)> {
    let mut out = Vec::new();
    for f in failures {
        for h in HASHES {
            out.push((*f, h));
        }
    }
    out
}

/// Every history of up to `len` failed attempts.
fn histories(len: usize) -> Vec<Vec<(Failure, &'static str)>> {
    let items = attempts_of(&Failure::ALL);
    let mut all = vec![Vec::new()];
    let mut frontier = vec![Vec::new()];
    for _ in 0..len {
        let mut next = Vec::new();
        for h in &frontier {
            for item in &items {
                let mut longer: Vec<(Failure, &'static str)> = h.clone();
                longer.push(*item);
                next.push(longer);
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    all
}

/// A hash that is a function of both the class and the variant, as real
/// error hashes are.
fn hash_of(f: Failure, variant: &'static str) -> String {
    format!("{}:{variant}", f.as_str())
}

fn budget_sets() -> Vec<Budgets> {
    let mut out = Vec::new();
    for total in [None, Some(0), Some(1), Some(2)] {
        out.push(Budgets::new([None; 6], total));
        for class in Failure::ALL {
            for value in [0, 1] {
                let mut per = [None; 6];
                per[class.index()] = Some(value);
                out.push(Budgets::new(per, total));
            }
        }
    }
    out
}

/// Every combination of history (up to two failed attempts), current
/// outcome, budget set and situation, checked against the rules written out
/// plainly, one by one, as docs/governance.md states them.
#[test]
fn exhaustive_rules() {
    let histories = histories(2);
    let mut currents: Vec<Option<(Failure, &'static str)>> = vec![None];
    currents.extend(attempts_of(&Failure::ALL).into_iter().map(Some));
    let budgets = budget_sets();
    let mut checked = 0u64;
    for history in &histories {
        let hashes: Vec<String> = history.iter().map(|(f, h)| hash_of(*f, h)).collect();
        let previous: Vec<Attempt<'_>> = history
            .iter()
            .zip(&hashes)
            .map(|((f, _), h)| Attempt {
                failure: Some(*f),
                error_hash: Some(h.as_str()),
            })
            .collect();
        for current in &currents {
            let current_hash = current.map(|(f, h)| hash_of(f, h));
            let now = Attempt {
                failure: current.map(|(f, _)| f),
                error_hash: current_hash.as_deref(),
            };
            for b in &budgets {
                for bits in 0..32u32 {
                    let s = Situation {
                        carries_tools: bits & 1 != 0,
                        aborted: bits & 2 != 0,
                        deadline_passed: bits & 4 != 0,
                        strict: bits & 8 != 0,
                        retry: if bits & 16 != 0 {
                            RetryMode::Repair
                        } else {
                            RetryMode::Resample
                        },
                    };
                    let d = next_action(&previous, now, b, s);
                    let expected = expected(history, *current, b, s);
                    assert_eq!(d, expected, "{history:?} {current:?} {b:?} {s:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1_000_000, "only {checked} combinations");
}

/// The oracle: each rule stated as plainly as possible.
fn expected(
    history: &[(Failure, &'static str)],
    current: Option<(Failure, &'static str)>,
    budgets: &Budgets,
    s: Situation,
) -> Decision {
    let stop = |action, reason| Decision {
        action,
        stopped_by: Some(reason),
    };
    // An accepted attempt is accepted, whatever else holds.
    let Some((failure, variant)) = current else {
        return stop(Action::Accept, StopReason::Accepted);
    };
    // The lenient path never retries and never rejects.
    if !s.strict {
        return stop(Action::ReturnWithWarning, StopReason::Lenient);
    }
    // Tools, abort and deadline each forbid another attempt.
    if s.carries_tools {
        return stop(Action::Reject, StopReason::Tools);
    }
    if s.aborted {
        return stop(Action::Reject, StopReason::Aborted);
    }
    if s.deadline_passed {
        return stop(Action::Reject, StopReason::Deadline);
    }
    // The same mistake twice in a row ends it.
    if history.last() == Some(&(failure, variant)) {
        return stop(Action::Reject, StopReason::RepeatedError);
    }
    // Retries so far are the failed attempts before this one.
    let total_used = history.len() as u32;
    let class_used = history.iter().filter(|(f, _)| *f == failure).count() as u32;
    let total_budget = budgets.total();
    if total_used >= total_budget {
        return stop(Action::Reject, StopReason::Budget);
    }
    if let Some(class_budget) = budgets.for_class(failure) {
        if class_used >= class_budget {
            return stop(Action::Reject, StopReason::Budget);
        }
    }
    Decision {
        action: if s.retry == RetryMode::Repair {
            Action::Repair
        } else {
            Action::Resample
        },
        stopped_by: None,
    }
}

/// Driving the decision the way guardedCall does, with a model that always
/// fails differently: the number of attempts never exceeds the total budget
/// plus one, for every budget there is.
#[test]
fn a_guarded_call_always_ends() {
    let hashes: Vec<String> = (0..50).map(|i| format!("h{i}")).collect();
    for total in 0..=MAX_RETRIES {
        for class_budget in [None, Some(0), Some(3), Some(MAX_RETRIES)] {
            let mut per = [None; 6];
            per[Failure::Schema.index()] = class_budget;
            let budgets = Budgets::new(per, Some(total));
            let mut history: Vec<Attempt<'_>> = Vec::new();
            let mut attempts = 0u32;
            loop {
                attempts += 1;
                let now = Attempt {
                    failure: Some(if attempts % 2 == 0 {
                        Failure::Schema
                    } else {
                        Failure::Unparseable
                    }),
                    error_hash: Some(hashes[attempts as usize].as_str()),
                };
                let d = next_action(
                    &history,
                    now,
                    &budgets,
                    Situation {
                        strict: true,
                        ..Default::default()
                    },
                );
                if d.action != Action::Resample {
                    assert_eq!(d.stopped_by, Some(StopReason::Budget));
                    break;
                }
                history.push(now);
                assert!(attempts <= MAX_RETRIES + 1);
            }
            assert!(attempts <= total + 1, "total {total}: {attempts} attempts");
        }
    }
}

#[test]
fn defaults_are_one_retry_of_anything() {
    let b = Budgets::default();
    assert_eq!(b.total(), 1);
    let strict = Situation {
        strict: true,
        ..Default::default()
    };
    let fail = |f| Attempt {
        failure: Some(f),
        error_hash: Some("x"),
    };
    for f in Failure::ALL {
        assert_eq!(
            next_action(&[], fail(f), &b, strict).action,
            Action::Resample
        );
        let other = Attempt {
            failure: Some(f),
            error_hash: Some("y"),
        };
        assert_eq!(
            next_action(&[other], fail(f), &b, strict).stopped_by,
            Some(StopReason::Budget)
        );
    }
}

#[test]
fn class_budgets_set_the_default_total() {
    let mut per = [None; 6];
    per[Failure::Schema.index()] = Some(3);
    assert_eq!(Budgets::new(per, None).total(), 3);
    assert_eq!(Budgets::new(per, Some(1)).total(), 1);
    assert_eq!(Budgets::new([None; 6], Some(99)).total(), MAX_RETRIES);
}

#[test]
fn tools_win_over_every_other_reason() {
    let d = next_action(
        &[Attempt {
            failure: Some(Failure::Truncated),
            error_hash: Some("a"),
        }],
        Attempt {
            failure: Some(Failure::Truncated),
            error_hash: Some("a"),
        },
        &Budgets::default(),
        Situation {
            carries_tools: true,
            aborted: true,
            deadline_passed: true,
            strict: true,
            retry: RetryMode::Repair,
        },
    );
    assert_eq!(
        d,
        Decision {
            action: Action::Reject,
            stopped_by: Some(StopReason::Tools)
        }
    );
}
