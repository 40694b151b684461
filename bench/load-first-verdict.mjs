// One measurement of module load to first verdict, in the fresh process that
// run.mjs spawns for it (node or bun): from just before the library's import
// to the first verdict on the small workload. Prints one JSON line.
//   node bench/load-first-verdict.mjs ours|ajvAll|ajvFirst|cfworker
import { smallWorkload } from "./workloads.mjs";

const lib = process.argv[2];
const { schema, text } = smallWorkload();

const start = performance.now();
let valid;
if (lib === "ours") {
  const { checkOutput, compileSchema } = await import("../pkg/node.mjs");
  valid = checkOutput(text, compileSchema(schema), { maxErrors: 5 }).ok;
} else if (lib === "ajvAll" || lib === "ajvFirst") {
  const { default: Ajv2020 } = await import("ajv/dist/2020.js");
  const { default: addFormats } = await import("ajv-formats");
  const ajv = new Ajv2020({ allErrors: lib === "ajvAll", strict: false });
  addFormats(ajv);
  valid = ajv.compile(schema)(JSON.parse(text));
} else if (lib === "cfworker") {
  const { Validator } = await import("@cfworker/json-schema");
  valid = new Validator(schema, "2020-12", true).validate(JSON.parse(text)).valid;
} else {
  throw new Error(`unknown library ${lib}`);
}
const ms = performance.now() - start;
process.stdout.write(`${JSON.stringify({ lib, ms, valid })}\n`);
