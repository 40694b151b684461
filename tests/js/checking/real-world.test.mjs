// What real-world schemas and the AI SDK's errors ask of the guard: email
// formats that are Mailboxes, one ECMA-262 regex dialect (the `u` flag's) for
// `pattern`, `patternProperties` and `format: "regex"`, `$ref`s naming
// definitions with characters a URI cannot hold, an initial base URI, and the
// AI SDK's NoObjectGeneratedError read for its text and usage.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateObject, generateText, jsonSchema, Output, streamObject, simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, openaiChat, scripted, thrown } from "../../support/fixtures.mjs";

const DRAFTS = ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"];

describe("email and idn-email are Mailboxes (RFC 5321, RFC 6531)", () => {
  const displayNames = ["Name <a@b.co>", "x\n\ny <a@b.co>", '"Name" <a@b.co>', "<a@b.co>", "a@b.co (comment)", "(comment)a@b.co"];
  for (const format of ["email", "idn-email"]) {
    for (const $schema of DRAFTS) {
      test(`${format} (${$schema}) rejects display text and comments`, () => {
        const validator = guard.compileSchema({ $schema, type: "string", format });
        for (const address of displayNames) assert.equal(validator.isValid(address), false, address);
      });
      test(`${format} (${$schema}) accepts quoted local parts as RFC 5321 writes them`, () => {
        const validator = guard.compileSchema({ $schema, type: "string", format });
        for (const address of ["a@b.co", '"a b"@b.co', '"a\\ b"@b.co', '"<a>"@b.co', '""@b.co']) {
          assert.equal(validator.isValid(address), true, address);
        }
        assert.equal(validator.isValid('"a\tb"@b.co'), false, "qtextSMTP has no tab");
      });
    }
  }

  test("checkOutput rejects a contact written with a display name", () => {
    const schema = { type: "object", properties: { contact: { type: "string", format: "email" } } };
    const verdict = guard.checkOutput('{"contact":"Ray Shan <ray@shan.io>"}', schema);
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/contact", "format"]]);
  });
});

