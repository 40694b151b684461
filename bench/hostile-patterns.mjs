// Times the hostile `pattern` workloads: backreferences that each match just
// under the per-match step limit, repeated across items, keys and rules, and
// single long subjects for a backreference and for lookarounds. Each line is
// one checkOutput call (or validate/isValid) and its verdict in short.
//
//   node bench/hostile-patterns.mjs [--case NAME] [--n N]
//   node_modules/.bin/bun bench/hostile-patterns.mjs [--case NAME] [--n N]
//
// --n replaces the case's size (items, keys or characters), to time a
// smaller run where the full one takes too long. Not part of the tests;
// needs a built pkg/ (bash scripts/build.sh).
import { parseArgs } from "node:util";
import * as guard from "../pkg/node.mjs";

const { values } = parseArgs({ options: { case: { type: "string" }, n: { type: "string" } } });

// Each costs just under the per-match limit: the first alternative tries
// every way to split 18 a's before the last character rules it out.
const COSTLY = "^(?:(a*)*\\1c|a+!)$";
const costlyString = "a".repeat(18) + "!";
// 19 characters each, all distinct, none matching.
const costlyKeys = (n) => Array.from({ length: n }, (_, i) => "a".repeat(18) + String.fromCharCode(0x100 + i));
const keyed = (n) => JSON.stringify(Object.fromEntries(costlyKeys(n).map((k, i) => [k, i])));
const subject = (n) => JSON.stringify({ s: "a".repeat(n) });
const onS = (pattern) => ({ type: "object", properties: { s: { type: "string", pattern } } });

const CASES = {
  items: {
    n: 10000,
    run: (n) => guard.checkOutput(JSON.stringify({ xs: Array(n).fill(costlyString) }), { type: "object", properties: { xs: { items: { pattern: COSTLY } } } }),
  },
  patternProperties: { n: 200, run: (n) => guard.checkOutput(keyed(n), { type: "object", patternProperties: { [COSTLY]: { type: "string" } } }) },
  propertyNames: { n: 200, run: (n) => guard.checkOutput(keyed(n), { type: "object", propertyNames: { pattern: COSTLY } }) },
  rule: {
    n: 200,
    run: (n) =>
      guard.checkOutput(keyed(n), { type: "object" }, { rules: [{ name: "names", then: { propertyNames: { pattern: COSTLY } }, message: "Names must follow the pattern." }] }),
  },
  backreference: { n: 16000, run: (n) => guard.checkOutput(subject(n), onS("(a+)\\1b")) },
  lookbehind: { n: 50000, run: (n) => guard.checkOutput(subject(n), onS("(?<=(a+)+)b")) },
  lookahead: { n: 50000, run: (n) => guard.checkOutput(subject(n), onS("(?!a*!)x")) },
};

const runtime = typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`;
for (const [name, { n, run }] of Object.entries(CASES)) {
  if (values.case && values.case !== name) continue;
  const size = values.n ? Number(values.n) : n;
  const start = performance.now();
  const verdict = run(size);
  const ms = performance.now() - start;
  const outcome = verdict.ok ? "ok" : `${verdict.failure}: ${verdict.errors.map((e) => `${e.path || "(root)"} ${e.code}`).join(", ")}`;
  console.log(`${runtime}  ${name.padEnd(18)} n=${String(size).padEnd(6)} ${ms.toFixed(0).padStart(7)} ms  ${outcome.slice(0, 100)}`);
}
