// JSON text at its edges: lone surrogates, numbers JSON.parse rounds,
// duplicate keys, and __proto__/constructor/prototype keys. The value accepted
// is the one JSON.parse gives, the verdict judges that value, and nothing is
// polluted.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { openaiChat } from "../../support/fixtures.mjs";
import { SMALL_SCHEMA, stillWorks, outcome, assertVerdict } from "../../support/robustness.mjs";

describe("strings with lone UTF-16 surrogates", () => {
  const STRING_SCHEMA = { type: "object", properties: { a: { type: "string" } } };

  test("escaped in JSON text (\\ud800): unparseable, as documented, although JSON.parse accepts it", () => {
    // JSON.parse turns an escaped lone surrogate into a lone code unit; the
    // package refuses it, because it is not a Unicode scalar value.
    assert.equal(JSON.parse('"x\\ud800y"'), "x\ud800y");
    for (const text of ['{"a":"x\\ud800y"}', '{"a":"\\udc00"}', '{"a":"\\ud83d"}', '{"\\ud800":1}']) {
      for (const schema of [STRING_SCHEMA, guard.compileSchema(STRING_SCHEMA)]) {
        const verdict = guard.checkOutput(text, schema);
        assert.equal(verdict.failure, "unparseable", text);
      }
    }
    // A well-formed escaped pair is one character.
    const pair = guard.checkOutput('{"a":"\\ud83d\\ude00"}', { type: "object", properties: { a: { maxLength: 1 } } });
    assert.equal(pair.ok, true);
    assert.equal(pair.value.a, "😀");
    stillWorks();
  });

  test("raw in a JS string output: a verdict, never a trap", () => {
    for (const text of ['{"a":"x\ud800y"}', '{"a":"\udfff"}', '{"a":"\ud83d"}', '{"\ud800":"k"}', '{"a":"\ud800\udc00\ud800"}']) {
      for (const schema of [STRING_SCHEMA, guard.compileSchema(STRING_SCHEMA)]) {
        const { value } = outcome(() => guard.checkOutput(text, schema), text);
        if (value !== undefined) assertVerdict(value, text);
        // A lone surrogate is not Unicode: it is checked, and returned, as
        // U+FFFD (what String.prototype.toWellFormed gives).
        if (value?.ok) assert.deepEqual(value.value, JSON.parse(text.toWellFormed()), "an accepted value is the text checked");
      }
    }
    stillWorks();
  });

  test("raw in a JS string output: the string validated is the string returned", () => {
    // The string the model wrote holds U+D800, not U+FFFD. Accepting it
    // against const "\uFFFD" would hand the caller a value that breaks the
    // schema it was checked against.
    const schema = { type: "object", properties: { a: { const: "\ufffd" } } };
    for (const checked of [schema, guard.compileSchema(schema)]) {
      const verdict = guard.checkOutput('{"a":"\ud800"}', checked);
      if (verdict.ok) {
        assert.equal(verdict.value.a, "\ufffd", `accepted ${JSON.stringify(verdict.value)} against const "\\ufffd"`);
      }
    }
    stillWorks();
  });

  test("raw in the content of a provider response object: a verdict, as for the same text given as a string", () => {
    // A response cut inside an emoji ends in half a surrogate pair.
    const cases = [
      [openaiChat('{"a":"x\ud800y"}'), guard.checkOutput('{"a":"x\ud800y"}', STRING_SCHEMA)],
      [openaiChat('{"a":"smile \ud83d', { finishReason: "length" }), { ok: false, failure: "truncated" }],
      [{ content: '{"a":"\udc00"}', finishReason: "stop" }, guard.checkOutput('{"a":"\udc00"}', STRING_SCHEMA)],
    ];
    for (const [response, expected] of cases) {
      let verdict;
      try {
        verdict = guard.checkOutput(response, STRING_SCHEMA);
      } catch (error) {
        assert.fail(`checkOutput threw ${error?.constructor?.name} (${error?.code}) "${error?.message}" for bad output, instead of a verdict like ${JSON.stringify({ ok: expected.ok, failure: expected.failure })}`);
      }
      assertVerdict(verdict, "provider response");
      assert.equal(verdict.ok, expected.ok);
      assert.equal(verdict.failure, expected.failure);
    }
    stillWorks();
  });

  test("raw in a JS value given as an instance or a schema: a verdict or a typed error", () => {
    const validator = guard.compileSchema(STRING_SCHEMA);
    for (const [name, fn] of [
      ["validate", () => validator.validate({ a: "\ud800" })],
      ["isValid", () => validator.isValid({ "\udc00": "x" })],
      ["schema const", () => guard.compileSchema({ const: "\ud800" })],
      ["schema key", () => guard.compileSchema({ properties: { "\ud800": { type: "string" } } })],
      ["schema text", () => guard.compileSchema('{"const":"\ud800"}')],
      ["checkOutput with that schema", () => guard.checkOutput('{"a":"x"}', { properties: { a: { const: "\ud800" } } })],
      ["rescueJson", () => guard.rescueJson("```json\n{\"a\":\"\ud800\"}\n```")],
    ]) {
      outcome(fn, name);
    }
    stillWorks();
  });
});

