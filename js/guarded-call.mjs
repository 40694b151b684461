// guardedCall: the only part of the package that awaits. Every decision
// (may we resample? is this accepted?) is asked of the Rust core; this file
// calls the model, reads clocks and signals, and keeps the record.
import {
  checkDetailed,
  mergeUsage,
  nextAction,
  normalizeUsage,
  requestCarriesTools,
  wrapperStrict,
} from "./facade.mjs";
import { StructuredOutputError, argumentError } from "./errors.mjs";

function abortReason(signal) {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

function checkOptionsOf(options) {
  const picked = {};
  for (const key of ["maxErrors", "requireObject", "formats", "draft", "rejectUnknownFields", "unknownFormats", "resources", "customFormats"]) {
    if (options[key] !== undefined) picked[key] = options[key];
  }
  return picked;
}

export async function guardedCall(request, callModel, options) {
  if (typeof callModel !== "function") throw argumentError("guardedCall needs callModel(request) as a function");
  if (options === null || typeof options !== "object") throw argumentError("guardedCall needs options with a schema");
  const { schema, signal, read, usage: usageOf, onAttempt } = options;
  if (schema === undefined || schema === null) throw argumentError("guardedCall needs options.schema");
  for (const [name, fn] of [["read", read], ["usage", usageOf], ["onAttempt", onAttempt]]) {
    if (fn !== undefined && typeof fn !== "function") throw argumentError(`options.${name} must be a function`);
  }
  for (const name of ["strict", "hasTools"]) {
    if (options[name] !== undefined && typeof options[name] !== "boolean") {
      throw argumentError(`options.${name} must be a boolean, not ${typeof options[name]}`);
    }
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== "boolean")) {
    throw argumentError("options.signal must be an AbortSignal");
  }
  const strict = options.strict ?? wrapperStrict(schema) ?? true;
  const checkOptions = checkOptionsOf(options);
  // Check the schema and every option before the first model call: a
  // mistake there is the caller's and should cost no tokens. Unless asked to
  // degrade, a schema that cannot compile throws here. The compiled
  // validator is cached, so the checks below reuse it.
  checkDetailed("{}", schema, { ...checkOptions, onInvalidSchema: options.onInvalidSchema ?? "throw" });
  if (options.onInvalidSchema !== undefined) checkOptions.onInvalidSchema = options.onInvalidSchema;
  const carriesTools = requestCarriesTools(request, options.hasTools);

  const responses = [];
  const usages = [];
  const verdicts = [];
  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const response = await callModel(request);
    responses.push(response);
    usages.push(usageOf ? usageOf(response) : normalizeUsage(response ?? null));
    const output = read ? read(response) : response;
    const { verdict, parse } = checkDetailed(output, schema, checkOptions);
    verdicts.push(verdict);
    const attempts = responses.length;
    const decision = nextAction(attempts, verdict.ok ? undefined : verdict.failure, carriesTools, Boolean(signal?.aborted), strict);
    if (onAttempt) onAttempt({ attempt: attempts, verdict, usage: usages[attempts - 1], action: decision.action, stoppedBy: decision.stoppedBy });
    const usage = mergeUsage(...usages);
    switch (decision.action) {
      case "accept":
        return { value: verdict.value, response, attempts, usage, rescue: verdict.rescue, verdicts };
      case "return_with_warning": {
        const parsed = parse();
        return {
          value: parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null,
          response,
          attempts,
          usage,
          warning: `${verdict.failure}: ${verdict.message}`,
          verdicts,
        };
      }
      case "resample":
        continue;
      default: {
        const why = {
          tools: "the request carries tools, so it is not resampled",
          aborted: "the call was aborted",
          budget: `no attempts are left after ${attempts}`,
        }[decision.stoppedBy] ?? decision.stoppedBy;
        throw new StructuredOutputError(`The model's output was rejected (${verdict.failure}; ${why}). ${verdict.message}`, {
          failure: verdict.failure,
          errors: verdict.errors,
          attempts,
          usage,
          response,
          verdicts,
          stoppedBy: decision.stoppedBy,
        });
      }
    }
  }
}
