// The real-world corpus, checked three ways: each instance's verdict from
// the guard, from ajv 8 + ajv-formats (where ajv can compile the schema),
// and the catalog's own (valid or invalid), plus a format oracle written
// from the RFC grammars (./format-oracle.mjs) over the instances' strings.
// Used by tests/js/checking/corpus.test.mjs (a sample) and bench/corpus.mjs (all).
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { ORACLE } from "./format-oracle.mjs";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS = join(here, "schemastore");
/** Where SchemaStore serves its schemas: a case's relative references resolve there. */
export const STORE = "https://json.schemastore.org/";

/** Every case of the corpus, by name order; `every` > 1 keeps one case in that many. */
export function loadCases({ every = 1 } = {}) {
  const files = readdirSync(join(CORPUS, "cases")).filter((file) => file.endsWith(".json")).sort();
  return files
    .filter((_, index) => index % every === 0)
    .map((file) => JSON.parse(readFileSync(join(CORPUS, "cases", file), "utf8")));
}

/** The listed disagreements (see expected-disagreements.json), by key. */
export function loadExpected() {
  const listed = JSON.parse(readFileSync(join(CORPUS, "expected-disagreements.json"), "utf8"));
  return new Map(listed.disagreements.map((entry) => [entry.key, entry]));
}

/** The case's resources, URI → schema. */
export function resourcesOf(testCase) {
  const resources = {};
  for (const [uri, file] of Object.entries(testCase.resources)) {
    resources[uri] = JSON.parse(readFileSync(join(CORPUS, "resources", file), "utf8"));
  }
  return resources;
}

/** An ajv for the schema's draft, or undefined where ajv 8 has none (draft 4). */
export function ajvFor(schema, { allErrors = false } = {}) {
  const declared = typeof schema?.$schema === "string" ? schema.$schema : "";
  const addFormats = require("ajv-formats");
  const options = { strict: false, allErrors, validateFormats: true, logger: false };
  let ajv;
  if (declared.includes("draft-04")) return undefined;
  if (declared.includes("2020-12")) ajv = new (require("ajv/dist/2020").default)(options);
  else if (declared.includes("2019-09")) ajv = new (require("ajv/dist/2019").default)(options);
  else {
    ajv = new (require("ajv").default)(options);
    ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
  }
  addFormats(ajv);
  return ajv;
}

/** Every string in `value`, at any depth. */
function stringsOf(value, out) {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, member] of Object.entries(value)) {
      out.add(key);
      stringsOf(member, out);
    }
  }
}

/** The format names a schema uses, at any depth. */
function formatsOf(schema, out) {
  if (Array.isArray(schema)) for (const item of schema) formatsOf(item, out);
  else if (schema !== null && typeof schema === "object") {
    if (typeof schema.format === "string") out.add(schema.format);
    for (const member of Object.values(schema)) formatsOf(member, out);
  }
}

/**
 * Runs the cases: returns the counts and every disagreement, each keyed
 * `name`, `name/valid/file` or `name/invalid/file`.
 */
