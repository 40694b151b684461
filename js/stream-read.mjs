// The stream reader: reads one live stream event (an SDK's chunk or part)
// along the core's table of stream events (src/providers/stream_events.rs,
// where the walk is specified), by property access: getters read as the
// values they return, and members no reader lists are never touched.
import { callRaw, raw } from "./wasm-instance.mjs";
import { memberOf } from "./member-access.mjs";

/**
 * Where each provider's stream events keep the text, the finish reason,
 * the usage and the tool calls (src/providers/stream_events.rs), the same
 * for every instance.
 */
let streamReaderTable;
export function streamReaders() {
  streamReaderTable ??= JSON.parse(callRaw(() => raw.streamReaders()));
  return streamReaderTable;
}

/** A member's value as the readers take it (see `memberOf`); undefined when reading it throws. */
function member(value, name) {
  try {
    return memberOf(value, name);
  } catch {
    return undefined;
  }
}

/** Every value `path` reaches from `value`, from `at` on, into `out`. */
function walk(value, path, at, out) {
  if (at === path.length) {
    out.push(value);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const step = path[at];
  if (typeof step === "string") {
    const next = member(value, step);
    if (next !== undefined) walk(next, path, at + 1, out);
  } else if (step === 0) {
    if (Array.isArray(value) && value.length > 0) walk(value[0], path, at + 1, out);
  } else if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === "object" && member(item, step.each) === true) continue;
      walk(item, path, at + 1, out);
    }
  }
}

/** The first value `path` reaches, or undefined. */
function first(value, path) {
  const out = [];
  walk(value, path, 0, out);
  return out[0];
}

/** The first of `paths` that reaches a non-empty string (several reached are joined). */
function stringAt(value, paths) {
  for (const path of paths) {
    const out = [];
    walk(value, path, 0, out);
    let text = "";
    for (const found of out) if (typeof found === "string") text += found;
    if (text !== "") return text;
  }
  return undefined;
}

function holds(value, [path, expect]) {
  const found = first(value, path);
  if (expect === true) return Array.isArray(found);
  if (typeof expect === "object" && !Array.isArray(expect)) return found !== null && typeof found === "object" && !Array.isArray(found);
  if (typeof found !== "string") return false;
  return Array.isArray(expect) ? expect.includes(found) : found === expect;
}

const keys = new WeakMap();

/** The key a usage report is kept under: the path it was read at. */
function keyOf(path) {
  let key = keys.get(path);
  if (key === undefined) {
    key = JSON.stringify(path);
    keys.set(path, key);
  }
  return key;
}

/** The first of `paths` that reaches a string. */
function firstString(value, paths) {
  for (const path of paths) {
    const found = first(value, path);
    if (typeof found === "string") return found;
  }
  return undefined;
}

/** The first of `paths` that reaches anything but undefined and null. */
function firstValue(value, paths) {
  for (const path of paths) {
    const found = first(value, path);
    if (found !== undefined && found !== null) return found;
  }
  return undefined;
}

/**
 * The pieces of tool calls an event carries, along the table's `calls`:
 * `[{ key?, id?, name?, arguments?, whole? }]`, `key` a number or string.
 */
function callsOf(event, calls) {
  let elements;
  if (calls.list.length === 0) elements = [event];
  else {
    const list = first(event, calls.list);
    if (Array.isArray(list)) elements = list;
    else if (list !== null && typeof list === "object") elements = [list];
    else return undefined;
  }
  const out = [];
  for (const element of elements) {
    if (element === null || typeof element !== "object") continue;
    const key = calls.key.length === 0 ? undefined : first(element, calls.key);
    const piece = {
      key: typeof key === "number" || typeof key === "string" ? key : undefined,
      id: firstString(element, calls.id),
      name: firstString(element, calls.name),
      arguments: firstString(element, calls.arguments),
      whole: firstValue(element, calls.whole),
      ends: calls.ends,
    };
    if (piece.key !== undefined || piece.name !== undefined || piece.arguments !== undefined || piece.whole !== undefined) out.push(piece);
  }
  return out.length === 0 ? undefined : out;
}

