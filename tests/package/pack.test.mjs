// The npm package as users get it: `npm pack` of the built pkg/, installed
// offline into a fresh project in a temporary directory, then used from
// there the ways the README promises: ESM import and CJS require under Node,
// both under Bun, the matchers subpath (under bun test and Vitest too), the
// types under `module: node16`, and the command line if the package has one.
// publint checks pkg/ first, with warnings counted as errors.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installPacked, pkgDir, repo, run } from "./install.mjs";

const fixtures = fileURLToPath(new URL("./consumer/", import.meta.url));
const bin = (name) => join(repo, "node_modules", ".bin", name);
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

/** Every file an `exports` map (or a bin map) points at. */
function targets(value) {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(targets);
}

let work;
let project;
let packed;

before(() => {
  // The fresh project gets this repository's Vitest by link, so nothing is
  // downloaded; structured-output-guard itself is the installed copy.
  ({ work, project, packed } = installPacked({ links: ["vitest"] }));
  for (const file of ["esm.mjs", "cjs.cjs", "tsconfig.json", "types-esm.mts", "types-cjs.cts", "vitest.config.mjs", "bunfig.toml"]) {
    copyFileSync(join(fixtures, file), join(project, file));
  }
  copyFileSync(join(fixtures, "bun-matchers.fixture.mjs"), join(project, "bun-matchers.test.mjs"));
  copyFileSync(join(fixtures, "vitest-matchers.fixture.mjs"), join(project, "vitest-matchers.test.mjs"));
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test("publint finds nothing in pkg/, warnings counted as errors", () => {
  const result = run(bin("publint"), ["--strict", "--level", "suggestion", "pkg"], repo, { allowFailure: true });
  const output = `${result.stdout}${result.stderr}`;
  assert.equal(result.status, 0, output);
  assert.doesNotMatch(output, /^(Errors|Warnings):/m, output);
});

describe("the packed tarball", () => {
  test("holds every file that exports, main, types and bin point at, and no sources", () => {
    const files = new Set(packed.files.map((f) => f.path));
    const wanted = [
      ...targets(manifest.exports),
      ...targets(manifest.bin ?? {}),
      manifest.main,
      manifest.module,
      manifest.types,
      "wasm/guard_bg.wasm",
      "wasm/guard.js",
    ].map((p) => p.replace(/^\.\//, ""));
    for (const file of wanted) assert.ok(files.has(file), `${file} is missing from the tarball`);
    for (const file of files) assert.doesNotMatch(file, /\.rs$|^src\/|^tests\/|\.map$/, `${file} should not ship`);
    // The tests' hooks are built into pkg/ but never published.
    assert.ok(existsSync(join(repo, "pkg", "testing.mjs")), "pkg/testing.mjs was built");
    assert.ok(!files.has("testing.mjs"), "testing.mjs should not ship");
    // Every module a published module imports is published too.
    for (const file of files) {
      if (!file.endsWith(".mjs")) continue;
      const text = readFileSync(join(repo, "pkg", file), "utf8");
      for (const match of text.matchAll(/^(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"|^import\s+"(\.[^"]+)"/gm)) {
        const target = match[1] ?? match[2];
        const resolved = join(dirname(file), target).replace(/^\.\//, "");
        assert.ok(files.has(resolved), `${file} imports ${target}, which is not in the tarball`);
      }
    }
    assert.ok(existsSync(join(project, "node_modules", "structured-output-guard", "package.json")));
  });

  test("the README's links, and the pages' links to each other, lead to pages in the tarball", () => {
    const files = new Set(packed.files.map((f) => f.path));
    const installed = join(project, "node_modules", "structured-output-guard");
    const pages = [...files].filter((f) => f.endsWith(".md"));
    assert.ok(pages.length > 1, `the tarball holds only ${pages.join(", ")}`);
    const missing = [];
    for (const page of pages) {
      const text = readFileSync(join(installed, page), "utf8").replace(/^```[\s\S]*?^```/gm, "");
      // Links, not images (the pages' screenshots stay in the repository).
      for (const [, href] of text.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(href)) continue;
        const target = join(dirname(page), href).replace(/\\/g, "/");
        if (!files.has(target)) missing.push(`${page}: ${href}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

/** The JSON report a consumer script prints. */
function report(runtime, script) {
  const result = run(runtime, [script], project);
  return JSON.parse(result.stdout.trim().split("\n").at(-1));
}

function assertReport(r, entry, matchersEntry) {
  assert.ok(r.resolved.endsWith(entry), `the package resolved to ${r.resolved}`);
  assert.ok(r.matchersResolved.endsWith(matchersEntry), `the matchers resolved to ${r.matchersResolved}`);
  assert.equal(r.accepted.ok, true);
  assert.equal(r.accepted.rescue, "code_fence");
  assert.deepEqual(r.accepted.value, { d: "2024-02-29" });
  assert.equal(r.rejected.failure, "schema");
  assert.deepEqual(r.rejected.errors.map((e) => [e.path, e.code]), [["/d", "format"]]);
  assert.equal(r.truncated, "truncated");
  assert.deepEqual(r.schemaError, [true, "invalid_schema"]);
  assert.deepEqual(r.guarded, [{ d: "2024-01-01" }, 2]);
  assert.equal(r.matcherPass, true);
  assert.equal(r.matcherFail[0], false);
  assert.match(r.matcherFail[1], /failed "schema"[\s\S]*\/d {2}format {2}/);
  assert.equal(r.sharedInstance, true, "the matchers use the same instance as the package import");
  assert.deepEqual(r.registered, ["toSatisfySchema", "toBeAcceptedOutput"]);
  assert.equal(r.installReturns, true);
  assert.deepEqual(r.middleware, [2, 6, 6], "the AI SDK middleware resampled once and summed the usage");
}

describe("installed from the tarball", () => {
  test("ESM import under Node", () => {
    assertReport(report(process.execPath, "esm.mjs"), "/node.mjs", "/matchers.mjs");
  });

  test("CJS require under Node", () => {
    assertReport(report(process.execPath, "cjs.cjs"), "/node.cjs", "/matchers.cjs");
  });

  test("import under Bun", () => {
    assertReport(report(bin("bun"), "esm.mjs"), "/node.mjs", "/matchers.mjs");
  });

  test("require under Bun", () => {
    const r = report(bin("bun"), "cjs.cjs");
    assertReport(r, "/node.mjs", "/matchers.cjs");
  });

  test("the matchers under bun test, preloaded by the register entry", () => {
    const result = run(bin("bun"), ["test", "./bun-matchers.test.mjs"], project);
    assert.match(`${result.stdout}${result.stderr}`, /^\s*2 pass$/m);
    assert.match(`${result.stdout}${result.stderr}`, /^\s*0 fail$/m);
  });

  test("the matchers under Vitest, installed by the register entry", () => {
    const result = run(process.execPath, [join(repo, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.config.mjs"], project);
    assert.match(result.stdout, /Tests\s+1 passed \(1\)/);
  });

  test("the types under module node16, for import and for require", () => {
    run(process.execPath, [join(repo, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], project);
  });

  test("the command line, when the package declares one", (t) => {
    const bins = typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
    if (Object.keys(bins).length === 0) {
      t.skip("pkg/package.json has no bin entry");
      return;
    }
    for (const name of Object.keys(bins)) {
      const linked = join(project, "node_modules", ".bin", name);
      assert.ok(existsSync(linked), `npm did not link the ${name} command`);
      const result = run(linked, ["--help"], project);
      assert.ok(result.stdout.trim().length > 0, `${name} --help printed nothing`);
    }
  });
});
