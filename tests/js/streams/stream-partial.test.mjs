// createStreamCheck(schema, { partial: true }): every state also carries the
// value of the text so far with its open frontier closed, and the JSON
// Pointers of the complete members and items that fail what applies to
// them. Closed prefixes chosen by hand, generated schemas and values cut at
// every character, a real provider's stream through its own SDK client,
// and hostile text within the stream's caps.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { sse, withWireServer } from "../../support/wire-server.mjs";
import { assertArgumentError, pieces, rowsSchema, rowsText, thrown } from "../../support/fixtures.mjs";
import { prng } from "../../support/random.mjs";
import { workloads } from "../../../bench/workloads.mjs";

/** The partial value after pushing `text` in one piece. */
function partialOf(text, schema = null) {
  const check = guard.createStreamCheck(schema, { partial: true });
  const partial = check.push(text).partial;
  check.free();
  return partial;
}

describe("the open frontier, closed", () => {
  const cases = [
    ["", undefined],
    ["```json\n", undefined],
    ["{", {}],
    ['{"a"', {}],
    ['{"a":', {}],
    ['{"a":1', {}],
    ['{"a":1,', { a: 1 }],
    ['{"a":-1.5e', {}],
    ['{"a":tr', {}],
    ['{"a":true', { a: true }],
    ['{"a":"pre', { a: "pre" }],
    ['{"a":"pre\\', { a: "pre" }],
    ['{"a":"pre\\u00', { a: "pre" }],
    ['{"a":"\\ud83d', { a: "" }],
    ['{"a":"\\ud83d\\ude00 x', { a: "😀 x" }],
    ['{"a":[1,2', { a: [1] }],
    ['{"a":[1,2,{"b":"c', { a: [1, 2, { b: "c" }] }],
    ['```json\n{"a":[1,2]}\n```', { a: [1, 2] }],
    ['"open root', "open root"],
    ["12", undefined],
  ];
  for (const [text, expected] of cases) {
    test(JSON.stringify(text), () => {
      assert.deepEqual(partialOf(text).value, expected);
      assert.deepEqual(partialOf(text).invalid, []);
    });
  }

  test("the state of each push carries it, pending or rejected, and it is read before the batch would cross", () => {
    const schema = rowsSchema(10);
    const check = guard.createStreamCheck(schema, { partial: true });
    const first = check.push('{"rows":[{"id":1,"status":"open"},');
    assert.equal(first.status, "pending");
    assert.deepEqual(first.partial, { value: { rows: [{ id: 1, status: "open" }] }, invalid: [] });
    assert.equal(first.partial, first.partial, "worked out once per state");
    // What the first reading crossed counts toward the batch, so this push
    // completes it: the check rejects the row the partial value names.
    const second = check.push('{"id":2,"status":"bogus"},{"id":3,"sta');
    assert.equal(second.status, "rejected");
    assert.deepEqual(second.partial.invalid, ["/rows/1", "/rows/1/status"]);
    assert.deepEqual(second.partial.value.rows.at(-1), { id: 3 });
    // The text after the rejection is still read.
    const third = check.push('tus":"closed"}]}');
    assert.equal(third.status, "rejected");
    assert.equal(third.failure, "schema");
    assert.deepEqual(third.partial.invalid, ["", "/rows", "/rows/1", "/rows/1/status"]);
    assert.equal(third.partial.value.rows.length, 3);
    const unread = check.push(" ");
    assert.equal(check.end("stop").failure, "schema");
    assertArgumentError(thrown(() => unread.partial), /partial was read after end\(\) or free\(\)/);
    // While the root is open, the value is one object, grown in place;
    // the complete value is parsed whole.
    assert.equal(first.partial.value, second.partial.value);
    assert.notEqual(third.partial.value, second.partial.value);
  });

  test("without partial: true the states are the frozen ones, and partial must be a boolean", () => {
    const check = guard.createStreamCheck(null);
    assert.equal(check.push("{").partial, undefined);
    check.free();
    assertArgumentError(thrown(() => guard.createStreamCheck(null, { partial: "yes" })), /options\.partial must be a boolean/);
  });
});

// ---- generated schemas and values, cut everywhere ----

