// Every entry's declarations in a project without any test runner's or SDK's
// types: the runner augmentations and the AI SDK middleware must cost such a
// project nothing. Every line must type-check; each expected error marks a
// mistake the types must keep rejecting.
import type {} from "structured-output-guard/matchers/register";
import { formatIssues, installMatchers, matchers, type GuardMatchers } from "structured-output-guard/matchers";
import { guardMiddleware } from "structured-output-guard/ai-sdk";
import { checkOutput } from "structured-output-guard";

const verdict = checkOutput("{}", { type: "object" });
const listed: string = formatIssues(verdict.ok ? [] : verdict.errors, false);
const passed: boolean = matchers.toSatisfySchema({}, { type: "object" }).pass;
const runner = installMatchers({ extend: (m: typeof matchers) => void m });
const middleware = guardMiddleware({ schema: { type: "object" }, retry: "repair" });
const version: "v3" = middleware.specificationVersion;
const asserted: GuardMatchers<void>["toSatisfySchema"] = (schema) => void schema;
void [listed, passed, runner, version, asserted];

// @ts-expect-error formatIssues takes the issues
formatIssues("none");
// @ts-expect-error the middleware's options are guardedCall's
guardMiddleware({ schema: { type: "object" }, retry: "twice" });
