// The whole real-world corpus (tests/corpus/schemastore/, SchemaStore's
// schemas with their own valid and invalid instances): the guard, ajv 8 +
// ajv-formats and the catalog, instance by instance, and the format oracle
// (the RFC grammars) over every string of the instances. The test command
// runs a sample (tests/js/checking/corpus.test.mjs); this runs all of it.
//
//   node bench/corpus.mjs           the counts, and any disagreement not listed
//   node bench/corpus.mjs --all     also every disagreement, listed or not
import * as guard from "../pkg/node.mjs";
import { loadCases, loadExpected, runCorpus, summary } from "../tests/corpus/differential.mjs";

const started = performance.now();
const result = runCorpus(guard, loadCases());
const expected = loadExpected();
const unlisted = result.disagreements.filter((d) => !expected.has(d.key));
const found = new Set(result.disagreements.map((d) => d.key));
const stale = [...expected.keys()].filter((key) => !key.startsWith("format:") && !found.has(key));
const formatMisses = result.oracle.guardMisses.filter((miss) => !expected.has(`format:${miss.format}:${miss.text}`));
if (process.argv.includes("--all")) for (const d of result.disagreements) console.log(JSON.stringify(d));
for (const d of unlisted) console.log("not listed:", JSON.stringify(d));
for (const key of stale) console.log("listed, no longer found:", key);
for (const miss of formatMisses) console.log("format miss not listed:", JSON.stringify(miss));
for (const miss of result.oracle.ajvMisses) console.log("ajv-formats miss (first 20):", JSON.stringify(miss));
console.log(summary(result).join("\n"));
console.log(`listed disagreements: ${result.disagreements.length} found, ${unlisted.length} not listed, ${stale.length} stale; took ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = unlisted.length + stale.length + formatMisses.length === 0 ? 0 : 1;
