// The cost table's cases (see bench/cost-table.mjs): every keyword and every
// format of the drafts the package claims, each alone, as the schema of the
// items of a 1,000-item array, with a generator of valid items and one of
// invalid items; and the realistic mixes (the invoice shape among them).
// Deterministic, so every runtime sees the same documents.

/** Draft 2020-12 unless a case says otherwise; `ajv` names the ajv build that reads the draft. */
const D7 = "http://json-schema.org/draft-07/schema#";
const D4 = "http://json-schema.org/draft-04/schema#";
const D2019 = "https://json-schema.org/draft/2019-09/schema";

const STATUS = ["draft", "approved", "disputed", "paid"];
const hex = (i, width) => (i >>> 0).toString(16).padStart(width, "0").slice(-width);
const pad = (n) => String(n).padStart(2, "0");
const day = (i) => `2026-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;

/**
 * Keyword cases: { id, item (the schema of one item), defs?, draft?,
 * valid(i), invalid(i), note? }. `defs` go to the root's `$defs` (or
 * `definitions` for drafts before 2019-09); `draft` is the root's `$schema`.
 */
export const KEYWORD_CASES = [
  { id: "type: string", item: { type: "string" }, valid: (i) => `s${i}`, invalid: (i) => i },
  { id: "type: number", item: { type: "number" }, valid: (i) => i + 0.5, invalid: (i) => `${i}` },
  { id: "type: integer", item: { type: "integer" }, valid: (i) => i, invalid: (i) => i + 0.5 },
  { id: "type: boolean", item: { type: "boolean" }, valid: (i) => i % 2 === 0, invalid: (i) => i },
  { id: "type: null", item: { type: "null" }, valid: () => null, invalid: (i) => i },
  { id: "type: array", item: { type: "array" }, valid: (i) => [i], invalid: (i) => ({ a: i }) },
  { id: "type: object", item: { type: "object" }, valid: (i) => ({ a: i }), invalid: (i) => [i] },
  { id: "type: [string, null]", item: { type: ["string", "null"] }, valid: (i) => (i % 2 ? `s${i}` : null), invalid: (i) => i },
  { id: "enum", item: { enum: STATUS }, valid: (i) => STATUS[i % 4], invalid: () => "void" },
  { id: "const", item: { const: "fixed" }, valid: () => "fixed", invalid: () => "other" },
  { id: "multipleOf: 3 (integer)", item: { type: "integer", multipleOf: 3 }, valid: (i) => 3 * i, invalid: (i) => 3 * i + 1 },
  { id: "multipleOf: 0.25", item: { type: "number", multipleOf: 0.25 }, valid: (i) => i * 0.25, invalid: (i) => i * 0.25 + 0.1 },
  { id: "multipleOf: 0.01", item: { type: "number", multipleOf: 0.01 }, valid: (i) => Number(`${i}.${pad(i % 100)}`), invalid: (i) => i + 0.005 },
  { id: "minimum", item: { type: "number", minimum: 0 }, valid: (i) => i, invalid: (i) => -1 - i },
  { id: "maximum", item: { type: "number", maximum: 1000 }, valid: (i) => i, invalid: (i) => 2000 + i },
  { id: "exclusiveMinimum", item: { type: "number", exclusiveMinimum: 0 }, valid: (i) => i + 1, invalid: (i) => -i },
  { id: "exclusiveMaximum", item: { type: "number", exclusiveMaximum: 1000 }, valid: (i) => i, invalid: (i) => 1000 + i },
  { id: "minLength", item: { type: "string", minLength: 3 }, valid: (i) => `abc${i}`, invalid: () => "a" },
  { id: "maxLength", item: { type: "string", maxLength: 8 }, valid: (i) => `s${i}`, invalid: () => "x".repeat(20) },
  { id: "pattern", item: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" }, valid: (i) => `ABC-${1000 + i}`, invalid: (i) => `abc-${i}` },
  { id: "minItems", item: { type: "array", minItems: 2 }, valid: (i) => [i, i], invalid: (i) => [i] },
  { id: "maxItems", item: { type: "array", maxItems: 3 }, valid: (i) => [i], invalid: () => [1, 2, 3, 4] },
  { id: "uniqueItems", item: { type: "array", uniqueItems: true }, valid: (i) => [i, i + 1, "x"], invalid: (i) => [i, i] },
  { id: "contains", item: { type: "array", contains: { type: "string" } }, valid: () => [1, "a"], invalid: () => [1, 2] },
  { id: "minContains", item: { type: "array", contains: { type: "string" }, minContains: 2 }, valid: () => [1, "a", "b"], invalid: () => [1, "a"] },
  { id: "maxContains", item: { type: "array", contains: { type: "string" }, maxContains: 1 }, valid: () => [1, "a"], invalid: () => ["a", "b"] },
  { id: "prefixItems", item: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] }, valid: (i) => ["a", i], invalid: (i) => [i, "a"] },
  { id: "items (schema)", item: { type: "array", items: { type: "integer" } }, valid: (i) => [i, i + 1, i + 2], invalid: (i) => [i, "x"] },
  { id: "items: false after prefixItems", item: { type: "array", prefixItems: [{ type: "string" }], items: false }, valid: () => ["a"], invalid: () => ["a", 1] },
  { id: "required", item: { type: "object", required: ["a", "b"] }, valid: (i) => ({ a: i, b: i }), invalid: (i) => ({ a: i }) },
  { id: "properties", item: { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } } }, valid: (i) => ({ a: i, b: "x" }), invalid: () => ({ a: "x", b: "x" }) },
  { id: "additionalProperties: false", item: { type: "object", properties: { a: {}, b: {} }, additionalProperties: false }, valid: (i) => ({ a: i }), invalid: (i) => ({ a: i, c: i }) },
  { id: "additionalProperties: schema", item: { type: "object", properties: { a: {} }, additionalProperties: { type: "integer" } }, valid: (i) => ({ a: "x", n: i }), invalid: () => ({ a: 1, n: "x" }) },
  { id: "patternProperties", item: { type: "object", patternProperties: { "^x-": { type: "integer" } } }, valid: (i) => ({ "x-a": i, b: 1 }), invalid: () => ({ "x-a": "s" }) },
  { id: "propertyNames", item: { type: "object", propertyNames: { maxLength: 3 } }, valid: (i) => ({ abc: i }), invalid: (i) => ({ abcdef: i }) },
  { id: "minProperties", item: { type: "object", minProperties: 2 }, valid: (i) => ({ a: i, b: i }), invalid: (i) => ({ a: i }) },
  { id: "maxProperties", item: { type: "object", maxProperties: 2 }, valid: (i) => ({ a: i }), invalid: (i) => ({ a: i, b: i, c: i }) },
  { id: "dependentRequired", item: { type: "object", dependentRequired: { a: ["b"] } }, valid: (i) => ({ a: i, b: i }), invalid: (i) => ({ a: i }) },
  { id: "dependentSchemas", item: { type: "object", dependentSchemas: { a: { required: ["b"] } } }, valid: (i) => ({ a: i, b: i }), invalid: (i) => ({ a: i }) },
  { id: "allOf", item: { allOf: [{ type: "integer" }, { minimum: 0 }] }, valid: (i) => i, invalid: () => -1 },
  { id: "anyOf", item: { anyOf: [{ type: "integer" }, { type: "string" }] }, valid: (i) => i, invalid: () => null },
  { id: "oneOf", item: { oneOf: [{ type: "integer" }, { type: "string" }] }, valid: (i) => i, invalid: () => true },
  { id: "oneOf of three consts", item: { oneOf: [{ const: "ordered" }, { const: "shipped" }, { const: "delivered" }] }, valid: (i) => ["ordered", "shipped", "delivered"][i % 3], invalid: () => "lost" },
  { id: "not", item: { not: { type: "string" } }, valid: (i) => i, invalid: () => "x" },
  { id: "if / then / else", item: { if: { type: "integer" }, then: { minimum: 0 }, else: { type: "string" } }, valid: (i) => i, invalid: () => -1 },
  { id: "$ref to $defs", item: { $ref: "#/$defs/amount" }, defs: { amount: { type: "number", minimum: 0 } }, valid: (i) => i, invalid: () => -1 },
  {
    id: "$ref, recursive",
    item: { $ref: "#/$defs/node" },
    defs: { node: { type: "object", required: ["v"], properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    valid: (i) => ({ v: i, kids: [{ v: 1, kids: [] }] }),
    invalid: () => ({ v: "x", kids: [] }),
  },
  { id: "$anchor", item: { $ref: "#amount" }, defs: { amount: { $anchor: "amount", type: "number" } }, valid: (i) => i, invalid: () => "x" },
  {
    id: "$dynamicRef",
    item: { $dynamicRef: "#node" },
    ajvItem: { $ref: "#/$defs/node" },
    defs: { node: { $dynamicAnchor: "node", type: "integer" } },
    valid: (i) => i,
    invalid: () => "x",
    note: "ajv on the $ref spelling (ajv resolves this $dynamicRef to the root)",
  },
  { id: "unevaluatedProperties", item: { type: "object", properties: { a: {} }, unevaluatedProperties: false }, valid: (i) => ({ a: i }), invalid: (i) => ({ a: i, b: i }) },
  { id: "unevaluatedItems", item: { type: "array", prefixItems: [{}], unevaluatedItems: false }, valid: (i) => [i], invalid: (i) => [i, i] },
  { id: "false schema", item: { type: "object", properties: { x: false } }, valid: (i) => ({ a: i }), invalid: (i) => ({ x: i }) },
  { id: "contentEncoding: base64", item: { type: "string", contentEncoding: "base64" }, valid: () => "aGVsbG8=", invalid: () => "%%%", annotation: true, note: "an annotation in 2020-12 for both: the \"invalid\" document is valid" },
  // Drafts before 2020-12.
  { id: "items: [..] + additionalItems (draft 7)", draft: D7, item: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false }, valid: (i) => ["a", i], invalid: (i) => ["a", i, i] },
  { id: "dependencies: names (draft 7)", draft: D7, item: { type: "object", dependencies: { a: ["b"] } }, valid: (i) => ({ a: i, b: i }), invalid: (i) => ({ a: i }) },
  { id: "dependencies: schema (draft 7)", draft: D7, item: { type: "object", dependencies: { a: { required: ["b"] } } }, valid: (i) => ({ a: i, b: i }), invalid: (i) => ({ a: i }) },
  { id: "$ref to definitions (draft 7)", draft: D7, item: { $ref: "#/definitions/amount" }, defs: { amount: { type: "number", minimum: 0 } }, valid: (i) => i, invalid: () => -1 },
  {
    id: "$recursiveRef (2019-09)",
    draft: D2019,
    item: { $ref: "https://example.com/tree" },
    defs: { tree: { $id: "https://example.com/tree", $recursiveAnchor: true, type: "object", properties: { v: { type: "integer" }, kids: { type: "array", items: { $recursiveRef: "#" } } } } },
    valid: (i) => ({ v: i, kids: [{ v: 1 }] }),
    invalid: () => ({ v: "x" }),
  },
  {
    id: "exclusiveMinimum: true (draft 4)",
    draft: D4,
    item: { type: "number", minimum: 0, exclusiveMinimum: true },
    ajvItem: { type: "number", exclusiveMinimum: 0 },
    valid: (i) => i + 1,
    invalid: () => 0,
    note: "ajv on the draft-7 spelling (ajv 8 has no draft 4)",
  },
];

/**
 * Format cases: every format the package asserts, as `{ type: "string",
 * format }`, with a valid and an invalid string. `ajvMisses`: ajv-formats
 * has no such format, so ajv's row checks only the type.
 */
export const FORMAT_CASES = [
  { format: "date", valid: (i) => day(i), invalid: () => "2026-02-30" },
  { format: "time", valid: (i) => `${pad(i % 24)}:${pad(i % 60)}:05Z`, invalid: () => "25:00:00Z" },
  { format: "date-time", valid: (i) => `${day(i)}T${pad(i % 24)}:04:05Z`, invalid: () => "2026-13-02T03:04:05Z" },
  { format: "duration", valid: (i) => `P${1 + (i % 9)}DT4H`, invalid: () => "P" },
  { format: "email", valid: (i) => `user${i}@example.com`, invalid: (i) => `user${i}.example.com` },
  { format: "idn-email", valid: (i) => `用户${i}@例子.广告`, invalid: () => "not-an-email", ajvMisses: true },
  { format: "hostname", valid: (i) => `host${i}.example.com`, invalid: () => "-bad-.example.com" },
  { format: "idn-hostname", valid: (i) => `例子${i}.测试`, invalid: () => "-bad-", ajvMisses: true },
  { format: "ipv4", valid: (i) => `192.168.${i % 256}.1`, invalid: () => "256.1.1.1" },
  { format: "ipv6", valid: (i) => `2001:db8::${hex(i, 4)}`, invalid: () => "2001:db8:::1" },
  { format: "uri", valid: (i) => `https://example.com/items/${i}`, invalid: () => "not a uri" },
  { format: "uri-reference", valid: (i) => `/items/${i}?q=1`, invalid: () => "\\\\bad" },
  { format: "iri", valid: (i) => `https://例子.测试/${i}`, invalid: () => "not an iri", ajvMisses: true },
  { format: "iri-reference", valid: (i) => `/路径/${i}`, invalid: () => "\\\\bad", ajvMisses: true },
  { format: "uuid", valid: (i) => `123e4567-e89b-12d3-a456-${hex(i * 7919, 12)}`, invalid: () => "123e4567-e89b-12d3-a456" },
  { format: "uri-template", valid: () => "/items/{id}", invalid: () => "/items/{id" },
  { format: "json-pointer", valid: (i) => `/a/${i}`, invalid: () => "a/b" },
  { format: "relative-json-pointer", valid: (i) => `${i % 3}/a`, invalid: () => "/a" },
  { format: "regex", valid: () => "^a+$", invalid: () => "(unclosed" },
];

