// What the robustness tests share: the typed-error checks (a hostile input
// gets a TypeError, a SchemaError or an internal error with its code, never a
// bare throw), the verdict shape check, and the calls that show the module
// still answers normally after a hostile one.
import assert from "node:assert/strict";
import * as guard from "../../pkg/node.mjs";
import { thrown } from "./fixtures.mjs";

export const LONG = { timeout: 180_000 };

export const SMALL_SCHEMA = { type: "object", required: ["a"], properties: { a: { type: "string" } } };

export function nested(depth, leaf, wrap) {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

export function stillWorks() {
  const ok = guard.checkOutput('{"a":"x"}', SMALL_SCHEMA);
  assert.equal(ok.ok, true, "a valid output is still accepted");
  assert.deepEqual(ok.value, { a: "x" });
  const bad = guard.checkOutput('{"a":1}', guard.compileSchema(SMALL_SCHEMA));
  assert.equal(bad.failure, "schema", "an invalid output is still rejected");
  assert.deepEqual(bad.errors.map((e) => [e.path, e.code]), [["/a", "type"]]);
  assert.equal(guard.compileSchema({ type: "integer", minimum: 2 }).isValid(1), false);
}

export function innocentChecksHold() {
  const city = { type: "object", required: ["city"], properties: { city: { type: "string", minLength: 2 } } };
  const validator = guard.compileSchema(city);
  assert.equal(guard.checkOutput('{"city":"Oslo"}', validator).ok, true);
  assert.equal(guard.checkOutput('{"city":"O"}', validator).failure, "schema");
  assert.equal(guard.checkOutput({ content: '{"city":"Bergen"}', finishReason: "stop" }, city).ok, true);
  assert.equal(guard.checkOutput('{"city":1}', city).errors[0].path, "/city");
}

export function isTyped(error) {
  return (
    (error instanceof TypeError && error.code === "invalid_argument") ||
    (error instanceof guard.SchemaError && error.code === "invalid_schema") ||
    (error instanceof Error && error.code === "internal")
  );
}

export function describeThrown(error) {
  return `${error?.constructor?.name ?? typeof error} (code ${error?.code}): ${String(error?.message ?? error)}`;
}

export function assertTyped(error, context = "") {
  assert.ok(isTyped(error), `${context}: expected a typed error, got ${describeThrown(error)}`);
}

export function throwsTyped(fn, ErrorClass, code, pattern) {
  const caught = thrown(fn);
  assert.ok(caught instanceof ErrorClass, `expected ${ErrorClass.name}, got ${caught}`);
  assert.equal(caught.code, code);
  assert.match(caught.message, pattern);
}

export function outcome(fn, context, problems) {
  try {
    return { value: fn() };
  } catch (error) {
    if (problems && !isTyped(error)) problems.push(`${context}: ${describeThrown(error)}`);
    else assertTyped(error, context);
    return { error };
  }
}

export function assertVerdict(verdict, context) {
  assert.equal(typeof verdict, "object", context);
  assert.equal(typeof verdict.ok, "boolean", context);
  if (!verdict.ok) {
    assert.ok(["truncated", "empty", "unparseable", "not_object", "schema", "rule"].includes(verdict.failure), `${context}: ${verdict.failure}`);
    assert.equal(typeof verdict.message, "string", context);
    assert.ok(Array.isArray(verdict.errors), context);
  }
}

export function assertNoProblems(problems) {
  assert.deepEqual(problems, [], `untyped errors:\n${problems.join("\n")}`);
}
