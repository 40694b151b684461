// compileSchema and the Validator it returns.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, GOOD_OBSERVATIONS, HEX32, HEX64, OBSERVATIONS_SCHEMA, assertIssues, thrown } from "../../support/fixtures.mjs";

const HOLLOW = { observations: [{ type: "", text: "", importance: 0 }] };
const HOLLOW_ISSUE = ["/observations/0/type", "/properties/observations/items/properties/type/enum", "enum", /"fact", "decision", "question"/];

describe("compileSchema", () => {
  test("returns a Validator with a 32-hex schemaHash", () => {
    const validator = guard.compileSchema(OBSERVATIONS_SCHEMA);
    assert.ok(validator instanceof guard.Validator);
    assert.match(validator.schemaHash, HEX64);
    assert.equal(typeof validator.validate, "function");
    assert.equal(typeof validator.isValid, "function");
  });

  test("accepts the schema as JSON text with the same hash", () => {
    const fromObject = guard.compileSchema(OBSERVATIONS_SCHEMA);
    const fromText = guard.compileSchema(JSON.stringify(OBSERVATIONS_SCHEMA, null, 2));
    assert.equal(fromText.schemaHash, fromObject.schemaHash);
    assert.deepEqual(fromText.validate(HOLLOW), fromObject.validate(HOLLOW));
  });

  test("an uncompilable schema throws SchemaError (an Error with code invalid_schema)", () => {
    const error = thrown(() => guard.compileSchema({ type: "object", properties: { a: { type: "integr" } } }));
    assert.ok(error instanceof Error);
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(error.name, "SchemaError");
    assert.equal(error.code, "invalid_schema");
    assert.match(error.message, /^the schema is invalid at \/properties\/a\/type: /);
  });

  test("other uncompilable inputs name their problem", () => {
    const cases = [
      [() => guard.compileSchema("{not json"), /^the schema is not valid JSON: /],
      [() => guard.compileSchema(), /^a schema is required$/],
      [() => guard.compileSchema("[1,2]"), /^a schema must be an object or a boolean, not an array$/],
      [() => guard.compileSchema({ minLength: "three" }), /^the schema is invalid at \/minLength: /],
      [() => guard.compileSchema({ $ref: "https://example.com/schemas/remote.json" }), /remote references are not fetched/],
    ];
    for (const [fn, message] of cases) {
      const error = thrown(fn);
      assert.ok(error instanceof guard.SchemaError, `${error?.name}: ${error?.message}`);
      assert.equal(error.code, "invalid_schema");
      assert.match(error.message, message);
    }
  });

  test("a schema nested deeper than the limit is refused, not a crash", () => {
    let schema = { type: "string" };
    for (let i = 0; i < 300; i++) schema = { type: "object", properties: { a: schema } };
    const error = thrown(() => guard.compileSchema(schema));
    assert.ok(error instanceof guard.SchemaError);
    // Today this is serde_json's recursion limit on the schema text (see the
    // report: the message calls a valid object "not valid JSON").
    assert.match(error.message, /recursion limit exceeded|nests deeper than/);
    assert.equal(guard.compileSchema(CITY_SCHEMA).isValid({ city: "Oslo", population: 709037 }), true);
  });

  test("the Validator constructor is not public", () => {
    const error = thrown(() => new guard.Validator());
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /compileSchema/);
  });

  test("$defs and $ref inside the schema resolve offline", () => {
    const schema = {
      type: "object",
      required: ["home"],
      properties: { home: { $ref: "#/$defs/place" } },
      $defs: { place: { type: "object", required: ["city"], properties: { city: { type: "string" } } } },
    };
    const validator = guard.compileSchema(schema);
    assert.equal(validator.isValid({ home: { city: "Oslo" } }), true);
    assert.deepEqual(
      validator.validate({ home: {} }).errors.map((e) => [e.path, e.code]),
      [["/home", "required"]],
    );
  });
});

