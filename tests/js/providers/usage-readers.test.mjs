// A guarded call reads a response's usage as JSON text the first time it
// meets its shape, and afterwards as its counts alone, with the core's
// program for the shape (js/usage-readers.mjs). Either way the usage must
// be what normalizeUsage, which always reads the text, makes of it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { prng } from "../../support/random.mjs";

const OSLO_TEXT = JSON.stringify({ city: "Oslo", population: 709037 });
const SCHEMA = { type: "object", required: ["city"], properties: { city: { type: "string" } } };
const request = { model: "m", messages: [{ role: "user", content: "Oslo?" }] };

// Seeded, so the counts never change.
const random = prng(20261202);
const count = () => [0, 1, 7, 512, 180_000, 2 ** 40 + 3][Math.floor(random() * 6)];

/** Response builders: a usage shape each, with fresh counts on every call. */
const shapes = {
  "OpenAI chat, with details": () => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: count(), completion_tokens: count(), total_tokens: count(), prompt_tokens_details: { cached_tokens: count(), audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: count() } },
  }),
  "Anthropic, with cache reads and writes": () => ({
    content: [{ type: "text", text: OSLO_TEXT }],
    stop_reason: "end_turn",
    usage: { service_tier: "standard", input_tokens: count(), cache_read_input_tokens: count(), cache_creation_input_tokens: count(), output_tokens: count() },
  }),
  "OpenAI Responses": () => ({
    output_text: OSLO_TEXT,
    status: "completed",
    usage: { input_tokens: count(), output_tokens: count(), total_tokens: count(), input_tokens_details: { cached_tokens: count() }, output_tokens_details: { reasoning_tokens: count() } },
  }),
  "Gemini, with per-modality arrays": () => ({
    candidates: [{ content: { parts: [{ text: OSLO_TEXT }] }, finishReason: "STOP" }],
    usageMetadata: { promptTokenCount: count(), candidatesTokenCount: count(), totalTokenCount: count(), promptTokensDetails: [{ modality: "TEXT", tokenCount: count() }] },
  }),
  "OpenRouter, with a cost in dollars": () => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: count(), completion_tokens: count(), cost: count() / 1e6 + 0.0001 },
  }),
  "a usage of negative and huge counts": () => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: -count(), completion_tokens: Number.MAX_SAFE_INTEGER - count(), total_tokens: -0 },
  }),
  "a class instance with getters": () => {
    class Usage {
      #input = count();
      get inputTokens() {
        return this.#input;
      }
      get outputTokens() {
        return 9;
      }
    }
    return { text: OSLO_TEXT, finishReason: "stop", usage: new Usage() };
  },
};

/**
 * How many attempts took the usage as counts while `fn` ran: steps given
 * the counts, and first attempts answered by checkOutput's lane without a
 * step, which a guarded call takes only for a usage with a program. The
 * attempts are checked by the core's lane (no check program), where the
 * counting sees them.
 */
async function countedSteps(fn) {
  internals.useCheckPrograms(false);
  try {
    return await countedStepsOf(fn);
  } finally {
    internals.useCheckPrograms(true);
  }
}

async function countedStepsOf(fn) {
  const glue = internals.rawGlue();
  const proto = glue.RawSession.prototype;
  const original = proto.stepCounted;
  const laneNames = ["checkReadLane", "checkInputLane"];
  const lanes = Object.fromEntries(laneNames.map((name) => [name, glue[name]]));
  let counted = 0;
  proto.stepCounted = function (...args) {
    counted += 1;
    return original.apply(this, args);
  };
  for (const [name, lane] of Object.entries(lanes)) {
    glue[name] = (...args) => {
      counted += 1;
      return lane(...args);
    };
  }
  try {
    await fn();
  } finally {
    proto.stepCounted = original;
    Object.assign(glue, lanes);
  }
  return counted;
}

for (const [name, make] of Object.entries(shapes)) {
  test(`a guarded call's usage is normalizeUsage's, whichever way it is read: ${name}`, async () => {
    const calls = async () => {
      for (let i = 0; i < 12; i++) {
        const response = make();
        const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
        assert.equal(JSON.stringify(result.usage), JSON.stringify(guard.normalizeUsage(response)), `call ${i}`);
        assert.deepEqual(result.usage, guard.normalizeUsage(response));
      }
    };
    // With the schema's check program answering the attempts, and again
    // through the core's lane, where the counting can see which took the counts.
    await calls();
    const counted = await countedSteps(calls);
    // Kept as they are (an array), or money: read as text every time. Counts
    // whose sum could pass 2^53 are read as text too, so the huge ones may go either way.
    if (/arrays|dollars/.test(name)) assert.equal(counted, 0);
    else if (!/huge/.test(name)) assert.ok(counted >= 11, `${counted} calls took the counts`);
  });
}

