// The value of an accepted stream check, read from the text the core keeps
// (see js/stream-check.mjs): the core has the only copy, so the value's
// JSON is decoded out of wasm memory and parsed here, whole or in parts.
import { decoder, memory } from "./wasm-instance.mjs";

/**
 * On V8 (Node, Deno) a string past 128 KB is an allocation of its own in
 * the large-object space, whose fresh pages cost about as much per byte as
 * parsing it: decoding 480 KB of rows and parsing the string took Node 20
 * 1.20 ms, and the same text decoded and parsed in parts of 32 KB (plan
 * from the core, see `hot_path::stream::outline`) 0.85 ms, the parse of
 * an existing string 0.77 ms. Bun's engine has no such cost (parts took
 * it 0.93 ms against 0.64 whole), nor, presumably, other engines'; there
 * the value is read whole. `from` (UTF-8 bytes of JSON) says when a value
 * is read in parts (a test may change it), `part` how large a part is.
 */
const V8 = typeof globalThis.process?.versions?.v8 === "string" && globalThis.process.versions.bun === undefined;
export const streamValue = { from: V8 ? 64 * 1024 : Infinity, part: 32 * 1024 };

/**
 * Whether a stream check opened now is to note what reading its value in
 * parts needs (see `StreamCheck::note_outline` in src/stream.rs).
 */
export function readsInParts() {
  return streamValue.from !== Infinity;
}

/**
 * ASCII bytes as a string, where the engine has a copy that skips UTF-8
 * decoding: Bun's `Buffer#latin1Slice` (for ASCII, Latin-1 is the same
 * characters) read the 480 KB of rows, cold, in about 50 µs against 70 for
 * TextDecoder. V8 gained nothing by it, and reads large values in parts.
 */
const latin1Slice = V8 ? undefined : globalThis.Buffer?.prototype?.latin1Slice;

/**
 * The accepted JSON's value, for a stream check whose `end` accepted it;
 * `ascii`: every byte pushed was ASCII.
 */
export function acceptedValue(handle, ascii = false) {
  const length = handle.jsonLength();
  // Asked for before the JSON's address: making the plan may grow the memory.
  const plan = length >= streamValue.from ? handle.valueParts(streamValue.part) : undefined;
  const at = handle.jsonAt();
  if (plan === undefined) {
    const bytes = new Uint8Array(memory.buffer, at, length);
    return JSON.parse(ascii && latin1Slice !== undefined ? latin1Slice.call(bytes, 0, length) : decoder.decode(bytes));
  }
  return built(JSON.parse(plan), (start, end, open, close) => bracketed(at + start, at + end, open, close));
}

/**
 * The text of the run of items or members at `start..end` of wasm memory
 * inside the brackets `open` and `close` (character codes), decoded as one
 * string. The byte before a run and the byte after it are white space, a
 * comma or the container's own bracket (see `Outline::parts`): they are
 * made the brackets while the bytes are decoded, and put back, which spares
 * the engine a string joined of three (as large again to copy when it is
 * parsed: 0.85 against 0.93 ms for the 480 KB of rows on Node 20).
 */
function bracketed(start, end, open, close) {
  const bytes = new Uint8Array(memory.buffer, start - 1, end - start + 2);
  const last = bytes.length - 1;
  const before = bytes[0];
  const after = bytes[last];
  bytes[0] = open;
  bytes[last] = close;
  try {
    return decoder.decode(bytes);
  } finally {
    bytes[0] = before;
    bytes[last] = after;
  }
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * The value a plan describes, as JSON.parse gives it for the whole text:
 * `["a", ...]` an array, `["o", ...]` an object; each entry `[start, end]`
 * a run of items or members (their text without the brackets), or a plan
 * of its own for an item, `[name, plan]` for a member. A member is set as
 * JSON.parse sets it: an own data property, even `__proto__`, a repeated
 * name keeping its first place and taking the last value. `read(start,
 * end, open, close)` gives a run's text inside the brackets given.
 */
function built(plan, read) {
  const object = plan[0] === "o";
  const out = object ? {} : [];
  for (let i = 1; i < plan.length; i++) {
    const entry = plan[i];
    if (typeof entry[0] === "number") {
      if (object) {
        const members = JSON.parse(read(entry[0], entry[1], OPEN_BRACE, CLOSE_BRACE));
        for (const name of Object.keys(members)) define(out, name, members[name]);
      } else {
        const items = JSON.parse(read(entry[0], entry[1], OPEN_BRACKET, CLOSE_BRACKET));
        for (let k = 0; k < items.length; k++) out.push(items[k]);
      }
    } else if (object) {
      define(out, entry[0], built(entry[1], read));
    } else {
      out.push(built(entry, read));
    }
  }
  return out;
}

function define(object, name, value) {
  Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
}
