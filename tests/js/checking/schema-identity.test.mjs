// Schemas found by identity: a schema object, a
// response-format wrapper or JSON text is read and compiled once, then found
// again by the object (or the text) on every later call, without being
// serialised, parsed or hashed again. Reads are counted with a Proxy that
// sees every property read at every depth; core calls by wrapping the
// instance's raw exports.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import * as guard from "../../../pkg/node.mjs";
import { coreCalls, textPathVerdict } from "../../support/core-calls.mjs";
import { openaiChat, rejected, thrown } from "../../support/fixtures.mjs";

const EXTRACTION = {
  type: "object",
  required: ["name", "email", "at"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1 },
    email: { type: "string", format: "email" },
    at: { type: "string", format: "date-time" },
  },
};
const GOOD = '{"name":"Ada","email":"ada@example.com","at":"2026-01-31T10:00:00Z"}';
const BAD = '{"name":"","email":"not an email","at":"yesterday"}';

/** A deep Proxy over a copy of `schema` counting every property read, at any depth. */
function counted(schema) {
  let reads = 0;
  const proxies = new WeakMap();
  const wrap = (target) => {
    if (target === null || typeof target !== "object") return target;
    if (!proxies.has(target)) {
      proxies.set(target, new Proxy(target, {
        get(object, key, receiver) {
          reads += 1;
          return wrap(Reflect.get(object, key, receiver));
        },
      }));
    }
    return proxies.get(target);
  };
  return { schema: wrap(structuredClone(schema)), reads: () => reads };
}

const CHECKS = 1000;

describe("a schema object is read once", () => {
  test("1,000 checks of strings read the schema object no more than the first did", () => {
    const { schema, reads } = counted(EXTRACTION);
    assert.equal(guard.checkOutput(GOOD, schema).ok, true);
    const first = reads();
    assert.ok(first > 0, "the first check reads the schema");
    for (let i = 0; i < CHECKS; i++) {
      assert.equal(guard.checkOutput(i % 2 ? GOOD : BAD, schema).ok, Boolean(i % 2));
    }
    assert.equal(reads(), first);
  });

  test("so do checks of response objects, with check options, and guarded calls", async () => {
    const { schema, reads } = counted(EXTRACTION);
    guard.checkOutput(openaiChat(GOOD), schema);
    const first = reads();
    for (let i = 0; i < CHECKS; i++) {
      guard.checkOutput(openaiChat(GOOD), schema, { maxErrors: 2, requireObject: true });
      guard.checkOutput({ content: BAD, finishReason: "stop" }, schema, { onInvalidSchema: "throw" });
    }
    for (let i = 0; i < 20; i++) {
      const result = await guard.guardedCall({}, async () => openaiChat(GOOD), { schema });
      assert.equal(result.value.name, "Ada");
    }
    assert.equal(reads(), first);
  });

  test("a response-format wrapper is read once, its strict flag included", async () => {
    const { schema: wrapper, reads } = counted({ name: "extraction", strict: false, schema: EXTRACTION });
    assert.equal(guard.checkOutput(openaiChat(GOOD), wrapper).ok, true);
    for (let i = 0; i < CHECKS; i++) guard.checkOutput(openaiChat(BAD), wrapper);
    // strict: false in the wrapper makes guardedCall lenient.
    const lenient = await guard.guardedCall({}, async () => openaiChat(BAD), { schema: wrapper });
    assert.match(lenient.warning, /^schema:/);
    const first = reads();
    for (let i = 0; i < 20; i++) await guard.guardedCall({}, async () => openaiChat(BAD), { schema: wrapper });
    assert.equal(reads(), first);
  });

  test("each set of compile options compiles once; check options share one compilation", () => {
    const { schema, reads } = counted(EXTRACTION);
    const calls = coreCalls(["compileSchema"], () => {
      for (let i = 0; i < 100; i++) {
        guard.checkOutput(BAD, schema);
        guard.checkOutput(BAD, schema, { maxErrors: 1 });
        guard.checkOutput(BAD, schema, { formats: "annotate" });
        guard.checkOutput(BAD, schema, { formats: "annotate", draft: "2020-12" });
      }
    });
    assert.equal(calls.compileSchema, 3);
    assert.equal(guard.checkOutput(BAD, schema, { formats: "annotate" }).errors.length, 1, "only minLength, formats annotated");
    assert.equal(guard.checkOutput(BAD, schema).errors.length, 3);
    assert.ok(reads() > 0);
  });

  test("compileSchema, repairFeedback and toProviderSchema read it once too", () => {
    const { schema, reads } = counted(EXTRACTION);
    const verdict = guard.checkOutput(BAD, schema);
    const first = reads();
    for (let i = 0; i < 50; i++) {
      const validator = guard.compileSchema(schema);
      assert.equal(validator.isValid(JSON.parse(GOOD)), true);
      validator.free();
      assert.match(guard.repairFeedback(verdict, schema), /\/email/);
      assert.equal(typeof guard.toProviderSchema(schema, "openai").schema, "object");
    }
    assert.equal(reads(), first);
  });
});

