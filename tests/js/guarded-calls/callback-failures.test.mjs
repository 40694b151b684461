// A caller's callback that throws after an attempt was paid for: the error
// carries every attempt's usage, and the stats count them.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { rejected } from "../../support/fixtures.mjs";

describe("a callback that throws after a paid attempt loses no usage", () => {
  const cut = { content: '{"a":', finishReason: "length", usage: { prompt_tokens: 100, completion_tokens: 50 } };
  const good = { content: '{"a":1}', finishReason: "stop", usage: { prompt_tokens: 110, completion_tokens: 20 } };
  const script = (...responses) => {
    let i = 0;
    return async () => responses[i++];
  };
  const CASES = [
    ["onAttempt on the first attempt", { onAttempt: () => { throw new Error("log sink down"); } }, [cut, good], 1, 150],
    ["onAttempt on the second", { onAttempt: ({ attempt }) => { if (attempt === 2) throw new Error("log sink down"); } }, [cut, good], 2, 280],
    ["read", { read: () => { throw new Error("bad reader"); } }, [cut], 1, 150],
    ["usage", { usage: () => { throw new Error("bad usage reader"); } }, [cut], 1, 150],
    ["appendFeedback", { retry: "repair", appendFeedback: () => { throw new Error("bad appender"); } }, [cut, good], 1, 150],
    ["appendFeedback returning undefined", { retry: "repair", appendFeedback: () => undefined }, [cut, good], 1, 150],
  ];
  for (const [label, extra, responses, attempts, total] of CASES) {
    test(`${label}: the error carries every attempt's usage, and the stats count them`, async () => {
      const stats = guard.createGuardStats();
      const error = await rejected(guard.guardedCall({ messages: [] }, script(...responses), { schema: { type: "object" }, stats, ...extra }));
      assert.equal(error.code, "callback_failed", `${error}`);
      assert.equal(error.attempts, attempts);
      assert.equal(error.usage.tokens.total, total);
      assert.ok(error.cause instanceof Error);
      const snapshot = stats.snapshot();
      assert.equal(snapshot.calls, 1);
      assert.equal(snapshot.attempts, attempts);
      assert.equal(snapshot.tokens.total, total);
    });
  }
});
