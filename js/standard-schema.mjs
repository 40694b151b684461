// A Validator is a Standard Schema (https://standardschema.dev), so the
// frameworks that take one (the AI SDK's Output.object, the OpenAI Agents
// SDK's outputType) validate with it and send the model its JSON Schema.
import { NotJsonValue, jsonText, keptUnread, serialisationProblem, valueSnapshot } from "./arguments.mjs";
import { argumentError } from "./errors.mjs";
import { callRawJson, raw } from "./wasm-instance.mjs";

const standards = new WeakMap();

/**
 * A Validator's `~standard` member (see schemas.mjs), made once per
 * Validator, from what schemas.mjs gives it: the Validator's `source` (the
 * schema's text and compile options) and its `checks`: `program(validator)`
 * (its check program, or null), `verdict(program, snapshot)` (whether the
 * program accepts a snapshot: true, false, or undefined where it cannot
 * say), `collect(program, snapshot)` (the issues of a snapshot it rejects,
 * as validate() lists them, with their paths as keys, or undefined where
 * the core must list them) and
 * `validate(validator, text)` (the core).
 */
export function standardFor(validator, source, checks) {
  let standard = standards.get(validator);
  if (standard === undefined) {
    standard = standardOf(validator, source, checks);
    standards.set(validator, standard);
  }
  return standard;
}

function standardOf(validator, source, checks) {
  const jsonSchema = (options) => {
    let target;
    try {
      target = options?.target;
    } catch (error) {
      throw argumentError(`the JSON Schema options could not be read: ${serialisationProblem(error)}`);
    }
    if (typeof target !== "string") throw argumentError(`the JSON Schema target must be "draft-2020-12" or "draft-07", not ${typeof target}`);
    return callRawJson(() => raw.standardJsonSchema(source.text, target, source.opts));
  };
  return {
    version: 1,
    vendor: "structured-output-guard",
    validate: (value) => standardValidate(validator, checks, value),
    jsonSchema: { input: jsonSchema, output: jsonSchema },
  };
}

/**
 * Standard Schema's validate: synchronous (the OpenAI Agents SDK refuses
 * asynchronous validators), issues capped as validate() caps them, each
 * path an array of keys with array indices as numbers. The value is read
 * once, into the snapshot that is checked (see `valueSnapshot`), by the
 * schema's check program where it accepts it and by the core otherwise: the
 * value handed back is that snapshot, and the issues' paths are found in it. A
 * value that is not JSON is an issue at its path, not an exception. Where
 * the schema has a check program the value is first read along what it
 * reads: a member no subschema applies to is handed back as the caller's own.
 */
function standardValidate(validator, checks, value) {
  const program = checks.program(validator);
  let snapshot;
  // Whether the program rejected the value, for certain.
  let rejected = false;
  try {
    snapshot = valueSnapshot(value, program?.reach);
    if (program !== null) {
      rejected = checks.verdict(program, snapshot);
      if (rejected === true) return { value: snapshot };
      rejected = rejected === false;
      // Rejected: read whole, so that the core judges all of it.
      if (keptUnread()) snapshot = valueSnapshot(snapshot);
    }
  } catch (error) {
    if (!(error instanceof NotJsonValue)) throw error;
    return { issues: [{ message: notJsonMessage(error), path: error.keys }] };
  }
  let result = rejected ? checks.collect(program, snapshot) : undefined;
  if (result !== undefined) return { issues: result.errors.map((issue, i) => ({ message: issue.message, path: result.trails[i] })) };
  try {
    result = checks.validate(validator, jsonText("the value", snapshot));
  } catch (error) {
    // A freed Validator, a module that could not be loaded: said as an
    // issue, as the frameworks that call this expect issues.
    return { issues: [{ message: String(error?.message ?? error), path: [] }] };
  }
  if (result.valid) return { value: snapshot };
  return { issues: issuesOf(result.errors, snapshot) };
}

/** Issues as Standard Schema gives them, of the snapshot that was checked. */
function issuesOf(errors, snapshot) {
  return errors.map((issue) => ({ message: issue.message, path: pathOf(snapshot, issue.path) }));
}

/** The issue's message for a value that is not JSON. */
function notJsonMessage(problem) {
  const pointer = problem.pointer;
  return `The value${pointer === "" ? "" : ` at ${pointer}`} cannot be read as JSON: ${problem.words}.`;
}

/** A JSON Pointer into `value` (the snapshot that was checked) as keys, an array's indices as numbers. */
function pathOf(value, pointer) {
  if (pointer === "") return [];
  const keys = [];
  let node = value;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) {
      keys.push(Number(key));
      node = node[Number(key)];
    } else {
      keys.push(key);
      node = node !== null && typeof node === "object" ? node[key] : undefined;
    }
  }
  return keys;
}
