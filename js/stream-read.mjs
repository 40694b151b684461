// The stream reader: reads one live stream event (an SDK's chunk or part)
// along the core's table of stream events (src/providers/stream_events.rs,
// where the walk is specified), by property access: getters read as the
// values they return, and members no reader lists are never touched.

import { memberOf } from "./read.mjs";

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

/**
 * What one event carries: `{ text, finishReason, usage, usageKey, error,
 * failed }`, `usage` the live usage object the event reported (for the
 * caller to copy), `failed` true when the event reports that the stream
 * itself failed, with what to throw in `error`; a member that does not
 * apply is undefined, and own (so that none is read from a polluted
 * Object.prototype). A string is text.
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
    this.failed = false;
  }
}
