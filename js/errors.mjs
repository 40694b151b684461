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
    this.degraded = details.degraded ?? false;
    this.audit = details.audit;
  }
}

/** A TypeError with the stable code "invalid_argument". */
export function argumentError(message) {
  const error = new TypeError(message);
  error.code = "invalid_argument";
  return error;
}

/**
 * What a public function throws when reading an argument failed in a way
 * the function did not foresee (a revoked Proxy, a getter that throws): a
 * typed error naming the function, with the original as `cause`. Errors
 * that already carry a code pass through unchanged. The original's message
 * is not repeated: a getter's error may quote anything.
 */
export function typedError(what, error) {
  let code;
  let name;
  try {
    code = error?.code;
    name = error?.name;
  } catch {
    // The thrown value is itself hostile (a revoked Proxy): nothing to read.
  }
  if (typeof code === "string") return error;
  const wrapped = argumentError(`${what} could not read its arguments: reading them threw ${typeof name === "string" && /^\w{1,40}$/.test(name) ? name : "an error"}`);
  wrapped.cause = error;
  return wrapped;
}

/**
 * `withTypedErrors` for a method of at most two arguments (a Validator's
 * `isValid` and `validate`, called once a value): without gathering its
 * arguments into a list, which costs a small check a tenth of its time.
 */
export function withTypedErrors2(what, fn) {
  return function typed(a, b) {
    try {
      return fn.call(this, a, b);
    } catch (error) {
      throw typedError(what, error);
    }
  };
}

/** `fn` with every error it throws typed (see `typedError`). */
export function withTypedErrors(what, fn) {
  return function typed(...args) {
    try {
      return fn.apply(this, args);
    } catch (error) {
      throw typedError(what, error);
    }
  };
}