describe("one regex dialect: ECMA-262 with the u flag", () => {
  /** What the guard decides for `pattern` on `subject`, beside what JavaScript decides. */
  function decide(pattern, subject) {
    return [guard.compileSchema({ type: "string", pattern }).isValid(subject), new RegExp(pattern, "u").test(subject)];
  }

  test("\\b and \\B are boundaries between ASCII word characters and the rest", () => {
    for (const [pattern, subject] of [
      ["\\bé", "é"],
      ["^\\w\\b", "aé"],
      ["a\\B", "aé"],
      ["\\Bé", "aé"],
      ["^é\\b", "é"],
      ["\\bfoo\\b", "a foo b"],
      ["\\bfoo\\b", "afoo"],
    ]) {
      const [guarded, js] = decide(pattern, subject);
      assert.equal(guarded, js, `/${pattern}/u on ${JSON.stringify(subject)}`);
    }
    assert.equal(guard.compileSchema({ type: "string", pattern: "\\bé" }).isValid("é"), false);
    assert.equal(guard.compileSchema({ type: "string", pattern: "^\\w\\b" }).isValid("aé"), true);
  });

  test("[^] matches any character and [] none, in pattern and patternProperties", () => {
    assert.deepEqual(decide("^[^]$", "\n"), [true, true]);
    assert.deepEqual(decide("^a[^]*b$", "a\n\u2028b"), [true, true]);
    assert.deepEqual(decide("a[]", "a"), [false, false]);
    const props = guard.compileSchema({ type: "object", patternProperties: { "^x[^]$": { type: "integer" } } });
    assert.equal(props.isValid({ "x\n": 1 }), true);
    assert.equal(props.isValid({ "x\n": "one" }), false);
  });

  test("a repeated group that matches nothing, or only looks around, repeats as ECMA-262 repeats it", () => {
    for (const [pattern, subjects] of [
      ["^(?:)+$", ["", "a"]],
      ["^a(?:(?:))*b$", ["ab", "a b"]],
      ["^(?:)?x(?:){2,}$", ["x", "xx"]],
      ["^(?:(?=a))+a$", ["a", "b"]],
      ["^(?:(?!b))*\\w$", ["a", "b"]],
      ["^(?:(?<=a))?b", ["b", "ab"]],
    ]) {
      for (const subject of subjects) {
        const expected = new RegExp(pattern, "u").test(subject);
        assert.deepEqual(decide(pattern, subject), [expected, expected], `${pattern} on ${JSON.stringify(subject)}`);
      }
    }
  });

  test("named groups and named back-references", () => {
    for (const [subject, expected] of [["abab", true], ["abba", false]]) {
      assert.deepEqual(decide("^(?<pair>ab)\\k<pair>$", subject), [expected, expected], subject);
    }
    const props = guard.compileSchema({ type: "object", patternProperties: { "^(?<c>.)\\k<c>$": { const: 1 } } });
    assert.equal(props.isValid({ aa: 1 }), true);
    assert.equal(props.isValid({ aa: 2 }), false);
    assert.equal(props.isValid({ ab: 2 }), true);
  });

  test("the dialect holds inside patterns with look-arounds and back-references too", () => {
    // \d, \w and . stay ECMA-262's where the backtracking engine runs the pattern.
    for (const [pattern, subject] of [
      ["^(?=.)\\d$", "٣"],
      ["^(?=.)\\w$", "é"],
      ["^(?=x).$", "x"],
      ["^(a)\\1.$", "aa\n"],
      ["^(?<=)\\s$", "\u2028"],
      ["^(?:(a)|b)\\1$", "b"],
    ]) {
      const [guarded, js] = decide(pattern, subject);
      assert.equal(guarded, js, `/${pattern}/u on ${JSON.stringify(subject)}`);
    }
  });

  test("format: regex accepts what new RegExp(p, 'u') accepts and pattern compiles it", () => {
    const validator = guard.compileSchema({ type: "string", format: "regex" });
    for (const source of ["[^]", "(?<n>a)\\k<n>", "\\bx\\B", "\\p{Lu}", "\\u{1F600}", "(?<=a)b"]) {
      assert.doesNotThrow(() => new RegExp(source, "u"));
      assert.equal(validator.isValid(source), true, source);
      assert.doesNotThrow(() => guard.compileSchema({ type: "string", pattern: source }), source);
    }
    // Valid without the u flag only: neither a regex nor a pattern here.
    for (const source of ["\\k", "]", "{", "\\a", "(?<n>a)\\k<m>", "\\p{letter}", "\\p{Greek}"]) {
      assert.throws(() => new RegExp(source, "u"));
      assert.equal(validator.isValid(source), false, source);
      const error = thrown(() => guard.compileSchema({ type: "string", pattern: source }));
      assert.equal(error.code, "invalid_schema", source);
    }
  });
});

describe("$ref with characters a URI reference cannot hold", () => {
  test('"#/definitions/Foo<Bar>" resolves, as ajv resolves it', () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: {
        "Foo<Bar>": { type: "object", required: ["bar"], properties: { bar: { type: "string" } } },
        "Map<string, number>": { type: "object", additionalProperties: { type: "number" } },
        "a b|c^{d}": { type: "integer" },
      },
      properties: {
        foo: { $ref: "#/definitions/Foo<Bar>" },
        map: { $ref: "#/definitions/Map<string, number>" },
        odd: { $ref: "#/definitions/a b|c^{d}" },
      },
    };
    const validator = guard.compileSchema(schema);
    assert.equal(validator.isValid({ foo: { bar: "x" }, map: { a: 1 }, odd: 3 }), true);
    assert.equal(validator.isValid({ foo: {} }), false);
    assert.equal(validator.isValid({ map: { a: "1" } }), false);
    assert.equal(validator.isValid({ odd: 3.5 }), false);
    // Percent-encoded already: the same definition, not encoded twice.
    assert.equal(guard.compileSchema({ ...schema, properties: { foo: { $ref: "#/definitions/Foo%3CBar%3E" } } }).isValid({ foo: {} }), false);
  });
});

