// The hostile-input defects that are about correctness rather than work
// (schemas that broke later calls or read as accept-all, tools that were
// retried, usage lost to a throwing callback, untyped errors), each run as
// its reproduction was: what the package answers now, how long the case
// takes and what it does to wasm memory. The defects about work have their
// own benches: bench/hostile-issues.mjs (issue collection, references) and
// bench/hostile-patterns.mjs (the pattern budget).
//   node bench/hostile-defects.mjs        (also: bun bench/hostile-defects.mjs)
import * as guard from "../pkg/node.mjs";

const runtime = typeof Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.version}`;
const MiB = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function refChain(hops) {
  const $defs = {};
  for (let i = 0; i < hops; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  $defs[`d${hops}`] = { type: "string", maxLength: 2 };
  return { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs };
}

function innocent() {
  const city = { type: "object", required: ["city"], properties: { city: { type: "string", minLength: 2 } } };
  return guard.checkOutput('{"city":"Oslo"}', city).ok && guard.checkOutput('{"city":"O"}', city).failure === "schema";
}

const codeOf = (fn) => {
  try {
    fn();
    return "no error";
  } catch (error) {
    return error?.code ?? `untyped ${error?.name}`;
  }
};

const cases = [
  ["1", "20,000-hop $ref chain, then 40 innocent checks", () => {
    const verdict = guard.checkOutput('{"x":"abc"}', refChain(20000));
    let normal = 0;
    for (let i = 0; i < 40; i++) normal += innocent() ? 1 : 0;
    return `degraded: ${verdict.degraded}; ${normal}/40 innocent checks normal`;
  }],
  ["2", "two 3 KB enum schemas differing in one member", () => {
    const members = Array.from({ length: 300 }, (_, i) => `member-${i}`);
    const a = { enum: [...members, "only-in-a"] };
    const b = { enum: [...members, "only-in-b"] };
    guard.checkOutput('"only-in-a"', a, { requireObject: false });
    const bOwn = guard.checkOutput('"only-in-b"', b, { requireObject: false }).ok;
    const bOther = guard.checkOutput('"only-in-a"', b, { requireObject: false }).ok;
    return `B accepts its own value: ${bOwn}, A's: ${bOther}; schemaHash ${guard.compileSchema(a).schemaHash.length} hex digits`;
  }],
  ["3", "an un-awaited Promise and a Map as the schema", () => {
    const promise = guard.checkOutput('{"a":1}', Promise.resolve({ type: "object" }));
    const map = guard.checkOutput('{"a":1}', new Map([["type", "object"]]));
    return `degraded: ${promise.degraded} / ${map.degraded}; compileSchema: ${codeOf(() => guard.compileSchema(new Map()))}`;
  }],
  ["8", "guardedCall with config.tools, first reply cut at MAX_TOKENS", async () => {
    let calls = 0;
    const request = { model: "m", contents: "hi", config: { tools: [{ functionDeclarations: [{ name: "f" }] }] } };
    const error = await guard
      .guardedCall(request, async () => {
        calls += 1;
        return { candidates: [{ content: { parts: [{ text: '{"a":' }] }, finishReason: "MAX_TOKENS" }] };
      }, { schema: { type: "object" } })
      .catch((e) => e);
    return `${calls} request(s); stoppedBy ${error.stoppedBy}`;
  }],
  ["9", "onAttempt throws after a paid attempt", async () => {
    const error = await guard
      .guardedCall({ messages: [] }, async () => ({ choices: [{ message: { content: "{}" }, finish_reason: "stop" }], usage: { prompt_tokens: 7, completion_tokens: 3 } }), {
        schema: { type: "object" },
        onAttempt: () => {
          throw new Error("boom");
        },
      })
      .catch((e) => e);
    return `${error.code}; usage carried: ${error.usage?.tokens?.input} in, ${error.usage?.tokens?.output} out`;
  }],
  ["10", "a revoked Proxy as output, schema and options", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return [
      codeOf(() => guard.checkOutput(proxy, { type: "object" })),
      // As schema, under the default onInvalidSchema "degrade": a verdict.
      `degraded: ${guard.checkOutput("{}", proxy).degraded}`,
      codeOf(() => guard.checkOutput("{}", { type: "object" }, proxy)),
      codeOf(() => guard.normalizeUsage(proxy)),
    ].join(", ");
  }],
  ["11", "option typo { maxError: 0 }", () => codeOf(() => guard.checkOutput("{}", { type: "object" }, { maxError: 0 }))],
];

console.log(`runtime: ${runtime}`);
console.log(`${"defect".padEnd(7)}${"case".padEnd(58)}${"ms".padStart(9)}  wasm memory        answer`);
for (const [defect, label, run] of cases) {
  const before = guard.wasmMemoryBytes();
  const started = performance.now();
  const answer = await run();
  const ms = performance.now() - started;
  const after = guard.wasmMemoryBytes();
  console.log(`${`#16.${defect}`.padEnd(7)}${label.padEnd(58)}${ms.toFixed(1).padStart(9)}  ${`${MiB(before)} -> ${MiB(after)}`.padEnd(17)}  ${answer}`);
}
