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

/**
 * A count as the AI SDK's usage takes it: a finite number from 0 up, else
 * unknown. A provider's figures may be anything.
 */
function count(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `total` less the `parts` known, never below 0: figures that do not add up give no negative count. */
function rest(total, ...parts) {
  if (total === undefined) return undefined;
  let left = total;
  for (const part of parts) left -= part ?? 0;
  return left > 0 ? left : 0;
}

/** Usage in the guard's shape as the AI SDK's language-model usage. */
function sdkUsage(usage, raw) {
  const t = usage?.tokens ?? {};
  const input = count(t.input);
  const cacheRead = count(t.cacheRead);
  const cacheWrite = count(t.cacheWrite);
  const output = count(t.output);
  const reasoning = count(t.reasoning);
  return {
    inputTokens: { total: input, noCache: rest(input, cacheRead, cacheWrite), cacheRead, cacheWrite },
    outputTokens: { total: output, text: rest(output, reasoning), reasoning },
    // The provider's own record of the last attempt.
    raw,
  };
}

/**
 * The provider's own record of an attempt's usage (`usage.raw`), read
 * around a getter that throws: the guard read the same usage so, and the
 * accepted answer must not be lost for it.
 */
function rawUsage(response) {
  try {
    return response?.usage?.raw;
  } catch {
    return undefined;
  }
}

/**
 * The last attempt's result as the middleware hands it back: its own
 * enumerable members, and the members a class gives it on a prototype (a
 * custom provider's result may keep `content` and `finishReason` behind
 * getters, which a spread copy drops), each read once; a getter that
 * throws is left out. `usage` is the guard's, every attempt's.
 */
function resultOf(response, usage) {
  const out = {};
  const read = (name) => {
    if (Object.hasOwn(out, name)) return;
    try {
      out[name] = response[name];
    } catch {
      // Nothing to hand on.
    }
  };
  try {
    for (const name of Object.keys(response)) read(name);
    // Up to a realm's Object.prototype (the one prototype without one).
    for (let proto = Object.getPrototypeOf(response); proto !== null && Object.getPrototypeOf(proto) !== null; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (typeof Object.getOwnPropertyDescriptor(proto, name).get === "function") read(name);
      }
    }
  } catch {
    // A result that cannot list its members (a revoked Proxy): what was read is handed on.
  }
  out.usage = usage;
  return out;
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
      return resultOf(guarded.response, sdkUsage(guarded.usage, rawUsage(guarded.response)));
    },
    wrapStream({ doStream }) {
      return doStream();
    },
  };
}