describe("baseUri: the initial base URI", () => {
  // Draft 7 ignores `$id` beside `$ref`, so the relative reference has only the retrieval URI to resolve against.
  const root = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://example.com/schemas/root.json",
    $ref: "item.json",
  };
  const item = { type: "object", required: ["name"], properties: { name: { type: "string" } } };

  test("compileSchema resolves relative references against baseUri", () => {
    const validator = guard.compileSchema(root, {
      baseUri: "https://example.com/schemas/root.json",
      resources: { "https://example.com/schemas/item.json": item },
    });
    assert.equal(validator.isValid({ name: "x" }), true);
    assert.equal(validator.isValid({}), false);
  });

  test("checkOutput and the stream check take baseUri", () => {
    const options = { baseUri: "https://example.com/schemas/root.json", resources: { "https://example.com/schemas/item.json": item } };
    assert.equal(guard.checkOutput('{"name":"x"}', root, options).ok, true);
    assert.equal(guard.checkOutput("{}", root, options).failure, "schema");
    for (const [text, ok] of [['{"name":"x"}', true], ["{}", false]]) {
      const check = guard.createStreamCheck(root, options);
      check.push(text);
      assert.equal(check.end("stop").ok, ok, text);
    }
    // Without its $id a root is placed at baseUri, and its stream checks compile there too.
    const bare = { $schema: "http://json-schema.org/draft-07/schema#", properties: { item: { $ref: "item.json" } } };
    const check = guard.createStreamCheck(bare, options);
    check.push('{"item":{}}');
    assert.equal(check.end("stop").failure, "schema");
  });

  test("guardedCall takes baseUri", async () => {
    const options = { schema: root, baseUri: "https://example.com/schemas/root.json", resources: { "https://example.com/schemas/item.json": item } };
    const { calls, callModel } = scripted(openaiChat("{}"), openaiChat('{"name":"x"}'));
    const result = await guard.guardedCall({}, callModel, options);
    assert.equal(calls.length, 2, "the first answer fails the referenced schema");
    assert.deepEqual(result.value, { name: "x" });
  });

  test("without baseUri the relative reference has no base and the schema is refused", () => {
    const error = thrown(() => guard.compileSchema(root, { resources: { "https://example.com/schemas/item.json": item } }));
    assert.equal(error.code, "invalid_schema");
  });

  test("baseUri is part of the cache key", () => {
    const other = { type: "string" };
    const a = guard.compileSchema(root, { baseUri: "https://example.com/schemas/root.json", resources: { "https://example.com/schemas/item.json": item, "https://example.org/item.json": other } });
    const b = guard.compileSchema(root, { baseUri: "https://example.org/root.json", resources: { "https://example.com/schemas/item.json": item, "https://example.org/item.json": other } });
    assert.equal(a.isValid("text"), false);
    assert.equal(b.isValid("text"), true);
  });

  test("a schema in resources has its key as its base", () => {
    const validator = guard.compileSchema(
      { $ref: "https://example.com/a/main.json" },
      {
        resources: {
          "https://example.com/a/main.json": { $schema: "http://json-schema.org/draft-07/schema#", $ref: "item.json" },
          "https://example.com/a/item.json": item,
        },
      },
    );
    assert.equal(validator.isValid({ name: "x" }), true);
    assert.equal(validator.isValid({}), false);
  });

  test("a baseUri that is not an absolute URI is an invalid argument", () => {
    for (const baseUri of ["relative/path.json", 42, ""]) {
      const error = thrown(() => guard.compileSchema(root, { baseUri }));
      assert.ok(error instanceof TypeError, String(baseUri));
      assert.equal(error.code, "invalid_argument");
    }
  });
});

