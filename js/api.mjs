// The public exports shared by every loader.
export {
  Validator,
  checkOutput,
  clearSchemaCache,
  compileSchema,
  detectTruncation,
  mergeUsage,
  normalizeUsage,
  rescueJson,
  schemaCacheSize,
  setSchemaCacheCapacity,
  wasmMemoryBytes,
} from "./facade.mjs";
export { guardedCall } from "./guarded-call.mjs";
export { SchemaError, StructuredOutputError } from "./errors.mjs";
