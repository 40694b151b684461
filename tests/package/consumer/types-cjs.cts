// Type-checked in the fresh project under `module: node16` (the CommonJS side).
import { checkOutput, compileSchema, type Verdict } from "structured-output-guard";
import { matchers, formatIssues } from "structured-output-guard/matchers";

const validator = compileSchema<{ id: number }>({ type: "object" });
const verdict: Verdict<{ id: number }> = checkOutput("{}", validator);
const text: string = formatIssues(verdict.ok ? [] : verdict.errors);
const passed: boolean = matchers.toSatisfySchema({}, { type: "object" }).pass;
void text;
void passed;
// @ts-expect-error rescue is "none" or "code_fence"
const rescue: "fence" = verdict.ok ? verdict.rescue : "none";
void rescue;
import { guardMiddleware } from "structured-output-guard/ai-sdk";
void guardMiddleware({ schema: { type: "object" } });
