// createStreamCheck: a response checked as it streams in. The stream's end
// must give exactly checkOutput's verdict on the whole text, however the
// text was cut (inside escapes, between the halves of a surrogate pair),
// and a rejection must only ever come for a text that fails.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { thrown } from "../../support/fixtures.mjs";
import { prng as rng } from "../../support/random.mjs";
import OpenAI from "openai";
import { sse, withWireServer } from "../../support/wire-server.mjs";

/** Runs `fn` with every piece handed to the core as it is pushed (no batching). */
function eachPiece(fn) {
  const previous = internals.setStreamBatch(0);
  try {
    return fn();
  } finally {
    internals.setStreamBatch(previous);
  }
}

const ROWS_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["observations"],
  properties: {
    observations: {
      type: "array",
      maxItems: 5,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["type", "text", "importance"],
        properties: {
          type: { enum: ["fact", "decision", "question", "risk"] },
          text: { type: "string", minLength: 1, maxLength: 30 },
          importance: { type: "integer", minimum: 1, maximum: 5 },
          observedOn: { type: "string", format: "date" },
        },
      },
    },
  },
};

const WORDS = ["ok", "é", "漢字", "😀", 'a"b', "back\\slash", "tab\there", "line\nbreak", "plain", "🧪x"];

/** JSON text with escapes chosen at random: \uXXXX (surrogate pairs for astral characters) and \/. */
function write(value, next) {
  if (typeof value === "string") {
    let out = '"';
    for (const c of value) {
      if (c === '"' || c === "\\") out += `\\${c}`;
      else if (c.codePointAt(0) < 0x20) out += `\\u${c.codePointAt(0).toString(16).padStart(4, "0")}`;
      else if (next.below(5) === 0) for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
      else out += c;
    }
    return `${out}"`;
  }
  const space = () => [" ", "\n", "", "", "\t"][next.below(5)];
  if (Array.isArray(value)) return `[${value.map((v) => space() + write(v, next)).join(",")}${space()}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${space()}${write(k, next)}:${space()}${write(v, next)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function row(next) {
  const r = {
    type: ["fact", "decision", "question", "risk"][next.below(4)],
    text: Array.from({ length: 1 + next.below(2) }, () => WORDS[next.below(WORDS.length)]).join(" "),
    importance: 1 + next.below(5),
  };
  if (next.below(3) === 0) r.observedOn = `2026-0${1 + next.below(9)}-1${next.below(10)}`;
  return r;
}

/** A response, valid or with one fault, and whether its JSON alone is well formed. */
function response(next) {
  const doc = { observations: Array.from({ length: next.below(4) }, () => row(next)) };
  const rows = doc.observations;
  const at = next.below(Math.max(rows.length, 1));
  const faults = [
    () => rows.length && (rows[at].type = "observation"),
    () => rows.length && (rows[at].importance = 0),
    () => rows.length && delete rows[at].type,
    () => rows.length && (rows[at].confidence = 0.5),
    () => rows.length && (rows[at].text = "a text much longer than the thirty characters allowed"),
    () => rows.length && (rows[at].observedOn = "2026-02-30"),
    () => rows.push(...Array.from({ length: 5 }, () => row(next))),
    () => (doc.extra = 1),
  ];
  if (next.below(2) === 0) faults[next.below(faults.length)]();
  const json = write(doc, next);
  switch (next.below(10)) {
    case 0:
      return `\`\`\`json\n${json}\n\`\`\``;
    case 1:
      return `${json} trailing`;
    case 2:
      return `[${json}]`;
    case 3:
      return json.slice(0, next.below(json.length));
    case 4:
      return ` \n${json}\n `;
    default:
      return json;
  }
}

/** Cuts `text` into pieces at `points` (UTF-16 offsets). */
function cut(text, points) {
  const pieces = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    if (point >= from) {
      pieces.push(text.slice(from, point));
      from = point;
    }
  }
  return pieces;
}

function streamed(pieces, schema, options, finishReason) {
  const check = guard.createStreamCheck(schema, options);
  let first;
  for (const piece of pieces) {
    const state = check.push(piece);
    if (first === undefined && state.status === "rejected") first = state;
    if (first !== undefined) assert.equal(state, first, "a rejection stays the same state");
  }
  const verdict = check.end(finishReason);
  return { rejection: first, bytes: check.bytes, verdict, expected: (whole) => endOf(whole, first) };
}

