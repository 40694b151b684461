// Loads the official JSON Schema Test Suite for the conformance runner
// (conformance.test.mjs) and the side-by-side comparison with ajv
// (bench/conformance-ajv.mjs). The suite is kept, pinned, in
// tests/conformance/json-schema-test-suite/ (its SOURCE.md names the commit);
// $JSON_SCHEMA_TEST_SUITE points the runner at another copy.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The drafts we run: `option` is what compileSchema's `draft` option takes. */
export const DRAFTS = [
  { option: "2020-12", dir: "draft2020-12" },
  { option: "2019-09", dir: "draft2019-09" },
  { option: "7", dir: "draft7" },
];

/** The three selections of each draft, in report order. */
export const CATEGORIES = [
  { key: "required", label: "required" },
  { key: "format", label: "optional/format" },
  { key: "optional", label: "other optional" },
];

/** Remote schemas are served from memory under this base, never fetched. */
export const REMOTE_BASE = "http://localhost:1234/";

/** The suite's root directory (holding tests/ and remotes/), checked to exist. */
export function suiteRoot() {
  const override = process.env.JSON_SCHEMA_TEST_SUITE;
  const root = override
    ? resolve(override.startsWith("file:") ? fileURLToPath(override) : override)
    : fileURLToPath(new URL("./json-schema-test-suite/", import.meta.url));
  for (const part of ["tests", "remotes"]) {
    if (!existsSync(join(root, part))) {
      throw new Error(
        `the JSON Schema Test Suite was not found: ${join(root, part)} does not exist ` +
          "(it is kept in tests/conformance/json-schema-test-suite/; JSON_SCHEMA_TEST_SUITE overrides it)",
      );
    }
  }
  return root;
}

function jsonFiles(dir, { recurse }) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (recurse) out.push(...jsonFiles(path, { recurse }));
    } else if (name.endsWith(".json")) {
      out.push(path);
    }
  }
  return out;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${path}: ${error.message}`);
  }
}

const posix = (path) => path.split(sep).join("/");

/** Every file under remotes/ as `{ "http://localhost:1234/<relative path>": schema }`. */
export function loadRemotes(root = suiteRoot()) {
  const base = join(root, "remotes");
  const remotes = {};
  for (const path of jsonFiles(base, { recurse: true })) {
    remotes[REMOTE_BASE + posix(relative(base, path))] = readJson(path);
  }
  return remotes;
}

/**
 * One draft's test groups, in a stable order: required files, then
 * optional/format/, then the rest of optional/.
 *
 * Each group is `{ category, file, description, schema, tests }`, and each test
 * `{ id, description, data, valid }` where `id` is
 * `<draft dir>/<file path relative to the draft dir>/<group>/<test>`, made
 * unique with a ` #<n>` suffix should the suite ever repeat one.
 */
export function loadDraft(draft, root = suiteRoot()) {
  const dir = join(root, "tests", draft.dir);
  const files = [
    ...jsonFiles(dir, { recurse: false }).map((path) => ({ path, category: "required" })),
    ...jsonFiles(join(dir, "optional", "format"), { recurse: false }).map((path) => ({ path, category: "format" })),
    ...jsonFiles(join(dir, "optional"), { recurse: false }).map((path) => ({ path, category: "optional" })),
  ];
  const seen = new Map();
  const unique = (id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id} #${n}`;
  };
  const groups = [];
  for (const { path, category } of files) {
    const file = posix(relative(dir, path));
    for (const group of readJson(path)) {
      groups.push({
        category,
        file,
        description: group.description,
        schema: group.schema,
        tests: group.tests.map((test) => ({
          id: unique(`${draft.dir}/${file}/${group.description}/${test.description}`),
          description: test.description,
          data: test.data,
          valid: test.valid,
        })),
      });
    }
  }
  return groups;
}

/**
 * Runs every test of `groups` through one validator implementation.
 * `compile(schema)` returns `validate(data) -> boolean` or throws (then each
 * test of the group fails with that reason); `validate` may itself throw, or
 * return `{ valid: false, reason }` to fail a test whatever it expects.
 * Returns `[{ id, category, file, passed, reason }]`; `reason` says why a
 * failed test failed.
 */
export function runGroups(groups, compile) {
  const results = [];
  for (const group of groups) {
    let validate;
    let compileError;
    try {
      validate = compile(group.schema);
    } catch (error) {
      compileError = `compile error: ${error?.name ?? "Error"}: ${error?.message ?? error}`;
    }
    for (const test of group.tests) {
      const base = { id: test.id, category: group.category, file: group.file };
      if (compileError) {
        results.push({ ...base, passed: false, reason: compileError });
        continue;
      }
      let outcome;
      try {
        outcome = validate(test.data);
      } catch (error) {
        results.push({ ...base, passed: false, reason: `threw ${error?.name ?? "Error"}: ${error?.message ?? error}` });
        continue;
      }
      if (typeof outcome === "object") {
        results.push({ ...base, passed: false, reason: outcome.reason });
      } else if (outcome === test.valid) {
        results.push({ ...base, passed: true });
      } else {
        results.push({ ...base, passed: false, reason: `expected ${test.valid ? "valid" : "invalid"}, got ${outcome ? "valid" : "invalid"}` });
      }
    }
    if (validate?.free) validate.free();
  }
  return results;
}

/**
 * The compile function runGroups takes, for structured-output-guard: the same
 * calls users make. A test passes only when `isValid(data)` and
 * `validate(data).valid` agree with each other and with the suite; an invalid
 * result must also come with at least one issue.
 */
export function guardCompiler(guard, options) {
  return (schema) => {
    const validator = guard.compileSchema(schema, options);
    const validate = (data) => {
      const quick = validator.isValid(data);
      const full = validator.validate(data);
      if (quick !== full.valid) {
        return { reason: `isValid() returned ${quick} but validate().valid is ${full.valid}` };
      }
      if (!full.valid && full.errors.length === 0) {
        return { reason: "validate() returned valid: false with no errors" };
      }
      if (full.valid && full.errors.length > 0) {
        return { reason: `validate() returned valid: true with ${full.errors.length} errors` };
      }
      return quick;
    };
    validate.free = () => validator.free();
    return validate;
  };
}

/**
 * The schemas of `draft` compiled by `compileSchema` as the conformance run
 * compiles them (formats asserted; the suite's remotes, `resources`, only
 * for a schema that cannot compile without them), each `{ group, validator }`;
 * a schema the guard refuses is left out.
 */
export function compiledGroups(compileSchema, draft, root = suiteRoot(), resources = loadRemotes(root)) {
  const out = [];
  for (const group of loadDraft(draft, root)) {
    let validator;
    try {
      validator = compileSchema(group.schema, { draft: draft.option, formats: "assert" });
    } catch {
      try {
        validator = compileSchema(group.schema, { draft: draft.option, formats: "assert", resources });
      } catch {
        continue;
      }
    }
    out.push({ group, validator });
  }
  return out;
}
