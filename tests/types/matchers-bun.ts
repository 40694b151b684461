// The matchers' bun:test augmentation: every line must type-check (see
// types.test.mjs); the expected errors prove misuse is rejected.
import { expect } from "bun:test";
import { matchers } from "structured-output-guard/matchers";

const schema = { type: "object", required: ["id"] };

expect.extend(matchers);
expect({ id: 1 }).toSatisfySchema(schema);
expect({ id: 1 }).not.toSatisfySchema(schema, { rejectUnknownFields: true });
expect('{"id":1}').toBeAcceptedOutput(schema, { onInvalidSchema: "degrade" });
expect({ data: {} }).toEqual({ data: expect.toSatisfySchema(schema) });

// @ts-expect-error toSatisfySchema needs a schema
expect({}).toSatisfySchema();
// @ts-expect-error onInvalidSchema takes "degrade" or "throw" only
expect("{}").toBeAcceptedOutput(schema, { onInvalidSchema: "ignore" });
