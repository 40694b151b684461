// toProviderSchema: the schema to send in each provider's native
// structured-output mode, and the constraints that mode leaves to
// post-validation (see docs/providers.md).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { assertArgumentError, thrown } from "../../support/fixtures.mjs";

/** An extraction schema with enum, format, lengths, pattern, bounds, array limits and $ref. */
function invoiceSchema() {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Invoice",
    type: "object",
    required: ["invoiceNumber", "issuedOn", "currency", "vendor", "lines", "total"],
    additionalProperties: false,
    properties: {
      invoiceNumber: { type: "string", pattern: "^INV-[0-9]{4,}$", minLength: 8, description: "As printed" },
      issuedOn: { type: "string", format: "date" },
      currency: { enum: ["EUR", "USD", "GBP"] },
      vendor: { $ref: "#/$defs/party" },
      buyer: { $ref: "#/$defs/party" },
      lines: { type: "array", minItems: 1, maxItems: 50, items: { $ref: "#/$defs/line" } },
      total: { type: "number", minimum: 0, multipleOf: 0.01 },
      notes: { type: "string", maxLength: 500 },
      tags: { type: "array", items: { type: "string" }, uniqueItems: true, minItems: 2 },
    },
    $defs: {
      party: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", minLength: 1 },
          email: { type: "string", format: "email" },
          website: { type: "string", format: "uri" },
          kind: { const: "company" },
        },
      },
      line: {
        type: "object",
        required: ["description", "quantity", "unitPrice"],
        additionalProperties: false,
        properties: {
          description: { type: "string", minLength: 1, maxLength: 200 },
          quantity: { type: "integer", exclusiveMinimum: 0 },
          unitPrice: { type: "number", minimum: 0, maximum: 1000000 },
        },
      },
    },
  };
}

const PROVIDERS = ["openai", "anthropic", "gemini", "ollama"];

function entries(result) {
  return result.unenforced.map(({ path, keyword }) => `${path} ${keyword}`);
}

/** The value at a JSON Pointer. */
function at(value, pointer) {
  if (pointer === "") return value;
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((node, key) => (node === undefined ? undefined : node[key]), value);
}

/** Every subschema object (not descending into enum/const/default values). */
function subschemas(schema, visit) {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return;
  visit(schema);
  for (const key of ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]) {
    for (const sub of Object.values(schema[key] ?? {})) subschemas(sub, visit);
  }
  for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) for (const sub of schema[key] ?? []) subschemas(sub, visit);
  for (const key of ["items", "additionalItems", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else"]) {
    if (Array.isArray(schema[key])) schema[key].forEach((sub) => subschemas(sub, visit));
    else subschemas(schema[key], visit);
  }
}

