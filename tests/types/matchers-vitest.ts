// The matchers' Vitest augmentation, with the package installed and with it
// linked from outside the project: every line must type-check (see
// types.test.mjs); the expected errors prove misuse is rejected.
import { expect } from "vitest";
import { matchers, installMatchers } from "structured-output-guard/matchers";

const schema = { type: "object", required: ["id"] };

expect.extend(matchers);
installMatchers(expect);
expect({ id: 1 }).toSatisfySchema(schema);
expect({ id: 1 }).not.toSatisfySchema(schema, { maxErrors: 2, formats: "annotate" });
expect('{"id":1}').toBeAcceptedOutput(schema);
expect({ content: "{}", finishReason: "stop" }).toBeAcceptedOutput({ name: "x", schema }, { requireObject: true });
expect({ data: {} }).toEqual({ data: expect.toSatisfySchema(schema) });
expect({ data: "{}" }).toEqual({ data: expect.toBeAcceptedOutput(schema) });

// @ts-expect-error toSatisfySchema needs a schema
expect({}).toSatisfySchema();
// @ts-expect-error formats takes "assert" or "annotate" only
expect("{}").toBeAcceptedOutput(schema, { formats: "strict" });
// @ts-expect-error the asymmetric form takes the same arguments
expect({}).toEqual(expect.toSatisfySchema(schema, { maxErrors: "5" }));
