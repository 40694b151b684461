// Vitest in the fresh project (copied there as vitest-matchers.test.mjs),
// matchers installed by the register entry (vitest.config.mjs: globals and
// setupFiles).
import { expect, test } from "vitest";

const schema = { type: "object", required: ["id"], properties: { id: { type: "integer" } } };

test("the register entry added the matchers to Vitest's expect", () => {
  expect({ id: 1 }).toSatisfySchema(schema);
  expect({ id: "1" }).not.toSatisfySchema(schema);
  expect({ data: '{"id": 2}' }).toEqual({ data: expect.toBeAcceptedOutput(schema) });
  expect(() => expect('{"id": "x"}').toBeAcceptedOutput(schema)).toThrow(/failed "schema"[\s\S]*\/id  type/);
});
