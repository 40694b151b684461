// The value of an accepted stream check, read from the text the core keeps
// (see js/stream-check.mjs): the core has the only copy, so the value's
// JSON is decoded out of wasm memory and parsed here, whole or in parts.
import { decoder, memory } from "./instance.mjs";

/**
 * On V8 (Node, Deno) a string past 128 KB is an allocation of its own in
 * the large-object space, whose fresh pages cost about as much per byte as
 * parsing it: decoding 480 KB of rows and parsing the string took Node 20
 * 1.27 ms, and the same text decoded and parsed in parts of 32 KB (plan
 * from the core, see `guard_engine::stream::outline`) 0.97 ms, the parse of
 * an existing string 0.82 ms. Bun's engine has no such cost (parts took
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

/** The accepted JSON's value, for a stream check whose `end` accepted it. */
export function acceptedValue(handle) {
  const length = handle.jsonLength();
  // Asked for before the JSON's address: making the plan may grow the memory.
  const plan = length >= streamValue.from ? handle.valueParts(streamValue.part) : undefined;
  const at = handle.jsonAt();
  const read = (start, end) => decoder.decode(new Uint8Array(memory.buffer, at + start, end - start));
  return plan === undefined ? JSON.parse(read(0, length)) : built(JSON.parse(plan), read);
}

/**
 * The value a plan describes, as JSON.parse gives it for the whole text:
 * `["a", ...]` an array, `["o", ...]` an object; each entry `[start, end]`
 * a run of items or members (their text without the brackets), or a plan
 * of its own for an item, `[name, plan]` for a member. A member is set as
 * JSON.parse sets it: an own data property, even `__proto__`, a repeated
 * name keeping its first place and taking the last value.
 */
function built(plan, read) {
  const object = plan[0] === "o";
  const out = object ? {} : [];
  for (let i = 1; i < plan.length; i++) {
    const entry = plan[i];
    if (typeof entry[0] === "number") {
      const text = read(entry[0], entry[1]);
      if (object) {
        const members = JSON.parse(`{${text}}`);
        for (const name of Object.keys(members)) define(out, name, members[name]);
      } else {
        const items = JSON.parse(`[${text}]`);
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