/** A generated schema of nested objects and arrays, its leaves constrained. */
function genSchema(next, depth = 0) {
  const r = next();
  if (depth < 3 && r < 0.35) {
    const properties = {};
    const n = 1 + Math.floor(next() * 3);
    for (let i = 0; i < n; i++) properties[["id", "név", "a/b", "t~x"][i % 4] + i] = genSchema(next, depth + 1);
    return { type: "object", properties, ...(next() < 0.4 ? { additionalProperties: false } : {}), ...(next() < 0.3 ? { required: [Object.keys(properties)[0]] } : {}) };
  }
  if (depth < 3 && r < 0.55) return { type: "array", items: genSchema(next, depth + 1), ...(next() < 0.3 ? { maxItems: 3 } : {}) };
  if (r < 0.7) return { type: "string", maxLength: 6 };
  if (r < 0.8) return { enum: ["open", "closed", "é\"x"] };
  if (r < 0.9) return { type: "integer", minimum: 0 };
  return { type: "boolean" };
}

/** A value mostly of `schema`'s shape, now and then not. */
function genValue(next, schema, depth = 0) {
  if (depth > 0 && next() < 0.08) return [null, "stray", 12.5, -3, true, { x: [1] }][Math.floor(next() * 6)];
  if (schema.type === "object") {
    const out = {};
    for (const key of Object.keys(schema.properties)) if (next() < 0.85) out[key] = genValue(next, schema.properties[key], depth + 1);
    if (next() < 0.1) out.extra = "x";
    return out;
  }
  if (schema.type === "array") return Array.from({ length: Math.floor(next() * 5) }, () => genValue(next, schema.items, depth + 1));
  if (schema.type === "string") return ["", "ab", "héllo😀", "quote\"\\", "much too long"][Math.floor(next() * 5)];
  if (schema.enum) return next() < 0.8 ? schema.enum[Math.floor(next() * 3)] : "other";
  if (schema.type === "integer") return Math.floor(next() * 200) - 20;
  return next() < 0.5;
}

/** The subschema a JSON Pointer reaches through properties and items (`false`: a member refused). */
function subschemaAt(schema, pointer) {
  let at = schema;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    // Below a boolean subschema, nothing applies.
    if (at === true || at === false) return true;
    if (at.type === "array") at = at.items;
    else at = at.properties?.[key] ?? (at.additionalProperties === false ? false : true);
  }
  return at;
}

function valueAt(value, pointer) {
  let at = value;
  for (const raw of pointer.split("/").slice(1)) at = at[raw.replaceAll("~1", "/").replaceAll("~0", "~")];
  return at;
}

const childPointers = (value, base) =>
  Array.isArray(value) ? value.map((_, i) => `${base}/${i}`) : value !== null && typeof value === "object" ? Object.keys(value).map((k) => `${base}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`) : [];

/** Whether `part` is what a closed prefix of `whole` may show. */
function growsInto(part, whole) {
  if (typeof part === "string") return typeof whole === "string" && whole.startsWith(part);
  if (Array.isArray(part)) return Array.isArray(whole) && part.length <= whole.length && part.every((p, i) => (i < part.length - 1 ? JSON.stringify(p) === JSON.stringify(whole[i]) : growsInto(p, whole[i])));
  if (part !== null && typeof part === "object") return whole !== null && typeof whole === "object" && Object.keys(part).every((k) => Object.hasOwn(whole, k) && growsInto(part[k], whole[k]));
  return part === whole;
}

describe("generated schemas and values, cut at every character", () => {
  test("each closed prefix grows into the value, the end is the value, and exactly the failing complete members are listed", () => {
    const next = prng(0x9a27);
    const validators = new Map();
    const isValid = (schema, value) => {
      const key = JSON.stringify(schema);
      if (!validators.has(key)) validators.set(key, guard.compileSchema(schema));
      return validators.get(key).isValid(value);
    };
    let listed = 0;
    for (let round = 0; round < 60; round++) {
      const schema = { type: "object", properties: genSchema(next, 1).properties ?? { only: genSchema(next, 1) } };
      const whole = genValue(next, schema);
      const text = next() < 0.5 ? JSON.stringify(whole) : JSON.stringify(whole, null, 1);
      const check = guard.createStreamCheck(schema, { partial: true });
      for (let cut = 1; cut <= text.length; cut++) {
        const { partial } = check.push(text.slice(cut - 1, cut));
        const where = `round ${round}, ${JSON.stringify(text.slice(0, cut))}`;
        if (partial.value !== undefined) assert.ok(growsInto(partial.value, whole), `${where}: ${JSON.stringify(partial.value)}`);
        for (const pointer of partial.invalid) {
          if (pointer === "") continue;
          assert.equal(isValid(subschemaAt(schema, pointer), valueAt(whole, pointer)), false, `${where}: ${pointer} is listed`);
          listed++;
        }
        if (cut === text.length - 1) {
          // Every member of the open root is complete: each is listed
          // exactly when it fails, and inside a listed one, its own.
          const expected = [];
          const visit = (pointer) => {
            if (isValid(subschemaAt(schema, pointer), valueAt(whole, pointer))) return;
            expected.push(pointer);
            for (const child of childPointers(valueAt(whole, pointer), pointer)) visit(child);
          };
          for (const child of childPointers(whole, "")) visit(child);
          assert.deepEqual(partial.invalid, expected, where);
        }
        if (cut === text.length) {
          assert.deepEqual(partial.value, whole, where);
          assert.equal(partial.invalid.includes(""), !isValid(schema, whole), where);
        }
      }
      check.free();
    }
    assert.ok(listed > 50, `failing members were met (${listed})`);
  });
});