describe("Validator.validate / isValid", () => {
  const validator = guard.compileSchema(OBSERVATIONS_SCHEMA);

  test("a valid instance", () => {
    assert.deepEqual(validator.validate(GOOD_OBSERVATIONS), { valid: true, errors: [], moreErrors: false });
    assert.equal(validator.isValid(GOOD_OBSERVATIONS), true);
  });

  test("the hollow row", () => {
    const report = validator.validate(HOLLOW);
    assert.deepEqual(Object.keys(report).sort(), ["errors", "moreErrors", "valid"]);
    assert.equal(report.valid, false);
    assert.equal(report.moreErrors, false);
    assertIssues(report.errors, [HOLLOW_ISSUE]);
    assert.equal(validator.isValid(HOLLOW), false);
  });

  test("isValid over JS values of every kind", () => {
    assert.equal(validator.isValid([]), false);
    assert.equal(validator.isValid(null), false);
    assert.equal(validator.isValid("observations"), false);
    assert.equal(validator.isValid({ observations: [] }), true);
    assert.equal(validator.isValid({ observations: [], extra: 1 }), false);
  });

  test("a root-level issue has the empty path", () => {
    assertIssues(validator.validate({}).errors, [["", "/required", "required", /"observations"/]]);
  });

  test("maxErrors defaults to 5 and caps the list", () => {
    const many = { observations: Array.from({ length: 8 }, () => ({ type: "", text: "", importance: 0 })) };
    const all = validator.validate(many, { maxErrors: 100 });
    assert.equal(all.errors.length, 8);
    assert.equal(all.moreErrors, false);
    assert.deepEqual(
      all.errors.map((e) => e.path),
      Array.from({ length: 8 }, (_, i) => `/observations/${i}/type`),
    );
    const capped = validator.validate(many);
    assert.equal(capped.valid, false);
    assert.equal(capped.errors.length, 5);
    assert.equal(capped.moreErrors, true);
    assert.deepEqual(capped.errors, all.errors.slice(0, 5));
    const three = validator.validate(many, { maxErrors: 3 });
    assert.deepEqual(three.errors, all.errors.slice(0, 3));
    assert.equal(three.moreErrors, true);
    const exact = validator.validate(many, { maxErrors: 8 });
    assert.equal(exact.errors.length, 8);
    assert.equal(exact.moreErrors, false);
  });

  test("the capped list is the first maxErrors of the full list (objects in key order, nested rows)", () => {
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    const allIntegers = guard.compileSchema({ type: "object", properties: Object.fromEntries(keys.map((k) => [k, { type: "integer" }])) });
    const instance = Object.fromEntries(keys.map((k) => [k, "x"]));
    const full = allIntegers.validate(instance, { maxErrors: 1000 });
    assert.equal(full.errors.length, 30);
    assert.deepEqual(full.errors.map((e) => e.path), keys.map((k) => `/${k}`));
    for (const maxErrors of [1, 2, 5, 29]) {
      const capped = allIntegers.validate(instance, { maxErrors });
      assert.deepEqual(capped.errors, full.errors.slice(0, maxErrors), `maxErrors ${maxErrors}`);
      assert.equal(capped.moreErrors, true);
    }
    // Rows: indices sort as numbers (/2 before /10), and the cap keeps the first rows.
    const rows = { observations: Array.from({ length: 300 }, () => ({ type: "", text: "", importance: 0 })) };
    const capped = validator.validate(rows, { maxErrors: 12 });
    assert.deepEqual(
      capped.errors.map((e) => e.path),
      Array.from({ length: 12 }, (_, i) => `/observations/${i}/type`),
    );
    assert.equal(capped.moreErrors, true);
  });

  test("an error only at the end of a long array is found under a small cap", () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ type: "fact", text: `row ${i}`, importance: 1 }));
    rows[1999] = { type: "", text: "", importance: 0 };
    const report = validator.validate({ observations: rows }, { maxErrors: 1 });
    assert.equal(report.valid, false);
    assert.deepEqual(report.errors.map((e) => [e.path, e.code]), [["/observations/1999/type", "enum"]]);
    assert.equal(report.moreErrors, false);
  });

  test("contains and uniqueItems see the whole array under a small cap", () => {
    const schema = {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" }, contains: { const: "urgent" } },
        ids: { type: "array", items: { type: "integer" }, uniqueItems: true },
      },
    };
    const tags = Array.from({ length: 500 }, () => "routine");
    tags[0] = 5;
    tags[499] = "urgent";
    const ids = Array.from({ length: 500 }, (_, i) => i);
    ids[499] = 0;
    const report = guard.compileSchema(schema).validate({ tags, ids }, { maxErrors: 1 });
    assert.deepEqual(report.errors.map((e) => [e.path, e.code]), [["/ids", "uniqueItems"]]);
    assert.equal(report.moreErrors, true);
    const all = guard.compileSchema(schema).validate({ tags, ids }, { maxErrors: 10 });
    assert.deepEqual(all.errors.map((e) => [e.path, e.code]), [["/ids", "uniqueItems"], ["/tags/0", "type"]]);
    assert.equal(all.moreErrors, false);
  });

  test("numeric keywords report their keyword as code", () => {
    const city = guard.compileSchema(CITY_SCHEMA);
    assertIssues(city.validate({ city: "", population: -5 }).errors, [
      ["/city", "/properties/city/minLength", "minLength", /1/],
      ["/population", "/properties/population/minimum", "minimum", /0/],
    ]);
  });

  // validate and isValid encode the instance into the core's input buffer
  // and get a valid one back as a number (`validateInput`); options other
  // than none or `maxErrors` alone, a non-plain options object included, go
  // the general way, which passes the text as an argument. Both must judge
  // every instance alike.
  test("the input-buffer path and the general path give the same reports", () => {
    const general = (cap) => Object.assign(Object.create(null), cap === undefined ? {} : { maxErrors: cap });
    const schemas = [
      OBSERVATIONS_SCHEMA,
      CITY_SCHEMA,
      { type: "object", properties: { at: { type: "string", format: "date-time" }, mail: { format: "email" } }, required: ["at"] },
      { $defs: { n: { type: "integer", multipleOf: 3 } }, type: "array", items: { $ref: "#/$defs/n" }, maxItems: 3, uniqueItems: true },
      { type: "string", pattern: "^[a-zé]+$", maxLength: 4 },
      true,
      false,
    ];
    const values = [
      GOOD_OBSERVATIONS,
      HOLLOW,
      { city: "Oslo", population: 709037 },
      { city: "", population: -5, extra: [1, { deep: [null] }] },
      { at: "2026-12-03T19:30:00Z", mail: "ana@example.com" },
      { at: "2026-02-30T25:00:00Z", mail: "not mail" },
      [3, 6, 9],
      [3, 3, 4, 5, 6],
      "héé",
      "été d'or, ☃",
      "x\ud800y",
      0,
      -0,
      1.5e300,
      null,
      true,
      { "\u2028": "\u0000", "a\"b": "\\" },
      { __proto__: null, a: 1 },
      JSON.parse('{"__proto__": {"a": 1}}'),
    ];
    let invalid = 0;
    for (const schema of schemas) {
      const validator = guard.compileSchema(schema);
      for (const value of values) {
        const name = `${JSON.stringify(schema).slice(0, 40)} / ${JSON.stringify(value).slice(0, 40)}`;
        const report = validator.validate(value);
        assert.deepEqual(report, validator.validate(value, general()), name);
        assert.deepEqual(validator.validate(value, {}), report, name);
        for (const cap of [0, 1, 2]) assert.deepEqual(validator.validate(value, { maxErrors: cap }), validator.validate(value, general(cap)), `${name}, maxErrors ${cap}`);
        assert.equal(validator.isValid(value), report.valid, name);
        if (!report.valid) invalid += 1;
      }
    }
    assert.ok(invalid > 20 && invalid < schemas.length * values.length - 20, `both kinds are compared (${invalid} invalid)`);
  });

  test("validate refuses the options the general path refuses, whatever the instance", () => {
    const validator = guard.compileSchema(CITY_SCHEMA);
    for (const options of [{ maxErrors: -1 }, { maxErrors: 1.5 }, { maxErrors: "3" }, { maxErrors: 2, extra: 1 }]) {
      const error = thrown(() => validator.validate({ city: "Oslo", population: 1 }, options));
      assert.equal(error.code, "invalid_argument", JSON.stringify(options));
    }
  });
});

