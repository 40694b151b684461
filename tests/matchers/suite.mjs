// One matcher suite for every runner: bun.test.mjs and vitest.test.mjs call
// it with their own describe/test/expect after `expect.extend(matchers)`.
import { compileSchema, schemaCacheSize } from "../../pkg/node.mjs";

const observationSchema = {
  type: "object",
  required: ["observations"],
  properties: {
    observations: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "text"],
        properties: {
          type: { enum: ["fact", "decision", "question"] },
          text: { type: "string", minLength: 1 },
          observedOn: { type: "string", format: "date" },
        },
      },
    },
  },
};

const valid = { observations: [{ type: "fact", text: "the build is green", observedOn: "2024-02-29" }] };
const invalid = { observations: [{ type: "rumour", text: "" }, { type: "fact", text: "ok", observedOn: "2026-02-30" }] };

/** The error an assertion throws, or undefined when it does not throw. */
function failureOf(assertion) {
  try {
    assertion();
  } catch (error) {
    return error;
  }
  return undefined;
}

export function defineMatcherSuite({ describe, test, expect }) {
  /** Asserts that `assertion` fails with a message holding every part. */
  function expectFailure(assertion, ...parts) {
    const error = failureOf(assertion);
    expect(error).toBeInstanceOf(Error);
    for (const part of parts) expect(String(error.message)).toContain(part);
    return error;
  }

  describe("toSatisfySchema", () => {
    test("passes for a value that satisfies the schema and fails under .not", () => {
      expect(valid).toSatisfySchema(observationSchema);
      expectFailure(() => expect(valid).not.toSatisfySchema(observationSchema), "not to satisfy the schema");
    });

    test("fails listing each issue by path, code and message", () => {
      expectFailure(
        () => expect(invalid).toSatisfySchema(observationSchema),
        "3 issues",
        "/observations/0/type  enum  ",
        "/observations/0/text  minLength  ",
        "/observations/1/observedOn  format  ",
      );
      expect(invalid).not.toSatisfySchema(observationSchema);
    });

    test("names the root as (root) and marks issues past maxErrors", () => {
      expectFailure(() => expect(7).toSatisfySchema({ type: "string" }), "1 issue:", "(root)  type  ");
      const error = expectFailure(() => expect(invalid).toSatisfySchema(observationSchema, { maxErrors: 1 }), "1+ issues", "past maxErrors");
      expect(String(error.message)).not.toContain("/observations/1/observedOn");
    });

    test("takes a Validator, a schema string and a response-format wrapper", () => {
      const validator = compileSchema(observationSchema);
      expect(valid).toSatisfySchema(validator);
      expect(invalid).not.toSatisfySchema(validator);
      expect(valid).toSatisfySchema(JSON.stringify(observationSchema));
      const wrapper = { name: "observations", strict: true, schema: observationSchema };
      expect(valid).toSatisfySchema(wrapper);
      expectFailure(() => expect(invalid).toSatisfySchema(wrapper), "/observations/0/type  enum");
    });

    test("passes compile options through: formats annotate, rejectUnknownFields", () => {
      const dated = { type: "object", properties: { d: { type: "string", format: "date" } } };
      expect({ d: "2026-02-30" }).not.toSatisfySchema(dated);
      expect({ d: "2026-02-30" }).toSatisfySchema(dated, { formats: "annotate" });
      expect({ d: "2024-01-01", extra: 1 }).toSatisfySchema(dated);
      expectFailure(() => expect({ d: "2024-01-01", extra: 1 }).toSatisfySchema(dated, { rejectUnknownFields: true }), "additionalProperties");
    });

    test("a schema that cannot compile throws SchemaError, with or without .not", () => {
      for (const assertion of [() => expect({}).toSatisfySchema({ type: "strnig" }), () => expect({}).not.toSatisfySchema({ type: "strnig" })]) {
        const error = failureOf(assertion);
        expect(error?.name).toBe("SchemaError");
        expect(error?.code).toBe("invalid_schema");
      }
    });

    test("compiles into the same instance as the test's own import of the package", () => {
      const before = schemaCacheSize();
      expect("x").toSatisfySchema({ type: "string", title: `cache probe ${before}` });
      expect(schemaCacheSize()).toBe(before + 1);
    });

    test("refuses what is not JSON: a Map, a Set or a Date fails, an un-awaited Promise throws, under .not too", () => {
      const object = { type: "object" };
      expectFailure(() => expect(new Map([["observations", []]])).toSatisfySchema(object), "not a JSON value", "a Map");
      expectFailure(() => expect(new Set()).toSatisfySchema(object), "a Set");
      expectFailure(() => expect({ when: new Date(0) }).toSatisfySchema(object), "a Date", "/when");
      expect(new Map()).not.toSatisfySchema(object);
      const promise = Promise.resolve(valid);
      for (const assertion of [() => expect(promise).toSatisfySchema(object), () => expect(promise).not.toSatisfySchema(object)]) {
        const error = failureOf(assertion);
        expect(error).toBeInstanceOf(TypeError);
        expect(String(error.message)).toContain("await");
      }
    });

    test("prints the value's own keys as escapes: a test log is never retitled, cleared or reordered", () => {
      const hostile = { "\u001b]0;PWNED\u0007\u001b[2J": "s", "a\u009b2Jb": "t", "user\u202enimda": "u" };
      const error = expectFailure(
        () => expect(hostile).toSatisfySchema({ additionalProperties: { type: "integer" } }),
        "/\\u001b]0;PWNED\\u0007\\u001b[2J  type",
        "/a\\u009b2Jb",
        "/user\\u202enimda",
      );
      expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.test(String(error.message))).toBe(false);
    });

    test("works as an asymmetric matcher", () => {
      expect({ id: 1, data: valid }).toEqual({ id: 1, data: expect.toSatisfySchema(observationSchema) });
      expectFailure(() => expect({ id: 1, data: invalid }).toEqual({ id: 1, data: expect.toSatisfySchema(observationSchema) }));
    });
  });

  describe("toBeAcceptedOutput", () => {
    test("accepts a content string, a fenced one, { content, finishReason } and a provider response", () => {
      const text = JSON.stringify(valid);
      expect(text).toBeAcceptedOutput(observationSchema);
      expect("```json\n" + text + "\n```").toBeAcceptedOutput(observationSchema);
      expect({ content: text, finishReason: "stop" }).toBeAcceptedOutput(observationSchema);
      expect({ choices: [{ message: { role: "assistant", content: text }, finish_reason: "stop" }] }).toBeAcceptedOutput({
        name: "observations",
        schema: observationSchema,
      });
      expectFailure(() => expect("```json\n" + text + "\n```").not.toBeAcceptedOutput(observationSchema), "but it was accepted", "rescue: code_fence");
    });

    test("fails with the failure class and the issues by path", () => {
      expectFailure(
        () => expect(JSON.stringify(invalid)).toBeAcceptedOutput(observationSchema),
        'failed "schema"',
        "/observations/0/type  enum  ",
        "/observations/1/observedOn  format  ",
      );
      expect(JSON.stringify(invalid)).not.toBeAcceptedOutput(observationSchema);
    });

    test("names truncation, unparseable, empty and not_object outputs", () => {
      const text = JSON.stringify(valid);
      expectFailure(() => expect({ content: text, finishReason: "length" }).toBeAcceptedOutput(observationSchema), 'failed "truncated"', "finish reason: length");
      expectFailure(() => expect({ stop_reason: "max_tokens", content: [{ type: "text", text }] }).toBeAcceptedOutput(observationSchema), 'failed "truncated"');
      expectFailure(() => expect(`Here you go: ${text}`).toBeAcceptedOutput(observationSchema), 'failed "unparseable"');
      expectFailure(() => expect("   ").toBeAcceptedOutput(observationSchema), 'failed "empty"');
      expectFailure(() => expect("[1, 2]").toBeAcceptedOutput(), 'failed "not_object"');
      expect("[1, 2]").toBeAcceptedOutput(undefined, { requireObject: false });
    });

    test("prints the output's keys and the finish reason as escapes", () => {
      const text = JSON.stringify({ "\u001b]0;PWNED\u0007\u001b[2J": "s", "user\u202enimda": "u" });
      for (const [output, part] of [
        [text, "/\\u001b]0;PWNED\\u0007\\u001b[2J  type"],
        [{ content: text, finishReason: "length\u009b2J" }, "finish reason: length\\u009b2J"],
      ]) {
        const error = expectFailure(() => expect(output).toBeAcceptedOutput({ additionalProperties: { type: "integer" } }), part);
        expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.test(String(error.message))).toBe(false);
      }
    });

    test("an un-awaited Promise throws, under .not too, naming the await", () => {
      const promise = Promise.resolve(JSON.stringify(valid));
      for (const assertion of [() => expect(promise).toBeAcceptedOutput(observationSchema), () => expect(promise).not.toBeAcceptedOutput(observationSchema)]) {
        const error = failureOf(assertion);
        expect(error).toBeInstanceOf(TypeError);
        expect(String(error.message)).toContain("await");
      }
    });

    test("a broken schema throws SchemaError unless the caller asks to degrade", () => {
      const error = failureOf(() => expect("{}").toBeAcceptedOutput({ type: "strnig" }));
      expect(error?.name).toBe("SchemaError");
      expectFailure(
        () => expect("{}").not.toBeAcceptedOutput({ type: "strnig" }, { onInvalidSchema: "degrade" }),
        "degraded: the schema was not checked",
      );
    });

    test("works as an asymmetric matcher", () => {
      const text = JSON.stringify(valid);
      expect({ attempt: 1, response: text }).toEqual({ attempt: 1, response: expect.toBeAcceptedOutput(observationSchema) });
      expectFailure(() =>
        expect({ attempt: 1, response: { content: text, finishReason: "length" } }).toEqual({
          attempt: 1,
          response: expect.toBeAcceptedOutput(observationSchema),
        }),
      );
    });
  });
}