function deepFreeze(value) {
  if (value !== null && typeof value === "object") {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe("toProviderSchema: OpenAI strict mode", () => {
  test("keeps what strict mode supports and lists exactly the rest", () => {
    const result = guard.toProviderSchema(invoiceSchema(), "openai");
    assert.deepEqual(entries(result), [
      "/$defs/line/properties/description maxLength",
      "/$defs/line/properties/description minLength",
      "/$defs/party/properties/name minLength",
      "/$defs/party/properties/website format",
      "/properties/invoiceNumber minLength",
      "/properties/notes maxLength",
      "/properties/tags uniqueItems",
    ]);
    const sent = result.schema;
    assert.equal(sent.$schema, undefined);
    assert.deepEqual(sent.properties.invoiceNumber, {
      type: "string",
      pattern: "^INV-[0-9]{4,}$",
      description: "As printed\n\n{minLength: 8}",
    });
    assert.deepEqual(sent.properties.issuedOn, { type: "string", format: "date" });
    assert.deepEqual(sent.properties.total, { type: "number", minimum: 0, multipleOf: 0.01 });
    assert.deepEqual(sent.properties.lines, { type: "array", minItems: 1, maxItems: 50, items: { $ref: "#/$defs/line" } });
    assert.deepEqual(sent.$defs.line.properties.quantity, { type: "integer", exclusiveMinimum: 0 });
  });

  test("closes every object, requires every property and makes the optional ones nullable", () => {
    const result = guard.toProviderSchema(invoiceSchema(), "openai");
    const sent = result.schema;
    subschemas(sent, (node) => {
      if (node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"))) {
        assert.equal(node.additionalProperties, false);
        assert.deepEqual(node.required, Object.keys(node.properties));
      }
    });
    assert.deepEqual(sent.properties.buyer, { anyOf: [{ $ref: "#/$defs/party" }, { type: "null" }] });
    assert.deepEqual(sent.properties.notes, { type: ["string", "null"], description: "{maxLength: 500}" });
    assert.deepEqual(sent.$defs.party.properties.kind, { enum: ["company", null], type: ["string", "null"] });
    assert.deepEqual(result.changes, [
      { path: "/$defs/party", change: "closed_object" },
      { path: "/$defs/party/properties/email", change: "optional_nullable" },
      { path: "/$defs/party/properties/kind", change: "optional_nullable" },
      { path: "/$defs/party/properties/website", change: "optional_nullable" },
      { path: "/properties/buyer", change: "optional_nullable" },
      { path: "/properties/notes", change: "optional_nullable" },
      { path: "/properties/tags", change: "optional_nullable" },
    ]);
  });

  test("a root that is not an object is a SchemaError; a root $ref to an object is followed", () => {
    const error = thrown(() => guard.toProviderSchema({ type: "array", items: { type: "string" } }, "openai"));
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(error.code, "invalid_schema");
    assert.equal(
      error.message,
      'OpenAI strict mode needs an object schema at the root (type "object"), but this schema\'s root is of type "array"',
    );
    const cycle = thrown(() => guard.toProviderSchema({ $ref: "#" }, "openai"));
    assert.ok(cycle instanceof guard.SchemaError);
    assert.match(cycle.message, /a cycle of references$/);
    const named = {
      $ref: "#/definitions/Invoice",
      definitions: { Invoice: { type: "object", required: ["number"], properties: { number: { type: "string", minLength: 3 } } } },
    };
    const result = guard.toProviderSchema(named, "openai");
    assert.equal(result.schema.type, "object");
    assert.deepEqual(Object.keys(result.schema.$defs), ["Invoice"]);
    assert.deepEqual(entries(result), ["/definitions/Invoice/properties/number minLength"]);
    // Only OpenAI needs an object root.
    for (const provider of ["anthropic", "gemini", "ollama"]) {
      assert.equal(guard.toProviderSchema({ type: "array", items: { type: "string" } }, provider).schema.type, "array");
    }
  });
});

describe("toProviderSchema: Anthropic, Gemini, Ollama", () => {
  test("anthropic keeps its formats and minItems 0 or 1, describes the rest, keeps optional properties optional", () => {
    const result = guard.toProviderSchema(invoiceSchema(), "anthropic");
    assert.deepEqual(entries(result), [
      "/$defs/line/properties/description maxLength",
      "/$defs/line/properties/description minLength",
      "/$defs/line/properties/quantity exclusiveMinimum",
      "/$defs/line/properties/unitPrice maximum",
      "/$defs/line/properties/unitPrice minimum",
      "/$defs/party/properties/name minLength",
      "/properties/invoiceNumber minLength",
      "/properties/invoiceNumber pattern",
      "/properties/lines maxItems",
      "/properties/notes maxLength",
      "/properties/tags minItems",
      "/properties/tags uniqueItems",
      "/properties/total minimum",
      "/properties/total multipleOf",
    ]);
    const sent = result.schema;
    assert.deepEqual(sent.required, invoiceSchema().required);
    assert.deepEqual(sent.$defs.party.properties.website, { type: "string", format: "uri" });
    assert.deepEqual(sent.properties.lines, { type: "array", minItems: 1, items: { $ref: "#/$defs/line" }, description: "{maxItems: 50}" });
    assert.equal(sent.$defs.party.additionalProperties, false);
    assert.deepEqual(result.changes, [{ path: "/$defs/party", change: "closed_object" }]);
  });

  test("anthropic sends oneOf as anyOf and lists it", () => {
    const schema = { type: "object", properties: { id: { oneOf: [{ type: "string", format: "uuid" }, { type: "integer" }] } } };
    const result = guard.toProviderSchema(schema, "anthropic");
    assert.deepEqual(result.schema.properties.id, { anyOf: [{ type: "string", format: "uuid" }, { type: "integer" }] });
    assert.deepEqual(entries(result), ["/properties/id oneOf"]);
  });

  test("gemini drops minLength, maxLength, pattern and const and lists what it does not promise", () => {
    const result = guard.toProviderSchema(invoiceSchema(), "gemini");
    subschemas(result.schema, (node) => {
      for (const keyword of ["minLength", "maxLength", "pattern", "const"]) assert.equal(node[keyword], undefined, keyword);
    });
    const listed = entries(result);
    for (const entry of [
      "/properties/invoiceNumber pattern",
      "/properties/invoiceNumber minLength",
      "/$defs/party/properties/kind const",
      "/properties/currency enum",
      "/properties/issuedOn format",
      "/properties/total minimum",
      "/properties/lines maxItems",
      // The root's path is "".
      " additionalProperties",
    ]) {
      assert.ok(listed.includes(entry), entry);
    }
    assert.deepEqual(result.schema.properties.issuedOn, { type: "string", format: "date" });
    assert.deepEqual(result.changes, []);
  });

  test("ollama gets the schema unchanged and every constraint beyond shape is listed", () => {
    const result = guard.toProviderSchema(invoiceSchema(), "ollama");
    assert.deepEqual(result.schema, invoiceSchema());
    const listed = entries(result);
    assert.ok(listed.includes("/properties/currency enum"));
    assert.ok(listed.includes("/$defs/party/properties/email format"));
    assert.ok(!listed.some((e) => / (type|properties|required|\$ref)$/.test(e)), listed.join("\n"));
  });
});

describe("toProviderSchema: every provider", () => {
  test("lists are sorted by path then keyword, and every entry names a keyword of the original", () => {
    const original = invoiceSchema();
    for (const provider of PROVIDERS) {
      const result = guard.toProviderSchema(original, provider);
      const sorted = [...result.unenforced].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0));
      assert.deepEqual(result.unenforced, sorted, provider);
      for (const { path, keyword } of result.unenforced) {
        const node = at(original, path);
        assert.ok(node && Object.hasOwn(node, keyword), `${provider}: ${path} has no ${keyword}`);
      }
    }
  });

  test("a constraint the mode does not enforce is caught by checkOutput against the original", () => {
    // Shape the sent schema allows, but longer notes than the original does.
    const response = JSON.stringify({
      invoiceNumber: "INV-2026",
      issuedOn: "2026-03-01",
      currency: "EUR",
      vendor: { name: "Acme" },
      lines: [{ description: "Widgets", quantity: 2, unitPrice: 10 }],
      total: 20,
      notes: "x".repeat(501),
    });
    for (const provider of PROVIDERS) {
      const result = guard.toProviderSchema(invoiceSchema(), provider);
      assert.ok(entries(result).includes("/properties/notes maxLength"), provider);
    }
    const verdict = guard.checkOutput(response, invoiceSchema());
    assert.equal(verdict.ok, false);
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.schemaPath, e.code]), [["/notes", "/properties/notes/maxLength", "maxLength"]]);
  });

  test("a response-format wrapper, JSON text and a Validator give the same result as the schema", () => {
    const validator = guard.compileSchema(invoiceSchema());
    for (const provider of PROVIDERS) {
      const direct = guard.toProviderSchema(invoiceSchema(), provider);
      assert.deepEqual(guard.toProviderSchema({ name: "invoice", strict: true, schema: invoiceSchema() }, provider), direct);
      assert.deepEqual(guard.toProviderSchema(JSON.stringify(invoiceSchema(), null, 2), provider), direct);
      assert.deepEqual(guard.toProviderSchema(validator, provider), direct);
    }
  });

  test("never modifies the caller's schema, and the result shares nothing with it", () => {
    const schema = deepFreeze(invoiceSchema());
    for (const provider of PROVIDERS) {
      const result = guard.toProviderSchema(schema, provider);
      assert.notEqual(result.schema, schema);
      result.schema.properties.notes.changed = true;
    }
    assert.deepEqual(schema, invoiceSchema());
  });
});

