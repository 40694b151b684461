// The public exports shared by every loader.
export {
  Validator,
  checkOutput,
  clearSchemaCache,
  compileSchema,
  detectTruncation,
  mergeUsage,
  normalizeUsage,
  repairFeedback,
  rescueJson,
  schemaCacheSize,
  setSchemaCacheCapacity,
  toProviderSchema,
  wasmMemoryBytes,
} from "./facade.mjs";
export { guardedCall } from "./guarded-call.mjs";
export { createGuardStats } from "./stats.mjs";
export {
  appendAnthropicFeedback,
  appendGeminiFeedback,
  appendOpenAIChatFeedback,
  appendOpenAIResponsesFeedback,
} from "./feedback.mjs";
export { SchemaError, StructuredOutputError } from "./errors.mjs";
