// Side by side: the JSON Schema Test Suite through structured-output-guard and
// through ajv + ajv-formats, on the same test selection as
// tests/conformance/conformance.test.mjs. Not part of the test command.
//
//   node bench/conformance-ajv.mjs          the table
//   node bench/conformance-ajv.mjs --diff   also every test where the two disagree
//
// Ours runs exactly as the conformance runner does:
// compileSchema(schema, { draft, formats: "assert", resources }), with
// isValid() and validate() required to agree. ajv runs with strict: false,
// validateFormats: true, allErrors: false and the suite's remotes added with
// addSchema(schema, uri); a schema ajv cannot compile fails all its tests.
import { createRequire } from "node:module";
import * as guard from "../pkg/node.mjs";
import {
  CATEGORIES,
  DRAFTS,
  guardCompiler,
  loadDraft,
  loadRemotes,
  runGroups,
  suiteRoot,
} from "../tests/conformance/suite.mjs";

const require = createRequire(import.meta.url);
const unwrap = (module) => module.default ?? module;
const AJV_CLASSES = {
  "2020-12": unwrap(require("ajv/dist/2020")),
  "2019-09": unwrap(require("ajv/dist/2019")),
  7: unwrap(require("ajv")),
};
const addFormats = unwrap(require("ajv-formats"));
const AJV_VERSION = require("ajv/package.json").version;
const FORMATS_VERSION = require("ajv-formats/package.json").version;

const showDiff = process.argv.includes("--diff");

/** One ajv instance per draft, holding the remotes; the test schemas are compiled without being registered. */
function ajvFor(draft, remotes) {
  const Ajv = AJV_CLASSES[draft.option];
  // addUsedSchema: false keeps each group's $id out of the instance, so groups
  // that reuse an $id with different content do not collide.
  const ajv = new Ajv({ strict: false, validateFormats: true, allErrors: false, addUsedSchema: false, logger: false });
  addFormats(ajv);
  const skipped = [];
  for (const [uri, schema] of Object.entries(remotes)) {
    try {
      ajv.addSchema(schema, uri);
    } catch (error) {
      // e.g. a draft-04 remote under the 2020-12 class: no such meta-schema.
      skipped.push(`${uri}: ${error.message}`);
    }
  }
  const compile = (schema) => {
    const validate = ajv.compile(schema);
    return (data) => validate(data);
  };
  return { compile, skipped };
}

const root = suiteRoot();
const remotes = loadRemotes(root);
const rows = [];
const diffs = [];
const skippedRemotes = new Map();
const started = performance.now();
let oursMs = 0;
let ajvMs = 0;

for (const draft of DRAFTS) {
  const groups = loadDraft(draft, root);
  let t = performance.now();
  const ours = runGroups(groups, guardCompiler(guard, { draft: draft.option, formats: "assert", resources: remotes }));
  oursMs += performance.now() - t;
  const { compile, skipped } = ajvFor(draft, remotes);
  skippedRemotes.set(draft.option, skipped.length);
  t = performance.now();
  const theirs = runGroups(groups, compile);
  ajvMs += performance.now() - t;
  for (const category of CATEGORIES) {
    const pick = (results) => results.filter((r) => r.category === category.key);
    const o = pick(ours);
    const a = pick(theirs);
    rows.push({
      draft: draft.option,
      category: category.label,
      ours: o.filter((r) => r.passed).length,
      ajv: a.filter((r) => r.passed).length,
      total: o.length,
    });
  }
  const byId = new Map(theirs.map((r) => [r.id, r]));
  for (const mine of ours) {
    const other = byId.get(mine.id);
    if (mine.passed !== other.passed) {
      diffs.push(`${mine.passed ? "ajv fails " : "ours fails"}  ${mine.id}  →  ${(mine.passed ? other : mine).reason}`);
    }
  }
}

const cell = (passed, total) => `${passed}/${total} (${((100 * passed) / total).toFixed(1)}%)`;
const table = [["draft", "selection", "structured-output-guard", `ajv ${AJV_VERSION} + ajv-formats ${FORMATS_VERSION}`]];
for (const row of rows) table.push([row.draft, row.category, cell(row.ours, row.total), cell(row.ajv, row.total)]);
const sum = (key) => rows.reduce((n, row) => n + row[key], 0);
table.push(["all", "all", cell(sum("ours"), sum("total")), cell(sum("ajv"), sum("total"))]);
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(line(table[0]));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of table.slice(1)) console.log(line(r));
console.log();
console.log(
  `time: ours ${(oursMs / 1000).toFixed(1)}s, ajv ${(ajvMs / 1000).toFixed(1)}s, ` +
    `total ${((performance.now() - started) / 1000).toFixed(1)}s; ` +
    `remotes ajv could not add: ${[...skippedRemotes].map(([d, n]) => `${d}: ${n}`).join(", ")}; ` +
    `tests where the two disagree: ${diffs.length}${showDiff ? "" : " (--diff lists them)"}`,
);
if (showDiff) for (const d of diffs) console.log(d);