describe("toProviderSchema: bad arguments", () => {
  test("an unknown provider or a provider that is not a string is a TypeError", () => {
    assertArgumentError(
      thrown(() => guard.toProviderSchema(invoiceSchema(), "OpenAI")),
      /^unknown provider "OpenAI": expected one of "openai", "anthropic", "gemini", "ollama"$/,
    );
    assertArgumentError(thrown(() => guard.toProviderSchema(invoiceSchema())), /^provider must be "openai", "anthropic", "gemini" or "ollama", not undefined$/);
    assertArgumentError(thrown(() => guard.toProviderSchema(invoiceSchema(), { name: "openai" })), /not object$/);
  });

  test("a schema that is not an object or text is a TypeError", () => {
    for (const [schema, kind] of [[undefined, "undefined"], [null, "null"], [[], "an array"], [42, "number"], [true, "boolean"]]) {
      assertArgumentError(
        thrown(() => guard.toProviderSchema(schema, "openai")),
        new RegExp(`^toProviderSchema needs a schema object or JSON text, not ${kind}$`),
      );
    }
    const cyclic = { type: "object" };
    cyclic.properties = { self: cyclic };
    // A schema that cannot be read is a schema problem, as one that does not compile is.
    const error = thrown(() => guard.toProviderSchema(cyclic, "gemini"));
    assert.ok(error instanceof guard.SchemaError, `${error}`);
    assert.match(error.message, /^the schema cannot be serialised to JSON: it contains a cycle$/);
    const map = thrown(() => guard.toProviderSchema({ type: "object", properties: new Map() }, "openai"));
    assert.ok(map instanceof guard.SchemaError, `${map}`);
    assert.match(map.message, /a Map at \/properties$/);
  });

  test("schema text that is not JSON, or a schema that does not compile, is a SchemaError", () => {
    const cases = [
      ["{not json", /^the schema is not valid JSON: /],
      ["[1, 2]", /^a schema for a provider must be an object, not an array$/],
      [{ type: "object", properties: { a: { type: "integr" } } }, /^the schema is invalid at \/properties\/a\/type: /],
      [{ $ref: "https://example.com/schema.json" }, /remote references are not fetched/],
    ];
    for (const [schema, message] of cases) {
      for (const provider of PROVIDERS) {
        const error = thrown(() => guard.toProviderSchema(schema, provider));
        assert.ok(error instanceof guard.SchemaError, `${provider}: ${error}`);
        assert.equal(error.code, "invalid_schema");
        assert.match(error.message, message);
      }
    }
  });

  test("hostile nesting is a SchemaError, not a crash, and the module keeps working", () => {
    const depth = 5000;
    const deep = `${'{"type":"object","properties":{"a":'.repeat(depth)}{}${"}}".repeat(depth)}`;
    for (const provider of PROVIDERS) {
      const error = thrown(() => guard.toProviderSchema(deep, provider));
      assert.ok(error instanceof guard.SchemaError, `${provider}: ${error}`);
      assert.equal(error.message, "the schema nests deeper than 127 levels");
    }
    assert.equal(guard.toProviderSchema(invoiceSchema(), "openai").schema.type, "object");
  });
});