describe("pieces read without asking the core", () => {
  /** Counts the stream checks' crossings for a partial value while `run` runs. */
  function crossingsOf(run) {
    const handle = internals.rawGlue().streamOpen(undefined, "null");
    const proto = Object.getPrototypeOf(handle);
    handle.free();
    const original = proto.partialWords;
    let count = 0;
    proto.partialWords = function (...args) {
      count++;
      return original.apply(this, args);
    };
    try {
      run();
    } finally {
      proto.partialWords = original;
    }
    return count;
  }

  test("pieces that only lengthen the open string, or change nothing shown, do not cross", () => {
    const schema = { type: "object", properties: { notes: { type: "string" }, n: { type: "integer", maximum: 99 } } };
    const check = guard.createStreamCheck(schema, { partial: true });
    let readings = 0;
    const crossings = crossingsOf(() => {
      assert.deepEqual(check.push('{"notes":"').partial.value, { notes: "" });
      let notes = "";
      for (let i = 0; i < 40; i++) {
        notes += `wörd ${i} `;
        const { partial } = check.push(`wörd ${i} `);
        readings++;
        assert.equal(partial.value.notes, notes);
      }
      // Digits of a number being typed, and white space between tokens.
      check.push('", "n"').partial;
      for (const piece of [":", " ", "1", "2", "3"]) {
        assert.deepEqual(check.push(piece).partial.value, { notes });
        readings++;
      }
      const complete = { value: { notes, n: 123 }, invalid: ["/n"] };
      assert.deepEqual(check.push(" ").partial, complete);
      for (const piece of ["\n", "  ", "\t"]) {
        assert.deepEqual(check.push(piece).partial, complete);
        readings++;
      }
    });
    // A crossing for each batch the check took (a reading after it asks
    // once), and for the pieces that changed more than the string.
    assert.ok(crossings > 0 && crossings <= 12, `${crossings} crossings for ${readings} readings`);
    check.free();
  });

  test("read after every piece of random cuts, the value is the one the text so far gives in one piece", () => {
    const next = prng(0x7a11);
    const words = ["plain words ", "ünïcode ", "😀 ", "tab\\t ", 'q\\" ', "\\u00e9", "x"];
    for (let round = 0; round < 40; round++) {
      const schema = { type: "object", properties: { ...(genSchema(next, 1).properties ?? {}), note: { type: "string", maxLength: 40 } } };
      const whole = genValue(next, schema);
      const text = JSON.stringify(whole, null, next() < 0.5 ? 0 : 2).replace(/"note":"[^"]*"/, () => `"note":"${Array.from({ length: 3 + Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]).join("")}"`);
      const check = guard.createStreamCheck(schema, { partial: true });
      let cut = 0;
      while (cut < text.length) {
        const from = cut;
        cut = Math.min(text.length, cut + 1 + Math.floor(next() * 9));
        const state = check.push(text.slice(from, cut));
        // Now and then a piece goes unread.
        if (next() < 0.15 && cut < text.length) continue;
        const expected = partialOf(text.slice(0, cut), schema);
        assert.deepEqual(state.partial, expected, `round ${round}: ${JSON.stringify(text.slice(0, cut))}`);
      }
      check.free();
    }
  });
});

