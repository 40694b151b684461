// Error classes. Outcomes (invalid, truncated, unparseable) are verdicts;
// these are thrown only for misuse or for a guarded call that ends rejected.

/** A schema that cannot be compiled. */
export class SchemaError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "SchemaError";
    this.code = "invalid_schema";
  }
}

/** A guarded call that ended without an accepted output: every allowed attempt failed the check, or the deadline passed. */
export class StructuredOutputError extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = "StructuredOutputError";
    this.code = "structured_output_rejected";
    this.failure = details.failure;
    this.errors = details.errors;
    this.attempts = details.attempts;
    this.usage = details.usage;
    this.response = details.response;
    this.verdicts = details.verdicts;
    this.stoppedBy = details.stoppedBy;
    this.audit = details.audit;
  }
}

/** A TypeError with the stable code "invalid_argument". */
export function argumentError(message) {
  const error = new TypeError(message);
  error.code = "invalid_argument";
  return error;
}
