// A guarded call's first attempt, accepted, is answered by the core with a
// status and its result built by the wrapper: by checkOutput's lane, the
// session not stepped at all (`acceptFirst` in js/session.mjs), for a usage
// of a shape read before, or by a lean step (`stepLean` in src/wasm/session.rs,
// `leanStep` in js/session.mjs); every other step comes back as JSON text.
// All must give the same result, down to the order of its members.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { CITY_SCHEMA, anthropicMessage, geminiResponse, openaiChat } from "../../support/fixtures.mjs";

const OSLO_TEXT = JSON.stringify({ city: "Oslo", population: 709037 });
const WRITTEN = 2;

/**
 * The statuses the steps returned while `fn` ran, and which steps gave
 * them: `stepLean` (the usage as JSON text) or `stepCounted` (its counts,
 * for a usage of a shape read before); and in `lanes` the lane calls
 * checkOutput's lane made (by name), which a first attempt answered
 * without a step is checked with.
 */
async function stepStatuses(fn) {
  const glue = internals.rawGlue();
  const proto = glue.RawSession.prototype;
  const originals = { stepLean: proto.stepLean, stepCounted: proto.stepCounted };
  const laneNames = ["checkReadLane", "checkInputLane"];
  const laneOriginals = Object.fromEntries(laneNames.map((name) => [name, glue[name]]));
  const seen = [];
  const by = [];
  const lanes = [];
  for (const [name, original] of Object.entries(originals)) {
    proto[name] = function (...args) {
      const status = original.apply(this, args);
      seen.push(status);
      by.push(name);
      return status;
    };
  }
  for (const [name, original] of Object.entries(laneOriginals)) {
    glue[name] = (...args) => {
      lanes.push(name);
      return original(...args);
    };
  }
  try {
    return { result: await fn(), seen, by, lanes };
  } finally {
    Object.assign(proto, originals);
    Object.assign(glue, laneOriginals);
  }
}

/** What a guarded call's result says, in the order it says it. */
const said = ({ value, attempts, usage, rescue, verdicts, audit }) => ({ value, attempts, usage, rescue, verdicts, audit });

const request = { model: "gpt-4.1-mini", messages: [{ role: "user", content: "Oslo?" }] };
const wrapper = { type: "json_schema", json_schema: { name: "city", schema: CITY_SCHEMA, strict: true } };
const validator = guard.compileSchema(CITY_SCHEMA);

const cases = [
  ["a chat completion, the JSON whole", openaiChat(OSLO_TEXT), true],
  ["a chat completion with cached and reasoning tokens", openaiChat(OSLO_TEXT, { usage: { prompt_tokens: 512, completion_tokens: 180, total_tokens: 692, prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 20 } } }), true],
  ["the JSON inside whitespace", openaiChat(`\n  ${OSLO_TEXT}  \n`), true],
  ["non-ASCII JSON in a code fence", openaiChat(`\`\`\`json\n${JSON.stringify({ city: "Tromsø 🙂", population: 77544 })}\n\`\`\``), true],
  ["an Anthropic message with cache tokens", anthropicMessage(OSLO_TEXT, { usage: { input_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 9 } }), true],
  ["a Gemini response", geminiResponse(OSLO_TEXT), true],
  ["a string, no finish reason, no usage", OSLO_TEXT, true],
  ["a finish reason that is not ASCII", { content: OSLO_TEXT, finishReason: "fertig✓" }, false],
  ["a response without usage", { content: OSLO_TEXT, finishReason: "stop" }, true],
];

