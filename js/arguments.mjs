// Arguments in the form the core takes: JSON text of small values (options,
// instances, schemas), well-formed strings, and the copy of a live response
// object along one of the core's read plans (see js/response-copy.mjs). A value that
// cannot be read or serialised is a typed error naming only its kind.
import { SchemaError, argumentError } from "./errors.mjs";
import { LIMITS } from "./generated/contract.mjs";
import { callRaw, displayText, raw } from "./wasm-instance.mjs";
import { copyAlong, loadPlans, nestsDeeper } from "./response-copy.mjs";
import { matchCopy, sameCopy, shapeOf } from "./copy-match.mjs";

/** JSON text for a value, or a typed error naming what could not be serialised. */
export function jsonText(what, value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // BigInt, cycles, throwing getters and nesting deeper than the JS stack
    // end up here. The engine's own message can quote object keys, which
    // may hold anything, so only the kind of problem is named.
    throw argumentError(`${what} cannot be serialised to JSON: ${serialisationProblem(error)}`);
  }
  if (text === undefined) throw argumentError(`${what} must be a JSON value, not ${typeof value}`);
  return wellFormedJson(text);
}

/**
 * `jsonText` for a value that may nest without bound (tool declarations
 * from an MCP server, options): one nested deeper than the core reads is
 * refused before JSON.stringify, which takes Bun seconds to run out of
 * stack on 100,000 levels.
 */
export function boundedJsonText(what, value) {
  if (value !== null && typeof value === "object") {
    let deep;
    try {
      deep = nestsDeeper(value, LIMITS.schemaDepth);
    } catch (error) {
      throw argumentError(`${what} cannot be serialised to JSON: ${serialisationProblem(error)}`);
    }
    if (deep) throw argumentError(`${what} cannot be serialised to JSON: it nests too deeply`);
  }
  return jsonText(what, value);
}

export function serialisationProblem(error) {
  let message = "";
  try {
    message = String(error?.message ?? error);
  } catch {
    // A thrown value that cannot even be written as text.
  }
  if (error instanceof RangeError) return "it nests too deeply";
  if (/circular|cyclic/i.test(message)) return "it contains a cycle";
  if (/bigint/i.test(message)) return "it contains a BigInt";
  return `reading it threw ${errorName(error)}`;
}

/**
 * JSON.stringify writes a lone UTF-16 surrogate as a `\udXXX` escape, which
 * is not Unicode and which the core refuses; it becomes U+FFFD, as it does
 * when a string with one is encoded to UTF-8 (see `wellFormed`).
 */
function wellFormedJson(text) {
  if (!/\\ud[89a-f]/i.test(text)) return text;
  return text.replace(
    /(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})(\\ud[c-f][0-9a-f]{2})?|(?<!\\)((?:\\\\)*)\\ud[c-f][0-9a-f]{2}/gi,
    (match, slashes, high, low, slashes2) => {
      if (high !== undefined) return low !== undefined ? match : `${slashes}\\ufffd`;
      return `${slashes2}\\ufffd`;
    },
  );
}

/**
 * A string with a lone UTF-16 surrogate (a stream cut inside an emoji, say)
 * is checked, and returned, with U+FFFD in its place: the check and the
 * returned value must see the same text, and UTF-8 cannot carry the
 * surrogate into the core.
 */
export function wellFormed(text) {
  return typeof text.isWellFormed === "function" && !text.isWellFormed() ? text.toWellFormed() : text;
}