/**
 * What `end` gives where checkOutput gives `whole`: after a rejection, the
 * rejection (its failure, message, errors and errorHash, where it was
 * decided), whatever the rest of the text added.
 */
function endOf(whole, rejection) {
  if (rejection === undefined) return whole;
  assert.equal(whole.ok, false, "a definite rejection of a text checkOutput accepts");
  const { failure, message, errors, moreErrors, errorHash, atByte } = rejection;
  const { schemaHash, degraded, finishReason } = whole;
  return { ok: false, failure, message, errors, moreErrors, errorHash, schemaHash, degraded, rescue: "none", finishReason, atByte };
}

const utf8 = (text) => Buffer.byteLength(text.toWellFormed ? text.toWellFormed() : text, "utf8");

const testEachPiece = (name, fn) => test(name, () => eachPiece(fn));

describe("createStreamCheck: the end is checkOutput's verdict", () => {
  test("generated responses cut at every point, one character at a time and at random", () => eachPiece(() => {
    const next = rng(0x5eed);
    const validator = guard.compileSchema(ROWS_SCHEMA);
    let rejected = 0;
    let cases = 0;
    for (let n = 0; n < 120; n++) {
      const text = response(next);
      const cuts = [[], Array.from({ length: text.length - 1 }, (_, i) => i + 1)];
      if (n % 5 === 0 && text.length < 260) for (let k = 1; k < text.length; k++) cuts.push([k]);
      for (let r = 0; r < 2; r++) {
        const points = [];
        for (let at = 1 + next.below(12); at < text.length; at += 1 + next.below(12)) points.push(at);
        cuts.push(points);
      }
      const schema = n % 2 === 0 ? ROWS_SCHEMA : validator;
      const expected = guard.checkOutput({ content: text }, schema);
      const latest = streamed([text], schema).rejection?.atByte;
      for (const points of cuts) {
        const { rejection, bytes, verdict } = streamed(cut(text, points), schema);
        cases++;
        assert.deepEqual(verdict, endOf(expected, rejection), `${JSON.stringify(text)} cut at ${points}`);
        assert.equal(bytes, utf8(text));
        if (rejection !== undefined) {
          rejected++;
          assert.equal(expected.ok, false, `rejected, yet accepted: ${JSON.stringify(text)} (${rejection.message})`);
          assert.ok(rejection.atByte <= bytes && rejection.atByte <= (latest ?? Infinity), `${JSON.stringify(text)}: ${rejection.atByte}`);
        }
      }
      for (const finishReason of ["stop", "length", null, ""]) {
        const run = streamed(cut(text, [next.below(text.length)]), schema, undefined, finishReason);
        assert.deepEqual(run.verdict, run.expected(guard.checkOutput({ content: text, finishReason }, schema)), `finish reason ${finishReason}`);
      }
    }
    assert.ok(rejected > cases / 10, `${rejected} of ${cases} runs rejected early`);
  }));

  test("batched pieces of every length and script, gathered and joined in one batch, give the whole text's verdict", () => {
    // Short ASCII pieces are copied into a byte buffer and others joined as
    // a string, in the order they came; a batch of 64 mixes them, and one
    // of 64,000 overflows the byte buffer.
    const next = rng(0xba7c4);
    for (const batch of [64, 64_000]) {
      const previous = internals.setStreamBatch(batch);
      try {
        for (let n = 0; n < 150; n++) {
          let text = response(next);
          while (text.length < 400 && next.below(3) !== 0) text = `${text} ${response(next)}`;
          const points = [];
          for (let at = 1 + next.below(20); at < text.length; at += 1 + next.below(next.below(2) === 0 ? 7 : 40)) points.push(at);
          const { rejection, bytes, verdict } = streamed(cut(text, points), ROWS_SCHEMA);
          const expected = guard.checkOutput({ content: text }, ROWS_SCHEMA);
          assert.deepEqual(verdict, endOf(expected, rejection), `${JSON.stringify(text)} cut at ${points} (batch ${batch})`);
          assert.equal(bytes, utf8(text));
          if (rejection !== undefined) assert.equal(expected.ok, false);
        }
        // A batch that ends in a lone high surrogate keeps it back, and the
        // short ASCII piece after it must still come after it.
        const head = '{"observations":[{"type":"fact","text":"';
        const lone = `${head}${"a".repeat(63 - head.length)}\ud83d`;
        const loneText = `${lone}x","importance":2}]}`;
        const loneVerdict = streamed([lone, "x", '","importance":2}]}'], ROWS_SCHEMA).verdict;
        assert.deepEqual(loneVerdict, guard.checkOutput(loneText, ROWS_SCHEMA));
        assert.equal(loneVerdict.value.observations[0].text.slice(-2), "\ufffdx");
        const pair = '{"observations":[{"type":"fact","text":"🧪 and 😀 é","importance":2}]}';
        for (let k = 1; k < pair.length; k++) {
          const pieces = [pair.slice(0, k), ...pair.slice(k).match(/[^]{1,3}/g)];
          assert.deepEqual(streamed(pieces, ROWS_SCHEMA).verdict, guard.checkOutput(pair, ROWS_SCHEMA), `cut at ${k}`);
        }
      } finally {
        internals.setStreamBatch(previous);
      }
    }
  });

  test("pieces are handed over in batches, so a rejection comes within 64 bytes of its deciding byte, later a sixteenth", () => {
    const good = { type: "fact", text: "ok", importance: 1 };
    const text = JSON.stringify({ observations: [good, { type: "observation", text: "x", importance: 1 }, good, good, good] });
    const check = guard.createStreamCheck(ROWS_SCHEMA);
    let pushed = 0;
    let state;
    for (const c of text) {
      state = check.push(c);
      pushed += Buffer.byteLength(c);
      if (state.status === "rejected") break;
    }
    assert.equal(state.status, "rejected");
    assert.ok(pushed - state.atByte < 64, `reported at ${pushed}, decided at ${state.atByte}`);
    assert.equal(check.push(text.slice(pushed)), state);
    assert.deepEqual(check.end(), endOf(guard.checkOutput(text, ROWS_SCHEMA), state));
    // Further in, the batch grows with the text, to a sixteenth of it.
    const many = { ...ROWS_SCHEMA, properties: { observations: { ...ROWS_SCHEMA.properties.observations, maxItems: 1000 } } };
    const rows = Array.from({ length: 600 }, (_, i) => ({ type: i === 400 ? "observation" : "fact", text: `row ${i}`, importance: 3 }));
    const long = JSON.stringify({ observations: rows });
    const late = guard.createStreamCheck(many);
    let sent = 0;
    let lateState;
    for (const c of long) {
      lateState = late.push(c);
      sent += 1;
      if (lateState.status === "rejected") break;
    }
    assert.equal(lateState.status, "rejected");
    assert.deepEqual(lateState.errors.map((e) => e.path), ["/observations/400/type"]);
    const batch = Math.min(16_384, Math.max(64, lateState.atByte / 16));
    assert.ok(sent - lateState.atByte < batch && sent - lateState.atByte >= 64, `reported at ${sent}, decided at ${lateState.atByte}`);
    assert.equal(late.push(long.slice(sent)), lateState);
    assert.deepEqual(late.end(), endOf(guard.checkOutput(long, many), lateState));
    // A short response is checked whole at the end.
    const short = guard.createStreamCheck(ROWS_SCHEMA);
    assert.equal(short.push('{"a" 1').status, "pending");
    assert.equal(short.end().failure, "unparseable");
  });

  test("a row that a batch cuts waits for the next batch, and is judged whole where it closes", () => {
    // Without maxItems (whose count is watched row by row), rows are read
    // whole one after another, and the row a batch ends inside is left for
    // the next batch rather than read value by value (cheaper): what is
    // wrong inside it is decided where it closes, a batch later.
    const unbounded = { ...ROWS_SCHEMA, properties: { observations: { ...ROWS_SCHEMA.properties.observations, maxItems: undefined } } };
    /** 300 rows, row `k` with a member it may not have, first. */
    const rows = (k) => {
      const list = Array.from({ length: 300 }, (_, i) => ({ ...(i === k ? { x: 1 } : {}), type: "fact", text: `row ${i}`, importance: 3 }));
      const text = JSON.stringify({ observations: list });
      const start = text.indexOf('{"x":');
      return { text, nameEnd: start + '{"x"'.length, rowEnd: text.indexOf("}", start) + 1 };
    };
    /** The state that rejected `text` pushed a character at a time, and the characters pushed by then. */
    const reported = (text) => {
      const check = guard.createStreamCheck(unbounded);
      let sent = 0;
      for (const c of text) {
        const state = check.push(c);
        sent += 1;
        if (state.status === "rejected") return { state, sent };
      }
      return { state: check.end(), sent };
    };
    // Batches of 4,096 characters, one of which ends after the name and
    // before the row's end.
    const BATCH = 4096;
    let late;
    for (let k = 100; late === undefined; k++) {
      const found = rows(k);
      const boundary = Math.ceil(found.nameEnd / BATCH) * BATCH;
      if (boundary < found.rowEnd - 1) late = { ...found, k, boundary };
    }
    const previous = internals.setStreamBatch(BATCH);
    try {
      const { state, sent } = reported(late.text);
      assert.equal(state.status, "rejected");
      assert.deepEqual(state.errors.map((e) => [e.path, e.code]), [[`/observations/${late.k}`, "additionalProperties"]]);
      assert.equal(state.atByte, late.rowEnd, `decided at ${state.atByte}; a batch ended at ${late.boundary}, the name at ${late.nameEnd}`);
      assert.equal(sent, late.boundary + BATCH);
      // At the start of a response, batches of 16 characters, shorter than
      // a row: the row is read as far as each batch goes, and the name is
      // decided as it ends.
      internals.setStreamBatch(16);
      const early = rows(3);
      const eager = reported(early.text);
      assert.equal(eager.state.status, "rejected");
      assert.ok(eager.state.atByte <= early.nameEnd + 1, `decided at ${eager.state.atByte}, the name ends at ${early.nameEnd}`);
    } finally {
      internals.setStreamBatch(previous);
    }
  });

  test("a surrogate pair cut in two, and a lone surrogate at the end", () => eachPiece(() => {
    const text = '{"observations":[{"type":"fact","text":"🧪 and 😀","importance":2}]}';
    const expected = guard.checkOutput(text, ROWS_SCHEMA);
    assert.equal(expected.ok, true);
    for (let k = 1; k < text.length; k++) {
      const { verdict, bytes } = streamed([text.slice(0, k), text.slice(k)], ROWS_SCHEMA);
      assert.deepEqual(verdict, expected, `cut at ${k}`);
      assert.equal(bytes, utf8(text));
    }
    const lone = `${text.slice(0, -2)}\ud83e`;
    const loneRun = streamed([lone], ROWS_SCHEMA);
    assert.deepEqual(loneRun.verdict, loneRun.expected(guard.checkOutput(lone, ROWS_SCHEMA)));
    const inString = '{"observations":[{"type":"fact","text":"cut \ud83e","importance":2}]}';
    const whole = guard.checkOutput(inString, ROWS_SCHEMA);
    assert.equal(whole.value.observations[0].text, "cut \ufffd");
    assert.deepEqual(streamed([...inString], ROWS_SCHEMA).verdict, whole);
  }));

  test("one character that is not ASCII, on every path a batch takes, is read back as it was", () => {
    // The value of a text that is all ASCII is read as Latin-1 where the
    // engine has that (Bun); one character otherwise must send it through
    // the UTF-8 decoder, wherever in a batch it came.
    const pad = "a".repeat(600);
    const cases = [
      ["a short piece, joined", ['{"t":"ab', "é", `${pad}"}`]],
      ["a long piece, its first character", ['{"t":"ab', `é${pad}`, '"}']],
      ["a long first batch, its last character", [`{"t":"${pad}é`, '"}']],
      ["a lone surrogate at the end of a string", [`{"t":"${pad}\ud83e`, '"}']],
      ["every piece ASCII", ['{"t":"ab', `${pad}"}`]],
    ];
    for (const [what, pieces] of cases) {
      const text = pieces.join("");
      const { verdict } = streamed(pieces, undefined);
      assert.equal(verdict.ok, true, what);
      assert.deepEqual(verdict.value, JSON.parse(Buffer.from(text).toString()), what);
    }
  });

  test("every schema form and option checkOutput takes", () => {
    const text = '```json\n{"observations":[{"type":"risk","text":"x","importance":9}]}\n```';
    const wrapper = { name: "rows", schema: ROWS_SCHEMA, strict: true };
    for (const [schema, options] of [
      [ROWS_SCHEMA, undefined],
      [JSON.stringify(ROWS_SCHEMA), { maxErrors: 1 }],
      [wrapper, { requireObject: false }],
      [guard.compileSchema(ROWS_SCHEMA), undefined],
      [undefined, undefined],
      [{ type: "strnig" }, undefined],
      ["{type: object}", undefined],
      [ROWS_SCHEMA, { resources: { "urn:x": { type: "string" } }, formats: "annotate" }],
    ]) {
      const run = streamed(cut(text, [7, 30, 31]), schema, options, "stop");
      assert.deepEqual(run.verdict, run.expected(guard.checkOutput({ content: text, finishReason: "stop" }, schema, options)));
    }
  });
});

