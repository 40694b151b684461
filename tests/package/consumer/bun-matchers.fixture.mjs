// `bun test` in the fresh project (copied there as bun-matchers.test.mjs),
// matchers installed by the register entry that bunfig.toml preloads.
import { expect, test } from "bun:test";

const schema = { type: "object", required: ["id"], properties: { id: { type: "integer" } } };

test("toSatisfySchema and toBeAcceptedOutput from the installed package", () => {
  expect({ id: 1 }).toSatisfySchema(schema);
  expect({ id: "1" }).not.toSatisfySchema(schema);
  expect('{"id": 2}').toBeAcceptedOutput(schema);
  expect({ content: '{"id": 2}', finishReason: "length" }).not.toBeAcceptedOutput(schema);
});

test("a failing matcher names the path and the code", () => {
  expect(() => expect({ id: "1" }).toSatisfySchema(schema)).toThrow("/id  type");
});
