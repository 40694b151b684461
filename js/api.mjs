// The public exports shared by every loader. Each synchronous function
// answers a hostile argument (a revoked Proxy, a getter that throws) with a
// typed error, whatever inside it first tripped over the argument.
import * as check from "./check.mjs";
import * as schemas from "./schemas.mjs";
import * as schemaTools from "./schema-tools.mjs";
import { createStreamCheck as streamCheck } from "./stream-check.mjs";
import * as feedback from "./feedback.mjs";
import { createGuardStats as createStats } from "./stats.mjs";
import { withTypedErrors } from "./errors.mjs";
import * as toolCalls from "./tool-calls.mjs";
import { createToolCallStreamCheck as toolCallStreamCheck } from "./tool-call-stream.mjs";

export const checkOutput = withTypedErrors("checkOutput", check.checkOutput);
export const checkToolCalls = withTypedErrors("checkToolCalls", toolCalls.checkToolCalls);
export const compileSchema = withTypedErrors("compileSchema", schemas.compileSchema);
export const createStreamCheck = withTypedErrors("createStreamCheck", streamCheck);
export const createToolCallStreamCheck = withTypedErrors("createToolCallStreamCheck", toolCallStreamCheck);
export const detectTruncation = withTypedErrors("detectTruncation", check.detectTruncation);
export const mergeUsage = withTypedErrors("mergeUsage", check.mergeUsage);
export const normalizeUsage = withTypedErrors("normalizeUsage", check.normalizeUsage);
export const repairFeedback = withTypedErrors("repairFeedback", (verdict, schema) =>
  verdict !== null && typeof verdict === "object" && Array.isArray(verdict.calls)
    ? toolCalls.toolCallsRepairFeedback(verdict, schema)
    : schemaTools.repairFeedback(verdict, schema),
);
export const rescueJson = withTypedErrors("rescueJson", check.rescueJson);
export const escapeForDisplay = withTypedErrors("escapeForDisplay", schemaTools.escapeForDisplay);
export const setSchemaCacheCapacity = withTypedErrors("setSchemaCacheCapacity", schemas.setSchemaCacheCapacity);
export const toProviderSchema = withTypedErrors("toProviderSchema", schemaTools.toProviderSchema);
export const createGuardStats = withTypedErrors("createGuardStats", createStats);
export const appendAnthropicFeedback = withTypedErrors("appendAnthropicFeedback", feedback.appendAnthropicFeedback);
export const appendGeminiFeedback = withTypedErrors("appendGeminiFeedback", feedback.appendGeminiFeedback);
export const appendOpenAIChatFeedback = withTypedErrors("appendOpenAIChatFeedback", feedback.appendOpenAIChatFeedback);
export const appendOpenAIResponsesFeedback = withTypedErrors("appendOpenAIResponsesFeedback", feedback.appendOpenAIResponsesFeedback);
export { Validator, clearSchemaCache, schemaCacheSize } from "./schemas.mjs";
export { wasmMemoryBytes } from "./wasm-instance.mjs";
export { guardedCall } from "./guarded-call.mjs";
export { guardedStream } from "./guarded-stream.mjs";
export { SchemaError, StructuredOutputError } from "./errors.mjs";
