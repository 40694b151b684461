// The public exports shared by every loader. Each synchronous function
// answers a hostile argument (a revoked Proxy, a getter that throws) with a
// typed error, whatever inside it first tripped over the argument.
import * as facade from "./facade.mjs";
import * as feedback from "./feedback.mjs";
import { createGuardStats as createStats } from "./stats.mjs";
import { withTypedErrors } from "./errors.mjs";
import * as toolCalls from "./tool-calls.mjs";

export const checkOutput = withTypedErrors("checkOutput", facade.checkOutput);
export const checkToolCalls = withTypedErrors("checkToolCalls", toolCalls.checkToolCalls);
export const compileSchema = withTypedErrors("compileSchema", facade.compileSchema);
export const createStreamCheck = withTypedErrors("createStreamCheck", facade.createStreamCheck);
export const detectTruncation = withTypedErrors("detectTruncation", facade.detectTruncation);
export const mergeUsage = withTypedErrors("mergeUsage", facade.mergeUsage);
export const normalizeUsage = withTypedErrors("normalizeUsage", facade.normalizeUsage);
export const repairFeedback = withTypedErrors("repairFeedback", (verdict, schema) =>
  verdict !== null && typeof verdict === "object" && Array.isArray(verdict.calls)
    ? toolCalls.toolCallsRepairFeedback(verdict, schema)
    : facade.repairFeedback(verdict, schema),
);
export const rescueJson = withTypedErrors("rescueJson", facade.rescueJson);
export const setSchemaCacheCapacity = withTypedErrors("setSchemaCacheCapacity", facade.setSchemaCacheCapacity);
export const toProviderSchema = withTypedErrors("toProviderSchema", facade.toProviderSchema);
export const createGuardStats = withTypedErrors("createGuardStats", createStats);
export const appendAnthropicFeedback = withTypedErrors("appendAnthropicFeedback", feedback.appendAnthropicFeedback);
export const appendGeminiFeedback = withTypedErrors("appendGeminiFeedback", feedback.appendGeminiFeedback);
export const appendOpenAIChatFeedback = withTypedErrors("appendOpenAIChatFeedback", feedback.appendOpenAIChatFeedback);
export const appendOpenAIResponsesFeedback = withTypedErrors("appendOpenAIResponsesFeedback", feedback.appendOpenAIResponsesFeedback);
export { Validator, clearSchemaCache, schemaCacheSize, wasmMemoryBytes } from "./facade.mjs";
export { guardedCall } from "./guarded-call.mjs";
export { guardedStream } from "./guarded-stream.mjs";
export { SchemaError, StructuredOutputError } from "./errors.mjs";
