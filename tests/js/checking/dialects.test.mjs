// The schema the provider was given, read as the provider reads it:
// OpenAPI's `nullable` (the `openai` package's Zod 3 helper writes it), and
// Gemini's `Schema` (`@google/genai`'s `Type` enum, string bounds,
// `format: "enum"`), in every path a schema reaches: checks, validators,
// streams, tool calls, repair feedback and provider schemas.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Type } from "@google/genai";
import { z as z3 } from "zod3";
import { zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { GEMINI_SCHEMA_EXAMPLES } from "../../support/gemini-schema-examples.mjs";

/** The moderation example of OpenAI's structured-output guide, written with Zod 3. */
const Moderation = z3.object({
  is_violating: z3.boolean(),
  category: z3.enum(["violence", "sexual", "self_harm"]).nullable(),
  explanation_if_violating: z3.string().nullable(),
});

describe("OpenAPI nullable", () => {
  test("the issue's schema accepts null where nullable says so", () => {
    const schema = { type: "object", properties: { category: { type: "string", nullable: true } }, required: ["category"] };
    const verdict = guard.checkOutput('{"category":null}', schema);
    assert.equal(verdict.ok, true, verdict.message);
    assert.equal(verdict.degraded, false);
    const wrong = guard.checkOutput('{"category":5}', schema);
    assert.equal(wrong.failure, "schema");
    assert.match(wrong.errors[0].message, /must be a string or null/);
  });

  test("the Zod 3 moderation schema from openai's own helper accepts what OpenAI answers", () => {
    const format = zodResponseFormat(Moderation, "content_compliance");
    // What the helper sends: the nullable string as OpenAPI writes it.
    assert.deepEqual(format.json_schema.schema.properties.explanation_if_violating, { type: "string", nullable: true });
    const answer = '{"is_violating":false,"category":null,"explanation_if_violating":null}';
    for (const schema of [format, format.json_schema, format.json_schema.schema, zodTextFormat(Moderation, "content_compliance")]) {
      const verdict = guard.checkOutput(answer, schema);
      assert.equal(verdict.ok, true, verdict.message);
      assert.deepEqual(verdict.value, { is_violating: false, category: null, explanation_if_violating: null });
    }
    const refused = guard.checkOutput('{"is_violating":true,"category":"spam","explanation_if_violating":7}', format);
    assert.equal(refused.failure, "schema");
    assert.deepEqual(refused.errors.map((e) => e.path).sort(), ["/category", "/explanation_if_violating"]);
  });

  test("as ajv reads it: an enum still applies, and nullable without a type is refused", () => {
    const listed = { type: "object", properties: { c: { type: "string", nullable: true, enum: ["a"] } } };
    assert.equal(guard.checkOutput('{"c":null}', listed).failure, "schema");
    assert.equal(guard.checkOutput('{"c":null}', { type: "object", properties: { c: { type: "string", nullable: true, enum: ["a", null] } } }).ok, true);
    assert.throws(
      () => guard.compileSchema({ type: "object", properties: { u: { anyOf: [{ type: "string" }], nullable: true } } }),
      (error) => error instanceof guard.SchemaError && /at \/properties\/u: "nullable" cannot be used without "type"/.test(error.message),
    );
  });

  test("a Validator, the stream check and checkToolCalls read it the same way", () => {
    const schema = { type: "object", properties: { note: { type: "string", nullable: true }, n: { type: "integer" } }, required: ["note", "n"] };
    const validator = guard.compileSchema(schema);
    assert.equal(validator.isValid({ note: null, n: 1 }), true);
    assert.equal(validator.dialect, "json-schema");
    assert.deepEqual(validator.unenforced, []);
    // The early-reject watcher, given every piece as it comes, must not
    // refuse the null it is allowed, and refuses what is not allowed there.
    const batch = internals.setStreamBatch(0);
    try {
      const stream = guard.createStreamCheck(schema);
      for (const piece of ['{"no', 'te":nu', "ll,", '"n":1}']) {
        const state = stream.push(piece);
        assert.notEqual(state.status, "rejected", JSON.stringify(state));
      }
      const end = stream.end();
      assert.equal(end.ok, true, end.message);
      const early = guard.createStreamCheck(schema);
      assert.equal(early.push('{"note":5').status, "pending");
      const rejected = early.push(",");
      assert.equal(rejected.status, "rejected");
      assert.equal(rejected.errors[0].path, "/note");
      assert.match(rejected.message, /must be a string or null/);
    } finally {
      internals.setStreamBatch(batch);
    }
    const calls = guard.checkToolCalls(
      { choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "note", arguments: '{"note":null,"n":2}' } }] }, finish_reason: "tool_calls" }] },
      [{ type: "function", function: { name: "note", parameters: schema } }],
    );
    assert.equal(calls.ok, true, JSON.stringify(calls));
  });

  test("repair feedback says the value may be null", () => {
    const schema = { type: "object", properties: { category: { type: "string", nullable: true } }, required: ["category"] };
    const verdict = guard.checkOutput('{"category":5}', schema);
    const feedback = guard.repairFeedback(verdict, schema);
    assert.match(feedback, /\/category \(type\): must be a string or null/);
  });

  test("toProviderSchema translates it for each provider and lists the change", () => {
    const schema = { type: "object", properties: { note: { type: "string", nullable: true, description: "why" } }, required: ["note"], additionalProperties: false };
    const openai = guard.toProviderSchema(schema, "openai");
    assert.deepEqual(openai.schema.properties.note, { type: ["string", "null"], description: "why" });
    assert.deepEqual(openai.changes, [{ path: "/properties/note", change: "nullable_keyword" }]);
    for (const provider of ["gemini", "ollama"]) {
      const sent = guard.toProviderSchema(schema, provider);
      assert.deepEqual(sent.schema.properties.note, { type: ["string", "null"], description: "why" }, provider);
      assert.deepEqual(sent.changes, [{ path: "/properties/note", change: "nullable_keyword" }], provider);
    }
    const anthropic = guard.toProviderSchema(schema, "anthropic");
    assert.deepEqual(anthropic.schema.properties.note, { anyOf: [{ type: "string" }, { type: "null" }], description: "why" });
    assert.deepEqual(anthropic.changes.filter((c) => c.change === "nullable_keyword"), [{ path: "/properties/note", change: "nullable_keyword" }]);
  });
});