for (const [name, response, lean] of cases) {
  test(`the lean step and the written one agree: ${name}`, async () => {
    for (const schema of [CITY_SCHEMA, wrapper, validator]) {
      // The first call reads the usage's shape, the second gives only its counts.
      const first = await stepStatuses(() => guard.guardedCall(request, () => response, { schema }));
      const quick = await stepStatuses(() => guard.guardedCall(request, () => response, { schema }));
      // onAttempt asks for each step's usage, which only the written result carries.
      const full = await stepStatuses(() => guard.guardedCall(request, () => response, { schema, onAttempt: () => {} }));
      // Every response object has a usage of some shape (none, for one without: `{}`).
      const counted = typeof response === "object";
      // A usage of a shape not read before (in this test or an earlier one) takes a step.
      if (first.seen.length === 0) {
        assert.ok(counted);
        // One lane call, or none where the schema's check program accepts the answer.
        assert.ok(first.lanes.length <= 1);
      } else {
        assert.equal(first.seen.length, 1);
        assert.equal(first.seen[0] !== WRITTEN, lean, `lean status ${first.seen[0]}`);
        assert.deepEqual(first.by, ["stepLean"]);
      }
      if (counted) {
        // Its usage's shape read before, the first attempt is checkOutput's lane alone.
        assert.deepEqual(quick.seen, []);
        assert.ok(quick.lanes.length <= 1);
      } else {
        // A string has no usage to count: the lean step, as the first time.
        assert.deepEqual(quick.by, ["stepLean"]);
        assert.equal(quick.seen[0] !== WRITTEN, lean);
      }
      assert.deepEqual(full.seen, [WRITTEN]);
      assert.deepEqual(full.lanes, []);
      // A stats collector asks for every attempt's failure and usage: written too.
      const stats = guard.createGuardStats();
      const counting = await stepStatuses(() => guard.guardedCall(request, () => response, { schema, stats }));
      assert.deepEqual([counting.seen, counting.lanes], [[WRITTEN], []]);
      assert.deepEqual(said(counting.result), said(full.result));
      assert.equal(stats.snapshot().calls, 1);
      for (const run of [first, quick]) {
        assert.equal(JSON.stringify(said(run.result)), JSON.stringify(said(full.result)));
        assert.deepEqual(said(run.result), said(full.result));
        assert.equal(run.result.response, response);
      }
    }
  });
}

test("compile options beside a schema object take the lane too; beside a Validator, the step", async () => {
  const response = openaiChat(OSLO_TEXT);
  const customFormats = { "city-name": "^[A-Z][a-z]+$" };
  const schema = { ...CITY_SCHEMA, properties: { ...CITY_SCHEMA.properties, city: { type: "string", format: "city-name" } } };
  // The usage's shape is read once, so the next first attempts may be answered by the lane alone.
  await guard.guardedCall(request, () => response, { schema, customFormats });
  const quick = await stepStatuses(() => guard.guardedCall(request, () => response, { schema, customFormats }));
  assert.deepEqual(quick.seen, []);
  assert.ok(quick.lanes.length <= 1);
  const full = await stepStatuses(() => guard.guardedCall(request, () => response, { schema, customFormats, onAttempt: () => {} }));
  assert.deepEqual(said(quick.result), said(full.result));
  // The format is the one the options gave: a city it refuses is refused the same way.
  const refused = await guard
    .guardedCall(request, () => openaiChat(JSON.stringify({ city: "oslo", population: 1 })), { schema, customFormats, budgets: { total: 0 } })
    .then(() => undefined, (error) => error);
  assert.equal(refused.failure, "schema");
  const compiled = guard.compileSchema(CITY_SCHEMA);
  const beside = await stepStatuses(() => guard.guardedCall(request, () => response, { schema: compiled, draft: "2020-12" }));
  assert.deepEqual(beside.lanes, []);
  assert.equal(beside.seen.length, 1);
  assert.equal(beside.result.value.city, "Oslo");
});

test("only a first attempt is lean: an accepted second attempt's result is written, with both attempts", async () => {
  const responses = [openaiChat('{"city":""}'), openaiChat(OSLO_TEXT)];
  let call = 0;
  const { result, seen } = await stepStatuses(() => guard.guardedCall(request, () => responses[call++], { schema: wrapper }));
  assert.deepEqual(seen, [WRITTEN, WRITTEN]);
  assert.equal(result.attempts, 2);
  assert.deepEqual([result.usage.tokens.input, result.usage.tokens.output], [240, 60]);
  assert.deepEqual(result.audit.attempts.map((a) => a.failure), ["schema", null]);
});

test("a schema the wrapper holds no hash for (compiled from text by the session) is written", async () => {
  // `resources` are too large to key a compiled schema by, so the session compiles the text itself.
  const { result, seen } = await stepStatuses(() => guard.guardedCall(request, () => openaiChat(OSLO_TEXT), { schema: CITY_SCHEMA, resources: {} }));
  assert.deepEqual(seen, [WRITTEN]);
  assert.equal(result.value.city, "Oslo");
  assert.match(result.audit.schemaHash, /^[0-9a-f]{64}$/);
});
