// A guarded call's session in the core is kept when the call ends
// (restarted, if the call used it) for the next call with the same setup
// over the same compiled schema (`idleSessions` in js/session.mjs). A kept
// session must carry nothing of the call before it, and a call with other
// options must never get it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { CITY_SCHEMA, openaiChat } from "../../support/fixtures.mjs";

const OSLO_TEXT = JSON.stringify({ city: "Oslo", population: 709037 });
const request = { model: "gpt-4.1-mini", messages: [{ role: "user", content: "Oslo?" }] };

/** How many sessions the core made while `fn` ran. */
async function sessionsMade(fn) {
  const glue = internals.rawGlue();
  const Original = glue.RawSession;
  let made = 0;
  glue.RawSession = class extends Original {
    constructor(...args) {
      super(...args);
      made += 1;
    }
  };
  try {
    const result = await fn();
    return { made, result };
  } finally {
    glue.RawSession = Original;
  }
}

test("the next call with the same options gets the last call's session, with none of its attempts", async () => {
  const validator = guard.compileSchema(CITY_SCHEMA);
  const scripted = [openaiChat('{"city":""}', { usage: { prompt_tokens: 1000, completion_tokens: 1 } }), openaiChat(OSLO_TEXT)];
  let call = 0;
  const first = await guard.guardedCall(request, () => scripted[call++], { schema: validator });
  assert.equal(first.attempts, 2);
  const { made, result } = await sessionsMade(() => guard.guardedCall(request, () => openaiChat(OSLO_TEXT), { schema: validator }));
  assert.equal(made, 0, "the idle session is taken again");
  assert.equal(result.attempts, 1);
  assert.deepEqual(result.audit.attempts, [{ failure: null, errorHash: null, rescue: "none" }]);
  assert.equal(result.usage.tokens.input, 120, "only this call's tokens");
  assert.equal(internals.liveSessions(), 0);
});

test("a call whose setup differs gets a session of its own", async () => {
  const validator = guard.compileSchema(CITY_SCHEMA);
  const bad = () => openaiChat('{"city":""}');
  // An idle session that resamples, then calls that must not resample.
  await assert.rejects(guard.guardedCall(request, bad, { schema: validator }));
  for (const options of [{ hasTools: true }, { budgets: { total: 0 } }, { retry: "repair" }]) {
    let calls = 0;
    const { made } = await sessionsMade(() =>
      assert.rejects(
        guard.guardedCall(request, () => (calls++, bad()), { schema: validator, ...options }),
        (error) => error instanceof guard.StructuredOutputError,
      ),
    );
    assert.equal(made, 1, JSON.stringify(options));
    assert.equal(calls, options.retry === "repair" ? 2 : 1, JSON.stringify(options));
  }
  // The same for a request that carries tools, which the setup records.
  let calls = 0;
  await assert.rejects(guard.guardedCall({ ...request, tools: [{ type: "function", function: { name: "f" } }] }, () => (calls++, bad()), { schema: validator }));
  assert.equal(calls, 1, "a request with tools is never resampled");
});

test("a session over another compiled schema is not taken for this one", async () => {
  const strictCity = guard.compileSchema({ ...CITY_SCHEMA, properties: { ...CITY_SCHEMA.properties, city: { const: "Bergen" } } });
  const city = guard.compileSchema(CITY_SCHEMA);
  await guard.guardedCall(request, () => openaiChat(OSLO_TEXT), { schema: city });
  const { made } = await sessionsMade(() =>
    assert.rejects(guard.guardedCall(request, () => openaiChat(OSLO_TEXT), { schema: strictCity }), (error) => error.failure === "schema"),
  );
  assert.equal(made, 1);
});

test("calls running at once each have a session of their own", async () => {
  const validator = guard.compileSchema(CITY_SCHEMA);
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const calls = Array.from({ length: 6 }, (_, i) =>
    guard.guardedCall(request, async () => (await gate, openaiChat(JSON.stringify({ city: `C${i}`, population: i }))), { schema: validator }),
  );
  assert.equal(internals.liveSessions(), 6);
  release();
  const results = await Promise.all(calls);
  assert.deepEqual(results.map((r) => [r.value.city, r.attempts]), Array.from({ length: 6 }, (_, i) => [`C${i}`, 1]));
  assert.equal(internals.liveSessions(), 0);
});

/** How many times a session was restarted while `fn` ran. */
async function restarts(fn) {
  const proto = internals.rawGlue().RawSession.prototype;
  const original = proto.restart;
  let count = 0;
  proto.restart = function (...args) {
    count += 1;
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { count, result };
  } finally {
    proto.restart = original;
  }
}

test("a kept session is restarted as its call ends only when the call stepped it", async () => {
  const validator = guard.compileSchema(CITY_SCHEMA);
  const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
  const retried = () => {
    const scripted = [openaiChat('{"city":""}', { usage }), openaiChat(OSLO_TEXT, { usage })];
    let call = 0;
    return guard.guardedCall(request, () => scripted[call++], { schema: validator });
  };
  const accepted = () => guard.guardedCall(request, () => openaiChat(OSLO_TEXT, { usage }), { schema: validator });
  await accepted(); // the usage's shape is read once
  // Accepted by the lane: nothing recorded, nothing to restart.
  const quiet = await restarts(accepted);
  assert.equal(quiet.count, 0);
  // Two attempts recorded: restarted as the call ends, and the next call that
  // steps the session counts only its own attempts.
  for (let round = 0; round < 3; round++) {
    const { count, result } = await restarts(retried);
    assert.equal(count, 1);
    assert.equal(result.attempts, 2);
    assert.deepEqual(result.audit.attempts.map((a) => a.failure), ["schema", null]);
    assert.equal(result.usage.tokens.input, 14, "only this call's two attempts");
    const after = await restarts(accepted);
    assert.equal(after.count, 0);
    assert.equal(after.result.usage.tokens.input, 7);
  }
  assert.equal(internals.liveSessions(), 0);
});

test("a setup holding more text than an idle session may keep gets a new session every call", async () => {
  const validator = guard.compileSchema(CITY_SCHEMA);
  const respond = () => openaiChat(OSLO_TEXT);
  // The setup's texts: a repair's provider guess reads the model name, and
  // a request that wraps another (`body`) gives that request's text.
  const cases = [
    { name: "model name", options: { retry: "repair" }, short: { ...request, model: "m".repeat(100) }, long: { ...request, model: "m".repeat(5000) } },
    {
      name: "nested request",
      options: {},
      short: { body: JSON.stringify({ ...request, note: "n".repeat(100) }) },
      long: { body: JSON.stringify({ ...request, note: "n".repeat(5000) }) },
    },
  ];
  for (const { name, options, short, long } of cases) {
    for (const [kind, req, expected] of [["short", short, 0], ["long", long, 1]]) {
      await guard.guardedCall(req, respond, { schema: validator, ...options });
      const { made, result } = await sessionsMade(() => guard.guardedCall(req, respond, { schema: validator, ...options }));
      assert.deepEqual(result.value, JSON.parse(OSLO_TEXT));
      assert.equal(made, expected, `${name}, ${kind}: ${expected === 0 ? "kept and taken again" : "not kept"}`);
    }
  }
  assert.equal(internals.liveSessions(), 0);
});