describe("createStreamCheck: an accepted value read in parts", () => {
  /** Runs `fn` with every accepted value read in parts of `part` bytes. */
  function inParts(part, fn) {
    const previous = internals.setStreamValue({ from: 0, part });
    try {
      return fn();
    } finally {
      internals.setStreamValue(previous);
    }
  }

  /** The same value, members in the same order, and the same JSON text. */
  function sameValue(actual, expected, what) {
    assert.deepStrictEqual(actual, expected, what);
    assert.equal(JSON.stringify(actual), JSON.stringify(expected), what);
  }

  test("parts of every size give the value JSON.parse gives for the whole text", () => {
    const next = rng(0x9a27);
    let accepted = 0;
    for (let n = 0; n < 200; n++) {
      let text = response(next);
      // Several documents in one array: a root that is not the rows' object.
      if (n % 7 === 0) text = `[${text}, ${response(next)}]`;
      const points = [];
      for (let at = 1 + next.below(30); at < text.length; at += 1 + next.below(30)) points.push(at);
      const expected = guard.checkOutput({ content: text }, undefined, { requireObject: false });
      for (const part of [1, 16, 100, 100_000]) {
        const run = inParts(part, () => streamed(cut(text, points), undefined, { requireObject: false }));
        const { verdict } = run;
        sameValue(verdict, run.expected(expected), `${JSON.stringify(text)} in parts of ${part}`);
        if (verdict.ok) accepted++;
      }
    }
    assert.ok(accepted > 400, `${accepted} accepted`);
  });

  test("members as JSON.parse sets them: __proto__ an own member, a repeated name first in place and last in value", () => {
    const rows = Array.from({ length: 40 }, (_, i) => `{"i":${i},"__proto__":{"x":${i}},"i":-${i}}`).join(",");
    const text = `{"__proto__":[1,2],"b":1,"20":"twenty","3":"three","b":{"rows":[${rows}],"a\\u0041\\"":"é😀"},"constructor":"c"}`;
    const expected = JSON.parse(text);
    for (const part of [1, 40, 400]) {
      const { verdict } = inParts(part, () => streamed(cut(text, [5, 90, 91, 700]), undefined));
      assert.equal(verdict.ok, true);
      sameValue(verdict.value, expected, `parts of ${part}`);
      assert.deepEqual(Object.getOwnPropertyDescriptor(verdict.value, "__proto__").value, [1, 2]);
      assert.equal(Object.getPrototypeOf(verdict.value), Object.prototype);
      assert.deepEqual(Object.keys(verdict.value), ["3", "20", "__proto__", "b", "constructor"]);
      assert.deepEqual(Object.keys(verdict.value.b.rows[7]), ["i", "__proto__"]);
      assert.equal(verdict.value.b.rows[7].i, -7);
    }
  });

  test("reading the value leaves the text as it was: a second read gives the same value", () => {
    const next = rng(0x5eed);
    let read = 0;
    for (let n = 0; n < 60; n++) {
      const text = n % 3 === 0 ? `[${response(next)} ,\n ${response(next)}]` : response(next);
      const expected = guard.checkOutput({ content: text }, undefined, { requireObject: false });
      for (const part of [1, 30, 400]) {
        const values = internals.acceptedValueTwice(text, part);
        assert.equal(values !== undefined, expected.ok, JSON.stringify(text));
        if (values === undefined) continue;
        sameValue(values[0], expected.value, `${JSON.stringify(text)} in parts of ${part}`);
        sameValue(values[1], expected.value, `${JSON.stringify(text)} read again in parts of ${part}`);
        read++;
      }
    }
    assert.ok(read > 60, `${read} values read`);
  });

  test("a large value is read in parts on V8 only, where a large string costs an allocation of its own", () => {
    const previous = internals.setStreamValue({});
    internals.setStreamValue(previous);
    assert.equal(previous.from, process.versions.bun === undefined ? 64 * 1024 : Infinity);
    // 2,000 rows of the workload's kind, about 180 KB, whole and fenced, with the defaults.
    const next = rng(0x1a23e);
    const doc = { observations: Array.from({ length: 2000 }, () => row(next)) };
    const schema = { ...ROWS_SCHEMA, properties: { observations: { ...ROWS_SCHEMA.properties.observations, maxItems: 2000 } } };
    for (const text of [write(doc, next), `\`\`\`json\n${JSON.stringify(doc, null, 2)}\n\`\`\``]) {
      assert.ok(text.length > 100_000);
      const pieces = cut(text, Array.from({ length: Math.floor(text.length / 64) }, (_, i) => 64 * (i + 1)));
      const { verdict } = streamed(pieces, schema, undefined, "stop");
      sameValue(verdict, guard.checkOutput({ content: text, finishReason: "stop" }, schema), "the rows");
      assert.equal(verdict.ok, true, verdict.message);
    }
  });
});

