// Schemas and responses that make issue collection expensive when it is not
// bounded, shared by the hostile-input tests and bench/hostile-issues.mjs.
// Each builder returns `{ schema, text }` for a response that is invalid.
//
// Not a test file itself: neither `node --test` nor `bun test` picks up this
// file.

/** An object with `n` members whose names are all longer than `propertyNames` allows. */
export function badPropertyNames(n) {
  const members = Array.from({ length: n }, (_, i) => `"key${i}":${i}`);
  return { schema: { type: "object", propertyNames: { maxLength: 1 } }, text: `{${members.join(",")}}` };
}

/**
 * `$defs` d0 .. d(levels-1), each an `applicator` (anyOf, oneOf or allOf) of
 * two `$ref`s to the next, and a last one that the value at `/x` fails (an
 * object by default, so that `isValid` can remember its verdicts): the
 * tree of subschemas has 2^levels leaves, all of them the same subschema.
 */
export function sharedReferenceTree(applicator, levels, leaf = { type: "string" }, value = "{}") {
  const $defs = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/d${i + 1}` };
    $defs[`d${i}`] = { [applicator]: [next, { ...next }] };
  }
  $defs[`d${levels}`] = leaf;
  return {
    schema: { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs },
    text: `{"x":${value}}`,
  };
}

/** `required` names none of which the response's `n` members has. */
export function manyRequired(n) {
  const required = Array.from({ length: n }, (_, i) => `r${i}`);
  const members = Array.from({ length: n }, (_, i) => `"k${i}":${i}`);
  return { schema: { type: "object", required }, text: `{${members.join(",")}}` };
}

/** The cases the bench measures, by name. */
export function hostileCases() {
  return {
    "propertyNames, 1,000 bad keys": () => badPropertyNames(1000),
    "propertyNames, 2,000 bad keys": () => badPropertyNames(2000),
    "propertyNames, 8,000 bad keys": () => badPropertyNames(8000),
    "anyOf of two $refs, 16 levels": () => sharedReferenceTree("anyOf", 16),
    "anyOf of two $refs, 40 levels": () => sharedReferenceTree("anyOf", 40),
    "oneOf of two $refs, 40 levels": () => sharedReferenceTree("oneOf", 40),
    "allOf of two $refs, 22 levels": () => sharedReferenceTree("allOf", 22),
    "allOf of two $refs, 40 levels": () => sharedReferenceTree("allOf", 40),
    "required, 30,000 names and keys": () => manyRequired(30000),
  };
}

/**
 * Hostile schemas at sizes a test can afford, each with a response that
 * fails it: for the invariant that collecting issues costs a small multiple
 * of deciding validity.
 */
export function hostileSet() {
  const rows = (n, row) => JSON.stringify({ rows: Array.from({ length: n }, (_, i) => row(i)) });
  const wideUnion = Array.from({ length: 80 }, (_, i) => ({ type: "object", required: [`k${i}`] }));
  const nestedUnion = {
    anyOf: [
      { type: "object", properties: { a: { anyOf: [{ type: "integer" }, { anyOf: [{ type: "null" }, { type: "string", maxLength: 1 }] }] } } },
      { type: "array" },
    ],
  };
  return [
    { label: "propertyNames, 2,000 bad keys", ...badPropertyNames(2000) },
    { label: "anyOf of two $refs, 14 levels", ...sharedReferenceTree("anyOf", 14) },
    { label: "oneOf of two $refs, 14 levels", ...sharedReferenceTree("oneOf", 14) },
    // Past the check's budget of references: both stop there.
    { label: "anyOf of two $refs, 40 levels", ...sharedReferenceTree("anyOf", 40) },
    { label: "allOf of two $refs, 40 levels", ...sharedReferenceTree("allOf", 40) },
    { label: "required, 10,000 names and keys", ...manyRequired(10000) },
    {
      label: "propertyNames through an allOf tree of $refs, 1,000 keys",
      schema: { ...sharedReferenceTree("allOf", 30, { maxLength: 1 }).schema, propertyNames: { $ref: "#/$defs/d0" } },
      text: badPropertyNames(1000).text,
    },
    {
      label: "an 80-branch anyOf on each of 1,000 rows",
      schema: { type: "object", properties: { rows: { type: "array", items: { anyOf: wideUnion } } } },
      text: rows(1000, (i) => ({ [`x${i}`]: i })),
    },
    {
      label: "nested anyOf on each of 1,000 rows",
      schema: { type: "object", properties: { rows: { type: "array", items: nestedUnion } } },
      text: rows(1000, () => ({ a: "long" })),
    },
    {
      label: "2,000 members that additionalProperties refuses",
      schema: { type: "object", additionalProperties: { $ref: "#/$defs/d0" }, $defs: sharedReferenceTree("allOf", 20).schema.$defs },
      text: badPropertyNames(2000).text,
    },
  ];
}