export function runCorpus(guard, cases) {
  const counts = {
    schemas: cases.length,
    instances: 0,
    guardCompiled: 0,
    guardJudged: 0,
    ajvCompiled: 0,
    guardCompileMs: 0,
    ajvCompileMs: 0,
    guardAgreesWithCatalog: 0,
    ajvJudged: 0,
    ajvAgreesWithCatalog: 0,
    bothJudged: 0,
    guardAgreesWithAjv: 0,
  };
  const disagreements = [];
  const strings = new Set();
  const formats = new Set();
  for (const testCase of cases) {
    const resources = resourcesOf(testCase);
    // Where SchemaStore serves the schema: its relative references resolve there.
    const baseUri = `${STORE}${testCase.name}.json`;
    formatsOf(testCase.schema, formats);
    let validator;
    let refusal;
    let started = performance.now();
    try {
      validator = guard.compileSchema(testCase.schema, { resources, baseUri });
      counts.guardCompiled++;
    } catch (error) {
      refusal = error.message;
    }
    counts.guardCompileMs += performance.now() - started;
    let validate;
    const ajv = ajvFor(testCase.schema);
    started = performance.now();
    if (ajv !== undefined) {
      try {
        for (const [uri, resource] of Object.entries(resources)) ajv.addSchema(resource, uri);
        if (typeof testCase.schema?.$id === "string") validate = ajv.compile(testCase.schema);
        else {
          ajv.addSchema(testCase.schema, baseUri);
          validate = ajv.getSchema(baseUri);
        }
        counts.ajvCompiled++;
      } catch {
        validate = undefined;
      }
    }
    counts.ajvCompileMs += performance.now() - started;
    if (refusal !== undefined) {
      disagreements.push({ key: testCase.name, guard: "refused", ajv: validate === undefined ? "refused" : "compiled", message: refusal });
    }
    for (const [kind, expected] of [["valid", true], ["invalid", false]]) {
      for (const { file, data } of testCase[kind]) {
        counts.instances++;
        stringsOf(data, strings);
        const guardVerdict = validator === undefined ? undefined : validator.isValid(data);
        let ajvVerdict;
        if (validate !== undefined) {
          try {
            ajvVerdict = validate(data);
          } catch {
            ajvVerdict = undefined;
          }
        }
        if (ajvVerdict !== undefined) {
          counts.ajvJudged++;
          if (ajvVerdict === expected) counts.ajvAgreesWithCatalog++;
        }
        if (guardVerdict === undefined) continue;
        counts.guardJudged++;
        if (guardVerdict === expected) counts.guardAgreesWithCatalog++;
        if (ajvVerdict !== undefined) {
          counts.bothJudged++;
          if (ajvVerdict === guardVerdict) counts.guardAgreesWithAjv++;
        }
        if (guardVerdict !== expected || (ajvVerdict !== undefined && ajvVerdict !== guardVerdict)) {
          const errors = guardVerdict ? [] : validator.validate(data, { maxErrors: 3 }).errors.map((e) => `${e.path} ${e.code}`);
          disagreements.push({ key: `${testCase.name}/${kind}/${file}`, guard: guardVerdict, catalog: expected, ajv: ajvVerdict ?? "not judged", errors });
        }
      }
    }
  }
  return { counts, disagreements, oracle: formatOracle(guard, strings, formats) };
}

/**
 * The guard's and ajv-formats' verdicts against the oracle, for every
 * string of the instances and every format the oracle knows that the
 * corpus's schemas use.
 */
export function formatOracle(guard, strings, formats) {
  const ajv = new (require("ajv/dist/2020").default)({ strict: false, validateFormats: true });
  require("ajv-formats")(ajv);
  const names = Object.keys(ORACLE).filter((name) => formats.has(name));
  const result = { strings: strings.size, formats: names, pairs: 0, guardErrors: 0, ajvErrors: 0, guardMisses: [], ajvMisses: [] };
  for (const name of names) {
    const validator = guard.compileSchema({ type: "string", format: name });
    const validate = ajv.compile({ type: "string", format: name });
    for (const text of strings) {
      result.pairs++;
      const truth = ORACLE[name](text);
      if (validator.isValid(text) !== truth) {
        result.guardErrors++;
        result.guardMisses.push({ format: name, text, oracle: truth });
      }
      if (validate(text) !== truth) {
        result.ajvErrors++;
        if (result.ajvMisses.length < 20) result.ajvMisses.push({ format: name, text, oracle: truth });
      }
    }
  }
  return result;
}

/** The summary lines a run prints at its end. */
export function summary({ counts, disagreements, oracle }) {
  const percent = (part, whole) => (whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(2)}%`);
  const judged = counts.guardJudged;
  return [
    `corpus: ${counts.schemas} schemas, ${counts.instances} instances (SchemaStore, see tests/corpus/schemastore/SOURCE.md)`,
    `compiled: guard ${counts.guardCompiled} of ${counts.schemas} in ${counts.guardCompileMs.toFixed(0)} ms; ajv ${counts.ajvCompiled} in ${counts.ajvCompileMs.toFixed(0)} ms (ajv 8 has no draft 4)`,
    `agreement with the catalog: guard ${counts.guardAgreesWithCatalog} of ${judged} instances (${percent(counts.guardAgreesWithCatalog, judged)}); ajv ${counts.ajvAgreesWithCatalog} of ${counts.ajvJudged} (${percent(counts.ajvAgreesWithCatalog, counts.ajvJudged)})`,
    `agreement with ajv: ${counts.guardAgreesWithAjv} of ${counts.bothJudged} instances both judged (${percent(counts.guardAgreesWithAjv, counts.bothJudged)})`,
    `format oracle (RFC grammars; ${oracle.formats.join(", ")}) over ${oracle.strings} strings, ${oracle.pairs} string-format pairs: guard ${oracle.guardErrors} errors, ajv-formats ${oracle.ajvErrors}`,
  ];
}