/** Items per array. */
export const ITEMS = 1000;
/** One item in this many is invalid in an invalid document (ten issues, more than the default cap of five). */
export const INVALID_EVERY = 100;

/**
 * The document and schemas of a keyword or format case: an object whose
 * `items` member is the array (a guard's output must be an object), the
 * schema for ours, and the schema for ajv (the same unless the case gives
 * ajv another spelling).
 */
export function keywordWorkload(kase) {
  const defsKey = kase.draft === D7 || kase.draft === D4 ? "definitions" : "$defs";
  const root = (item, draft) => {
    const schema = { type: "object", required: ["items"], properties: { items: { type: "array", items: item } } };
    if (draft !== undefined) schema.$schema = draft;
    if (kase.defs !== undefined) schema[defsKey] = kase.defs;
    return schema;
  };
  const valid = Array.from({ length: ITEMS }, (_, i) => kase.valid(i));
  const invalid = valid.map((item, i) => (i % INVALID_EVERY === INVALID_EVERY - 1 ? kase.invalid(i) : item));
  return {
    schema: root(kase.item, kase.draft),
    ajvSchema: root(kase.ajvItem ?? kase.item, kase.draft === D4 ? D7 : kase.draft),
    ajvDraft: kase.draft === D7 || kase.draft === D4 ? "7" : kase.draft === D2019 ? "2019" : "2020",
    valid: { items: valid },
    invalid: { items: invalid },
    invalidIsValid: kase.annotation === true,
  };
}