describe("numbers JSON.parse would round", () => {
  const NUMBER_TEXTS = [
    "9007199254740993", // 2^53 + 1: JSON.parse gives 2^53
    "-9007199254740993",
    "18446744073709551617", // 2^64 + 1
    "123456789012345678901234567890",
    "1e308",
    "1e-400", // underflows to 0
    "-1e-400", // underflows to -0
    "-0",
    "0.30000000000000001",
    "1.0",
    "5e-324",
  ];

  test("an accepted number is returned exactly as JSON.parse gives it", () => {
    const schema = { type: "object", properties: { n: { type: "number" } } };
    for (const n of NUMBER_TEXTS) {
      const text = `{"n":${n}}`;
      for (const checked of [schema, guard.compileSchema(schema)]) {
        const verdict = guard.checkOutput(text, checked);
        assert.equal(verdict.ok, true, `${n}: ${verdict.message}`);
        assert.ok(Object.is(verdict.value.n, JSON.parse(text).n), `${n} came back as ${verdict.value.n}, JSON.parse gives ${JSON.parse(text).n}`);
      }
    }
    stillWorks();
  });

  test("1e400 and -1e400 (Infinity to JSON.parse) are never accepted", () => {
    for (const n of ["1e400", "-1e400", "1E+999", "-123e99999"]) {
      for (const schema of [{ type: "object" }, { type: "object", properties: { n: { type: "number" } } }, { type: "object", properties: { n: { type: "integer", minimum: 0 } } }]) {
        const verdict = guard.checkOutput(`{"n":${n}}`, schema);
        assert.equal(verdict.ok, false, `${n} was accepted as ${verdict.value?.n}`);
        // The core's JSON reader refuses numbers out of the f64 range.
        assert.equal(verdict.failure, "unparseable", n);
      }
    }
    stillWorks();
  });

  test("integer, minimum and maximum judge the number as given; underflow is zero", () => {
    const judge = (n, keywords) => guard.checkOutput(`{"n":${n}}`, { type: "object", properties: { n: keywords } });
    assert.equal(judge("9007199254740993", { type: "integer" }).ok, true);
    assert.equal(judge("123456789012345678901234567890", { type: "integer" }).ok, true);
    assert.equal(judge("1e308", { type: "integer" }).ok, true);
    assert.equal(judge("1.5", { type: "integer" }).ok, false);
    assert.equal(judge("1e-400", { type: "integer" }).ok, true, "1e-400 reads as 0, an integer");
    assert.equal(judge("1e-400", { exclusiveMinimum: 0 }).failure, "schema", "1e-400 reads as 0, not above 0");
    assert.equal(judge("-1e-400", { minimum: 0 }).ok, true);
    assert.equal(judge("9007199254740993", { maximum: 1e300 }).ok, true);
    assert.equal(judge("1e308", { maximum: 1e307 }).failure, "schema");
    assert.equal(judge("-1e308", { minimum: -1e307 }).failure, "schema");
    stillWorks();
  });

  test("an accepted value satisfies the schema it was checked against, as the caller receives it", () => {
    // Beyond 2^53 JSON.parse rounds: 9007199254740993 arrives as
    // 9007199254740992. A check that compares the exact decimal accepts
    // outputs whose returned value breaks the schema.
    const cases = [
      ['{"n":9007199254740993}', { type: "object", properties: { n: { exclusiveMinimum: 9007199254740992 } } }],
      ['{"n":-9007199254740993}', { type: "object", properties: { n: { exclusiveMaximum: -9007199254740992 } } }],
      ['{"n":9007199254740993}', { type: "object", properties: { n: { not: { const: 9007199254740992 } } } }],
      ['{"n":[9007199254740993,9007199254740992]}', { type: "object", properties: { n: { uniqueItems: true } } }],
      ['{"n":9007199254740993}', { type: "object", properties: { n: { not: { enum: [9007199254740992] } } } }],
    ];
    const broken = [];
    for (const [text, schema] of cases) {
      for (const checked of [schema, guard.compileSchema(schema)]) {
        const verdict = guard.checkOutput(text, checked);
        if (verdict.ok && !guard.compileSchema(schema).isValid(verdict.value)) {
          broken.push(`${text} against ${JSON.stringify(schema.properties.n)} accepted as ${JSON.stringify(verdict.value)}`);
        }
      }
    }
    assert.deepEqual(broken, [], `accepted values that break their schema:\n${broken.join("\n")}`);
    stillWorks();
  });
});

