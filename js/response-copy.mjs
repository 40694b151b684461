// Copying a live response object along one of the core's read plans
// (src/providers/read.rs, where the walk is specified): only the members the
// plan lists are copied. Property access, not serialisation: getters on
// a class's prototype (the Vercel AI SDK's results, @google/genai's
// responses) read as the values they return, and members no plan lists (a
// request body, headers, a deeply nested extension) are never touched.
// Whether a response would make the same copy as the last is
// js/copy-match.mjs's.
import { LIMITS } from "./generated/contract.mjs";
import { fromClass, hasMember, readMember } from "./member-access.mjs";
import { functionFrom } from "./functions-from-source.mjs";

/**
 * A reference to a text string in the copy is `["\u0000", index]`: an array,
 * not an object with that member name, as Bun's JSON.stringify writes a
 * member name that needs escaping several times slower than a value.
 */
export const TEXT_REFERENCE = "\u0000";

/**
 * The copy of `value` that `node` asks for. With `texts`, each string under
 * a text node is pushed there (with any lone surrogate replaced, as encoding
 * it to UTF-8 would) and the copy holds `["\u0000", index]` instead; without,
 * it is copied like any other string.
 */
export function copyAlong(value, node, plans, texts) {
  if (node.whole) {
    // Written as JSON.stringify writes it, but refused at once when it
    // nests deeper than the core reads: JSON.stringify takes Bun seconds
    // to run out of stack on a value 100,000 levels deep.
    if (value !== null && typeof value === "object" && nestsDeeper(value, LIMITS.schemaDepth)) throw new RangeError("the value nests too deeply");
    return node.arguments && texts?.wholeStrings === true ? wholeForCalls(value, texts) : value;
  }
  switch (typeof value) {
    case "string":
      if (texts !== undefined && node.text) return referenceTo(value, texts);
      if (node.reference && texts?.wholeStrings === true) return idReference(value, texts);
      return value;
    case "number":
    case "boolean":
      return value;
    case "bigint":
      return bigintValue(value);
    case "object":
      break;
    default:
      // undefined, functions and symbols, which JSON leaves out.
      return undefined;
  }
  if (value === null) return null;
  if (node.deep) return deepCopy(value, 0, plans.deep_limit, new WeakSet());
  if (Array.isArray(value)) {
    if (node.each !== undefined) {
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = copyAlong(value[i], node.each, plans, texts) ?? null;
      return out;
    }
    if (node.first !== undefined) return value.length > 0 ? [copyAlong(value[0], node.first, plans, texts) ?? null] : [];
    return [];
  }
  // The member found here is read again as the members are copied (a
  // getter there runs twice).
  const alone = node.members_alone_with;
  if (alone !== undefined && alone.some((name) => holdsObject(readMember(value, name)))) {
    return copyMembers(value, node, plans, texts, {});
  }
  const out = {};
  if (node.deep_unless !== undefined) {
    // Not a read: a getter there (@google/genai's `text`) is not run.
    const present = node.deep_unless.filter((name) => hasMember(value, name));
    if (present.length === 0) return deepCopy(value, 0, plans.deep_limit, new WeakSet());
    // Kept as null, so that the copy is still recognised as a response.
    for (const name of present) out[name] = null;
  }
  if (node.primitives) {
    for (const name of Object.keys(value)) {
      const member = primitive(readMember(value, name));
      if (member !== undefined) out[name] = member;
    }
  }
  if (node.members === undefined) return out;
  if (Object.getPrototypeOf(value) === Object.prototype && !node.primitives) {
    // A plain object (what JSON.parse and most SDKs give) has no getters to
    // find on its prototype, so its own keys, usually fewer than the plan's,
    // say everything that is there.
    const index = node.index;
    for (const name of Object.keys(value)) {
      const child = index[name];
      if (child === undefined) continue;
      const copied = copyAlong(readMember(value, name), child, plans, texts);
      if (copied !== undefined) out[name] = copied;
    }
    return out;
  }
  return copyMembers(value, node, plans, texts, out);
}

/**
 * Whether `value` holds containers more than `levels` levels deep (the
 * value itself is level 1), found without going deeper than that: its
 * cost is bounded by the limit, whatever the depth. A cycle is not deep
 * (JSON.stringify names it for what it is). Members are read as
 * JSON.stringify reads them: own enumerable ones.
 */
export function nestsDeeper(value, levels) {
  return deeperFrom(value, 0, levels, new Array(levels + 1));
}

function deeperFrom(value, depth, levels, ancestors) {
  if (value === null || typeof value !== "object") return false;
  if (depth >= levels) {
    for (let d = 0; d < depth; d++) if (ancestors[d] === value) return false;
    return true;
  }
  ancestors[depth] = value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (deeperFrom(value[i], depth + 1, levels, ancestors)) return true;
    return false;
  }
  const names = Object.keys(value);
  for (let i = 0; i < names.length; i++) if (deeperFrom(value[names[i]], depth + 1, levels, ancestors)) return true;
  return false;
}