export function formatCase(f) {
  return { id: `format: ${f.format}`, item: { type: "string", format: f.format }, valid: f.valid, invalid: f.invalid, note: f.ajvMisses ? "ajv-formats has no such format: ajv checks the type only" : undefined };
}

// --- the invoice shape -------------------------------------------------------

/**
 * The invoice extraction of the ordinary kind: per line a `pattern`, a
 * `format: "date"`, a `oneOf` of three `const`s and a `$ref` to an amount
 * `{ type: number, minimum, maximum, multipleOf: 0.25 }`.
 */
export const invoiceSchema = {
  type: "object",
  additionalProperties: false,
  required: ["invoiceNumber", "issuedOn", "vendor", "currency", "lines"],
  properties: {
    invoiceNumber: { type: "string", pattern: "^INV-[0-9]{6}$" },
    issuedOn: { type: "string", format: "date" },
    vendor: { type: "string", minLength: 1, maxLength: 200 },
    currency: { enum: ["EUR", "USD", "GBP", "CHF"] },
    lines: { type: "array", minItems: 1, items: { $ref: "#/$defs/line" } },
  },
  $defs: {
    amount: { type: "number", minimum: 0, maximum: 1000000, multipleOf: 0.25 },
    line: {
      type: "object",
      additionalProperties: false,
      required: ["sku", "deliveredOn", "status", "amount", "description"],
      properties: {
        sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" },
        deliveredOn: { type: "string", format: "date" },
        status: { oneOf: [{ const: "ordered" }, { const: "shipped" }, { const: "delivered" }] },
        amount: { $ref: "#/$defs/amount" },
        description: { type: "string", maxLength: 200 },
        quantity: { type: "integer", minimum: 1 },
      },
    },
  },
};

