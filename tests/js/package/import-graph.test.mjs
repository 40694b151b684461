// The package's modules (js/*.mjs) import one another without a circle: a
// circle makes the order in which a module's bindings are ready depend on
// which module a caller loads first, and hides which module owns what.
// Reads the static `import`/`export ... from "./..."` of each module (the
// wasm glue, which the build writes, is not among them).
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const js = join(root, "js");

/** The modules a module's source imports or re-exports by a relative path, as paths from the repository's root. */
export function importsOf(source, from) {
  const found = [];
  // `import x from "./a.mjs"`, `import "./a.mjs"`, `export { x } from "./a.mjs"`.
  const statement = /(?:^|[;\n])\s*(?:import|export)\s+(?:[^;"']*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/g;
  for (const match of source.matchAll(statement)) found.push(relative(root, normalize(join(dirname(from), match[1]))));
  return found;
}

/** A circle in `graph` (module → the modules it imports) as its modules in order, the first repeated at the end; null when there is none. */
export function circleIn(graph) {
  const state = new Map();
  const path = [];
  const visit = (node) => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const circle = visit(next);
        if (circle !== null) return circle;
      }
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const circle = visit(node);
    if (circle !== null) return circle;
  }
  return null;
}

function packageGraph() {
  const graph = new Map();
  const pending = readdirSync(js)
    .filter((name) => name.endsWith(".mjs"))
    .map((name) => join("js", name));
  while (pending.length > 0) {
    const module = pending.pop();
    if (graph.has(module)) continue;
    // The wasm glue (wasm/guard.js) is the build's, not a file of js/.
    const imports = importsOf(readFileSync(join(root, module), "utf8"), join(root, module)).filter((path) => existsSync(join(root, path)));
    graph.set(module, imports);
    pending.push(...imports);
  }
  return graph;
}

describe("the import graph of js/", () => {
  it("finds a circle where there is one, and none in a chain", () => {
    assert.deepEqual(circleIn(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])), ["a", "b", "c", "a"]);
    assert.equal(circleIn(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]])), null);
    assert.deepEqual(
      importsOf('import { x } from "./b.mjs";\nexport { y } from "./c.mjs";\nimport "./d.mjs";\nconst s = "import z from \'./e.mjs\'";', join(root, "lib", "a.mjs")),
      ["lib/b.mjs", "lib/c.mjs", "lib/d.mjs"],
    );
  });

  it("reads every module's imports", () => {
    const graph = packageGraph();
    assert.ok(graph.get("js/node.mjs").length > 0, "node.mjs imports other modules");
    for (const imports of graph.values()) for (const module of imports) assert.ok(graph.has(module), `${module} is read`);
  });

  it("has no circle", () => {
    assert.equal(circleIn(packageGraph())?.join(" → ") ?? null, null);
  });
});