describe("createStreamCheck: early rejection", () => {
  const test = (name, fn) => testEachPiece(name, fn);
  const rows = (n, fault) =>
    Array.from({ length: n }, (_, i) => ({ type: i === fault ? "observation" : "fact", text: `row ${i}`, importance: 3 }));

  test("a row that breaks an enum stops the stream within the next row", () => {
    const schema = { ...ROWS_SCHEMA, properties: { observations: { ...ROWS_SCHEMA.properties.observations, maxItems: 100 } } };
    const text = JSON.stringify({ observations: rows(50, 3) });
    const rowStart = (i) => text.indexOf(`{"type"`, text.indexOf(`row ${i - 1}`));
    const check = guard.createStreamCheck(schema);
    let state;
    let sent = 0;
    for (let i = 0; i < text.length && state?.status !== "rejected"; i += 64) {
      state = check.push(text.slice(i, i + 64));
      sent = Math.min(i + 64, text.length);
    }
    assert.equal(state.status, "rejected");
    assert.equal(state.failure, "schema");
    assert.deepEqual(state.errors.map((e) => [e.path, e.code]), [["/observations/3/type", "enum"]]);
    assert.ok(state.atByte > rowStart(3) && state.atByte <= rowStart(4), `rejected at ${state.atByte}`);
    // Stopped by the very piece that showed it.
    assert.ok(state.atByte > sent - 64 && state.atByte <= sent, `stopped after ${sent} of ${text.length} bytes`);
    assert.match(state.errorHash, /^[0-9a-f]{32}$/);
    assert.ok(Object.isFrozen(state) && Object.isFrozen(state.errors));
    // Pushes after a rejection keep the text; the end is the rejection.
    assert.equal(check.push(text.slice(sent)), state);
    const verdict = check.end("stop");
    assert.deepEqual(verdict, endOf(guard.checkOutput({ content: text, finishReason: "stop" }, schema), state));
    assert.equal(verdict.errorHash, state.errorHash);
    assert.equal(verdict.atByte, state.atByte);
  });

  test("a degenerate repetition is stopped at maxItems", () => {
    const item = '{"type":"fact","text":"same again","importance":1},';
    const check = guard.createStreamCheck(ROWS_SCHEMA);
    let state = check.push('{"observations":[');
    let n = 0;
    while (state.status === "pending" && n < 1000) {
      state = check.push(item);
      n++;
    }
    assert.equal(state.status, "rejected");
    assert.deepEqual(state.errors.map((e) => [e.path, e.code]), [["/observations", "maxItems"]]);
    assert.equal(n, 6, "the sixth item begins with the next piece");
  });

  test("what rejects at once, and what waits for the end", () => {
    const cases = [
      // [text, schema, options, rejected?]
      ['{"observations":[{"type":"fa', ROWS_SCHEMA, undefined, false],
      ['{"observations":[{"type":"fax', ROWS_SCHEMA, undefined, "enum"],
      ['{"observations":[{"type":"fact","text":"', ROWS_SCHEMA, undefined, false],
      [`{"observations":[{"type":"fact","text":"${"x".repeat(31)}`, ROWS_SCHEMA, undefined, "maxLength"],
      ['{"observations":[{"typo"', ROWS_SCHEMA, undefined, "additionalProperties"],
      ['{"observations":[{"typ', ROWS_SCHEMA, undefined, false],
      ['{"observations":[{"text":"x"}', ROWS_SCHEMA, undefined, "required"],
      ['{"observations":[{"text":"x"', ROWS_SCHEMA, undefined, false],
      ['{"observations":[{"type":"fact","text":"x","importance":7', ROWS_SCHEMA, undefined, false],
      ['{"observations":[{"type":"fact","text":"x","importance":7}', ROWS_SCHEMA, undefined, "maximum"],
      ['{"list":[1,2', { properties: { list: { minItems: 3 } } }, undefined, false],
      ['{"a":1,', { required: ["b"] }, undefined, false],
      ['{"a":"x', { properties: { a: { anyOf: [{ type: "integer" }, { const: "y" }] } } }, undefined, false],
      ['{"a":"x"', { properties: { a: { anyOf: [{ type: "integer" }, { const: "y" }] } } }, undefined, "anyOf"],
      ["[", ROWS_SCHEMA, undefined, "not_object"],
      ["[", ROWS_SCHEMA, { requireObject: false }, false],
      ['{"a" 1', undefined, undefined, "unparseable"],
      ["```json\n{}\n``", undefined, undefined, false],
      ["```json\n{}\n```x", undefined, undefined, "unparseable"],
      ["Here is the JSON: {", undefined, undefined, "unparseable"],
    ];
    for (const [text, schema, options, expected] of cases) {
      const state = streamed([...text], schema, options).rejection;
      if (expected === false) {
        assert.equal(state, undefined, `${text}: ${state?.message}`);
      } else {
        assert.ok(state, `${text} is not rejected`);
        if (["unparseable", "not_object"].includes(expected)) assert.equal(state.failure, expected, text);
        else assert.deepEqual([state.failure, state.errors[0]?.code], ["schema", expected], text);
      }
    }
  });

  test("a member name repeated after a rejection does not undo it (the check treats complete values as final)", () => {
    const text = '{"observations":[{"type":"bogus","type":"fact","text":"x","importance":1}]}';
    assert.equal(guard.checkOutput(text, ROWS_SCHEMA).ok, true, "the last occurrence wins, as in JSON.parse");
    const { rejection, verdict } = streamed([...text], ROWS_SCHEMA);
    assert.equal(rejection?.errors[0].code, "enum");
    // The end is the rejection the stream was stopped by.
    assert.equal(verdict.ok, false);
    assert.equal(verdict.errorHash, rejection.errorHash);
    // Repeated names among values already complete are resolved as checkOutput resolves them.
    assert.equal(streamed([text], ROWS_SCHEMA).rejection, undefined);
  });
});