const PRODUCTS = ["steel brackets", "cable ties, 200 mm", "safety gloves", "hex bolts M8", "pallet wrap", "label printer ribbon"];

export function invoice(lines) {
  return {
    invoiceNumber: "INV-004817",
    issuedOn: "2026-03-14",
    vendor: "Acme Industrial Supply GmbH",
    currency: "EUR",
    lines: Array.from({ length: lines }, (_, i) => ({
      sku: `${["ABC", "KLM", "XYZ"][i % 3]}-${String(1000 + ((i * 37) % 9000))}`,
      deliveredOn: day(i),
      status: ["ordered", "shipped", "delivered"][i % 3],
      amount: ((i * 131) % 40000) * 0.25,
      description: `${PRODUCTS[i % PRODUCTS.length]}, batch ${i}`,
      quantity: 1 + (i % 12),
    })),
  };
}

/** The same invoice with one line in ten wrong the way model output goes wrong. */
export function invalidInvoice(lines) {
  const doc = invoice(lines);
  const faults = [
    (l) => { l.amount += 0.1; },
    (l) => { l.deliveredOn = "2026-02-30"; },
    (l) => { l.status = "lost"; },
    (l) => { l.sku = l.sku.toLowerCase(); },
    (l) => { delete l.description; },
  ];
  doc.lines.forEach((line, i) => {
    if (i % 10 === 9 || lines === 1) faults[Math.floor(i / 10) % faults.length](line);
  });
  return doc;
}

// --- the value path's two shapes -------------------------------------------

/** A three-member object, as a tool's arguments or a framework's value often are. */
export const smallObjectSchema = {
  type: "object",
  required: ["id", "name", "active"],
  properties: { id: { type: "integer" }, name: { type: "string" }, active: { type: "boolean" } },
};
export const smallObject = { id: 42, name: "Ada Lovelace", active: true };

/** A 17.8 KB value whose schema reads one member. */
export const oneMemberSchema = { type: "object", required: ["id"], properties: { id: { type: "string" } } };
export function oneMemberValue() {
  const records = [];
  while (JSON.stringify(records).length < 17_700) {
    const i = records.length;
    records.push({ seq: i, at: day(i), label: `${PRODUCTS[i % PRODUCTS.length]} ${i}`, tags: ["a", "b", String(i % 7)], score: (i * 17) % 100 });
  }
  return { id: "doc-0042", records };
}