describe("JSON text is found by the text", () => {
  test("1,000 checks against the same text compile it once and never take the text path", () => {
    const text = JSON.stringify({ ...EXTRACTION, title: "text once" });
    const calls = coreCalls(["compileSchema", "checkOutput", "checkOutputWith", "checkInputLane"], () => {
      for (let i = 0; i < CHECKS; i++) {
        // A fresh but equal string each time: found by content, not by the string object.
        assert.equal(guard.checkOutput(i % 2 ? GOOD : BAD, `${text}`).ok, Boolean(i % 2));
      }
    });
    // The first check compiles, by the general path; the rest take the lane
    // (or no call at all, where the schema's check program accepts the text).
    const { checkInputLane, ...others } = calls;
    assert.deepEqual(others, { compileSchema: 1, checkOutput: 0, checkOutputWith: 1 });
    assert.ok(checkInputLane <= CHECKS - 1, `${checkInputLane} lane calls`);
  });

  test("the text map is bounded by the cache capacity, least recently used out first", () => {
    const texts = [0, 1, 2].map((i) => JSON.stringify({ ...EXTRACTION, title: `bounded ${i}` }));
    guard.clearSchemaCache();
    guard.setSchemaCacheCapacity(2);
    try {
      const cycling = coreCalls(["compileSchema"], () => {
        for (let round = 0; round < 10; round++) for (const text of texts) guard.checkOutput(GOOD, text);
      });
      assert.equal(cycling.compileSchema, 30, "three texts cycling through two places: every use compiles");
      guard.setSchemaCacheCapacity(3);
      const fitting = coreCalls(["compileSchema"], () => {
        for (let round = 0; round < 10; round++) for (const text of texts) guard.checkOutput(GOOD, text);
      });
      assert.equal(fitting.compileSchema, 1, "with room for all three, only the one evicted last compiles again");
    } finally {
      guard.setSchemaCacheCapacity(128);
      guard.clearSchemaCache();
    }
  });
});

describe("the fast lane serves schema objects, wrappers and text", () => {
  for (const [kind, make] of [
    ["a schema object", () => ({ ...EXTRACTION })],
    ["a response-format wrapper", () => ({ name: "x", strict: true, schema: { ...EXTRACTION } })],
    ["JSON text", () => JSON.stringify({ ...EXTRACTION, title: "lane" })],
  ]) {
    test(`${kind}: after the first check, strings are checked by the lane alone`, () => {
      const schema = make();
      const expected = guard.checkOutput(GOOD, schema);
      const expectedBad = guard.checkOutput(BAD, schema);
      let verdicts;
      const calls = coreCalls(["checkOutput", "checkOutputWith", "checkInputLane", "compileSchema"], () => {
        verdicts = [];
        for (let i = 0; i < 100; i++) {
          verdicts.push(guard.checkOutput(GOOD, schema), guard.checkOutput(BAD, schema, { maxErrors: 5, onInvalidSchema: "throw" }));
        }
      });
      // The lane, or no call at all where the schema's check program
      // accepts the text or lists a rejected text's issues itself.
      const { checkInputLane, ...others } = calls;
      assert.deepEqual(others, { checkOutput: 0, checkOutputWith: 0, compileSchema: 0 });
      assert.ok(checkInputLane <= 200, `${checkInputLane} lane calls`);
      assert.deepEqual(verdicts[0], expected);
      assert.deepEqual(verdicts[1], expectedBad);
      assert.deepEqual(verdicts.at(-1), expectedBad);
      assert.deepEqual(expected, textPathVerdict(GOOD, make()));
      assert.deepEqual(expectedBad, textPathVerdict(BAD, make()));
    });
  }

  test("compile options are honoured on the lane", () => {
    const schema = { ...EXTRACTION };
    guard.checkOutput(BAD, schema, { formats: "annotate" });
    const calls = coreCalls(["checkOutput", "checkOutputWith"], () => {
      assert.deepEqual(guard.checkOutput(BAD, schema, { formats: "annotate" }).errors.map((e) => e.code), ["minLength"]);
      assert.equal(guard.checkOutput(BAD, schema).errors.length, 3);
    });
    assert.deepEqual(calls, { checkOutput: 0, checkOutputWith: 1 }, "the first use without options compiles, by the general path");
  });
});

