//! What `guardedCall` does after each attempt.
//!
//! Tools run inside the provider call: resampling a request that carries
//! tools would run them again and repeat their side effects, so such a request
//! gets exactly one attempt however its output looks. An aborted caller gets
//! no further attempt either. These rules live here, as pure functions, so the
//! JavaScript wrapper only awaits and never decides.

use serde::Serialize;

use crate::verdict::Failure;

/// How many tool definitions a request carries, read from the members that
/// providers use for them (`tools`, legacy `functions`, Bedrock's
/// `toolConfig.tools`). A `tools` record (keyed by name) counts its keys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RequestTools {
    pub tools: usize,
    pub functions: usize,
    pub tool_config_tools: usize,
}

pub fn carries_tools(request: RequestTools, has_tools_option: bool) -> bool {
    has_tools_option || request.tools > 0 || request.functions > 0 || request.tool_config_tools > 0
}

/// Everything the next-step decision depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptState {
    /// Attempts made so far, including the one just checked.
    pub attempts: u32,
    /// The failure of the attempt just checked; `None` when it was accepted.
    pub failure: Option<Failure>,
    pub carries_tools: bool,
    pub aborted: bool,
    /// `false` is the lenient legacy path: one attempt, never an error.
    pub strict: bool,
}

/// At most this many attempts: the first and one resample.
pub const MAX_ATTEMPTS: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Return the checked value.
    Accept,
    /// Call the model again with the identical request.
    Resample,
    /// Reject with a `StructuredOutputError`.
    Reject,
    /// Lenient path: return whatever parsed, with a warning.
    ReturnWithWarning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Accepted,
    Tools,
    Aborted,
    Budget,
    Lenient,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub action: Action,
    /// Why no (further) resample happens; `None` while resampling.
    pub stopped_by: Option<StopReason>,
}

pub fn next_action(state: AttemptState) -> Decision {
    let stop = |action, reason| Decision {
        action,
        stopped_by: Some(reason),
    };
    if !state.strict {
        return match state.failure {
            None => stop(Action::Accept, StopReason::Accepted),
            Some(_) => stop(Action::ReturnWithWarning, StopReason::Lenient),
        };
    }
    if state.failure.is_none() {
        return stop(Action::Accept, StopReason::Accepted);
    }
    if state.carries_tools {
        return stop(Action::Reject, StopReason::Tools);
    }
    if state.aborted {
        return stop(Action::Reject, StopReason::Aborted);
    }
    if state.attempts >= MAX_ATTEMPTS {
        return stop(Action::Reject, StopReason::Budget);
    }
    Decision {
        action: Action::Resample,
        stopped_by: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAILURES: [Option<Failure>; 6] = [
        None,
        Some(Failure::Truncated),
        Some(Failure::Empty),
        Some(Failure::Unparseable),
        Some(Failure::NotObject),
        Some(Failure::Schema),
    ];

    /// Every combination of inputs, checked against the rules stated plainly.
    #[test]
    fn exhaustive_rules() {
        for failure in FAILURES {
            for attempts in 1..=3 {
                for carries_tools in [false, true] {
                    for aborted in [false, true] {
                        for strict in [false, true] {
                            let state = AttemptState {
                                attempts,
                                failure,
                                carries_tools,
                                aborted,
                                strict,
                            };
                            let d = next_action(state);
                            let expected = match (strict, failure) {
                                (_, None) => Action::Accept,
                                (false, Some(_)) => Action::ReturnWithWarning,
                                (true, Some(_)) if carries_tools || aborted || attempts >= 2 => {
                                    Action::Reject
                                }
                                (true, Some(_)) => Action::Resample,
                            };
                            assert_eq!(d.action, expected, "{state:?}");
                            assert_eq!(
                                d.stopped_by.is_none(),
                                expected == Action::Resample,
                                "{state:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tools_win_over_every_other_reason() {
        let d = next_action(AttemptState {
            attempts: 1,
            failure: Some(Failure::Truncated),
            carries_tools: true,
            aborted: true,
            strict: true,
        });
        assert_eq!(
            d,
            Decision {
                action: Action::Reject,
                stopped_by: Some(StopReason::Tools)
            }
        );
    }

    #[test]
    fn tool_detection() {
        assert!(!carries_tools(RequestTools::default(), false));
        assert!(carries_tools(RequestTools::default(), true));
        assert!(carries_tools(
            RequestTools {
                tools: 1,
                ..Default::default()
            },
            false
        ));
        assert!(carries_tools(
            RequestTools {
                functions: 2,
                ..Default::default()
            },
            false
        ));
        assert!(carries_tools(
            RequestTools {
                tool_config_tools: 1,
                ..Default::default()
            },
            false
        ));
    }
}