describe("duplicate keys in output text", () => {
  // Each: text with a repeated key, and a schema whose verdict depends on
  // which occurrence is read.
  const CASES = [
    ['{"a":1,"a":"x"}', { properties: { a: { type: "string" } } }],
    ['{"a":"x","a":1}', { properties: { a: { type: "string" } } }],
    ['{"a":1,"a":2}', { maxProperties: 1 }],
    ['{"a":1,"a":2}', { minProperties: 2 }],
    ['{"a":1,"a":2}', { const: { a: 2 } }],
    ['{"a":1,"a":2}', { const: { a: 1 } }],
    ['{"o":{"a":1,"a":2}}', { properties: { o: { enum: [{ a: 2 }] } } }],
    ['{"l":[{"a":1,"a":2},{"a":2}]}', { properties: { l: { uniqueItems: true } } }],
    ['{"l":[{"a":2,"a":1},{"a":2}]}', { properties: { l: { uniqueItems: true } } }],
    ['{"o":{"b":"x","b":5}}', { properties: { o: { properties: { b: { type: "string" } } } } }],
    ['{"o":{"b":5,"b":"x"}}', { properties: { o: { properties: { b: { type: "string" } } } } }],
    ['{"a":1,"z":1,"a":"s"}', { properties: { a: { type: "string" } }, additionalProperties: { type: "integer" } }],
    ['{"a":"x","b":1,"c":2,"d":3,"e":4,"f":5,"g":6,"a":7}', { properties: { a: { type: "string" } } }],
    ['{"l":[{"k":"bad","k":"good"}]}', { properties: { l: { contains: { properties: { k: { const: "good" } } } } } }],
    ['{"k":1,"k":"s"}', { oneOf: [{ properties: { k: { type: "string" } } }, { properties: { k: { type: "integer" } } }] }],
    ['{"ab":1,"ab":"s"}', { patternProperties: { "^a": { type: "string" } } }],
    ['{"a":1,"a":2}', { properties: { a: { const: 2 } }, unevaluatedProperties: false }],
    ['{"a":1,"a":"s","b":1,"c":1}', { properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } }],
    ['{"a":{"x":1},"a":{"y":1}}', { properties: { a: { required: ["x"] } } }],
    ['{"a":{"x":1},"a":{"y":1}}', { properties: { a: { required: ["y"] } } }],
    ['{"a":"s","a":null,"a":"t"}', { properties: { a: { type: "string" } } }],
  ];

  test("the value returned is JSON.parse's (the last occurrence wins), and the verdict judges that value", () => {
    const mismatches = [];
    for (const [text, raw] of CASES) {
      const schema = { type: "object", ...raw };
      const reference = guard.compileSchema(schema).validate(JSON.parse(text), { maxErrors: 100 });
      const expected = reference.errors.map((e) => [e.path, e.code]);
      for (const [path, checked, options] of [
        ["schema object", schema, undefined],
        ["Validator", guard.compileSchema(schema), undefined],
        ["Validator with maxErrors", guard.compileSchema(schema), { maxErrors: 100 }],
        ["schema object with options", schema, { maxErrors: 100, requireObject: true }],
        ["provider response", schema, undefined, true],
      ]) {
        const output = path === "provider response" ? openaiChat(text) : text;
        const verdict = guard.checkOutput(output, checked, options);
        if (verdict.ok !== reference.valid) {
          mismatches.push(`${path}: ${text} against ${JSON.stringify(raw)}: verdict ok=${verdict.ok}, JSON.parse's value is ${reference.valid ? "valid" : "invalid"}`);
          continue;
        }
        if (verdict.ok) assert.deepEqual(verdict.value, JSON.parse(text), `${path}: ${text}`);
        else if (options?.maxErrors === 100) assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), expected, `${path}: ${text}`);
      }
    }
    assert.deepEqual(mismatches, [], mismatches.join("\n"));
    stillWorks();
  });
});

