// The validators under comparison, each turned into the same two shapes:
//   hot(workload)  -> () => boolean    schema compiled once; every call takes
//                                      the model's JSON text and returns the
//                                      verdict of a checked JS value;
//   cold(workload) -> (schema) => boolean  a schema never seen before, from
//                                      compile to the first verdict.
// Callers compare the returned verdict with the expected one on every call,
// so nothing is ever timed as a no-op.
//
// Each library is imported only when its contender is made, so a child
// process that measures one library's memory loads nothing else.

export const CONTENDERS = ["ours", "ajvAll", "ajvFirst", "cfworker"];

export const LABELS = {
  ours: "ours",
  ajvAll: "ajv allErrors:true",
  ajvFirst: "ajv allErrors:false",
  cfworker: "@cfworker/json-schema",
  parse: "JSON.parse alone",
};

async function newAjv(allErrors) {
  const { default: Ajv2020 } = await import("ajv/dist/2020.js");
  const { default: addFormats } = await import("ajv-formats");
  const ajv = new Ajv2020({ allErrors, strict: false });
  addFormats(ajv);
  return ajv;
}

/** Reads the checked value the way a caller does, so it is never dead code. */
let sink = 0;
export function sinkValue() {
  return sink;
}

function oursVerdict(checkOutput, text, validator) {
  const verdict = checkOutput(text, validator, { maxErrors: 5 });
  if (verdict.ok) {
    if (typeof verdict.value !== "object" || verdict.value === null) throw new Error("ours: no value on a valid verdict");
    sink ^= 1;
    return true;
  }
  if (verdict.failure !== "schema") throw new Error(`ours: failed at ${verdict.failure}, not at the schema stage`);
  return false;
}

/** One contender's hot and cold closures. One Ajv instance per configuration, for both. */
export async function makeContender(name) {
  switch (name) {
    case "ours": {
      const { checkOutput, compileSchema, wasmMemoryBytes } = await import("../pkg/node.mjs");
      return {
        hot(w) {
          const validator = compileSchema(w.schema);
          return () => oursVerdict(checkOutput, w.text, validator);
        },
        cold(w) {
          return (schema) => oursVerdict(checkOutput, w.text, compileSchema(schema));
        },
        // What every call pays before any keyword runs: the same text against
        // a schema with no keywords but the object type (the boundary, the
        // parse in wasm, JSON.parse of the value), and "{}" against "{}"
        // (the boundary and the facade alone). Both verdicts are valid.
        noKeywords(w) {
          const validator = compileSchema({ type: "object" });
          return () => oursVerdict(checkOutput, w.text, validator);
        },
        emptyCall() {
          const validator = compileSchema({});
          return () => oursVerdict(checkOutput, "{}", validator);
        },
        wasmMemoryBytes,
      };
    }
    case "ajvAll":
    case "ajvFirst": {
      const ajv = await newAjv(name === "ajvAll");
      return {
        hot(w) {
          const validate = ajv.compile(w.schema);
          return () => validate(JSON.parse(w.text));
        },
        cold(w) {
          return (schema) => ajv.compile(schema)(JSON.parse(w.text));
        },
        // The validate function alone, on a value parsed once beforehand.
        validateOnly(w) {
          const validate = ajv.compile(w.schema);
          const value = JSON.parse(w.text);
          return () => validate(value);
        },
        // ajv keeps every compiled schema; dropped after the timed part so a
        // long cold loop does not measure ajv's growing registry.
        forget(schema) {
          ajv.removeSchema(schema);
        },
      };
    }
    case "cfworker": {
      const { Validator: CfValidator } = await import("@cfworker/json-schema");
      return {
        hot(w) {
          const validator = new CfValidator(w.schema, "2020-12", true);
          return () => validator.validate(JSON.parse(w.text)).valid;
        },
        cold(w) {
          return (schema) => new CfValidator(schema, "2020-12", true).validate(JSON.parse(w.text)).valid;
        },
      };
    }
    case "parse":
      // The floor every contender pays: JSON.parse and nothing else.
      return {
        hot(w) {
          return () => {
            const value = JSON.parse(w.text);
            sink ^= value === null ? 1 : 0;
            return w.valid;
          };
        },
      };
    default:
      throw new Error(`unknown contender ${name}`);
  }
}