test("two attempts of one shape merge as mergeUsage merges them", async () => {
  const responses = [shapes["Anthropic, with cache reads and writes"](), shapes["Anthropic, with cache reads and writes"]()];
  responses[0].content[0].text = '{"city":1}';
  for (let round = 0; round < 3; round++) {
    let call = 0;
    const result = await guard.guardedCall(request, () => responses[call++], { schema: SCHEMA });
    assert.equal(result.attempts, 2);
    assert.deepEqual(result.usage, guard.mergeUsage(...responses));
  }
});

test("a usage whose shape changes between calls is read by its new shape", async () => {
  const base = shapes["OpenAI chat, with details"];
  for (let i = 0; i < 6; i++) {
    const response = base();
    if (i % 2 === 1) response.usage.completion_tokens_details.accepted_prediction_tokens = count();
    if (i % 3 === 2) delete response.usage.total_tokens;
    const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
    assert.deepEqual(result.usage, guard.normalizeUsage(response), `call ${i}`);
  }
});

test("usages alike but for their members' names are read by their own programs", async () => {
  const named = (names) => ({ choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }], usage: { [names[0]]: count() + 1, [names[1]]: count() + 2 } });
  const kinds = [
    ["prompt_tokens", "completion_tokens"],
    ["input_tokens", "cache_read_input_tokens"],
    ["prompt_tokens", "total_tokens"],
    ["tokens_seen", "tokens_paid"],
  ];
  for (let round = 0; round < 3; round++) {
    for (const names of kinds) {
      const response = named(names);
      const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
      assert.deepEqual(result.usage, guard.normalizeUsage(response), names.join(", "));
    }
  }
});

// A usage of a shape held is read by walking the response as the copy
// would be made (`usageOfResponse`), not by making it: what the copy leaves
// out, writes as null or converts, the walk must too, and what it cannot
// vouch for must go the way of the copy.
const tricky = {
  "members JSON leaves out (a function, a symbol, undefined)": () => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: count(), helper() {}, [Symbol("s")]: 1, tag: Symbol("t"), gone: undefined, completion_tokens: count() },
  }),
  "array items JSON writes as null": () => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: count(), completion_tokens: count(), per_step: [count(), undefined, () => 1, count()] },
  }),
  "BigInt counts and a -0": () => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: BigInt(count()), completion_tokens: -0, total_tokens: BigInt(count()) },
  }),
  "an object the usage holds twice": () => {
    const details = { cached_tokens: count() };
    return {
      choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
      usage: { prompt_tokens: count(), completion_tokens: count(), prompt_tokens_details: details, input_tokens_details: details },
    };
  },
  "a count that is sometimes NaN": (i) => ({
    choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
    usage: { prompt_tokens: i % 2 === 0 ? count() : NaN, completion_tokens: count() },
  }),
  "a usage beside a Gemini usageMetadata": () => ({
    candidates: [{ content: { parts: [{ text: OSLO_TEXT }] }, finishReason: "STOP" }],
    usage: { input: count() },
    usageMetadata: { promptTokenCount: count(), candidatesTokenCount: count() },
  }),
  "a usage object whose class has a toJSON": () => {
    class Counted {
      constructor() {
        this.prompt_tokens = count();
        this.completion_tokens = count();
      }
      toJSON() {
        return { prompt_tokens: 1 };
      }
    }
    return { choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }], usage: new Counted() };
  },
};

for (const [name, make] of Object.entries(tricky)) {
  test(`a usage of a shape held, read without a copy, is the copy's: ${name}`, async () => {
    const counted = await countedSteps(async () => {
      for (let i = 0; i < 8; i++) {
        const response = make(i);
        const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
        assert.deepEqual(result.usage, guard.normalizeUsage(response), `call ${i}`);
        assert.equal(JSON.stringify(result.usage), JSON.stringify(guard.normalizeUsage(response)), `call ${i}`);
      }
    });
    // The core keeps an array of counts as it is: no program, the text every
    // time. An object met twice is left out of its second place in the copy,
    // which the walk does not vouch for: the copy is made, and matched.
    if (/array/.test(name)) assert.equal(counted, 0);
    else if (/NaN/.test(name)) assert.ok(counted >= 3, `${counted}`);
    else assert.ok(counted >= 7, `${counted} calls took the counts`);
  });
}

