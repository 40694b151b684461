// The read lane compares a response with the copy the core read last
// without making a copy (js/copy-match.mjs, `matchAlong`): it may only say "the
// same" when the copy's JSON text would be the same, and its texts must be
// the ones the copy refers to.
import { test } from "node:test";
import assert from "node:assert/strict";
import "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { prng as random } from "../../support/random.mjs";

// Member names the output plan reads (and some it does not), so that the
// generated responses go down the plan's paths.
const NAMES = [
  "content", "choices", "message", "text", "finish_reason", "finishReason", "tool_calls", "function", "arguments",
  "name", "id", "type", "candidates", "parts", "output", "output_text", "stop_reason", "object", "input",
  "response", "status", "unified", "raw", "thought", "toolUse", "functionCall", "args", "steps", "extra",
];
const WORDS = ["stop", "length", "tool_use", "text", "message", "chat.completion", "", "x"];

class Box {
  constructor(v) {
    this.v = v;
  }
  get text() {
    return typeof this.v === "string" ? this.v : "boxed";
  }
}

function generator(seed) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const leaf = () => {
    const r = next();
    if (r < 0.3) return pick(WORDS);
    if (r < 0.4) return `text ${Math.floor(next() * 3)}`;
    if (r < 0.5) return Math.floor(next() * 4);
    if (r < 0.55) return pick([NaN, -0, Infinity, 1.5, 2n ** 60n, 7n]);
    if (r < 0.62) return pick([true, false, null]);
    if (r < 0.67) return pick([undefined, () => 1, Symbol("s")]);
    if (r < 0.7) return new Date(0);
    if (r < 0.74) return "\ud800 lone";
    return pick(WORDS);
  };
  const value = (depth) => {
    const r = next();
    if (depth > 3 || r < 0.35) return leaf();
    if (r < 0.55) return Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1));
    if (r < 0.6) return new Box(value(depth + 1));
    const out = {};
    const n = Math.floor(next() * 4);
    for (let i = 0; i < n; i++) out[pick(NAMES)] = value(depth + 1);
    if (next() < 0.05) {
      const word = pick(WORDS);
      Object.defineProperty(out, "text", { get: () => word, enumerable: true });
    }
    if (next() < 0.04) out.toJSON = () => "written instead";
    return out;
  };
  return () => {
    const out = {};
    const n = 1 + Math.floor(next() * 4);
    for (let i = 0; i < n; i++) out[pick(NAMES)] = value(0);
    return out;
  };
}

/** Each response's copy, or undefined when the reader refuses it. */
function copyOf(response) {
  try {
    return internals.outputCopy(response);
  } catch {
    return undefined;
  }
}

test("a response is the same as a copy only when its own copy is written the same", () => {
  const make = generator(12345);
  const pool = Array.from({ length: 400 }, make);
  const copies = pool.map(copyOf);
  let same = 0;
  let compared = 0;
  for (let i = 0; i < pool.length; i++) {
    const earlier = copies[i];
    if (earlier === undefined) continue;
    // Against every response with the same member names at the top (the
    // likeliest to come close), and a few others.
    for (let j = 0; j < pool.length; j++) {
      if (j % 37 !== i % 37 && Object.keys(pool[j]).join() !== Object.keys(pool[i]).join()) continue;
      const mine = copies[j];
      const { same: found, texts } = internals.matchesOutputCopy(pool[j], earlier.text);
      compared += 1;
      if (!found) continue;
      same += 1;
      assert.ok(mine !== undefined, `response ${j} matched copy ${i} but cannot be read`);
      assert.equal(mine.text, earlier.text, `response ${j} matched copy ${i}`);
      assert.deepEqual(texts, mine.texts, `response ${j}: texts`);
    }
  }
  assert.ok(compared > 2000, `compared ${compared}`);
  assert.ok(same > 400, `only ${same} matches`);
});