describe("Gemini's Schema", () => {
  /** The case: Type.OBJECT, minItems as a string, an INTEGER enum. */
  const rooms = {
    type: Type.OBJECT,
    properties: {
      city: { type: Type.STRING },
      rooms: { type: Type.ARRAY, minItems: "1", items: { type: Type.INTEGER, format: "enum", enum: ["101", "201", "301"] } },
    },
    required: ["city", "rooms"],
    propertyOrdering: ["city", "rooms"],
  };

  test("is recognised by its shape, checked as Gemini checks it, and never degrades", () => {
    const verdict = guard.checkOutput('{"city":5,"rooms":[101]}', rooms);
    assert.equal(verdict.ok, false);
    assert.equal(verdict.degraded, false);
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors[0].path, "/city");
    for (const good of [{ city: "Oslo", rooms: [101] }, { city: "Oslo", rooms: [201, 301, 101] }]) {
      assert.equal(guard.checkOutput(JSON.stringify(good), rooms).ok, true, JSON.stringify(good));
    }
    for (const bad of [{ city: "Oslo", rooms: [] }, { city: "Oslo", rooms: [102] }, { city: "Oslo", rooms: ["101"] }, { city: "Oslo" }]) {
      const refused = guard.checkOutput(JSON.stringify(bad), rooms);
      assert.equal(refused.failure, "schema", JSON.stringify(bad));
    }
    const validator = guard.compileSchema(rooms);
    assert.equal(validator.dialect, "gemini");
    assert.deepEqual(validator.unenforced, [{ path: "", keyword: "propertyOrdering" }]);
    assert.ok(Object.isFrozen(validator.unenforced));
    // Named by the option, or told by the shape: one dialect, one hash; read as JSON Schema it is refused.
    assert.equal(guard.compileSchema(rooms, { dialect: "gemini" }).schemaHash, validator.schemaHash);
    assert.throws(() => guard.compileSchema(rooms, { dialect: "json-schema" }), guard.SchemaError);
    assert.equal(guard.checkOutput("{}", rooms, { dialect: "json-schema" }).degraded, true);
  });

  test("a Validator's Standard JSON Schema is the JSON Schema the dialect means", () => {
    const standard = guard.compileSchema(rooms)["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    assert.deepEqual(standard.properties.rooms, { type: "array", minItems: 1, items: { type: "integer", enum: [101, 201, 301] } });
    assert.equal(standard.type, "object");
    const nullable = guard.compileSchema({ type: "object", properties: { a: { type: "string", nullable: true } } })["~standard"].jsonSchema.output({ target: "draft-07" });
    assert.deepEqual(nullable.properties.a, { type: ["string", "null"] });
  });

  test("lower-case Gemini schemas are read as Gemini's when the option says so", () => {
    const lower = { type: "object", properties: { n: { type: "integer", format: "enum", enum: ["1", "2"] } }, required: ["n"] };
    assert.equal(guard.checkOutput('{"n":1}', lower, { dialect: "gemini" }).ok, true);
    assert.equal(guard.checkOutput('{"n":3}', lower, { dialect: "gemini" }).failure, "schema");
    // As JSON Schema the same document asks for an integer equal to a string: nothing passes.
    assert.equal(guard.checkOutput('{"n":1}', lower).failure, "schema");
    assert.notEqual(guard.compileSchema(lower, { dialect: "gemini" }).schemaHash, guard.compileSchema(lower).schemaHash);
    assert.throws(() => guard.compileSchema(lower, { dialect: "openapi" }), (error) => error.code === "invalid_argument" && /options.dialect must be one of "json-schema", "gemini"/.test(error.message));
  });

  test("a Gemini function declaration's parameters check its calls, as Gemini's Schema", () => {
    const controlLight = GEMINI_SCHEMA_EXAMPLES[0].schema;
    const tools = { config: { tools: [{ functionDeclarations: [{ name: "controlLight", parameters: controlLight }] }] } };
    const call = (args) => ({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "controlLight", args } }] }, finishReason: "STOP" }] });
    assert.equal(guard.checkToolCalls(call({ brightness: 25, colorTemperature: "warm" }), tools).ok, true);
    const refused = guard.checkToolCalls(call({ brightness: "25", colorTemperature: "warm" }), tools);
    assert.equal(refused.ok, false);
    assert.equal(refused.calls[0].failure, "schema");
    assert.equal(refused.calls[0].errors[0].path, "/brightness");
  });

  test("every Schema example in the @google/genai typings, samples and documentation", () => {
    for (const example of GEMINI_SCHEMA_EXAMPLES) {
      const options = example.dialect === undefined ? undefined : { dialect: example.dialect };
      const validator = guard.compileSchema(example.schema, options);
      assert.equal(validator.dialect, "gemini", example.source);
      assert.deepEqual(validator.unenforced, example.unenforced, example.source);
      for (const value of example.accepts) {
        const verdict = guard.checkOutput(JSON.stringify(value), example.schema, { ...options, requireObject: false });
        assert.equal(verdict.ok, true, `${example.source} accepts ${JSON.stringify(value)}: ${verdict.message}`);
      }
      for (const value of example.rejects) {
        const verdict = guard.checkOutput(JSON.stringify(value), example.schema, { ...options, requireObject: false });
        assert.equal(verdict.failure, "schema", `${example.source} rejects ${JSON.stringify(value)}`);
      }
    }
  });
});