describe("schemaHash", () => {
  test("is stable across key order of the schema object", () => {
    const a = { type: "object", required: ["x"], properties: { x: { type: "string", minLength: 1 }, y: { type: "integer" } } };
    const b = { properties: { y: { type: "integer" }, x: { minLength: 1, type: "string" } }, required: ["x"], type: "object" };
    assert.equal(guard.compileSchema(a).schemaHash, guard.compileSchema(b).schemaHash);
    assert.equal(guard.compileSchema(JSON.stringify(b, null, 4)).schemaHash, guard.compileSchema(a).schemaHash);
    assert.equal(guard.checkOutput('{"x":"v"}', b).schemaHash, guard.compileSchema(a).schemaHash);
  });

  test("changes with the content (a value, array order)", () => {
    const base = { type: "object", required: ["x", "y"], properties: { x: { type: "string", minLength: 1 } } };
    const hashes = [
      base,
      { ...base, properties: { x: { type: "string", minLength: 2 } } },
      { ...base, required: ["y", "x"] },
      { ...base, description: "with a description" },
    ].map((s) => guard.compileSchema(s).schemaHash);
    assert.equal(new Set(hashes).size, 4, hashes.join(" "));
  });

  test("does not depend on compile options (it hashes the schema content)", () => {
    const schema = { type: "object", properties: { d: { type: "string", format: "date" } } };
    const asserted = guard.compileSchema(schema);
    const annotated = guard.compileSchema(schema, { formats: "annotate" });
    assert.equal(annotated.schemaHash, asserted.schemaHash);
    // ...but the options do change the validation.
    assert.equal(asserted.isValid({ d: "2026-02-30" }), false);
    assert.equal(annotated.isValid({ d: "2026-02-30" }), true);
  });
});