describe("createStreamCheck: the README's loop, as written", () => {
  const frame = (data) => `data: ${JSON.stringify(data)}\n\n`;
  const chunk = (delta, finish) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] });
  const rows = Array.from({ length: 120 }, (_, i) => ({ type: i === 3 ? "fcat" : "fact", text: `row ${i}`, importance: 1 }));
  const text = JSON.stringify({ observations: rows });

  test("push, rejected, abort(), break, end(): the verdict is the rejection, not the prefix's failure", async () => {
    const schema = { ...ROWS_SCHEMA, properties: { observations: { ...ROWS_SCHEMA.properties.observations, maxItems: 500 } } };
    const responseFormat = { name: "rows", strict: true, schema };
    const events = [frame(chunk({ role: "assistant", content: "" }, null))];
    for (let i = 0; i < text.length; i += 16) events.push(frame(chunk({ content: text.slice(i, i + 16) }, null)));
    events.push(frame(chunk({}, "stop")), "data: [DONE]\n\n");
    await withWireServer([sse(events, { delayMs: 1 })], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const controller = new AbortController();
      const stream = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "rows" }], stream: true }, { signal: controller.signal });
      let seen = "";
      let rejected;

      const check = guard.createStreamCheck(responseFormat); // schema and options as checkOutput takes them
      let finishReason = null;
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content ?? "";
        finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
        seen += text;
        const state = check.push(text);
        if (state.status === "rejected") {
          rejected = state;
          controller.abort(); // state.failure, state.errors, state.atByte
          break;
        }
      }
      const verdict = check.end(finishReason);

      assert.equal(rejected?.failure, "schema");
      assert.ok(seen.length < text.length / 2, `${seen.length} of ${text.length} characters read`);
      // What was pushed, checked whole, is a cut JSON text: another failure class.
      assert.equal(guard.checkOutput({ content: seen, finishReason }, responseFormat).failure, "unparseable");
      assert.equal(verdict.ok, false);
      assert.equal(verdict.failure, "schema");
      assert.deepEqual(verdict.errors, rejected.errors);
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/observations/3/type", "enum"]]);
      assert.equal(verdict.errorHash, rejected.errorHash);
      assert.equal(verdict.message, rejected.message);
      assert.equal(verdict.atByte, rejected.atByte);
      assert.equal(verdict.schemaHash, guard.compileSchema(schema).schemaHash);
    });
  });

  test("a rejection that only end() sees (the last batch crosses there) leaves end() checkOutput's verdict", () => {
    const check = guard.createStreamCheck(ROWS_SCHEMA);
    const short = '{"observations":[{"type":"fcat","text":"x","importance":1}]}';
    assert.equal(check.push(short).status, "pending");
    const verdict = check.end("length");
    assert.deepEqual(verdict, guard.checkOutput({ content: short, finishReason: "length" }, ROWS_SCHEMA));
    assert.equal(verdict.failure, "truncated");
  });
});

