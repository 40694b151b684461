//! The contract's names and defaults, each defined once: the failure
//! classes of a verdict, what a guarded call does after an attempt and why
//! it stops, the codes an issue can carry, and the default options; and
//! `ArgumentError`, the error a caller's wrong argument is.
//!
//! This is the bottom layer: the modules above take these names from here,
//! and the JavaScript side imports them from `js/generated/contract.mjs`,
//! which `error/tests.rs` renders from this file (`UPDATE_CONTRACT=1 cargo
//! test contract` rewrites it). The same tests compare the unions of
//! `js/index.d.ts` and the lists in README.md and the user pages of `docs/`
//! with these, so none of them can drift.

use std::fmt;

use serde::Serialize;

/// A wrong argument from the caller: misuse, thrown to JavaScript as a
/// `TypeError` with `code: "invalid_argument"`. Defined here, below every
/// module that reports one, so that decoding (`crate::options`) sits on top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    pub message: String,
}

impl ArgumentError {
    pub fn new(message: impl Into<String>) -> Self {
        ArgumentError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ArgumentError {}

/// Why a response was refused, in the order the stages run: the first
/// failing stage names the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    Truncated,
    Empty,
    Unparseable,
    NotObject,
    Schema,
    Rule,
}

impl Failure {
    /// Every failure class, in pipeline order.
    pub const ALL: [Failure; 6] = [
        Failure::Truncated,
        Failure::Empty,
        Failure::Unparseable,
        Failure::NotObject,
        Failure::Schema,
        Failure::Rule,
    ];

    /// The position in `ALL`.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn parse(name: &str) -> Option<Failure> {
        Failure::ALL.into_iter().find(|f| f.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Failure::Truncated => "truncated",
            Failure::Empty => "empty",
            Failure::Unparseable => "unparseable",
            Failure::NotObject => "not_object",
            Failure::Schema => "schema",
            Failure::Rule => "rule",
        }
    }
}

/// What a guarded call does after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Return the checked value.
    Accept,
    /// Call the model again with the identical request.
    Resample,
    /// Call the model with the original request plus repair feedback.
    Repair,
    /// Reject with a `StructuredOutputError`.
    Reject,
    /// Lenient path: return whatever parsed, with a warning.
    ReturnWithWarning,
}

impl Action {
    pub const ALL: [Action; 5] = [
        Action::Accept,
        Action::Resample,
        Action::Repair,
        Action::Reject,
        Action::ReturnWithWarning,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Resample => "resample",
            Action::Repair => "repair",
            Action::Reject => "reject",
            Action::ReturnWithWarning => "return_with_warning",
        }
    }
}

/// Why a guarded call made no further attempt (`stoppedBy`), in the order
/// `policy::next_action` checks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Accepted,
    Lenient,
    Tools,
    Aborted,
    Deadline,
    RepeatedError,
    Budget,
}

impl StopReason {
    pub const ALL: [StopReason; 7] = [
        StopReason::Accepted,
        StopReason::Lenient,
        StopReason::Tools,
        StopReason::Aborted,
        StopReason::Deadline,
        StopReason::RepeatedError,
        StopReason::Budget,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Accepted => "accepted",
            StopReason::Tools => "tools",
            StopReason::Aborted => "aborted",
            StopReason::Deadline => "deadline",
            StopReason::RepeatedError => "repeated_error",
            StopReason::Budget => "budget",
            StopReason::Lenient => "lenient",
        }
    }
}

/// The code of an issue that breaks a business rule.
pub const RULE_ISSUE_CODE: &str = "rule";

/// Every code an issue can carry: the JSON Schema keyword that failed (as
/// the engine names it; `dependentRequired` is reported as `required`),
/// and `rule` for a business rule.
pub const ISSUE_CODES: [&str; 32] = [
    "type",
    "enum",
    "const",
    "required",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minProperties",
    "maxProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
    "propertyNames",
    "anyOf",
    "oneOf",
    "not",
    "falseSchema",
    "contentEncoding",
    "contentMediaType",
    "$ref",
    RULE_ISSUE_CODE,
];

/// Issues collected per check (`maxErrors`), unless the caller says.
pub const DEFAULT_MAX_ERRORS: usize = 5;

/// Retries a guarded call makes without any budget given (`budgets.total`).
pub const DEFAULT_TOTAL_RETRIES: u32 = 1;

/// No budget may allow more retries than this: a guard must end.
pub const MAX_RETRIES: u32 = 10;

#[cfg(test)]
mod tests;