describe("__proto__, constructor and prototype keys", () => {
  const PROTO_TEXTS = [
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"a":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}',
    '{"prototype":{"polluted":"yes"},"__proto__":[1,2],"constructor":"x"}',
    '{"l":[{"__proto__":{"isAdmin":true}}]}',
  ];

  function assertNoPollution() {
    assert.equal({}.polluted, undefined);
    assert.equal({}.isAdmin, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "isAdmin"), false);
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
    assert.equal(typeof Object.prototype.constructor, "function");
  }

  test("accepted values have them as own properties, exactly as JSON.parse gives, and nothing is polluted", async () => {
    for (const text of PROTO_TEXTS) {
      for (const schema of [{ type: "object" }, guard.compileSchema({ type: "object" }), undefined]) {
        const verdict = guard.checkOutput(text, schema);
        assert.equal(verdict.ok, true, text);
        assert.deepEqual(verdict.value, JSON.parse(text));
        assert.equal(Object.getPrototypeOf(verdict.value), Object.prototype, "the value's own prototype is untouched");
        if (text.startsWith('{"__proto__"')) {
          assert.ok(Object.prototype.hasOwnProperty.call(verdict.value, "__proto__"), "__proto__ is an own property");
        }
        assertNoPollution();
      }
    }
    const result = await guard.guardedCall({ messages: [] }, async () => openaiChat(PROTO_TEXTS[0]), { schema: { type: "object" } });
    assert.ok(Object.prototype.hasOwnProperty.call(result.value, "__proto__"));
    assertNoPollution();
    stillWorks();
  });

  test("a schema can require and constrain a __proto__ property, given as text or as a parsed object", () => {
    const schemaText = '{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}';
    for (const schema of [schemaText, JSON.parse(schemaText), guard.compileSchema(schemaText)]) {
      assert.equal(guard.checkOutput('{"__proto__":"s"}', schema).ok, true);
      const wrongType = guard.checkOutput('{"__proto__":{"polluted":"yes"}}', schema);
      assert.equal(wrongType.failure, "schema");
      assert.deepEqual(wrongType.errors.map((e) => [e.path, e.code]), [["/__proto__", "type"]]);
      const missing = guard.checkOutput('{"a":1}', schema);
      assert.deepEqual(missing.errors.map((e) => [e.path, e.code]), [["", "required"]]);
    }
    // An instance with an own __proto__ key is seen as JSON sees it.
    const validator = guard.compileSchema(schemaText);
    assert.equal(validator.isValid(JSON.parse('{"__proto__":"s"}')), true);
    assert.equal(validator.isValid({}), false);
    assertNoPollution();
    stillWorks();
  });

  test("__proto__ in options, rules and usage objects pollutes nothing", () => {
    outcome(() => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, JSON.parse('{"__proto__":{"maxErrors":-1,"polluted":"yes"}}')), "options");
    outcome(() => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, { rules: [JSON.parse('{"name":"r","then":{"required":["__proto__"]},"message":"m","__proto__":{"polluted":"yes"}}')] }), "rules");
    const merged = guard.mergeUsage(JSON.parse('{"tokens":{"__proto__":{"polluted":1},"input":1}}'), JSON.parse('{"tokens":{"__proto__":{"polluted":2},"input":2}}'));
    assert.equal(merged.tokens.input, 3);
    guard.normalizeUsage(JSON.parse('{"usage":{"__proto__":{"polluted":1},"prompt_tokens":1}}'));
    guard.detectTruncation(JSON.parse('{"__proto__":{"finish_reason":"length"},"choices":[]}'));
    assertNoPollution();
    stillWorks();
  });
});
