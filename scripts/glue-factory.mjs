// Turns wasm-bindgen's `--target web` glue into a factory, so the loader
// can make a second, independent instance when the first one traps.
//
// The generated glue keeps its state in module-level variables (the
// instance's exports, cached memory views, a FinalizationRegistry) and
// refuses to initialise twice, and an ES module is evaluated once per
// process. Wrapping its body in `createGlue()` gives each call its own copy
// of that state. `retire()` turns a dead instance's exports into no-ops, so
// a finalizer or a late `free()` aimed at it can never reach the new one.
//
// usage: node scripts/glue-factory.mjs <glue.js>   (rewrites it in place)
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/glue-factory.mjs <glue.js>");
  process.exit(2);
}
const source = readFileSync(file, "utf8");
if (source.includes("export function createGlue(")) {
  console.error(`${file} is already a factory`);
  process.exit(0);
}

const names = [];
let body = source.replace(/^export (function|class) ([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
  names.push(name);
  return `${kind} ${name}`;
});
const tail = /^export \{ initSync, __wbg_init as default \};\s*$/m;
if (!tail.test(body)) {
  console.error(`${file}: the glue's export list has an unexpected shape; update scripts/glue-factory.mjs for this wasm-bindgen version`);
  process.exit(1);
}
body = body.replace(tail, "");
if (/^export /m.test(body)) {
  console.error(`${file}: an export the factory does not handle remains`);
  process.exit(1);
}
if (!/^let wasmModule, wasmInstance, wasm;$/m.test(body)) {
  console.error(`${file}: the glue's instance variables have an unexpected shape`);
  process.exit(1);
}

const indented = body
  .split("\n")
  .map((line) => (line.length ? `  ${line}` : line))
  .join("\n");

const out = `// Generated from wasm-bindgen's glue by scripts/glue-factory.mjs: each
// createGlue() call is an independent copy of the glue's state.
export function createGlue() {
${indented}
  function retire() {
    const noop = () => 0;
    wasm = new Proxy({}, { get: () => noop });
  }
  return {
    ${names.join(",\n    ")},
    initSync,
    init: __wbg_init,
    module: () => wasmModule,
    exports: () => wasm,
    retire,
  };
}
`;
writeFileSync(file, out);
console.error(`[glue-factory] ${file}: ${names.length} exports wrapped in createGlue()`);
