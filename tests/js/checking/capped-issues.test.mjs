// A capped issue list (maxErrors) is the first issues of the full list in
// path order, whatever the order of the output's members, and so is the
// errorHash computed from it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";

describe("capped issue lists", () => {
  // The two below come from the prefix-view error collection
  // (TapeNode::prefix in crates/tape/src/tape/node.rs, collect_counted in
  // crates/schema/src/schema/issues.rs), which reads the first members of
  // each object in insertion order while the final list is sorted by path.
  const KEYS = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, "0")}`);
  const ALL_INTEGERS = { type: "object", properties: Object.fromEntries(KEYS.map((k) => [k, { type: "integer" }])) };
  const inOrder = Object.fromEntries(KEYS.map((k) => [k, "x"]));
  const reversed = Object.fromEntries([...KEYS].reverse().map((k) => [k, "x"]));

  test(
    "the capped issue list is the first maxErrors of the full ordered list, whatever the member order",
    () => {
      const validator = guard.compileSchema(ALL_INTEGERS);
      const full = validator.validate(reversed, { maxErrors: 100 }).errors.map((e) => e.path);
      assert.deepEqual(full.slice(0, 2), ["/k00", "/k01"]);
      assert.deepEqual(validator.validate(reversed, { maxErrors: 2 }).errors.map((e) => e.path), ["/k00", "/k01"]);
    },
  );

  test(
    "a capped verdict's errorHash does not depend on the order of the output's members",
    () => {
      const a = guard.checkOutput(JSON.stringify(inOrder), ALL_INTEGERS);
      const b = guard.checkOutput(JSON.stringify(reversed), ALL_INTEGERS);
      assert.equal(a.errors.length, 5);
      assert.deepEqual(b.errors.map((e) => e.path), a.errors.map((e) => e.path));
      assert.equal(b.errorHash, a.errorHash);
    },
  );
});