test("a response made again, with other texts, is the same as its earlier copy", () => {
  // What the lane relies on: JSON-like responses of one shape, whose texts
  // (the answers) differ call after call, are recognised without a copy.
  const make = generator(777);
  let recognised = 0;
  let plain = 0;
  for (let i = 0; i < 600; i++) {
    const response = make();
    const copy = copyOf(response);
    if (copy === undefined) continue;
    let json;
    try {
      json = JSON.stringify(response, (key, value) => (typeof value === "bigint" ? Number(value) : value));
    } catch {
      continue;
    }
    // Only responses JSON carries as they are: plain objects and arrays of
    // strings, finite numbers, booleans and null, with well-formed strings.
    if (json === undefined || /\\ud8|null/.test(json) || json.includes('"1970-')) continue;
    const again = JSON.parse(json, (key, value) => (value === "text 0" ? "text 1" : value));
    const mine = copyOf(again);
    if (mine === undefined || mine.text !== copy.text) continue;
    plain += 1;
    const { same, texts } = internals.matchesOutputCopy(again, copy.text);
    assert.equal(same, true, `response ${i}: ${json.slice(0, 200)}`);
    assert.deepEqual(texts, mine.texts);
    recognised += 1;
  }
  assert.ok(plain > 100, `only ${plain} plain responses`);
  assert.equal(recognised, plain);
});

test("a live value inside a copy is compared as it is now, not as it was", () => {
  const args = { city: "Paris" };
  const response = { choices: [{ message: { content: "{}", tool_calls: [{ id: "1", function: { name: "f", arguments: args } }] }, finish_reason: "stop" }] };
  const before = internals.outputCopy(response);
  assert.equal(internals.matchesOutputCopy(response, before.text).same, true);
  args.city = "Rome";
  assert.equal(internals.matchesOutputCopy(response, before.text).same, false);
  args.city = "Paris";
  args.when = undefined;
  assert.equal(internals.matchesOutputCopy(response, before.text).same, true, "an undefined member is left out, as JSON leaves it");
  args.toJSON = () => "other";
  assert.equal(internals.matchesOutputCopy(response, before.text).same, false);
});

/** Copies of `value` with one change each: an array one shorter or longer, a member gone or added, a word changed. */
function variants(value, next) {
  const out = [];
  const walk = (node, rebuild) => {
    if (Array.isArray(node)) {
      if (node.length > 0) out.push(rebuild(node.slice(0, -1)));
      out.push(rebuild([...node, node[0] ?? "stop"]));
      node.forEach((item, i) => walk(item, (changed) => rebuild(node.map((x, k) => (k === i ? changed : x)))));
    } else if (node !== null && typeof node === "object" && Object.getPrototypeOf(node) === Object.prototype) {
      const names = Object.keys(node);
      for (const name of names) {
        const { [name]: gone, ...rest } = node;
        out.push(rebuild(rest));
        walk(node[name], (changed) => rebuild({ ...node, [name]: changed }));
      }
      out.push(rebuild({ ...node, [NAMES[Math.floor(next() * NAMES.length)]]: "stop" }));
    } else if (typeof node === "string") {
      out.push(rebuild(node === "stop" ? "length" : "stop"));
    }
  };
  walk(value, (changed) => changed);
  return out;
}

test("a response changed in one place is the same as the earlier copy only when its copy is", () => {
  const make = generator(4242);
  const next = random(99);
  let checked = 0;
  let differ = 0;
  for (let i = 0; i < 300; i++) {
    const response = make();
    const earlier = copyOf(response);
    if (earlier === undefined) continue;
    for (const changed of variants(response, next)) {
      const mine = copyOf(changed);
      const { same, texts } = internals.matchesOutputCopy(changed, earlier.text);
      checked += 1;
      if (mine === undefined || mine.text !== earlier.text) {
        differ += 1;
        assert.equal(same, false, `a change the copy shows went unseen: ${mine?.text} against ${earlier.text}`);
      } else if (same) {
        assert.deepEqual(texts, mine.texts);
      }
    }
  }
  assert.ok(checked > 2000 && differ > 500, `${checked} variants, ${differ} with another copy`);
});