describe("a Validator as the schema of checkOutput", () => {
  const validator = guard.compileSchema(OBSERVATIONS_SCHEMA);

  test("accepts a conforming response with the validator's hash", () => {
    const verdict = guard.checkOutput(JSON.stringify(GOOD_OBSERVATIONS), validator);
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
    assert.equal(verdict.schemaHash, validator.schemaHash);
    assert.equal(verdict.degraded, false);
  });

  test("gives the same verdict as the schema object", () => {
    const text = JSON.stringify(HOLLOW);
    const viaValidator = guard.checkOutput(text, validator);
    assert.equal(viaValidator.failure, "schema");
    assertIssues(viaValidator.errors, [HOLLOW_ISSUE]);
    assert.deepEqual(viaValidator, guard.checkOutput(text, OBSERVATIONS_SCHEMA));
  });

  test("runs the parse-level stages before the validator", () => {
    assert.equal(guard.checkOutput({ content: JSON.stringify(GOOD_OBSERVATIONS), finishReason: "length" }, validator).failure, "truncated");
    assert.equal(guard.checkOutput("[]", validator).failure, "not_object");
    assert.equal(guard.checkOutput("```json\n" + JSON.stringify(GOOD_OBSERVATIONS) + "\n```", validator).rescue, "code_fence");
  });

  test("keeps the options it was compiled with", () => {
    const annotate = guard.compileSchema({ type: "object", properties: { d: { type: "string", format: "date" } } }, { formats: "annotate" });
    assert.equal(guard.checkOutput('{"d":"2026-02-30"}', annotate).ok, true);
    const closed = guard.compileSchema({ type: "object", properties: { a: { type: "integer" } } }, { rejectUnknownFields: true });
    assert.deepEqual(
      guard.checkOutput('{"a":1,"b":2}', closed).errors.map((e) => [e.path, e.code]),
      [["", "additionalProperties"]],
    );
  });

  test("maxErrors of checkOutput applies to a Validator", () => {
    const many = JSON.stringify({ observations: Array.from({ length: 4 }, () => ({ type: "", text: "", importance: 0 })) });
    const verdict = guard.checkOutput(many, validator, { maxErrors: 2 });
    assert.equal(verdict.errors.length, 2);
    assert.equal(verdict.moreErrors, true);
  });
});