describe("the value grown from the core's numbers", () => {
  test("read after every piece of random cuts of the suite's and the benchmark's documents, it is the value the text so far gives in one piece", () => {
    const bench = workloads().filter((w) => ["small", "rows50", "rows2000", "invalid2000"].includes(w.id));
    const escaped = JSON.stringify({ ...JSON.parse(bench[0].text), vendor: 'Acme "Ünï" \\ 😀 \u0001 Supply', ["__proto__"]: { x: [1, -0.5e3, true, null] }, 'k"ey\\ü\n': 2 });
    const documents = [
      ...bench.map((w) => ({ label: w.label, schema: w.schema, text: w.text.slice(0, 40_000) })),
      { label: "escapes and non-ASCII", schema: bench[0].schema, text: escaped },
      { label: "pretty", schema: bench[1].schema, text: JSON.stringify(JSON.parse(bench[1].text), null, 2).slice(0, 6_000) },
      { label: "a bad row", schema: rowsSchema, text: rowsText(60, 17) },
    ];
    const next = prng(0x90d5);
    let compared = 0;
    for (const { label, schema, text } of documents) {
      for (let round = 0; round < 3; round++) {
        const check = guard.createStreamCheck(schema, { partial: true });
        const most = [2, 16, 64][round];
        const sample = Math.min(1, 60 / (text.length / (most / 2)));
        let cut = 0;
        while (cut < text.length) {
          const from = cut;
          cut = Math.min(text.length, cut + 1 + Math.floor(next() * most));
          const state = check.push(text.slice(from, cut));
          const { partial } = state;
          if (cut < text.length && next() >= sample) continue;
          compared++;
          assert.deepEqual(partial, partialOf(text.slice(0, cut), schema), `${label}, round ${round}, at ${cut}`);
        }
        check.free();
      }
    }
    assert.ok(compared > 500, `readings compared: ${compared}`);
  });
});

describe("readings that the check takes as a batch", () => {
  test("read in large pieces, the items the check passed are not judged again and the value is the one the text gives in one piece", () => {
    const schema = {
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: {
            type: "object",
            required: ["id", "status"],
            properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string", maxLength: 3 } }, status: { enum: ["open", "closed"] } },
          },
        },
      },
    };
    // The partial value of a check that has checked nothing: every item
    // judged by the reading itself.
    const unchecked = (text) => {
      const batch = internals.setStreamBatch(1e9);
      const reading = internals.setCheckedReading(Infinity);
      try {
        return partialOf(text, schema);
      } finally {
        internals.setStreamBatch(batch);
        internals.setCheckedReading(reading);
      }
    };
    const next = prng(0x5eed);
    let rejected = 0;
    for (let round = 0; round < 12; round++) {
      const bad = round % 3 === 0 ? 0 : 0.02;
      const rows = Array.from({ length: 40 + Math.floor(next() * 80) }, (_, i) => ({
        id: next() < bad ? "x" : i,
        tags: Array.from({ length: Math.floor(next() * 4) }, () => (next() < bad ? "long" : ["a", "bb", "ccc"][Math.floor(next() * 3)])),
        status: next() < bad ? "bogus" : "open",
      }));
      const text = JSON.stringify({ rows }, null, round % 2 === 0 ? 0 : 2);
      const check = guard.createStreamCheck(schema, { partial: true });
      let cut = 0;
      let state;
      while (cut < text.length) {
        const from = cut;
        cut = Math.min(text.length, cut + 1 + Math.floor(next() * (next() < 0.5 ? 40 : 1500)));
        state = check.push(text.slice(from, cut));
        if (next() < 0.3 && cut < text.length) continue;
        assert.deepEqual(state.partial, unchecked(text.slice(0, cut)), `round ${round} at ${cut}`);
      }
      const verdict = check.end("stop");
      // A stream a push rejected ends with that rejection.
      if (state.status === "rejected") {
        rejected++;
        assert.equal(verdict.errorHash, state.errorHash, `round ${round}`);
      } else assert.deepEqual(verdict, guard.checkOutput({ content: text, finishReason: "stop" }, schema), `round ${round}`);
    }
    assert.ok(rejected > 0 && rejected < 12, `streams rejected: ${rejected}`);
  });
});

// ---- a real provider's stream ----

const frame = (data, event) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

function chatText(text) {
  const chunk = (delta, finish = null) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] });
  return [frame(chunk({ role: "assistant", content: "" })), ...pieces(text, 7).map((content) => frame(chunk({ content }))), frame(chunk({}, "stop")), "data: [DONE]\n\n"];
}