// The usage of a counted read is built by its template's own builder, an
// object literal written from the template (js/usage-readers.mjs,
// `builderOf`), which must build exactly what `fill` builds, whatever the
// member names a provider's usage brings.
const ODD_NAMES = ["input", "output", "__proto__", "constructor", "toString", 'q"uote\\', "\u2028", "</script>", "", "0", "10", "2", "a b", "${x}", "`", "'", "\ud800", "é", "x".repeat(300)];

function oddTemplate(next, depth, counts) {
  const template = {};
  const members = 1 + Math.floor(next() * 5);
  for (let i = 0; i < members; i++) {
    const name = ODD_NAMES[Math.floor(next() * ODD_NAMES.length)];
    if (depth < 2 && next() < 0.3) template[name] = oddTemplate(next, depth + 1, counts);
    else template[name] = Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * counts));
  }
  return template;
}

/** Whether this runtime makes functions from source (not with --disallow-code-generation-from-strings). */
const writes = (() => {
  try {
    return new Function("return true")();
  } catch {
    return false;
  }
})();

test("a template's builder builds what fill builds, whatever its members' names", () => {
  const next = prng(7);
  let built = 0;
  let unwritten = 0;
  for (let i = 0; i < 300; i++) {
    const counts = Array.from({ length: 6 }, () => [0, 5, -3, 2 ** 40, 0.5][Math.floor(next() * 5)]);
    // As JSON.parse gives it: `__proto__` an own member.
    const template = JSON.parse(JSON.stringify(oddTemplate(next, 0, counts.length)));
    const text = JSON.stringify(template);
    const result = internals.usageBuilt(template, counts);
    if (text.includes('"__proto__"') || !writes) {
      assert.equal(result.built, undefined, "a template naming __proto__, or where no function can be made, is left to fill");
      unwritten += 1;
      continue;
    }
    assert.notEqual(result.built, undefined, `no builder for ${text}`);
    assert.equal(JSON.stringify(result.built), JSON.stringify(result.filled), text);
    assert.deepEqual(result.built, result.filled, text);
    built += 1;
  }
  if (writes) assert.ok(built > 100, `only ${built} templates had a builder`);
  else assert.equal(unwritten, 300);
});

test("a usage with unusual member names is normalizeUsage's when its counts are read", async () => {
  // (Names of array indices are left out: a usage with one is read as text every time.)
  const details = JSON.parse('{"constructor": 6, "q\\"uote\\\\": 7, "": 11, "\\u2028": 12, "a b": 13}');
  const counted = await countedSteps(async () => {
    for (let i = 0; i < 4; i++) {
      const response = { choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }], usage: { prompt_tokens: count(), completion_tokens: count(), prompt_tokens_details: { ...details, extra: count() } } };
      const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
      assert.equal(JSON.stringify(result.usage), JSON.stringify(guard.normalizeUsage(response)), `call ${i}`);
      assert.deepEqual(result.usage, guard.normalizeUsage(response));
    }
  });
  assert.ok(counted >= 3, `${counted} calls took the counts`);
});

test("a usage of a shape held, whose objects are met twice, is read as its copy reads it", async () => {
  // The shape is held from usages with two detail objects; then the same
  // object stands for both, which the copy leaves out the second time.
  const make = (shared) => {
    const details = { cached_tokens: count() };
    return {
      choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }],
      usage: { prompt_tokens: count(), completion_tokens: count(), prompt_tokens_details: details, completion_tokens_details: shared ? details : { cached_tokens: count() } },
    };
  };
  for (let i = 0; i < 8; i++) {
    const response = make(i % 4 === 3);
    const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
    assert.equal(JSON.stringify(result.usage), JSON.stringify(guard.normalizeUsage(response)), `call ${i}`);
  }
});