describe("the AI SDK's NoObjectGeneratedError", () => {
  const PROSE = 'Here you go: {"city":"Oslo","population":709000}';
  const usage = {
    inputTokens: { total: 12, noCache: 10, cacheRead: 2, cacheWrite: undefined },
    outputTokens: { total: 7, text: 5, reasoning: 2 },
  };

  function model(text) {
    return new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
        response: { id: "r1", modelId: "mock", headers: { "x-request-id": "abc" } },
      }),
    });
  }

  function streamingModel(text) {
    return new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t" },
            ...[...text.matchAll(/.{1,7}/gsu)].map(([delta]) => ({ type: "text-delta", id: "t", delta })),
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
          ],
        }),
      }),
    });
  }

  // The SDK validates with the schema's own `validate` (a bare JSON Schema has none).
  const citySchema = jsonSchema(CITY_SCHEMA, {
    validate: (value) =>
      Number.isInteger(value?.population) && value.population >= 0
        ? { success: true, value }
        : { success: false, error: new Error("population must be a whole number, at least 0") },
  });

  async function generateObjectError(text) {
    try {
      await generateObject({ model: model(text), schema: citySchema, prompt: "a city", maxRetries: 0 });
    } catch (error) {
      return error;
    }
    assert.fail("generateObject did not throw");
  }

  test("prose around the JSON is unparseable, as the same text is anywhere", async () => {
    const error = await generateObjectError(PROSE);
    assert.equal(error.name, "AI_NoObjectGeneratedError");
    const verdict = guard.checkOutput(error, CITY_SCHEMA);
    assert.equal(verdict.failure, "unparseable", verdict.message);
    assert.equal(verdict.message, guard.checkOutput(PROSE, CITY_SCHEMA).message);
    assert.equal(verdict.finishReason, "stop");
  });

  test("text that fails the schema gives its schema issues", async () => {
    const error = await generateObjectError('{"city":"Oslo","population":-1}');
    const verdict = guard.checkOutput(error, CITY_SCHEMA);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/population", "minimum"]]);
  });

  test("a fenced answer the SDK could not parse is rescued", async () => {
    const fenced = '```json\n{"city":"Oslo","population":709000}\n```';
    const error = await generateObjectError(fenced);
    const verdict = guard.checkOutput(error, CITY_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    assert.equal(verdict.rescue, "code_fence");
    assert.deepEqual(verdict.value, { city: "Oslo", population: 709000 });
  });

  test("rules run on its text as on any response", async () => {
    const text = '{"city":"Oslo","population":-1}';
    const error = await generateObjectError(text);
    const schema = { ...CITY_SCHEMA, properties: { ...CITY_SCHEMA.properties, population: { type: "integer" } } };
    const rules = [{ name: "positive", then: { properties: { population: { minimum: 0 } } }, message: "The population is never negative." }];
    const verdict = guard.checkOutput(error, schema, { rules });
    assert.equal(verdict.failure, "rule", verdict.message);
    assert.deepEqual(verdict, guard.checkOutput({ content: text, finishReason: "stop" }, schema, { rules }));
  });

  test("normalizeUsage reads its usage", async () => {
    const error = await generateObjectError(PROSE);
    const read = guard.normalizeUsage(error);
    assert.equal(read.tokens.input, 12);
    assert.equal(read.tokens.output, 7);
    assert.equal(read.tokens.cacheRead, 2);
    assert.equal(JSON.stringify(read).includes("Oslo"), false);
  });

  test("generateText with Output.object throws the same error, read the same way", async () => {
    let error;
    try {
      const result = await generateText({ model: model(PROSE), output: Output.object({ schema: jsonSchema(CITY_SCHEMA) }), prompt: "a city", maxRetries: 0 });
      result.output;
    } catch (caught) {
      error = caught;
    }
    assert.equal(error?.name, "AI_NoObjectGeneratedError");
    assert.equal(guard.checkOutput(error, CITY_SCHEMA).failure, "unparseable");
    assert.equal(guard.normalizeUsage(error).tokens.input, 12);
  });

  test("streamObject's error (its object promise rejects with it) reads the same way", async () => {
    const result = streamObject({ model: streamingModel(PROSE), schema: jsonSchema(CITY_SCHEMA), prompt: "a city", onError: () => {} });
    for await (const _ of result.partialObjectStream);
    const error = await result.object.then(
      () => assert.fail("the object promise resolved"),
      (caught) => caught,
    );
    assert.equal(error.name, "AI_NoObjectGeneratedError");
    const verdict = guard.checkOutput(error, CITY_SCHEMA);
    assert.equal(verdict.failure, "unparseable", verdict.message);
    assert.equal(guard.normalizeUsage(error).tokens.output, 7);
  });
});
