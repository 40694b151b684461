// Test matchers for bun:test, Vitest and Jest. The most portable set-up is
// explicit, in a test file or the runner's setup file:
//
//   import { expect } from "bun:test";          // or "vitest", "@jest/globals"
//   import { matchers } from "structured-output-guard/matchers";
//   expect.extend(matchers);
//
//   expect(value).toSatisfySchema(schema);
//   expect(modelResponse).toBeAcceptedOutput(responseFormat);
//   expect({ data: expect.toSatisfySchema(schema) })   // asymmetric use
//
// `structured-output-guard/matchers/register` does the same for the runner's
// `expect` (Jest's global, Vitest's with `globals: true`, Bun's own).
//
// The package is imported by its own name, so these matchers share the
// instance (and the compiled-schema cache) that the test's own import of
// "structured-output-guard" resolves to, under ESM and CommonJS alike.
import { checkOutput, compileSchema, escapeForDisplay } from "structured-output-guard";

/**
 * Text from a verdict (an issue's path names the output's own keys, a
 * finish reason is the provider's) as a failure message shows it: C0 and
 * C1 controls and bidirectional overrides as \uXXXX, so a test log is never
 * retitled, cleared or reordered by what a model wrote.
 */
function shown(text) {
  return escapeForDisplay(String(text));
}

function isCompiledValidator(schema) {
  return schema !== null && typeof schema === "object" && typeof schema.validate === "function" && typeof schema.schemaHash === "string";
}

/**
 * The schema a value is validated against. compileSchema reads a
 * response-format wrapper (`{ name?, description?, schema, strict? }`) as
 * the schema it wraps, as checkOutput does, and finds a schema object it
 * has seen before by identity: a suite asserting against one schema
 * serialises it once.
 */
function validatorFor(schema, options) {
  return isCompiledValidator(schema) ? schema : compileSchema(schema, options);
}

function compileOptionsOf(options) {
  if (options === undefined || options === null) return { compile: undefined, validate: undefined };
  const { maxErrors, ...compile } = options;
  return { compile, validate: maxErrors === undefined ? undefined : { maxErrors } };
}

/** One issue per line: path (the root shown as "(root)"), code, message. */
export function formatIssues(errors, moreErrors) {
  const lines = errors.map((issue) => `  ${issue.path === "" ? "(root)" : shown(issue.path)}  ${shown(issue.code)}  ${shown(issue.message)}`);
  if (moreErrors) lines.push("  ... and more issues past maxErrors");
  return lines.join("\n");
}

function countIssues(errors, moreErrors) {
  const n = `${errors.length}${moreErrors ? "+" : ""}`;
  return `${n} issue${errors.length === 1 && !moreErrors ? "" : "s"}`;
}

/**
 * `expect(value).toSatisfySchema(schema, options?)`: the JS value satisfies
 * the schema (a JSON Schema object, boolean or string, a Validator, or a
 * response-format wrapper). `options` are compileSchema's plus `maxErrors`.
 * A schema that cannot be compiled throws SchemaError, with or without `.not`.
 */
export function toSatisfySchema(received, schema, options) {
  refuseThenable(received, "toSatisfySchema");
  const { compile, validate } = compileOptionsOf(options);
  const validator = validatorFor(schema, compile);
  let result;
  try {
    result = validator.validate(received, validate);
  } catch (error) {
    // A value that is not JSON (a Map, a Date, NaN, a cycle) satisfies no
    // JSON Schema: the assertion fails, saying what and where.
    if (error?.code !== "invalid_argument") throw error;
    return {
      pass: false,
      message: () => `expected the value to satisfy the schema, but it is not a JSON value: ${shown(String(error.message).replace(/^the instance (cannot be serialised to JSON|must be a JSON value): /, ""))}`,
    };
  } finally {
    // One compiled per assertion: released now rather than at garbage collection.
    if (validator !== schema) validator.free();
  }
  if (result.valid) {
    return { pass: true, message: () => "expected the value not to satisfy the schema, but it does" };
  }
  return {
    pass: false,
    message: () =>
      `expected the value to satisfy the schema, but it has ${countIssues(result.errors, result.moreErrors)}:\n` +
      formatIssues(result.errors, result.moreErrors),
  };
}

/**
 * `expect(output).toBeAcceptedOutput(schema?, options?)`: checkOutput accepts
 * the model output (a content string, `{ content, finishReason }`, or a
 * provider response). A schema that cannot be compiled throws SchemaError
 * unless `options.onInvalidSchema` is "degrade": a test should not pass
 * because its schema is broken.
 */
export function toBeAcceptedOutput(received, schema, options) {
  refuseThenable(received, "toBeAcceptedOutput");
  const verdict = checkOutput(received, schema, { onInvalidSchema: "throw", ...options });
  if (verdict.ok) {
    const how = [verdict.rescue === "none" ? "" : `rescue: ${verdict.rescue}`, verdict.degraded ? "degraded: the schema was not checked" : ""]
      .filter(Boolean)
      .join("; ");
    return {
      pass: true,
      message: () => `expected the output not to be accepted, but it was accepted${how ? ` (${how})` : ""}`,
    };
  }
  const issues = verdict.errors.length > 0 ? `\n${formatIssues(verdict.errors, verdict.moreErrors)}` : "";
  const finish = verdict.finishReason === null ? "" : ` (finish reason: ${shown(verdict.finishReason)})`;
  return {
    pass: false,
    message: () =>
      `expected the output to be accepted, but it failed "${shown(verdict.failure)}"${finish}: ${shown(verdict.message)}${issues}`,
  };
}

/**
 * A Promise (or any thenable) given to a matcher was not awaited: neither
 * the assertion nor its `.not` can say anything true of it, so it throws,
 * naming the fix.
 */
function refuseThenable(received, matcher) {
  if (received === null || (typeof received !== "object" && typeof received !== "function")) return;
  let then;
  try {
    then = received.then;
  } catch {
    return;
  }
  if (typeof then === "function") {
    throw new TypeError(`${matcher} received a Promise: await it (or use expect(promise).resolves) before asserting on its value`);
  }
}

/** Both matchers, as `expect.extend` takes them. */
export const matchers = { toSatisfySchema, toBeAcceptedOutput };

/**
 * Registers the matchers with `expect`: the one given, else the runner's
 * global `expect` (Jest; Vitest with `globals: true`), else Bun's from
 * bun:test. Throws when none is found, naming the explicit set-up.
 */
export function installMatchers(expect) {
  const target = expect ?? globalThis.expect ?? bunExpect();
  if (!target || typeof target.extend !== "function") {
    throw new TypeError(
      "no test runner `expect` found: call `expect.extend(matchers)` with your runner's expect " +
        '(import { matchers } from "structured-output-guard/matchers")',
    );
  }
  target.extend(matchers);
  return target;
}

function bunExpect() {
  // Bun gives test files `expect` without a global; `require` exists in
  // Bun's ES modules too, and this line runs only under Bun.
  if (globalThis.Bun === undefined || typeof require !== "function") return undefined;
  return require("bun:test").expect;
}
