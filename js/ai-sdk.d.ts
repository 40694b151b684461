import type { GuardOptions, SchemaInput } from "structured-output-guard";

/**
 * A Vercel AI SDK language-model middleware (`wrapLanguageModel({ model,
 * middleware })`): each doGenerate runs as a guarded call with these options
 * (guardedCall's; `appendFeedback` defaults to adding a user message to the
 * prompt), and its result carries every attempt's usage. Streams pass
 * through unchanged.
 */
export declare function guardMiddleware(options: Omit<GuardOptions, "read" | "usage" | "schema"> & Partial<Pick<GuardOptions, "read" | "usage">> & { schema: SchemaInput }): {
  specificationVersion: "v3";
  wrapGenerate: (options: { doGenerate: () => PromiseLike<any>; params: any; model: any }) => Promise<any>;
  wrapStream: (options: { doStream: () => PromiseLike<any> }) => PromiseLike<any>;
};