// After a first match, a response is walked by a function written for the
// copy's shape (js/copy-match.mjs, `walkOf`); these are the differences it must
// still see, each against a shape that a response has matched before.
test("the walk written for a shape sees what the copy would show", () => {
  const cases = [
    [
      "a member left out before, given now",
      () => ({ choices: [{ message: { content: "a", tool_calls: undefined }, finish_reason: "stop" }] }),
      () => ({ choices: [{ message: { content: "a", tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }] }, finish_reason: "stop" }] }),
    ],
    [
      "a member given before, left out now",
      () => ({ choices: [{ message: { content: "a" }, finish_reason: "stop" }] }),
      () => ({ choices: [{ message: { content: "a" }, finish_reason: undefined }] }),
    ],
    [
      "one more part",
      () => ({ content: [{ type: "text", text: "a" }], stop_reason: "end_turn" }),
      () => ({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], stop_reason: "end_turn" }),
    ],
    [
      "one part fewer",
      () => ({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], stop_reason: "end_turn" }),
      () => ({ content: [{ type: "text", text: "a" }], stop_reason: "end_turn" }),
    ],
    [
      "a text where a word was",
      () => ({ choices: [{ message: { content: "a" }, finish_reason: "stop" }] }),
      () => ({ choices: [{ message: { content: "a" }, finish_reason: "length" }] }),
    ],
    [
      "members in another order",
      () => ({ choices: [{ message: { content: "a" }, finish_reason: "stop" }], object: "chat.completion" }),
      () => ({ object: "chat.completion", choices: [{ message: { content: "a" }, finish_reason: "stop" }] }),
    ],
    [
      "an object of a class",
      () => ({ choices: [{ message: { content: "a" }, finish_reason: "stop" }] }),
      () => ({ choices: [{ message: new (class { content = "a"; })(), finish_reason: "stop" }] }),
    ],
    [
      "an object of a class whose getter gives calls",
      () => ({ choices: [{ message: { content: "a" }, finish_reason: "class" }] }),
      () => ({
        choices: [
          {
            message: new (class {
              content = "a";
              get tool_calls() {
                return [{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }];
              }
            })(),
            finish_reason: "class",
          },
        ],
      }),
    ],
  ];
  for (const [what, first, then] of cases) {
    const earlier = internals.outputCopy(first());
    // Matched once (the walk is written from that match), then against the change.
    assert.equal(internals.matchesOutputCopy(first(), earlier.text).same, true, `${what}: the first response`);
    assert.equal(internals.matchesOutputCopy(first(), earlier.text).same, true, `${what}: the first response again`);
    const changed = then();
    const mine = internals.outputCopy(changed);
    const { same, texts } = internals.matchesOutputCopy(changed, earlier.text);
    assert.equal(same, mine.text === earlier.text, `${what}: ${mine.text} against ${earlier.text}`);
    if (same) assert.deepEqual(texts, mine.texts, what);
  }
});

test("the walk written for a shape reads only a response's own members", () => {
  // A response of one object (an inherited name shows in every plain
  // object's names, so a deeper object would differ anyway).
  // (A word of its own, so that the copy's shape is this test's alone.)
  const response = () => ({ id: "x", stop_reason: "inherited", output_text: "a" });
  const earlier = internals.outputCopy(response());
  assert.equal(internals.matchesOutputCopy(response(), earlier.text).same, true);
  assert.equal(internals.matchesOutputCopy(response(), earlier.text).same, true);
  // The same names, in the same order, but `output_text` inherited.
  Object.prototype.output_text = "a";
  try {
    const inherited = { id: "x", stop_reason: "inherited" };
    assert.deepEqual(Object.keys({ ...inherited }), ["id", "stop_reason"]);
    assert.equal(internals.matchesOutputCopy(inherited, earlier.text).same, false);
  } finally {
    delete Object.prototype.output_text;
  }
});