describe("the schema cache", () => {
  test("repeat compiles of the same content share one entry; clearSchemaCache empties it", () => {
    guard.clearSchemaCache();
    assert.equal(guard.schemaCacheSize(), 0);
    guard.compileSchema(CITY_SCHEMA);
    assert.equal(guard.schemaCacheSize(), 1);
    guard.compileSchema(JSON.stringify(CITY_SCHEMA));
    guard.compileSchema({ ...CITY_SCHEMA });
    guard.checkOutput('{"city":"Oslo","population":1}', CITY_SCHEMA);
    assert.equal(guard.schemaCacheSize(), 1);
    guard.compileSchema(CITY_SCHEMA, { formats: "annotate" });
    assert.equal(guard.schemaCacheSize(), 2);
    guard.clearSchemaCache();
    assert.equal(guard.schemaCacheSize(), 0);
  });

  test("the cache is bounded by setSchemaCacheCapacity", () => {
    guard.clearSchemaCache();
    guard.setSchemaCacheCapacity(3);
    try {
      for (let i = 0; i < 10; i++) guard.compileSchema({ type: "object", maxProperties: i });
      assert.equal(guard.schemaCacheSize(), 3);
    } finally {
      guard.setSchemaCacheCapacity(128);
      guard.clearSchemaCache();
    }
  });

  test("a validator keeps working after the cache is cleared", () => {
    const validator = guard.compileSchema(CITY_SCHEMA);
    guard.clearSchemaCache();
    assert.equal(validator.isValid({ city: "Oslo", population: 1 }), true);
    assert.equal(guard.checkOutput('{"city":"","population":1}', validator).failure, "schema");
  });
});

describe("compileSchema: response-format wrappers", () => {
  test("a wrapper compiles to the schema it wraps, as checkOutput reads it", () => {
    const schema = { type: "object", required: ["city"], properties: { city: { type: "string", minLength: 2 } } };
    const wrapper = { name: "city", strict: true, schema };
    const validator = guard.compileSchema(wrapper);
    assert.equal(validator.isValid({ city: "Oslo" }), true);
    assert.equal(validator.isValid({ city: "O" }), false);
    assert.equal(validator.isValid({}), false);
    assert.equal(validator.schemaHash, guard.compileSchema(schema).schemaHash);
    assert.equal(validator.schemaHash, guard.checkOutput('{"city":"Oslo"}', wrapper).schemaHash);
    assert.equal(guard.compileSchema(JSON.stringify(wrapper)).isValid({ city: "O" }), false);
    // An object with a schema member and keywords of its own is a schema.
    const notWrapper = { type: "object", properties: { schema: { type: "object" } }, schema: { type: "string" } };
    assert.equal(guard.compileSchema(notWrapper).isValid({ schema: {} }), true);
  });
});

describe("a freed Validator", () => {
  test(
    "validate/isValid on a freed Validator throw the typed invalid_argument error, as checkOutput does",
    () => {
      const validator = guard.compileSchema(CITY_SCHEMA);
      validator.free();
      assert.equal(thrown(() => guard.checkOutput("{}", validator)).code, "invalid_argument");
      assert.equal(thrown(() => validator.validate({})).code, "invalid_argument");
      assert.equal(thrown(() => validator.isValid({})).code, "invalid_argument");
    },
  );
});
