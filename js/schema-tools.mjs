// The core's services beside the check: repair feedback from a verdict,
// the schema for a provider's native structured-output mode, redacted issue
// paths for printing, and the core's version.
import { argumentKind, errorName, jsonText } from "./arguments.mjs";
import { argumentError } from "./errors.mjs";
import { callRaw, callRawJson, displayText, raw } from "./wasm-instance.mjs";
import { SOURCE, isValidator, textOfSchema } from "./schemas.mjs";

/**
 * `text` with every character a terminal or a log viewer would act on (the
 * C0 and C1 controls, DEL, the bidirectional overrides and isolates)
 * written as `\uXXXX`, as every message of the package is.
 */
export function escapeForDisplay(text) {
  if (typeof text !== "string") throw argumentError(`escapeForDisplay takes a string, not ${argumentKind(text)}`);
  return displayText(text);
}

/** Paths already redacted, as the audit prints the same few again and again. */
const redactedPaths = new Map();

/**
 * An issue path with anything that looks like a credential redacted (the
 * path names the output's keys, which the model wrote), for printing.
 */
export function redactPath(path) {
  let redacted = redactedPaths.get(path);
  if (redacted === undefined) {
    redacted = callRaw(() => raw.shownText(path, true, false));
    if (redactedPaths.size >= 1024) redactedPaths.clear();
    redactedPaths.set(path, redacted);
  }
  return redacted;
}

/** The core's version, the same for every instance of one build: what checked a response, for audit records. */
let version;

export function validatorVersion() {
  return version ?? readVersion();
}

/**
 * The core's call of `validatorVersion`, made once, apart from it: on Bun a
 * function holding a closure makes a scope object every time it is entered.
 */
function readVersion() {
  version = callRaw(() => raw.validatorVersion());
  return version;
}

/**
 * The repair message for a failed verdict: each failing path, its code and
 * the constraint `schema` sets there, never a value from the output, with
 * anything that looks like a credential redacted.
 */
export function repairFeedback(verdict, schema) {
  if (verdict === null || typeof verdict !== "object" || Array.isArray(verdict)) {
    throw argumentError(`repairFeedback needs a verdict from checkOutput, not ${verdict === null ? "null" : Array.isArray(verdict) ? "an array" : typeof verdict}`);
  }
  let fields;
  try {
    fields = { ok: verdict.ok, failure: verdict.failure, errors: verdict.errors, moreErrors: verdict.moreErrors };
  } catch (error) {
    throw argumentError(`repairFeedback could not read the verdict: reading it threw ${errorName(error)}`);
  }
  const verdictText = jsonText("the verdict", fields);
  let schemaJson;
  if (isValidator(schema)) schemaJson = schema[SOURCE].text;
  else if (schema !== undefined && schema !== null) schemaJson = textOfSchema(schema);
  return callRaw(() => raw.repairFeedback(verdictText, schemaJson));
}

/**
 * The schema to send in a provider's native structured-output mode, the
 * constraints that mode will not enforce (for post-validation), and where the
 * sent schema lets the model answer differently from the original (see
 * src/provider_schema.rs). `schema` is an object, JSON text, a
 * response-format wrapper or a Validator; the caller's object is only read.
 */
export function toProviderSchema(schema, provider) {
  if (typeof provider !== "string") {
    throw argumentError(`provider must be "openai", "anthropic", "gemini" or "ollama", not ${argumentKind(provider)}`);
  }
  let text;
  if (typeof schema === "string") text = schema;
  else if (isValidator(schema)) text = schema[SOURCE].text;
  else if (schema !== null && typeof schema === "object" && !Array.isArray(schema)) text = textOfSchema(schema);
  else throw argumentError(`toProviderSchema needs a schema object or JSON text, not ${argumentKind(schema)}`);
  return callRawJson(() => raw.toProviderSchema(text, provider));
}