/**
 * A value at an `arguments` node (a tool call's arguments or input) as the
 * tool-call reader copies it, with `texts.wholeStrings` set (see
 * `readCalls` in js/tool-calls.mjs): a string goes among the texts, and an
 * object or array among `texts.values` (with an empty text in its place),
 * each as a reference, so that the core neither parses nor writes it back
 * and the copy is the same whatever the arguments (see `argumentsReference`).
 */
function wholeForCalls(value, texts) {
  const index = argumentsReference(value, texts);
  return index < 0 ? value : [TEXT_REFERENCE, index];
}

/**
 * Pushes a call's arguments as `wholeForCalls` does and gives the index of
 * the text that stands for them; -1 for a value the copy holds as it is (a
 * number, a boolean, null).
 */
export function argumentsReference(value, texts) {
  if (typeof value === "string") return pushText(value, texts);
  if (value === null || typeof value !== "object") return -1;
  texts.push("");
  const index = texts.length - 1;
  (texts.values ??= [])[index] = value;
  return index;
}

/** The arguments object or array the text at `index` stands for (see `argumentsReference`), or undefined for a string. */
export function argumentsValue(texts, index) {
  return texts.values?.[index];
}

/**
 * A tool call's id as the tool-call reader copies it (see `readCalls` in
 * js/tool-calls.mjs): pushed to `texts`, and written as `"\u0000"` and its
 * index, a string the core passes through as the call's id (`calledId`
 * reads it back), so that responses alike but for their calls' ids make
 * the same copy.
 */
export function idReference(id, texts) {
  return TEXT_REFERENCE + pushText(id, texts);
}

/** The id the core gave for a call: the text an `idReference` stands for, or the id as it is. */
export function calledId(id, texts) {
  return typeof id === "string" && id.startsWith(TEXT_REFERENCE) ? texts[Number(id.slice(1))] : id;
}

/** `["\u0000", i]`, a reference to `text` pushed to `texts` (see `pushText`). */
function referenceTo(text, texts) {
  return [TEXT_REFERENCE, pushText(text, texts)];
}

/**
 * Pushes `text` to `texts` with any lone surrogate replaced, as encoding it
 * to UTF-8 would, and gives its index.
 */
export function pushText(text, texts) {
  texts.push(text.isWellFormed?.() === false ? text.toWellFormed() : text);
  const index = texts.length - 1;
  // A text where an arguments value stood in a walk given up on.
  if (texts.values !== undefined) texts.values[index] = undefined;
  return index;
}

/**
 * The members `copyAlong(value, node, plans)` copies when it copies only
 * `node`'s members (one of `members_alone_with` holds an object), each a
 * `deep` node, as [name, value] pairs in the order copied; undefined for a
 * value or a node copied any other way. A member's value is read as the
 * copy reads it (a getter that throws gives undefined, which the copy
 * leaves out, as it leaves out any value `deepCopy` gives undefined for).
 */
export function membersAlone(value, node) {
  if (!node.deepMembersAlone) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const written = writtenMembersAlone(node);
  if (written !== null) return written(value, holdsObject);
  const alone = node.members_alone_with;
  let holds = false;
  for (let i = 0; i < alone.length && !holds; i++) holds = holdsObject(readMember(value, alone[i]));
  if (!holds) return undefined;
  const found = [];
  for (const [name] of node.members) {
    const member = readMember(value, name);
    if (member !== undefined) found.push([name, member]);
  }
  return found;
}

/** The node's `members` of `value`, in the order listed, copied into `out`. */
export function copyMembers(value, node, plans, texts, out) {
  const unless = node.unless;
  for (const [name, child] of node.members) {
    if (unless !== undefined && unless[name] !== undefined && unless[name].some((other) => copiedSomething(out[other], node.index[other]))) continue;
    const member = readMember(value, name);
    if (member === undefined) continue;
    const copied = copyAlong(member, child, plans, texts);
    if (copied !== undefined) out[name] = copied;
  }
  return out;
}

/**
 * `membersAlone(value, node)` by the function written for the node
 * (`written`) or by the general loop: for the tests, which hold that the
 * two agree.
 */
export function membersAloneBy(value, node, written) {
  const kept = writtenMembersAlone(node);
  if (!written) node.membersAloneWritten = null;
  try {
    return membersAlone(value, node);
  } finally {
    node.membersAloneWritten = kept;
  }
}

/** The node's `membersAlone` function (see `writeMembersAlone`), written on first use; null where none can be. */
function writtenMembersAlone(node) {
  if (node.membersAloneWritten === undefined) node.membersAloneWritten = writeMembersAlone(node);
  return node.membersAloneWritten;
}

/**
 * `membersAlone` for `node`, written with its member names in the source:
 * on Bun, a guarded call reads a response's usage members by these names,
 * and each read by a name that varies cost about 10 ns, each written out
 * a fraction of that. Reads exactly what the general loop reads, in the
 * same order; null where no function can be made from source.
 */
