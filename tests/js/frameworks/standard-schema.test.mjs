// A Validator is a Standard Schema: the frameworks that take one validate
// with it and send the model its JSON Schema. The AI SDK is driven with its
// own mock model, as its users' tests do.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateObject, generateText, Output } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as guard from "../../../pkg/node.mjs";

const { compileSchema } = guard;

const CONTACT = {
  type: "object",
  required: ["name", "email", "tags"],
  additionalProperties: false,
  $defs: { tag: { type: "string", minLength: 1 } },
  properties: {
    name: { type: "string" },
    email: { type: "string", format: "email" },
    tags: { type: "array", items: { $ref: "#/$defs/tag" } },
    point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
  },
};
const GOOD = { name: "Ada", email: "ada@example.com", tags: ["x"] };

function model(text) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: { inputTokens: { total: 3 }, outputTokens: { total: 4 } },
      warnings: [],
    }),
  });
}

describe("Validator['~standard']", () => {
  const validator = guard.compileSchema(CONTACT);
  const standard = validator["~standard"];

  test("the Standard Schema members", () => {
    assert.equal(standard.version, 1);
    assert.equal(standard.vendor, "structured-output-guard");
    assert.equal(typeof standard.validate, "function");
    assert.equal(validator["~standard"], standard, "one object per validator");
  });

  test("validate is synchronous: { value } or capped issues with paths as keys", () => {
    assert.deepEqual(standard.validate(GOOD), { value: GOOD });
    const secret = "sk-proj-do-not-echo-0123456789";
    const bad = standard.validate({ name: secret, email: "nope", tags: ["", "", "", "", "", "", ""], extra: 1 });
    assert.ok(!(bad instanceof Promise));
    assert.equal(bad.issues.length, 5, "capped at maxErrors' default");
    const paths = bad.issues.map((issue) => JSON.stringify(issue.path));
    assert.ok(paths.includes('["email"]'), paths.join(" "));
    assert.ok(paths.includes('["tags",0]'), paths.join(" "));
    assert.equal(JSON.stringify(bad).includes(secret) || JSON.stringify(bad).includes("nope"), false);
    // A value JSON cannot carry is an issue, not an exception.
    assert.equal(standard.validate({ name: 1n }).issues.length, 1);
  });

  test("the value is read once: what is checked is what is returned, and the issues' paths are the checked value's", () => {
    const roles = compileSchema({ type: "object", required: ["role"], properties: { role: { const: "user" }, n: { type: "integer" } } });
    let reads = 0;
    const live = {
      get role() {
        reads += 1;
        return reads === 1 ? "user" : "admin";
      },
      n: 1,
    };
    const result = roles["~standard"].validate(live);
    assert.equal(reads, 1);
    assert.notEqual(result.value, live);
    assert.deepEqual(result.value, { role: "user", n: 1 });
    // A getter or a Proxy that throws on a second read: the issue's path is
    // built from what was read, never by reading again.
    let second = 0;
    const once = {
      get n() {
        if (second++ > 0) throw "a bare string";
        return "x";
      },
      role: "user",
    };
    assert.deepEqual(roles["~standard"].validate(once), { issues: [{ message: "The value at /n must be an integer.", path: ["n"] }] });
    let gets = 0;
    const proxy = new Proxy({ role: "user", n: [1] }, {
      get(target, key) {
        if (key === "n" && gets++ > 0) throw new Error("second read");
        return target[key];
      },
    });
    assert.deepEqual(roles["~standard"].validate(proxy).issues.map((issue) => issue.path), [["n"]]);
    for (const method of ["validate", "isValid"]) {
      reads = 0;
      roles[method](live);
      assert.equal(reads, 1, `${method} reads each member once`);
    }
  });

  test("a value that is not JSON is an issue at its path, never accepted as what JSON.stringify makes of it", () => {
    const any = compileSchema({ type: "object", properties: { x: { type: ["null", "string", "object", "number"] }, list: { type: "array" } } });
    class Point {
      constructor() {
        this.x = 1;
      }
    }
    const cyclic = { list: [] };
    cyclic.list.push(cyclic);
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const cases = [
      [{ x: NaN }, ["x"], /the number NaN is not a JSON value/],
      [{ x: -Infinity }, ["x"], /the number -Infinity is not a JSON value/],
      [{ x: new Date(0) }, ["x"], /a Date is not a JSON value/],
      [{ x: new Map([["a", 1]]) }, ["x"], /a Map is not a JSON value/],
      [{ list: [1, new Set([1])] }, ["list", 1], /a Set is not a JSON value/],
      [{ x: new Point() }, ["x"], /an instance of Point is not a JSON value/],
      [{ x: Promise.resolve({}) }, ["x"], /a Promise \(was it awaited\?\) is not a JSON value/],
      [{ x: 1n }, ["x"], /a BigInt is not a JSON value/],
      [{ list: [1, undefined] }, ["list", 1], /undefined is not a JSON value/],
      [cyclic, ["list", 0], /contains itself/],
      [{ x: { toJSON: () => "written instead" } }, ["x"], /an object with a toJSON method is not a JSON value/],
      [{ get x() { throw new Error("boom"); } }, ["x"], /reading it threw Error/],
      [{ get x() { throw "a bare string"; } }, ["x"], /reading it threw an error/],
      [{ x: revoked.proxy }, ["x"], /reading it threw TypeError/],
      [new Map(), [], /a Map is not a JSON value/],
    ];
    for (const [value, path, words] of cases) {
      const result = any["~standard"].validate(value);
      assert.equal(result.issues?.length, 1, `${words}: ${JSON.stringify(result)}`);
      assert.deepEqual(result.issues[0].path, path, String(words));
      assert.match(result.issues[0].message, words);
      for (const method of ["validate", "isValid"]) {
        let error;
        try {
          any[method](value);
        } catch (caught) {
          error = caught;
        }
        assert.ok(error instanceof TypeError && error.code === "invalid_argument", `${method} ${words}: ${error}`);
        assert.match(error.message, /^the instance cannot be serialised to JSON: /);
        assert.match(error.message, words);
      }
    }
    // Members JSON leaves out of an object are left out, as before.
    assert.deepEqual(any["~standard"].validate({ x: "a", skip: undefined, f() {} }), { value: { x: "a" } });
  });

  test("jsonSchema.input and output for draft-2020-12 and draft-07; other targets are TypeErrors", () => {
    const modern = standard.jsonSchema.input({ target: "draft-2020-12" });
    assert.equal(modern.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.deepEqual(modern.properties, CONTACT.properties);
    const classic = standard.jsonSchema.output({ target: "draft-07" });
    assert.equal(classic.$schema, "http://json-schema.org/draft-07/schema#");
    assert.deepEqual(classic.definitions, CONTACT.$defs);
    assert.equal(classic.properties.tags.items.$ref, "#/definitions/tag");
    assert.deepEqual(classic.properties.point.items, [{ type: "number" }, { type: "number" }]);
    assert.equal(classic.properties.point.additionalItems, false);
    for (const target of ["openapi-3.0", undefined]) {
      assert.throws(() => standard.jsonSchema.input({ target }), (error) => error instanceof TypeError && error.code === "invalid_argument");
    }
    const dynamic = guard.compileSchema({ $dynamicAnchor: "node", type: "object", properties: { child: { $dynamicRef: "#node" } } });
    assert.throws(() => dynamic["~standard"].jsonSchema.input({ target: "draft-07" }), /\$dynamic(Anchor|Ref) at .* has no draft-07 form/);
    // A wrapper's Validator gives the schema it wraps.
    const wrapped = guard.compileSchema({ name: "contact", strict: true, schema: CONTACT });
    assert.deepEqual(wrapped["~standard"].jsonSchema.input({ target: "draft-2020-12" }).required, CONTACT.required);
  });
});

describe("in the Vercel AI SDK", () => {
  const validator = guard.compileSchema(CONTACT);

  test("generateText with Output.object: a conforming answer is returned, and the model is sent our schema", async () => {
    const mock = model(JSON.stringify(GOOD));
    const result = await generateText({ model: mock, output: Output.object({ schema: validator }), prompt: "extract" });
    assert.deepEqual(result.output, GOOD);
    const sent = mock.doGenerateCalls[0].responseFormat;
    assert.equal(sent.type, "json");
    assert.equal(sent.schema.properties.email.format, "email");
    assert.equal(sent.schema.properties.tags.items.$ref, "#/definitions/tag");
  });

  test("a format violation the SDK's own jsonSchema() lets through is refused with our issue", async () => {
    const mock = model(JSON.stringify({ ...GOOD, email: "not an address" }));
    await assert.rejects(
      generateText({ model: mock, output: Output.object({ schema: validator }), prompt: "extract" }),
      (error) => {
        const issues = error.cause?.cause ?? error.cause?.issues ?? [];
        assert.ok(JSON.stringify(issues).includes('"email"'), JSON.stringify(error.cause));
        return true;
      },
    );
  });

  test("generateObject takes it too", async () => {
    const result = await generateObject({ model: model(JSON.stringify(GOOD)), schema: validator, prompt: "extract" });
    assert.deepEqual(result.object, GOOD);
    await assert.rejects(generateObject({ model: model('{"name":"Ada"}'), schema: validator, prompt: "extract" }));
  });
});
