// createToolCallStreamCheck: every tool call of a streamed response checked
// against its own tool's schema as its arguments stream in. The provider's
// stream events are read along the core's table (src/providers/
// stream_events.rs, via js/stream-read.mjs); each call's argument text goes
// into a stream check of its own (js/stream-check.mjs), so a call is
// reported the moment its arguments can no longer be valid, an unknown
// tool the moment its name arrives, and a valid call as its arguments end.
// The end is checkToolCalls' verdict on the calls as they were assembled.
import { argumentError } from "./errors.mjs";
import { callRaw, rawGlue } from "./wasm-instance.mjs";
import { createStreamCheck } from "./stream-check.mjs";
import { StreamedCalls, readEvent, streamReaders } from "./stream-read.mjs";
import { CALL_FAILURE, NOT_APPLIED, callsVerdict, readableDeclaration } from "./tool-calls.mjs";
import { declaredTools } from "./declarations.mjs";
import { checkOutput } from "./check.mjs";

const UNKNOWN_TOOL = "The response calls a tool the request does not declare.";

export class ToolCallStreamCheck {
  #declared;
  #options;
  #calls = new StreamedCalls(undefined, undefined);
  #readers = streamReaders();
  /** Per call (by the StreamedCalls entry): { text, check, decided }. */
  #state = new Map();
  #finishReason;
  #ended = false;

  constructor(declared, options) {
    this.#declared = declared;
    this.#options = options;
  }

  /** The events the piece of stream `event` decides: rejected calls, and calls whose arguments ended valid. */
  push(event) {
    if (this.#ended) throw argumentError("push after end() or free(): this tool-call stream check has ended");
    if (event === null || typeof event !== "object") {
      throw argumentError(`push takes a provider's stream event, not ${event === null ? "null" : typeof event}`);
    }
    const read = readEvent(event, this.#readers);
    if (read.failed) throw argumentError("push was given a stream event that reports the stream's own failure (an AI SDK error part)");
    return this.pushRead(read);
  }

  /** `push` of an event already read along the table (guardedStream reads each once). */
  pushRead(read) {
    const decided = [];
    if (read.calls !== undefined) {
      this.#calls.each(read.calls, (call, text, named, ended) => this.#piece(call, text, named, ended, decided));
    }
    if (typeof read.finishReason === "string" && read.finishReason.trim() !== "") {
      this.#finishReason = read.finishReason;
      // The response ended: every call still open ends with it.
      for (const call of this.#calls.list) this.#close(call, decided);
    }
    return decided;
  }

  #piece(call, text, named, ended, decided) {
    let state = this.#state.get(call);
    if (state === undefined) {
      state = { text: "", check: undefined, decided: false, degraded: false };
      this.#state.set(call, state);
    }
    if (named) {
      const tool = this.#declared.find(call.name);
      if (tool === undefined) {
        state.decided = true;
        decided.push(this.#event(call, { status: "rejected", degraded: false, failure: "unknown_tool", message: UNKNOWN_TOOL, errors: [], moreErrors: false, errorHash: failureHash("unknown_tool") }));
      } else {
        // A tool declared without parameters takes any object.
        const schema = tool.schema === undefined ? { type: "object" } : readableDeclaration(tool.schema);
        // Under `onInvalidSchema: "throw"` a schema that cannot be compiled throws its SchemaError here.
        state.check = createStreamCheck(schema, this.#options);
        state.degraded = refused(schema, this.#options);
      }
    }
    if (text !== undefined) {
      state.text += text;
      if (state.check !== undefined && !state.decided) {
        const pushed = state.check.push(text);
        if (pushed.status === "rejected") {
          state.decided = true;
          state.check.free();
          decided.push(this.#rejected(call, state.degraded, pushed));
        }
      }
    }
    if (ended) this.#close(call, decided);
  }

  /** A call whose arguments ended: decided by its check's end, unless it was already. */
  #close(call, decided) {
    const state = this.#state.get(call);
    if (state === undefined || state.decided || state.check === undefined) return;
    state.decided = true;
    const verdict = state.check.end(this.#finishReason ?? null);
    const { degraded } = verdict;
    if (verdict.ok) {
      // As checkToolCalls words it.
      const message = degraded ? `The call's arguments are a JSON object, but ${NOT_APPLIED}.` : "The call's arguments match its tool's schema.";
      decided.push(this.#event(call, { status: "accepted", degraded, value: verdict.value, message, errors: [], moreErrors: false, errorHash: null }));
    } else {
      decided.push(this.#rejected(call, degraded, verdict));
    }
  }

  /** The rejected event of a call whose check failed as `failed` (a rejected state, or a verdict). */
  #rejected(call, degraded, failed) {
    const message = failed.failure === "empty" ? "The call has no arguments." : failed.message;
    return this.#event(call, {
      status: "rejected",
      degraded,
      failure: CALL_FAILURE[failed.failure] ?? failed.failure,
      message: degraded ? `${message} (${NOT_APPLIED}.)` : message,
      errors: failed.errors,
      moreErrors: failed.moreErrors,
      errorHash: failed.errorHash,
      ...(failed.atByte === undefined ? {} : { atByte: failed.atByte }),
    });
  }

  #event(call, fields) {
    return { id: call.id ?? null, index: call.index, name: call.name ?? null, ...fields };
  }

  /** checkToolCalls' verdict on the calls as the stream assembled them. */
  end() {
    if (this.#ended) throw argumentError("this tool-call stream check has ended: end() or free() was already called");
    const calls = [];
    for (const call of this.#calls.list) {
      if (call.name === undefined) continue;
      calls.push({ id: call.id ?? null, name: call.name, arguments: this.#state.get(call)?.text ?? "" });
    }
    this.free();
    return callsVerdict({ finishReason: this.#finishReason ?? null, calls }, this.#declared, this.#options);
  }

  /** Releases the calls' checks without a verdict. */
  free() {
    if (this.#ended) return;
    this.#ended = true;
    for (const state of this.#state.values()) if (!state.decided) state.check?.free();
  }
}

/**
 * Whether `schema` cannot be compiled, so that a call of its tool is
 * checked for parse and shape only: as checkOutput degrades with the same
 * options (the schema is compiled once, and found again by the call's check).
 */
function refused(schema, options) {
  return checkOutput("{}", schema, options).degraded;
}

function failureHash(failure) {
  return callRaw(() => rawGlue().failureHash(failure));
}

/**
 * A check of every tool call a response streams: `push(event)` each
 * provider stream event, and get the calls it decides; `end()` gives
 * checkToolCalls' verdict on the calls assembled.
 */
/** The declarations of `tools` (a request, or its tools in any form checkToolCalls takes), by name. */
export function toolsDeclared(tools) {
  return declaredTools(tools);
}

export function createToolCallStreamCheck(tools, options) {
  if (tools === null || typeof tools !== "object") {
    throw argumentError(`createToolCallStreamCheck takes the tool declarations (or the request), not ${tools === null ? "null" : typeof tools}`);
  }
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw argumentError(`createToolCallStreamCheck's options must be an object, not ${options === null ? "null" : typeof options}`);
  }
  if (options?.toolName !== undefined || options?.rules !== undefined) {
    throw argumentError("createToolCallStreamCheck checks every call against its own tool's schema: toolName and rules do not apply");
  }
  return new ToolCallStreamCheck(declaredTools(tools), options);
}
