// Makes the trap-recovery test's copy of the package from the package's own
// wasm: the same module plus one export, `debugTrap`, whose body is a single
// `unreachable` (what a panic under panic = "abort" ends in). The copy is
// the very module users load, so its size (browsers instantiate small
// modules synchronously, large ones only asynchronously) and everything
// else about it are the package's; making it costs seconds, not a second
// compilation of the crate.
//
// usage: node scripts/trap-module.mjs <pkg/wasm> <out/wasm>
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import binaryen from "binaryen";

const [from, to] = process.argv.slice(2);
if (!from || !to) {
  console.error("usage: node scripts/trap-module.mjs <pkg/wasm> <out/wasm>");
  process.exit(2);
}
mkdirSync(to, { recursive: true });

const module = binaryen.readBinary(readFileSync(join(from, "guard_bg.wasm")));
// The features the Rust target emits, as scripts/wasm-opt.sh enables them:
// binaryen's "all" would write encodings older engines cannot read
// (compact imports, say).
const F = binaryen.Features;
module.setFeatures(
  F.MVP | F.BulkMemory | F.BulkMemoryOpt | F.NontrappingFPToInt | F.SignExt | F.MutableGlobals |
    F.ReferenceTypes | F.CallIndirectOverlong | F.Multivalue | F.SIMD128,
);
if (module.getExport("debugTrap")) {
  console.error(`${from}/guard_bg.wasm already exports debugTrap`);
  process.exit(1);
}
module.addFunction("debugTrap", binaryen.none, binaryen.none, [], module.unreachable());
module.addFunctionExport("debugTrap", "debugTrap");
if (!module.validate()) {
  console.error("the module with debugTrap does not validate");
  process.exit(1);
}
writeFileSync(join(to, "guard_bg.wasm"), module.emitBinary());
module.dispose();

// The glue (already a factory, see glue-factory.mjs) learns the export.
const glue = readFileSync(join(from, "guard.js"), "utf8");
const tail = "    retire,\n  };\n}\n";
if (!glue.endsWith(tail)) {
  console.error(`${from}/guard.js does not end as scripts/glue-factory.mjs writes it`);
  process.exit(1);
}
writeFileSync(join(to, "guard.js"), `${glue.slice(0, -tail.length)}    retire,\n    debugTrap: () => wasm.debugTrap(),\n  };\n}\n`);
console.error(`[trap-module] ${to}: the package's wasm with a debugTrap export`);