function anthropicTool(args, name) {
  return [
    frame({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } }, "message_start"),
    frame({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name, input: {} } }, "content_block_start"),
    ...pieces(args, 9).map((partial_json) => frame({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } }, "content_block_delta")),
    frame({ type: "content_block_stop", index: 0 }, "content_block_stop"),
    frame({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 40 } }, "message_delta"),
    frame({ type: "message_stop" }, "message_stop"),
  ];
}

describe("a real provider's stream, through its SDK client", () => {
  const schema = rowsSchema(50);
  const good = rowsText(6);
  const doomed = rowsText(6, 3);

  test("OpenAI Chat text: the previews grow into the accepted value; a bad row is named as it completes", async () => {
    await withWireServer([sse(chatText(good)), sse(chatText(doomed))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      for (const [text, bad] of [[good, false], [doomed, true]]) {
        const stream = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "rows" }], stream: true });
        const check = guard.createStreamCheck(schema, { partial: true });
        // The value grows in place: what a preview would draw is taken as it is read.
        const rows = [];
        let last;
        let named;
        for await (const chunk of stream) {
          const state = check.push(chunk.choices[0]?.delta?.content ?? "");
          last = state.partial;
          rows.push(last.value?.rows?.length ?? 0);
          if (named === undefined && last.invalid.length > 0) named = { state, invalid: last.invalid, rows: rows.at(-1) };
        }
        const verdict = check.end("stop");
        assert.ok(rows.every((n, i) => i === 0 || n >= rows[i - 1]), `rows only grow: ${rows}`);
        assert.ok(new Set(rows).size > 3, "the preview moved as the rows came");
        assert.deepEqual(last.value, JSON.parse(text));
        if (bad) {
          assert.equal(verdict.failure, "schema");
          assert.deepEqual(named.invalid, ["/rows/2", "/rows/2/status"]);
          assert.ok(named.rows < 6, "named before the rows ended");
        } else {
          assert.equal(verdict.ok, true);
          assert.equal(named, undefined, "nothing named in a valid stream");
        }
      }
    });
  });

  test("Anthropic forced tool (toolName): the partial value of the tool's arguments", async () => {
    await withWireServer([sse(anthropicTool(good, "record_rows"))], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const stream = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 400, stream: true, messages: [{ role: "user", content: "rows" }], tools: [{ name: "record_rows", input_schema: schema }], tool_choice: { type: "tool", name: "record_rows" } });
      const check = guard.createStreamCheck(schema, { toolName: "record_rows", partial: true });
      const rows = [];
      let value;
      for await (const event of stream) {
        value = check.push(event).partial.value;
        rows.push(value?.rows?.length ?? 0);
      }
      assert.equal(check.end().ok, true);
      assert.deepEqual(value, JSON.parse(good));
      assert.ok(rows.some((n) => n > 0 && n < 6), `a preview while the rows came: ${rows}`);
    });
  });
});

// ---- hostile text ----

describe("hostile text, within the stream's caps", () => {
  test("nesting past the parser's limit: the stream rejects, the preview closes within the limit", () => {
    const check = guard.createStreamCheck(null, { partial: true, requireObject: false });
    let state;
    for (let i = 0; i < 1000; i++) state = check.push("[".repeat(100));
    assert.equal(state.status, "rejected");
    assert.equal(state.failure, "unparseable");
    const started = performance.now();
    const { value } = state.partial;
    assert.ok(performance.now() - started < 1000);
    let depth = 0;
    for (let v = value; Array.isArray(v); v = v[0]) depth++;
    assert.ok(depth > 100 && depth < 130, `closed at depth ${depth}`);
    check.free();
  });

  test("a string of 8 MB still open: its prefix, read once as it grows", () => {
    const check = guard.createStreamCheck({ type: "object", properties: { s: { type: "string" } } }, { partial: true });
    check.push('{"s":"');
    const piece = "x".repeat(1 << 16);
    const started = performance.now();
    let state;
    for (let i = 0; i < 128; i++) {
      state = check.push(piece);
      if (i % 16 === 15) assert.equal(state.partial.value.s.length, (i + 1) << 16);
    }
    assert.ok(performance.now() - started < 5000, "eight previews of up to 8 MB");
    check.free();
  });
});