/**
 * The calls of one stream, as their pieces arrive (see `callsOf`): each
 * call by its key (a call without one is a call of its own), in the order
 * they began, as `{ key, id, name, index, streamed }`. `take(pieces)` gives
 * the argument text the pieces add to the first call of `toolName`, and
 * `each(pieces, visit)` calls `visit(call, text, named, ended)` for each
 * piece: the argument text it adds (or undefined), whether it named the
 * call, whether it ended it. `onCall(name)` hears of each call as its name
 * arrives.
 */
export class StreamedCalls {
  constructor(toolName, onCall) {
    this.toolName = toolName;
    this.onCall = onCall;
    this.byKey = new Map();
    this.list = [];
    /** The call that is the output (with `toolName`). */
    this.output = undefined;
  }

  each(pieces, visit) {
    for (const piece of pieces) {
      const key = piece.key === undefined ? undefined : typeof piece.key === "number" ? piece.key : `s:${piece.key}`;
      let call = key === undefined ? undefined : this.byKey.get(key);
      if (call === undefined) {
        // Only a piece that names a call, or gives it whole, begins one
        // (a text block's end, say, ends no call).
        if (piece.name === undefined && piece.whole === undefined) continue;
        call = { key: piece.key, id: undefined, name: undefined, index: this.list.length, streamed: false };
        this.list.push(call);
        if (key !== undefined) this.byKey.set(key, call);
      }
      if (call.id === undefined && piece.id !== undefined) call.id = piece.id;
      let named = false;
      if (call.name === undefined && piece.name !== undefined && piece.name !== "") {
        call.name = piece.name;
        named = true;
        this.onCall?.(call.name);
        if (this.output === undefined && call.name === this.toolName) this.output = call;
      }
      let added;
      if (piece.arguments !== undefined && piece.arguments !== "") {
        call.streamed = true;
        added = piece.arguments;
      } else if (piece.whole !== undefined && !call.streamed) {
        call.streamed = true;
        added = typeof piece.whole === "string" ? piece.whole : JSON.stringify(piece.whole);
      }
      visit(call, added, named, piece.ends || piece.whole !== undefined);
    }
  }

  take(pieces) {
    let text = "";
    this.each(pieces, (call, added) => {
      if (added !== undefined && call === this.output) text += added;
    });
    return text;
  }
}

/**
 * What one event carries: `{ text, finishReason, usage, usageKey, error,
 * calls, failed }`, `usage` the live usage object the event reported (for
 * the caller to copy), `calls` the pieces of tool calls (see `callsOf`),
 * `failed` true when the event reports that the stream itself failed, with
 * what to throw in `error`; a member that does not apply is undefined, and
 * own (so that none is read from a polluted Object.prototype). A string is
 * text.
 */
export function readEvent(event, readers) {
  if (typeof event === "string") return new EventRead(event);
  if (event === null || typeof event !== "object") return new EventRead(undefined);
  for (const reader of readers) {
    if (!reader.when.every((condition) => holds(event, condition))) continue;
    const read = new EventRead(stringAt(event, reader.text));
    read.finishReason = stringAt(event, reader.finish);
    for (const path of reader.usage) {
      const usage = first(event, path);
      if (usage !== null && typeof usage === "object") {
        read.usage = usage;
        read.usageKey = keyOf(path);
        break;
      }
    }
    if (reader.error !== undefined) {
      read.failed = true;
      read.error = first(event, reader.error) ?? event;
    }
    if (reader.calls !== undefined) read.calls = callsOf(event, reader.calls);
    return read;
  }
  return new EventRead(undefined);
}

/** What `readEvent` gives. */
class EventRead {
  constructor(text) {
    this.text = text;
    this.finishReason = undefined;
    this.usage = undefined;
    this.usageKey = undefined;
    this.error = undefined;
    this.calls = undefined;
    this.failed = false;
  }
}