test("a usage of a shape held, changed in one place, is read as its copy reads it", async () => {
  // Each change sends the written walk back to the general one (or to
  // another shape); either way the usage is normalizeUsage's.
  const base = () => ({ prompt_tokens: count(), completion_tokens: count(), service_tier: "standard", prompt_tokens_details: { cached_tokens: count(), audio_tokens: 0 } });
  const changes = [
    (u) => u,
    (u) => ({ ...u, prompt_tokens: undefined }),
    (u) => ({ ...u, completion_tokens: () => 1 }),
    (u) => ({ ...u, service_tier: "flex" }),
    (u) => ({ ...u, service_tier: null }),
    (u) => ({ ...u, prompt_tokens: -0 }),
    (u) => ({ ...u, prompt_tokens: 1.5 }),
    (u) => ({ ...u, prompt_tokens: 2n }),
    (u) => ({ ...u, prompt_tokens: "12" }),
    (u) => ({ ...u, prompt_tokens_details: [1] }),
    (u) => ({ ...u, prompt_tokens_details: null }),
    (u) => ({ completion_tokens: u.completion_tokens, prompt_tokens: u.prompt_tokens, service_tier: u.service_tier, prompt_tokens_details: u.prompt_tokens_details }),
    (u) => ({ ...u, extra: 1 }),
    (u) => ({ ...u, prompt_tokens_details: { ...u.prompt_tokens_details, audio_tokens: undefined } }),
    (u) => ({ ...u, prompt_tokens_details: new Map() }),
  ];
  for (let round = 0; round < 2; round++) {
    for (const [k, change] of changes.entries()) {
      for (const usage of [base(), change(base()), base()]) {
        const response = { choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }], usage };
        const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
        assert.equal(JSON.stringify(result.usage), JSON.stringify(guard.normalizeUsage(response)), `change ${k}`);
      }
    }
  }
});

test("a usage of thousands of members is read right, and no function as long as it is written", async () => {
  const written = [];
  const original = globalThis.Function;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      written.push(String(args.at(-1)).split("\n").length);
      return Reflect.construct(target, args);
    },
  });
  try {
    for (let i = 0; i < 3; i++) {
      const usage = { prompt_tokens: count(), completion_tokens: count() };
      for (let k = 0; k < 2000; k++) usage[`detail_${k}`] = k % 500 === 0 ? count() : "tier";
      const response = { choices: [{ message: { content: OSLO_TEXT }, finish_reason: "stop" }], usage };
      const result = await guard.guardedCall(request, () => response, { schema: SCHEMA });
      assert.equal(JSON.stringify(result.usage), JSON.stringify(guard.normalizeUsage(response)), `call ${i}`);
    }
  } finally {
    globalThis.Function = original;
  }
  assert.ok(written.every((lines) => lines <= 500), `functions of ${Math.max(...written)} lines`);
});

test("the usage members are read by the function written for them exactly as by the general loop", () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const throwing = (name) => Object.defineProperty({ usage: { prompt_tokens: 1 } }, name, { enumerable: true, get() { throw new Error("not readable"); } });
  const values = [
    { usage: { prompt_tokens: 3, completion_tokens: 4 } },
    { usageMetadata: { promptTokenCount: 3 }, cost: 0.1, timing: { ms: 5 } },
    { totalUsage: { inputTokens: 1 }, usage: { inputTokens: 1 }, tokens: 7, billed_units: { input_tokens: 2 } },
    { usage: null, usageMetadata: "text" },
    { usage: { prompt_tokens: 2 }, cost: null, timing: false, tokens: undefined },
    { usage: [1, 2] },
    {},
    { cost: 1 },
    throwing("usage"),
    throwing("timing"),
    throwing("totalUsage"),
    Object.create({ usage: { prompt_tokens: 1 } }),
    new Proxy({ usage: { a: 1 } }, {}),
  ];
  let found = 0;
  for (const value of values) {
    const general = internals.usageMembersBy(value, false);
    const written = internals.usageMembersBy(value, true);
    assert.deepEqual(written, general);
    // The same values, not copies.
    for (let i = 0; i < (general?.length ?? 0); i++) assert.equal(written[i][1], general[i][1]);
    if (general !== undefined) found += 1;
  }
  assert.ok(found >= 6 && found < values.length, "some values hold usage members, some none");
  // A revoked Proxy cannot be asked whether it is an array: both throw (the guarded call reads such a usage another way).
  assert.throws(() => internals.usageMembersBy(revoked.proxy, false), TypeError);
  assert.throws(() => internals.usageMembersBy(revoked.proxy, true), TypeError);
});