describe("mutating a schema object after its first use", () => {
  test("is not seen: the object was read once (documented, as ajv does); a copy or clearSchemaCache() sees it", () => {
    const schema = structuredClone(EXTRACTION);
    assert.equal(guard.checkOutput(BAD, schema).ok, false);
    schema.properties.name.minLength = 0;
    delete schema.properties.email.format;
    delete schema.properties.at.format;
    assert.equal(guard.checkOutput(BAD, schema).ok, false, "the schema as first read");
    assert.equal(guard.checkOutput(BAD, { ...schema }).ok, true, "a new object is read anew");
    guard.clearSchemaCache();
    assert.equal(guard.checkOutput(BAD, schema).ok, true, "after clearing, the object is read again");
  });
});

describe("a schema that cannot compile is remembered", () => {
  const broken = () => ({ type: "object", properties: { name: { type: 12 } } });

  test("compiled once across 1,000 checks, with the degraded verdict of the text path", () => {
    const { schema, reads } = counted(broken());
    let verdicts = [];
    const calls = coreCalls(["compileSchema"], () => {
      for (let i = 0; i < CHECKS; i++) verdicts.push(guard.checkOutput(i % 2 ? GOOD : "[]", schema));
    });
    assert.equal(calls.compileSchema, 1);
    const first = reads();
    for (let i = 0; i < 10; i++) guard.checkOutput(GOOD, schema);
    assert.equal(reads(), first);
    assert.deepEqual(verdicts[1], textPathVerdict(GOOD, broken()));
    assert.deepEqual(verdicts[0], textPathVerdict("[]", broken()));
    assert.deepEqual(verdicts.at(-1), verdicts[1]);
    assert.equal(verdicts[1].degraded, true);
    assert.equal(verdicts[1].schemaHash, null);
  });

  test("asked to throw, every call throws the compilation's SchemaError, and option mistakes still come first", () => {
    const schema = broken();
    const expected = thrown(() => guard.compileSchema(broken()));
    assert.ok(expected instanceof guard.SchemaError);
    const calls = coreCalls(["compileSchema"], () => {
      for (let i = 0; i < 20; i++) {
        const error = thrown(() => guard.checkOutput(GOOD, schema, { onInvalidSchema: "throw" }));
        assert.ok(error instanceof guard.SchemaError);
        assert.equal(error.code, "invalid_schema");
        assert.equal(error.message, expected.message);
        const again = thrown(() => guard.compileSchema(schema));
        assert.ok(again instanceof guard.SchemaError);
        assert.equal(again.message, expected.message);
      }
    });
    assert.equal(calls.compileSchema, 1);
    const misuse = thrown(() => guard.checkOutput(GOOD, schema, { onInvalidSchema: "throw", maxErrors: -1 }));
    assert.equal(misuse.code, "invalid_argument");
    assert.match(misuse.message, /maxErrors/);
  });

  test("a schema that is not JSON at all is judged once too", () => {
    let reads = 0;
    const schema = {
      type: "object",
      get properties() {
        reads += 1;
        return new Map();
      },
    };
    for (let i = 0; i < 100; i++) assert.equal(guard.checkOutput(GOOD, schema).degraded, true);
    assert.equal(thrown(() => guard.checkOutput(GOOD, schema, { onInvalidSchema: "throw" })).name, "SchemaError");
    assert.equal(reads, 1);
  });

  test("options the core refuses are the caller's mistake, not remembered against the schema", () => {
    const schema = { ...EXTRACTION };
    for (let i = 0; i < 3; i++) {
      const error = thrown(() => guard.checkOutput(GOOD, schema, { formats: "asert" }));
      assert.equal(error.code, "invalid_argument");
      assert.match(error.message, /formats/);
    }
    assert.equal(guard.checkOutput(GOOD, schema, { formats: "assert" }).ok, true);
  });
});

