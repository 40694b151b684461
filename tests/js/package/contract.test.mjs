// The contract's names and defaults as the package behaves, against the
// module generated from src/error.rs (whose Rust tests check it, the type
// declarations and the user pages against the Rust definitions): every failure
// class, action and stop reason the package produces is one of them, in
// their order, and the defaults are the ones it applies.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as audit from "../../../pkg/audit.mjs";
import { ACTIONS, DEFAULTS, FAILURE_CLASSES, ISSUE_CODES, STOP_REASONS } from "../../../pkg/generated/contract.mjs";

const OBJECT = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
const RULES = [{ name: "small", then: { properties: { n: { maximum: 1 } } }, message: "n must be at most 1" }];

describe("the generated contract, as the package behaves", () => {
  test("each failure class, one stage at a time, in pipeline order", () => {
    const outputs = [
      { content: '{"n":1}', finishReason: "length" },
      "   ",
      '{"n":',
      "[1]",
      '{"n":"one"}',
      '{"n":2}',
    ];
    const failures = outputs.map((output) => guard.checkOutput(output, OBJECT, { rules: RULES }).failure);
    assert.deepEqual(failures, [...FAILURE_CLASSES]);
    assert.equal(guard.checkOutput('{"n":1}', OBJECT, { rules: RULES }).ok, true);
  });

  test("issue codes are among the listed ones", () => {
    const schema = {
      type: "object",
      required: ["a", "b"],
      properties: {
        a: { type: "string", minLength: 3, pattern: "^[a-z]+$", format: "email" },
        b: { enum: [1, 2], const: 1 },
        c: { type: "array", maxItems: 1, uniqueItems: true, items: { type: "integer" } },
        d: { anyOf: [{ type: "string" }, { type: "number" }], not: { const: true } },
      },
      additionalProperties: false,
    };
    const verdict = guard.checkOutput('{"a":"X!","b":3,"c":[1,1,"x"],"d":true,"e":0}', schema, { maxErrors: 50 });
    const codes = new Set(verdict.errors.map((issue) => issue.code));
    assert.ok(codes.size >= 8, [...codes].join(", "));
    for (const code of codes) assert.ok(ISSUE_CODES.includes(code), `${code} is not a listed issue code`);
    const ruled = guard.checkOutput('{"n":2}', OBJECT, { rules: RULES });
    assert.deepEqual(ruled.errors.map((issue) => issue.code), ["rule"]);
  });

  test("maxErrors defaults to the contract's number, on the lane and off it", () => {
    const many = { type: "object", properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: "string" }])) };
    const output = JSON.stringify(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, i])));
    for (const verdict of [
      guard.checkOutput(output, guard.compileSchema(many)),
      guard.checkOutput(output, many),
      guard.checkOutput({ content: output, finishReason: "stop" }, many, { requireObject: true }),
    ]) {
      assert.equal(verdict.errors.length, DEFAULTS.maxErrors);
      assert.equal(verdict.moreErrors, true);
    }
    assert.equal(guard.compileSchema(many).validate(JSON.parse(output)).errors.length, DEFAULTS.maxErrors);
    assert.equal(audit.DEFAULTS.maxErrors, DEFAULTS.maxErrors);
  });

  test("guarded calls act and stop with the listed names", async () => {
    const events = [];
    const seen = new Set();
    const run = async (outputs, { onCall, ...options }, request = { messages: [{ role: "user", content: "n?" }] }) => {
      let call = 0;
      const callModel = async () => {
        onCall?.();
        return outputs[Math.min(call++, outputs.length - 1)];
      };
      const result = await guard
        .guardedCall(request, callModel, { schema: OBJECT, onAttempt: (event) => events.push(event), ...options })
        .catch((error) => error);
      seen.add(result.stoppedBy ?? result.audit?.stoppedBy);
    };
    await run(['{"n":1}'], {});
    await run(["{}", '{"n":1}'], {});
    await run(["{}"], { strict: false });
    await run(["{}"], {}, { messages: [], tools: [{ type: "function", function: { name: "f" } }] });
    await run(["{}", '{"n":"x"}'], { retry: "repair" });
    await run(['{"n":"x"}'], { budgets: { total: 3 } });
    await run(["{}", '{"n":"x"}'], { budgets: { total: 0 } });
    // Aborted while the model answered: no further attempt.
    const controller = new AbortController();
    await run(["{}"], { signal: controller.signal, onCall: () => controller.abort() });
    for (const event of events) {
      assert.ok(ACTIONS.includes(event.action), `action ${event.action}`);
      assert.ok(event.stoppedBy === null || STOP_REASONS.includes(event.stoppedBy), `stoppedBy ${event.stoppedBy}`);
    }
    assert.deepEqual(new Set(events.map((e) => e.action)), new Set(ACTIONS));
    for (const reason of seen) assert.ok(STOP_REASONS.includes(reason), `stoppedBy ${reason}`);
    for (const reason of ["accepted", "lenient", "tools", "repeated_error", "budget", "aborted"]) {
      assert.ok(seen.has(reason), `no call stopped by ${reason}: ${[...seen]}`);
    }
  });

  test("the budgets, the stats and the audit know every failure class", async () => {
    const error = await guard
      .guardedCall({ messages: [] }, async () => "{}", { schema: OBJECT, budgets: { schemas: 1 } })
      .catch((e) => e);
    assert.equal(error.code, "invalid_argument");
    assert.ok(error.message.includes(`${FAILURE_CLASSES.join(", ")} and total`), error.message);
    for (const name of FAILURE_CLASSES) {
      await guard.guardedCall({ messages: [] }, async () => "{}", { schema: OBJECT, budgets: { [name]: 0 } }).catch(() => {});
    }
    assert.deepEqual(Object.keys(guard.createGuardStats().snapshot().failures), [...FAILURE_CLASSES]);
    assert.deepEqual(audit.FAILURE_CLASSES, FAILURE_CLASSES.filter((name) => name !== "rule"));
  });
});
