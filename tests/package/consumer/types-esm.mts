// Type-checked in the fresh project under `module: node16` (the ESM side).
import { checkOutput, compileSchema, type Verdict } from "structured-output-guard";
import { matchers } from "structured-output-guard/matchers";
import { expect } from "vitest";

interface Item {
  id: number;
}
const validator = compileSchema<Item>({ type: "object" });
const verdict: Verdict<Item> = checkOutput("{}", validator);
if (verdict.ok) {
  const id: number = verdict.value.id;
  void id;
}
expect.extend(matchers);
expect({ id: 1 }).toSatisfySchema({ type: "object" });
expect("{}").toBeAcceptedOutput(validator, { maxErrors: 2 });
// @ts-expect-error the matcher needs a schema
expect({}).toSatisfySchema();
import { guardMiddleware } from "structured-output-guard/ai-sdk";
const middleware = guardMiddleware({ schema: { type: "object" }, retry: "repair" });
const version: "v3" = middleware.specificationVersion;
void version;
// @ts-expect-error the middleware needs a schema
guardMiddleware({});