function writeMembersAlone(node) {
  // A member whose getter throws reads as undefined, as `readMember` gives
  // it, and one that is neither own nor a class's as `memberOf`
  // (js/member-access.mjs) leaves it.
  const read = (name) => {
    const key = JSON.stringify(name);
    return `try { member = value[${key}]; if (member !== undefined && !Object.hasOwn(value, ${key}) && !fromClass(value, ${key})) member = undefined; } catch { member = undefined; }`;
  };
  const lines = ["let member;", "let holds = false;"];
  for (const name of node.members_alone_with) lines.push(`if (!holds) { ${read(name)} holds = holdsObject(member); }`);
  lines.push("if (!holds) return undefined;", "const found = [];");
  for (const [name] of node.members) lines.push(read(name), `if (member !== undefined) found.push([${JSON.stringify(name)}, member]);`);
  lines.push("return found;");
  const written = functionFrom(["value", "holdsObject", "fromClass"], lines);
  return written === undefined ? null : (value, holds) => written(value, holds, fromClass);
}

/** An object that is not an array (what the core's reader takes for one). */
function holdsObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Whether `copy`, made at `node`, counts as copied for `unless`: not an
 * empty list, and a string only at a text node (an error's `message` is no
 * chat message).
 */
function copiedSomething(copy, node) {
  if (copy === undefined) return false;
  if (Array.isArray(copy)) return copy.length > 0;
  return typeof copy !== "string" || node.text;
}

/**
 * A plan node as the core writes it (src/providers/read.rs), with every
 * field present, so that each node the walk visits has the same shape, and
 * its members also by name (`index`).
 */
class PlanNode {
  constructor(written) {
    this.members = written.members?.map(([name, child]) => [name, new PlanNode(child)]);
    // An object without a prototype, not a Map: on Bun, reading a chat
    // completion along the plan took a quarter less time with it.
    this.index = this.members === undefined ? undefined : indexOf(this.members);
    this.each = written.each === undefined ? undefined : new PlanNode(written.each);
    this.first = written.first === undefined ? undefined : new PlanNode(written.first);
    this.primitives = written.primitives === true;
    this.deep = written.deep === true;
    this.text = written.text === true;
    this.whole = written.whole === true;
    /** A tool call's arguments (a `whole` node): see `wholeForCalls`. */
    this.arguments = written.arguments === true;
    /** A tool call's id, or the name of the tool it calls: see `idReference`. */
    this.reference = written.call_id === true || written.call_name === true;
    this.deep_unless = written.deep_unless;
    this.members_alone_with = written.members_alone_with;
    /** `membersAlone`'s function written for this node (see `writeMembersAlone`); null where none can be. */
    this.membersAloneWritten = undefined;
    this.unless = written.unless;
    /** Whether `matchAlong` (js/copy-match.mjs) walks values at this node itself (else it copies them and compares). */
    this.simple = !this.whole && !this.deep && !this.primitives && this.deep_unless === undefined && this.members_alone_with === undefined;
    /**
     * Whether a value whose `members_alone_with` holds an object is copied
     * as its members alone, each a `deep` copy (see `membersAlone`).
     */
    this.deepMembersAlone =
      this.members_alone_with !== undefined &&
      this.unless === undefined &&
      !this.whole &&
      !this.deep &&
      this.members !== undefined &&
      this.members.every(([, child]) => child.deep && !child.whole);
  }
}

/** A node's members by name, in an object that inherits no names. */
function indexOf(members) {
  const index = Object.create(null);
  for (const [name, child] of members) index[name] = child;
  return index;
}

/** The core's read plans from their JSON text: `{ output, usage, deep_limit }`, each plan a `PlanNode`. */
export function loadPlans(json) {
  const written = JSON.parse(json);
  return { output: new PlanNode(written.output), usage: new PlanNode(written.usage), deep_limit: written.deep_limit };
}

/** A string, number, boolean or null as JSON has it; anything else undefined. */
export function primitive(value) {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value;
    case "bigint":
      return bigintValue(value);
    default:
      return undefined;
  }
}

/** A BigInt (a timestamp, a token count) as a number, or past 2^53 as a string. */
export function bigintValue(value) {
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : String(value);
}

/**
 * Own enumerable members at any depth up to `limit` (deeper, null), a
 * repeated object left out: for usage objects, whose counters providers
 * keep adding.
 */
function deepCopy(value, depth, limit, seen) {
  if (value === null || typeof value !== "object") return primitive(value);
  if (depth >= limit) return null;
  if (seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = deepCopy(value[i], depth + 1, limit, seen) ?? null;
    return out;
  }
  const out = {};
  for (const name of Object.keys(value)) {
    const copied = deepCopy(value[name], depth + 1, limit, seen);
    if (copied !== undefined) out[name] = copied;
  }
  return out;
}
