// The guard as a Vercel AI SDK language-model middleware:
//   wrapLanguageModel({ model, middleware: guardMiddleware({ schema, ...guardedCall options }) })
// Each doGenerate runs as a guarded call: the result is checked (truncation
// first, even when the text parses) and the same policy as guardedCall
// decides (never resample a call with tools, budgets, the repeated-error
// stop, repair through the prompt). The result carries every attempt's
// usage. Streams pass through unchanged.
// The package by its own name, so this entry shares the instance (and the
// compiled schemas) of the import or require beside it.
import { guardedCall } from "structured-output-guard";

// The package's typed error, made here: this file is also shipped as a
// plain CommonJS transform, which cannot require the package's ES modules.
function argumentError(message) {
  const error = new TypeError(message);
  error.code = "invalid_argument";
  return error;
}

/** A repair retry adds one user message to the AI SDK's prompt. */
function appendPromptFeedback(params, feedback) {
  if (!Array.isArray(params?.prompt)) throw argumentError("the AI SDK call has no prompt to add the feedback to");
  return { ...params, prompt: [...params.prompt, { role: "user", content: [{ type: "text", text: feedback }] }] };
}

/** Usage in the guard's shape as the AI SDK's language-model usage. */
function sdkUsage(usage, last) {
  const t = usage?.tokens ?? {};
  return {
    inputTokens: {
      total: t.input,
      noCache: t.input === undefined ? undefined : t.input - (t.cacheRead ?? 0) - (t.cacheWrite ?? 0),
      cacheRead: t.cacheRead,
      cacheWrite: t.cacheWrite,
    },
    outputTokens: {
      total: t.output,
      text: t.output === undefined ? undefined : t.output - (t.reasoning ?? 0),
      reasoning: t.reasoning,
    },
    // The provider's own record of the last attempt.
    raw: last?.raw,
  };
}

export function guardMiddleware(options) {
  if (options === null || typeof options !== "object" || options.schema === undefined) {
    throw argumentError("guardMiddleware needs options with a schema");
  }
  return {
    specificationVersion: "v3",
    async wrapGenerate({ doGenerate, params, model }) {
      const callModel = (request) => (request === params ? doGenerate() : model.doGenerate(request));
      const guarded = await guardedCall(params, callModel, {
        appendFeedback: appendPromptFeedback,
        ...(params.abortSignal === undefined ? {} : { signal: params.abortSignal }),
        ...options,
      });
      return { ...guarded.response, usage: sdkUsage(guarded.usage, guarded.response.usage) };
    },
    wrapStream({ doStream }) {
      return doStream();
    },
  };
}