describe("clearing and capacity", () => {
  test("clearSchemaCache() clears the identity caches with the core's", () => {
    const { schema, reads } = counted({ ...EXTRACTION, title: "cleared" });
    guard.checkOutput(GOOD, schema);
    const once = reads();
    guard.checkOutput(GOOD, schema);
    assert.equal(reads(), once);
    guard.clearSchemaCache();
    assert.equal(guard.schemaCacheSize(), 0);
    assert.equal(guard.checkOutput(BAD, schema).failure, "schema");
    assert.equal(reads(), 2 * once, "read again after clearing");
    assert.equal(guard.schemaCacheSize(), 1);
  });

  test("compiled handles are bounded by the capacity; the object is still read only once", () => {
    const objects = [0, 1, 2].map((i) => counted({ ...EXTRACTION, title: `capacity ${i}` }));
    guard.clearSchemaCache();
    guard.setSchemaCacheCapacity(2);
    try {
      const calls = coreCalls(["compileSchema"], () => {
        for (let round = 0; round < 10; round++) {
          for (const { schema } of objects) assert.equal(guard.checkOutput(BAD, schema).failure, "schema");
        }
      });
      assert.equal(calls.compileSchema, 30, "three schemas cycling through two handles compile on every use");
      assert.ok(guard.schemaCacheSize() <= 2);
      const firstReads = objects.map(({ reads }) => reads());
      assert.ok(firstReads.every((n) => n === firstReads[0] && n > 0), "each object read once, compiled again from its text");
    } finally {
      guard.setSchemaCacheCapacity(128);
      guard.clearSchemaCache();
    }
  });

  test("guarded calls over schemas the cache keeps evicting compile again and decide as ever", async () => {
    const schemas = [0, 1, 2].map((i) => ({ ...EXTRACTION, title: `evicted ${i}` }));
    guard.clearSchemaCache();
    guard.setSchemaCacheCapacity(2);
    try {
      for (let round = 0; round < 5; round++) {
        for (const schema of schemas) {
          // A tool in the request: the invalid response is rejected at once, not resampled.
          const request = { tools: [{ type: "function", function: { name: "f" } }] };
          const accepted = await guard.guardedCall(request, async () => openaiChat(GOOD), { schema });
          assert.equal(accepted.value.name, "Ada");
          const error = await rejected(guard.guardedCall(request, async () => openaiChat(BAD), { schema }));
          assert.equal(error.failure, "schema");
          assert.ok(guard.schemaCacheSize() <= 2);
        }
      }
    } finally {
      guard.setSchemaCacheCapacity(128);
      guard.clearSchemaCache();
    }
  });

  test("with resources, the schema compiles through the content cache on each call (nothing else to key by)", () => {
    const schema = { type: "object", properties: { a: { $ref: "https://x.example/a.json" } } };
    const options = { resources: { "https://x.example/a.json": { type: "string" } } };
    const calls = coreCalls(["checkOutput", "compileSchema"], () => {
      for (let i = 0; i < 5; i++) assert.equal(guard.checkOutput('{"a":1}', schema, options).failure, "schema");
    });
    assert.deepEqual(calls, { checkOutput: 5, compileSchema: 0 });
  });
});

const trapPkg = new URL("../../../target/trap-pkg/", import.meta.url);

describe("after a trap", { skip: !existsSync(new URL("node.mjs", trapPkg)) && "target/trap-pkg is missing: run scripts/build-trap.sh" }, () => {
  test("no handle of the dead instance is used: schemas are found again on the fresh one", async () => {
    const trapGuard = await import(new URL("node.mjs", trapPkg).href);
    const trapInternals = await import(new URL("testing.mjs", trapPkg).href);
    const trap = () => {
      const error = thrown(() => trapInternals.callRaw(() => trapInternals.rawGlue().debugTrap()));
      assert.equal(error.code, "internal");
    };
    const { schema, reads } = counted(EXTRACTION);
    const wrapper = { name: "x", schema: { ...EXTRACTION } };
    const text = JSON.stringify({ ...EXTRACTION, title: "trap" });
    const failing = { type: 12 };
    const all = [schema, wrapper, text];
    for (const s of all) {
      assert.equal(trapGuard.checkOutput(GOOD, s).ok, true);
      assert.equal(trapGuard.checkOutput(BAD, s).failure, "schema");
    }
    assert.equal(trapGuard.checkOutput(GOOD, failing).degraded, true);
    const before = reads();
    for (let round = 0; round < 3; round++) {
      trap();
      // A dead instance's exports answer 0 to everything, which the lane
      // would read as "accepted": BAD must still fail, on the fresh instance.
      for (const s of all) {
        assert.equal(trapGuard.checkOutput(BAD, s).failure, "schema");
        assert.equal(trapGuard.checkOutput(GOOD, s).ok, true);
        assert.equal(trapGuard.checkOutput(openaiChat(BAD), s).failure, "schema");
      }
      assert.equal(trapGuard.checkOutput(GOOD, failing).degraded, true);
      assert.equal(trapGuard.checkOutput("[]", failing).failure, "not_object");
    }
    assert.equal(reads(), 4 * before, "read again once per fresh instance");
  });
});