describe("createStreamCheck: misuse", () => {
  test("wrong arguments and calls out of order are typed errors", () => {
    const check = guard.createStreamCheck(ROWS_SCHEMA);
    for (const chunk of [undefined, 1, null, {}, ["a"]]) {
      const error = thrown(() => check.push(chunk));
      assert.ok(error instanceof TypeError);
      assert.equal(error.code, "invalid_argument");
    }
    assert.equal(thrown(() => check.end(42)).code, "invalid_argument");
    check.push("{}");
    check.end();
    assert.equal(thrown(() => check.push("x")).code, "invalid_argument");
    assert.equal(thrown(() => check.end()).code, "invalid_argument");
    assert.equal(thrown(() => guard.createStreamCheck(ROWS_SCHEMA, { maxError: 1 })).code, "invalid_argument");
    assert.equal(thrown(() => guard.createStreamCheck({ type: "strnig" }, { onInvalidSchema: "throw" })).name, "SchemaError");
    assert.equal(thrown(() => guard.createStreamCheck("{type: object}", { onInvalidSchema: "throw" })).name, "SchemaError");
    const degraded = guard.createStreamCheck({ type: "strnig" });
    degraded.push('{"a":1}');
    assert.equal(degraded.end().degraded, true);
  });

  test("free() releases a check's text at once, without a verdict", () => {
    const piece = `{"rows":[${Array.from({ length: 400 }, () => '{"type":"fact","when":"2024-02-29","note":"abcdefghijklmnopqrstuvwxyz"}').join(",")}`;
    const open = () => {
      const check = guard.createStreamCheck(ROWS_SCHEMA);
      check.push(piece);
      return check;
    };
    for (let i = 0; i < 60; i++) open().free();
    // How many checks held at once the memory has room for: open checks
    // until it grows (the room depends on what ran before in the process),
    // then free them all, which leaves at least that much room.
    const room = [];
    const before = guard.wasmMemoryBytes();
    while (guard.wasmMemoryBytes() === before && room.length < 5000) room.push(open());
    assert.ok(guard.wasmMemoryBytes() > before, "the test can tell checks that hold their text");
    for (const held of room) held.free();
    // Twice as many checks, each freed before the next opens, fit in that
    // room only if free() gave each one's text back at once.
    const grown = guard.wasmMemoryBytes();
    for (let i = 0; i < 2 * room.length; i++) open().free();
    assert.equal(guard.wasmMemoryBytes(), grown, "freed checks leave nothing behind");
    const check = guard.createStreamCheck(ROWS_SCHEMA);
    check.push('{"rows":[');
    check.free();
    check.free();
    assert.equal(thrown(() => check.push("]}")).code, "invalid_argument");
    assert.equal(thrown(() => check.end()).code, "invalid_argument");
    const ended = guard.createStreamCheck(ROWS_SCHEMA);
    ended.push("{}");
    ended.end();
    ended.free();
  });

  test("push throws after end() or free(), an empty piece and a short one too", () => {
    for (const finish of [(check) => check.end(), (check) => check.free()]) {
      for (const before of ["", "{", '{"rows":[{"type":"fact"']) {
        const check = guard.createStreamCheck(ROWS_SCHEMA);
        if (before !== "") check.push(before);
        finish(check);
        for (const piece of ["", "a", "]}", "x".repeat(40)]) {
          const error = thrown(() => check.push(piece));
          assert.equal(error?.code, "invalid_argument", `push(${JSON.stringify(piece)}) after ${before === "" ? "nothing" : "a piece"}`);
          assert.match(error.message, /ended/);
        }
      }
    }
  });

  test("an empty stream is empty, as checkOutput says", () => {
    const check = guard.createStreamCheck(ROWS_SCHEMA);
    assert.deepEqual(check.push(""), { status: "pending" });
    assert.equal(check.bytes, 0);
    assert.deepEqual(check.end(null), guard.checkOutput({ content: "", finishReason: null }, ROWS_SCHEMA));
  });
});