export function optionsText(options) {
  if (options === undefined || options === null) return "null";
  if (typeof options !== "object" || Array.isArray(options)) {
    throw argumentError(`options must be an object, not ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  rejectNonFinite("options", options);
  return boundedJsonText("options", options);
}

/**
 * JSON has no NaN or Infinity: JSON.stringify writes null, which would
 * quietly mean "the default". A number option that is not finite is refused.
 */
export function rejectNonFinite(what, object) {
  let entries;
  try {
    entries = Object.keys(object).map((key) => [key, object[key]]);
  } catch (error) {
    throw argumentError(`${what} could not be read: reading it threw ${errorName(error)}`);
  }
  for (const [key, value] of entries) {
    if (typeof value === "number" && !Number.isFinite(value)) {
      // The name is the caller's: printed safely.
      throw argumentError(`${what}.${displayText(key)} must be a finite number, not ${value}`);
    }
  }
}

export function schemaText(schema) {
  if (typeof schema === "string") return schema;
  if (schema === undefined) throw new SchemaError("a schema is required");
  let problem;
  try {
    problem = notJsonValue(schema);
  } catch (error) {
    throw new SchemaError(`the schema could not be read: reading it threw ${errorName(error)}`);
  }
  // The core's own words for a schema text that nests too deeply, without
  // serialising the object first: JSON.stringify of 100,000 levels takes
  // Bun 1.4 s to give up.
  if (problem === TOO_DEEP) throw new SchemaError(`the schema nests deeper than ${LIMITS.schemaDepth} levels`);
  // The problem names the schema's own keys: printed safely.
  if (problem) throw new SchemaError(`the schema must be a JSON value (an object, an array, a boolean or JSON text), not ${displayText(problem)}`);
  try {
    return jsonText("the schema", schema);
  } catch (error) {
    throw new SchemaError(error.message);
  }
}

/** What `notJsonValue` finds of a schema with more levels than the core takes. */
const TOO_DEEP = "nesting deeper than the core takes";

/**
 * What in `value` is not a JSON value, or undefined. JSON.stringify writes
 * a Promise, a Map or a class instance as `{}`, which as a schema accepts
 * everything: an un-awaited schema would silently pass every response.
 * Plain objects (of any realm) and arrays are JSON; so are strings, finite
 * numbers, booleans and null. An object or array on a level past
 * `LIMITS.schemaDepth` (the root is level 1) is `TOO_DEEP`, as the core
 * would find it in the text. Iterative, so a hostile depth cannot overflow.
 */
function notJsonValue(value) {
  // Each entry: the value, its depth, its path and its container's entry.
  const stack = [[value, 0, "", undefined]];
  while (stack.length > 0) {
    const entry = stack.pop();
    const [node, depth, at] = entry;
    const where = at === "" ? "" : ` at ${at}`;
    switch (typeof node) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(node)) return `the number ${node}${where}`;
        continue;
      case "object":
        break;
      default:
        return `${typeof node === "undefined" ? "undefined" : `a ${typeof node}`}${where}`;
    }
    if (node === null) continue;
    if (depth >= LIMITS.schemaDepth) {
      // A cycle goes this deep too: JSON.stringify names it for what it is.
      if (!inCycle(entry)) return TOO_DEEP;
      continue;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        if (node[i] !== undefined) stack.push([node[i], depth + 1, `${at}/${i}`, entry]);
      }
      continue;
    }
    const proto = Object.getPrototypeOf(node);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) {
      return `${describeInstance(node)}${where}`;
    }
    for (const key of Object.keys(node)) {
      const member = node[key];
      // JSON.stringify leaves undefined members out, as a schema without them.
      if (member !== undefined) stack.push([member, depth + 1, `${at}/${pointerToken(key)}`, entry]);
    }
  }
  return undefined;
}

/** Whether an object on the walk's path to `entry` holds itself. */
function inCycle(entry) {
  const path = new Set();
  for (let at = entry; at !== undefined; at = at[3]) {
    if (path.has(at[0])) return true;
    path.add(at[0]);
  }
  return false;
}

function pointerToken(key) {
  return key.length > 40 ? "(a member)" : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Why a value is not JSON, and where: `words` (what is wrong, never a
 * value from it), `keys` (the path from the root, array indices as
 * numbers). What `valueSnapshot` throws.
 */
/** The most keys of a path a NotJsonValue's message names (see `pointer`). */
const POINTER_KEYS_SHOWN = 16;

export class NotJsonValue {
  /** `below`: how many keys nearest the problem to leave out of the path as it is made (see `tooDeep`). */
  constructor(words, keys, below = 0) {
    this.words = words;
    this.keys = keys;
    this.below = below;
  }

  /**
   * The path as a JSON Pointer, for a message: a long key shown as "(a
   * member)", a long path as its first and last keys (a path 127 levels
   * deep is noise, and redacting it cost milliseconds), a key that looks
   * like a credential redacted (a value's keys can be anything), and safe
   * to print.
   */
  get pointer() {
    const token = (key) => `/${typeof key === "number" ? key : pointerToken(key)}`;
    const { keys } = this;
    const pointer =
      keys.length <= POINTER_KEYS_SHOWN
        ? keys.map(token).join("")
        : `${keys.slice(0, POINTER_KEYS_SHOWN - 2).map(token).join("")}/…(${keys.length - POINTER_KEYS_SHOWN} more)…${keys.slice(-2).map(token).join("")}`;
    return callRaw(() => raw.shownText(pointer, true, true));
  }
}

/**
 * A copy of `value` as a JSON value, each member read exactly once: what a
 * check of a caller's value checks and hands back, so that a getter or a
 * Proxy cannot answer one thing to the check and another to the caller.
 * Strings, finite numbers, booleans and null as they are; arrays item by
 * item; plain objects (of any realm, or without a prototype) by their own
 * enumerable members, a member JSON leaves out of an object (undefined, a
 * function, a symbol) left out. Anything else throws a NotJsonValue: a
 * number that is not finite, a BigInt, an object of a class (a Date, a
 * Map, a Set, a Promise), an object with a toJSON method, an array item
 * JSON would write as null, a cycle,
 * nesting deeper than the core reads (`LIMITS.schemaDepth`, the root
 * being level 1: found there, so a hostile depth costs only the limit),
 * and a read that throws (a getter, a Proxy), whose error is not rethrown.
 *
 * With `reach` (a check program's, see `reachOf` in js/check-program.mjs),
 * only what the schema can read is copied: an object's own members are
 * each read once and must be JSON where they are, but a member that is an
 * object or an array and that no subschema applies to is the caller's own
 * in the copy, not read inside (so neither checked to be JSON nor counted
 * for the depth; only a cycle closing at it, the member being one of the
 * objects it is in, is found); `keptUnread()` then says so. An array, and an object a
 * subschema reads whole (`additionalProperties`, an `enum` of objects),
 * are copied whole.
 */
export function valueSnapshot(value, reach) {
  // Shared by every call, as a call is made before it is needed; a getter
  // that checks a value itself, while a snapshot is being taken, gets its own.
  let ancestors = sharedAncestors;
  if (ancestors === undefined) ancestors = new Array(LIMITS.schemaDepth + 1);
  else sharedAncestors = undefined;
  const outerDeepest = deepest;
  const outerKept = kept;
  deepest = 0;
  kept = false;
  polluted = false;
  for (const name in POLLUTION_PROBE) polluted = name !== undefined;
  try {
    const copy = snapshotOf(value, 0, ancestors, reach);
    if (copy === LEFT_OUT) throw new NotJsonValue(`${leftOutKind(value)} is not a JSON value`, []);
    lastKept = kept;
    return copy;
  } catch (error) {
    throw error instanceof NotJsonValue ? error : readFailed(error);
  } finally {
    // Only the levels this walk reached hold containers.
    for (let d = 0; d <= deepest; d++) ancestors[d] = undefined;
    sharedAncestors = ancestors;
    deepest = outerDeepest;
    kept = outerKept;
  }
}

/** Whether the last `valueSnapshot` given a reach kept a member of the caller's unread (see `valueSnapshot`). */
export function keptUnread() {
  return lastKept;
}

/** The deepest level of `ancestors` the walk under way filled, and whether it kept a member unread. */
let deepest = 0;
/** Whether Object.prototype has enumerable members (see `snapshotOf`), and an empty object to find them with. */
let polluted = false;
const POLLUTION_PROBE = {};
const hasOwn = Object.hasOwn;
let kept = false;
let lastKept = false;

/** `valueSnapshot`'s containers on the way down (see `snapshotOf`), kept between calls. */
let sharedAncestors;

/** What `snapshotOf` gives for a value JSON leaves out of an object. */
const LEFT_OUT = Symbol("left out");

function leftOutKind(value) {
  return value === undefined ? "undefined" : `a ${typeof value}`;
}

/** A read that threw (a getter, a Proxy), as a NotJsonValue; its error is not kept, nor its message (which may quote anything). */
function readFailed(error) {
  return new NotJsonValue(`reading it threw ${errorName(error)}`, []);
}

/** A thrown value's name, when it is a plain word; else "an error" (a name can be anything). */
export function errorName(error) {
  let name;
  try {
    name = error?.name;
  } catch {
    // A hostile thrown value: nothing to read.
  }
  return typeof name === "string" && /^\w{1,40}$/.test(name) ? name : "an error";
}

/**
 * `error`, from reading or copying the member `key`, as a NotJsonValue with
 * `key` put in front of its path (unless it is one of the keys nearest the
 * problem that its path leaves out).
 */
function placed(error, key) {
  const problem = error instanceof NotJsonValue ? error : readFailed(error);
  if (problem.below > 0) problem.below -= 1;
  else problem.keys.unshift(key);
  return problem;
}

/**
 * `valueSnapshot`'s walk: `value`, `depth` containers below the root, with
 * `ancestors[d]` the container at depth d on the way to it. A problem is
 * thrown with an empty path, and each container on the way back puts its
 * key in front. Recursive: the depth is bounded, and so is the stack.
 */
function snapshotOf(value, depth, ancestors, reach) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new NotJsonValue(`the number ${value} is not a JSON value`, []);
      return value;
    case "bigint":
      throw new NotJsonValue("a BigInt is not a JSON value", []);
    case "object":
      break;
    default:
      return LEFT_OUT;
  }
  if (value === null) return null;
  ancestors[depth] = value;
  if (depth > deepest) deepest = depth;
  if (depth >= LIMITS.schemaDepth) throw tooDeep(ancestors, depth);
  return Array.isArray(value) ? arraySnapshot(value, depth, ancestors) : objectSnapshot(value, depth, ancestors, reach);
}

/** `snapshotOf` of an array: every item, whatever the reach. */
function arraySnapshot(value, depth, ancestors) {
  const length = value.length;
  const out = new Array(length);
  // One try for the loop, not one for each item; `i` says where it threw.
  let i = 0;
  try {
    for (; i < length; i++) {
      const item = value[i];
      if (typeof item === "string" || (typeof item === "number" && item - item === 0)) {
        out[i] = item;
        continue;
      }
      const copy = snapshotOf(item, depth + 1, ancestors);
      // JSON would write null, another value.
      if (copy === LEFT_OUT) throw new NotJsonValue(`${leftOutKind(item)} is not a JSON value`, []);
      out[i] = copy;
    }
  } catch (error) {
    throw placed(error, i);
  }
  return out;
}

/** `snapshotOf` of an object that is not an array, along `reach`. */
function objectSnapshot(value, depth, ancestors, reach) {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) {
    throw new NotJsonValue(`${describeInstance(value, "it")} is not a JSON value`, []);
  }
  // A reach that reads the object whole is no reach: everything below is copied.
  if (reach !== undefined && reach.whole) reach = undefined;
  // Its own enumerable members, each read once, in one step: the engines
  // copy a plain object at once, several times faster than member by
  // member (its symbol-keyed members, which JSON has none of, come along
  // unchecked). A read that throws is found member by member.
  let out;
  try {
    out = { ...value };
  } catch {
    return membersOneByOne(value, depth, ancestors, reach);
  }
  let name;
  try {
    for (const key in out) {
      const member = out[key];
      if (typeof member === "string" || (typeof member === "number" && member - member === 0) || typeof member === "boolean" || member === null) continue;
      // A name Object.prototype lends every object (it is polluted) is no member.
      if (polluted && !hasOwn(out, key)) continue;
      name = key;
      const copy = memberCopy(key, member, depth, ancestors, reach);
      if (copy === LEFT_OUT) delete out[key];
      else if (copy !== member) setMember(out, key, copy);
    }
  } catch (error) {
    throw placed(error, name);
  }
  return out;
}

/**
 * `snapshotOf`'s copy of an object's members read one by one, for an
 * object a read of which throws: the problem is then said at its member
 * (the members before it are read a second time).
 */
function membersOneByOne(value, depth, ancestors, reach) {
  const out = {};
  const names = Object.keys(value);
  let name;
  try {
    for (let i = 0; i < names.length; i++) {
      name = names[i];
      const copy = memberCopy(name, value[name], depth, ancestors, reach);
      if (copy !== LEFT_OUT) setMember(out, name, copy);
    }
  } catch (error) {
    throw placed(error, name);
  }
  return out;
}

/** `out[name] = value`, a member named __proto__ (JSON.parse makes one) being a member, not the copy's prototype. */
function setMember(out, name, value) {
  if (name === "__proto__") defineMember(out, name, value);
  else out[name] = value;
}

/** The copy of an object's member `name` (see `snapshotOf`), LEFT_OUT for one JSON leaves out. */
function memberCopy(name, member, depth, ancestors, reach) {
  if (typeof member === "string" || (typeof member === "number" && member - member === 0) || typeof member === "boolean" || member === null) return member;
  // JSON.stringify writes what a toJSON method gives instead of the
  // object: the problem is the object's, its path without "toJSON".
  if (name === "toJSON" && typeof member === "function") throw new NotJsonValue("an object with a toJSON method is not a JSON value", [], 1);
  const below = reach === undefined ? undefined : reach.member(name);
  if (below === undefined && reach !== undefined && typeof member === "object" && member !== null) {
    // No subschema applies to it: the caller's own, unread inside; but
    // one of the objects it is in is a cycle, found for the cost of the depth.
    for (let d = 0; d <= depth; d++) if (ancestors[d] === member) throw new NotJsonValue("it contains itself (a cycle)", []);
    kept = true;
    return member;
  }
  return snapshotOf(member, depth + 1, ancestors, below);
}

function defineMember(out, name, value) {
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The problem of a value that reaches depth `depth`, past what the core
 * reads: a cycle, named for what it is where it first closes (the first
 * container met again on the way down), or nesting too deep.
 */
function tooDeep(ancestors, depth) {
  for (let j = 1; j <= depth; j++) {
    for (let i = 0; i < j; i++) {
      // Its path is made on the way back up from here: what is below j is cut off then.
      if (ancestors[i] === ancestors[j]) return new NotJsonValue("it contains itself (a cycle)", [], depth - j);
    }
  }
  return new NotJsonValue(`it nests deeper than ${LIMITS.schemaDepth} levels`, []);
}

function describeInstance(node, what = "the schema") {
  if (typeof node.then === "function") return `a Promise (was ${what} awaited?)`;
  if (node instanceof Map) return "a Map";
  if (node instanceof Set) return "a Set";
  if (node instanceof Date) return "a Date";
  if (node instanceof RegExp) return "a RegExp";
  if (ArrayBuffer.isView(node) || node instanceof ArrayBuffer) return "binary data";
  const name = node.constructor?.name;
  return typeof name === "string" && /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? `an instance of ${name}` : "a class instance";
}

/** The core's read plans (src/providers/read.rs), the same for every instance. */
let plans;

export function readPlans() {
  plans ??= loadPlans(callRaw(() => raw.readPlans()));
  return plans;
}

/**
 * What `readPlans()[plan]` asks of `value`, copied by property access (see
 * js/response-copy.mjs); with `texts`, the strings under text nodes go there. A
 * getter that throws, or a revoked Proxy, is a typed error.
 */
export function readCopy(what, value, plan, texts) {
  const node = readPlans()[plan];
  try {
    return copyAlong(value, node, plans, texts);
  } catch (error) {
    throw argumentError(`${what} could not be read: ${serialisationProblem(error)}`);
  }
}

/**
 * Whether `readCopy(what, value, plan, texts)` would give a copy written as
 * the JSON text `shape` was parsed from (see `matchCopy` in js/copy-match.mjs),
 * the texts pushed as it pushes them; false, too, when reading `value`
 * throws (`readCopy` then says why).
 */
export function matchesCopy(value, plan, shape, texts) {
  try {
    return matchCopy(value, readPlans()[plan], shape, plans, texts);
  } catch {
    return false;
  }
}

/**
 * The copies of response objects read last along the output plan, the
 * latest first, as `outputCopy` gives them. A provider's responses make the
 * same few copies call after call (a copy holds references to the texts,
 * not the texts). Up to `COPIES_HELD` copies of up to `COPY_TEXT_LIMIT`
 * characters.
 */
const outputCopies = [];
const COPIES_HELD = 16;
const COPY_TEXT_LIMIT = 1024;

/**
 * The copy of a response object along the output plan, its texts pushed to
 * `texts`: { text: its JSON text, shape (see `shapeOf`), answer: what was
 * learnt of what the core reads of it, once it has }. A response that makes
 * the same copy as one read last gets that record back, with the text
 * written then: the latest two are compared while the response is
 * walked, without a copy made (`matchAlong`), the others with the copy
 * (`sameCopy`). What the core reads of a copy is a function of its text,
 * so whatever is learnt of a record holds for every response that has it.
 * The lane's copies are kept in `copies` (outputCopies); the tool-call
 * reader's, whose texts also hold the calls' arguments and ids
 * (`texts.wholeStrings`), in a list of its own, and it names what it reads
 * (`what`) in its errors. A copy in which a value looks like a reference
 * (`texts.ambiguous`) is not kept: the tool-call reader sends such a
 * response as text.
 */
export function outputCopy(output, texts, copies = outputCopies, what = "the output") {
  const latest = copies[0];
  if (latest !== undefined && matchesCopy(output, "output", latest.shape, texts)) return latest;
  // Responses of two shapes in turn (calls, and calls stopped at the token
  // limit): the one before the latest is compared while walked too.
  const before = copies[1];
  if (before !== undefined) {
    texts.length = 0;
    texts.ambiguous = false;
    if (matchesCopy(output, "output", before.shape, texts)) {
      copies[1] = latest;
      copies[0] = before;
      return before;
    }
  }
  texts.length = 0;
  texts.ambiguous = false;
  const copy = readCopy(what, output, "output", texts);
  for (let i = 0; i < copies.length; i++) {
    let same;
    try {
      same = sameCopy(copy, copies[i].shape);
    } catch {
      // A getter in a `whole` value that throws: the copy is written (and
      // the error reported) below.
      break;
    }
    if (!same) continue;
    const [found] = copies.splice(i, 1);
    copies.unshift(found);
    return found;
  }
  const text = jsonText(what, copy);
  if (text.length > COPY_TEXT_LIMIT || texts.ambiguous) return { text, shape: undefined, answer: undefined };
  const record = { text, shape: shapeOf(JSON.parse(text)), answer: undefined };
  if (copies.length >= COPIES_HELD) copies.pop();
  copies.unshift(record);
  return record;
}

/** JSON text of what `plan` reads of a response, a usage object or a truncation source. */
export function readText(what, value, plan) {
  if (typeof value === "string") return jsonText(what, value);
  return jsonText(what, readCopy(what, value, plan));
}

export function argumentKind(value) {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}
