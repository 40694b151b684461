// Run in a fresh project that installed the packed tarball: `node esm.mjs`
// and `bun esm.mjs`. Prints one JSON report for pack.test.mjs to check.
import * as guard from "structured-output-guard";
import { installMatchers, matchers } from "structured-output-guard/matchers";
import { guardMiddleware } from "structured-output-guard/ai-sdk";

const schema = { type: "object", required: ["d"], properties: { d: { type: "string", format: "date" } } };
const report = { resolved: import.meta.resolve("structured-output-guard"), matchersResolved: import.meta.resolve("structured-output-guard/matchers") };

await guard.ready();
report.accepted = guard.checkOutput('```json\n{"d":"2024-02-29"}\n```', schema);
report.rejected = guard.checkOutput({ content: '{"d":"2026-02-30"}', finishReason: "stop" }, schema);
report.truncated = guard.checkOutput({ content: '{"d":"2024-02-29"}', finishReason: "length" }, schema).failure;
try {
  guard.compileSchema({ type: "strnig" });
} catch (error) {
  report.schemaError = [error instanceof guard.SchemaError, error.code];
}
let calls = 0;
const guarded = await guard.guardedCall({ q: 1 }, () => (++calls === 1 ? { content: "{", finishReason: "length" } : { content: '{"d":"2024-01-01"}' }), { schema });
report.guarded = [guarded.value, guarded.attempts];

report.matcherPass = matchers.toSatisfySchema({ d: "2024-02-29" }, schema).pass;
const failed = matchers.toBeAcceptedOutput('{"d":"2026-02-30"}', schema);
report.matcherFail = [failed.pass, failed.message()];
const before = guard.schemaCacheSize();
matchers.toSatisfySchema(1, { type: "number", title: `shared cache probe ${before}` });
report.sharedInstance = guard.schemaCacheSize() === before + 1;

const registered = [];
globalThis.expect = { extend: (given) => registered.push(...Object.keys(given)) };
await import("structured-output-guard/matchers/register");
report.registered = [...registered];
report.installReturns = installMatchers(globalThis.expect) === globalThis.expect;

// The AI SDK middleware, as wrapLanguageModel calls it.
const answers = [
  { content: [{ type: "text", text: '{"d":"20' }], finishReason: { unified: "length", raw: "max_tokens" }, usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } } },
  { content: [{ type: "text", text: '{"d":"2024-01-01"}' }], finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 3 }, outputTokens: { total: 4 } } },
];
let generated = 0;
const middleware = guardMiddleware({ schema });
const wrapped = await middleware.wrapGenerate({ doGenerate: async () => answers[generated++], params: { prompt: [] }, model: {} });
report.middleware = [generated, wrapped.usage.inputTokens.total, wrapped.usage.outputTokens.total];

console.log(JSON.stringify(report));
