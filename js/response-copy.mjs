// The reader: walks a live response object along one of the core's read
// plans (src/providers/read.rs, where the walk is specified) and copies only
// the members the plan lists. Property access, not serialisation: getters on
// a class's prototype (the Vercel AI SDK's results, @google/genai's
// responses) read as the values they return, and members no plan lists (a
// request body, headers, a deeply nested extension) are never touched.
import { LIMITS } from "./generated/contract.mjs";

/**
 * A reference to a text string in the copy is `["\u0000", index]`: an array,
 * not an object with that member name, as Bun's JSON.stringify writes a
 * member name that needs escaping several times slower than a value.
 */
const TEXT_REFERENCE = "\u0000";

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
function argumentsReference(value, texts) {
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
function idReference(id, texts) {
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
function pushText(text, texts) {
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
function copyMembers(value, node, plans, texts, out) {
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
  // it, and one that is neither own nor a class's as `memberOf` leaves it.
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
 * A member's value as `memberOf` reads it; undefined when reading it
 * throws: a getter that refuses (the AI SDK's `output` when no output was
 * asked for) has nothing to give.
 */
function readMember(value, name) {
  try {
    return memberOf(value, name);
  } catch {
    return undefined;
  }
}

/**
 * `value[name]` as the readers take a member of a caller's object: an own
 * member, or one a class gives its instances on a prototype (a getter, as
 * the AI SDK's results and @google/genai's responses have), never one
 * that only Object.prototype or Array.prototype holds: another library, or
 * a pollution elsewhere in the application, may have given those an
 * enumerable member, which no response, request or usage has.
 */
export function memberOf(value, name) {
  const member = value[name];
  return member === undefined || Object.hasOwn(value, name) || fromClass(value, name) ? member : undefined;
}

/**
 * Whether `value` has a member `name` as `memberOf` reads one (an own
 * member, or a class's), without reading it: a getter is not run.
 */
export function hasMember(value, name) {
  return Object.hasOwn(value, name) || fromClass(value, name);
}

/**
 * Whether a prototype of `value` below Object.prototype and Array.prototype
 * (of any realm: a realm's Object.prototype is the one prototype without
 * one of its own, and an Array.prototype is itself an array) holds `name`.
 */
export function fromClass(value, name) {
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (Array.isArray(proto) || Object.getPrototypeOf(proto) === null) return false;
    if (Object.hasOwn(proto, name)) return true;
  }
  return false;
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
    /** Whether `matchAlong` walks values at this node itself (else it copies them and compares). */
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
function bigintValue(value) {
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

/**
 * An object's members in a `shapeOf`, in order; `seen` and `children`,
 * once `matchAlong` matched an object against it, that object's member
 * names as a walk meets them and the plan node of each (see `remember`).
 */
class Members {
  constructor(names, values) {
    this.names = names;
    this.values = values;
    this.seen = undefined;
    this.children = undefined;
    /** The walk written for this shape at the root of a copy (see `matchCopy`); null where none can be. */
    this.walk = undefined;
  }
}

/**
 * A copy parsed back from its JSON text, in the form `sameCopy` compares
 * with: objects as their member names and values in order, arrays and the
 * rest as they are.
 */
export function shapeOf(parsed) {
  if (parsed === null || typeof parsed !== "object") return parsed;
  if (Array.isArray(parsed)) return parsed.map(shapeOf);
  const names = Object.keys(parsed);
  return new Members(names, names.map((name) => shapeOf(parsed[name])));
}

/**
 * Whether `copy`, as `copyAlong` made it, would be written as the JSON text
 * that `shape` (see `shapeOf`) was parsed from: plain objects with the same
 * members in the same order, arrays of the same length, and the same
 * strings, numbers, booleans and nulls; members that JSON leaves out
 * (undefined, functions, symbols) are passed over. Anything else in `copy`
 * (a class instance, or a value JSON writes differently, such as NaN, which
 * a `whole` node can bring) counts as different.
 */
export function sameCopy(copy, shape) {
  if (typeof copy !== "object" || copy === null) return copy === shape;
  if (typeof shape !== "object" || shape === null) return false;
  // JSON.stringify writes what toJSON gives instead (an own one, or one a
  // prototype was given).
  if (typeof copy.toJSON === "function") return false;
  const prototype = Object.getPrototypeOf(copy);
  if (prototype === Array.prototype) {
    if (!Array.isArray(shape) || copy.length !== shape.length) return false;
    for (let i = 0; i < copy.length; i++) if (!sameCopy(copy[i], shape[i])) return false;
    return true;
  }
  if (prototype !== Object.prototype || !(shape instanceof Members)) return false;
  const { names, values } = shape;
  let i = 0;
  // Own members, in order, as JSON.stringify writes them (an enumerable
  // member given to Object.prototype is none of the copy's).
  for (const name of Object.keys(copy)) {
    const member = copy[name];
    // Left out, as JSON.stringify leaves it out.
    if (leftOut(member)) continue;
    if (i >= names.length || name !== names[i] || !sameCopy(member, values[i])) return false;
    i++;
  }
  return i === names.length;
}

/**
 * Whether `copyAlong(value, node, plans, texts)` would give a copy written
 * as the same JSON text as `shape` (see `shapeOf`), without making the
 * copy: the texts are pushed as `copyAlong` pushes them, and the walk stops
 * at the first difference. Nodes it does not walk itself (see
 * `PlanNode.simple`) and objects that are not plain are copied and
 * compared (`sameCopy`). A true answer is exact; a false one may also mean
 * a copy this walk cannot vouch for (a NaN, say), which the caller then
 * copies and writes as usual.
 */
export function matchAlong(value, node, shape, plans, texts) {
  if (!node.simple) return sameCopy(copyAlong(value, node, plans, texts), shape);
  switch (typeof value) {
    case "string":
      if (node.text) {
        const index = pushText(value, texts);
        return Array.isArray(shape) && shape.length === 2 && shape[0] === TEXT_REFERENCE && shape[1] === index;
      }
      if (node.reference && texts.wholeStrings === true) return idReference(value, texts) === shape;
      return value === shape;
    case "number":
    case "boolean":
      return value === shape;
    case "bigint":
      return bigintValue(value) === shape;
    case "object":
      break;
    default:
      // Left out of the copy: never a member or item here (see the callers).
      return false;
  }
  if (value === null) return shape === null;
  if (Array.isArray(value)) {
    if (!Array.isArray(shape)) return false;
    const each = node.each;
    if (each !== undefined) {
      if (shape.length !== value.length) return false;
      for (let i = 0; i < value.length; i++) if (!matchItem(value[i], each, shape[i], plans, texts)) return false;
      return true;
    }
    if (node.first !== undefined) {
      if (value.length === 0) return shape.length === 0;
      return shape.length === 1 && matchItem(value[0], node.first, shape[0], plans, texts);
    }
    return shape.length === 0;
  }
  if (!(shape instanceof Members)) return false;
  const { names, values } = shape;
  if (node.members === undefined) return names.length === 0;
  if (Object.getPrototypeOf(value) !== Object.prototype) return sameCopy(copyMembers(value, node, plans, texts, {}), shape);
  const index = node.index;
  // The object's member names as the last walk against this shape met
  // them, each with its plan node (see `Members`): an object of the same
  // names in the same order, as a provider's responses are, finds its
  // members' nodes by place, not by name.
  const { seen, children } = shape;
  let i = 0;
  let k = 0;
  // A member whose getter throws ends the walk (the caller then copies the
  // response, which reads it as undefined).
  for (const name in value) {
    const child = seen !== undefined && seen[k] === name ? children[k] : index[name];
    k++;
    if (child === undefined) continue;
    // Own members only, as Object.keys gives them to the copy.
    if (!Object.hasOwn(value, name)) return false;
    const member = value[name];
    if (leftOut(member)) continue;
    if (i >= names.length || names[i] !== name || !matchAlong(member, child, values[i], plans, texts)) return false;
    i++;
  }
  if (i !== names.length) return false;
  if (seen === undefined) remember(shape, value, index);
  return true;
}

/**
 * Notes the member names of `value`, an object that matched `shape`, in
 * the order a walk meets them, each with its node in `index` (undefined
 * for a name the plan does not list).
 */
function remember(shape, value, index) {
  const names = [];
  for (const name in value) names.push(name);
  shape.children = names.map((name) => index[name]);
  shape.seen = names;
}

/**
 * `matchAlong` from the root of a plan, with the walk written for `shape`
 * (see `walkOf`) tried first: its true is `matchAlong`'s; for anything else
 * the texts it pushed are taken back and `matchAlong` decides. The walk is
 * written once `matchAlong` has matched a response against the shape (and
 * so noted its objects' names), or never, where it cannot be.
 */
export function matchCopy(value, node, shape, plans, texts) {
  if (shape instanceof Members) {
    let walk = shape.walk;
    if (walk === undefined && shape.seen !== undefined) walk = shape.walk = walkOf(node, shape) ?? null;
    if (walk !== null && walk !== undefined) {
      const mark = texts.length;
      if (walk(value, texts) === true) return true;
      texts.length = mark;
    }
  }
  return matchAlong(value, node, shape, plans, texts);
}

/**
 * A function of `(value, texts)` that gives true when `matchAlong(value,
 * node, shape, plans, texts)` would, pushing the same texts, and undefined
 * otherwise, written for a shape a response matched: each object a plain
 * one whose names, own and inherited, are those `matchAlong` noted (see
 * `Members`), in order, so that the members the plan lists are read by
 * their names; each array of the same length; each value the shape's, and
 * each text at its index. A response of another shape, or of the same one
 * but for a member the copy leaves out, goes to `matchAlong`. A call's id,
 * tool name and arguments are pushed as the tool-call reader's copy refers
 * to them (see `idReference` and `argumentsReference`). Undefined for a
 * shape this cannot vouch for (a node `matchAlong` leaves to a copy, an
 * object without noted names) and where no function can be made from
 * source. Matching a chat completion against its copy took
 * 0.24 µs on Node 20 (Bun 0.15) by `matchAlong`, 0.13 µs (0.07) with its
 * walk written. A copy's text is short (see `COPY_TEXT_LIMIT` in
 * js/arguments.mjs), and so is its walk.
 */
function walkOf(node, shape) {
  const lines = [];
  const constants = [];
  let count = 0;
  const fresh = () => `v${count++}`;
  const constant = (value) => `c[${constants.push(value) - 1}]`;
  const bail = "return undefined;";
  const leftOutTest = (v) => `(${v} === undefined || typeof ${v} === "function" || typeof ${v} === "symbol")`;
  // The checks of value `v` at plan node `at` against `expected`; false
  // when the shape holds what this walk leaves to `matchAlong`.
  const check = (v, at, expected) => {
    // A `whole` node copies a value as it is: a word or a number is the same
    // when it is equal (as `sameCopy` compares it).
    const word = expected === null || typeof expected === "string" || typeof expected === "number" || typeof expected === "boolean";
    if (at.whole && !at.arguments && word) {
      lines.push(`if (${v} !== ${constant(expected)}) ${bail}`);
      return true;
    }
    // A call's arguments: in the tool-call reader's copies, a string or an
    // object stands there as a reference (see `argumentsReference`), and
    // anything else as it is.
    if (at.arguments) {
      if (Array.isArray(expected) && expected.length === 2 && expected[0] === TEXT_REFERENCE && typeof expected[1] === "number") {
        lines.push(`if (texts.wholeStrings !== true || argumentsReference(${v}, texts) !== ${expected[1]}) ${bail}`);
        return true;
      }
      if (!word) return false;
      lines.push(`if ((texts.wholeStrings === true && (typeof ${v} === "string" || (${v} !== null && typeof ${v} === "object"))) || ${v} !== ${constant(expected)}) ${bail}`);
      return true;
    }
    // A call's id or tool name: in those copies, a string stands there as a
    // reference (see `idReference`), and anything else as it is.
    if (at.reference) {
      if (typeof expected === "string" && expected.startsWith(TEXT_REFERENCE)) {
        lines.push(`if (typeof ${v} !== "string" || texts.wholeStrings !== true || idReference(${v}, texts) !== ${constant(expected)}) ${bail}`);
        return true;
      }
      if (!word) return false;
      lines.push(`if ((typeof ${v} === "string" && texts.wholeStrings === true) || ${v} !== ${constant(expected)}) ${bail}`);
      return true;
    }
    if (!at.simple) return false;
    if (word) {
      // A text node's string is a text, never a value of the copy (its null is null).
      if (at.text && expected !== null) return false;
      lines.push(`if (${v} !== ${constant(expected)}) ${bail}`);
      return true;
    }
    if (Array.isArray(expected)) {
      if (at.text && expected.length === 2 && expected[0] === TEXT_REFERENCE && typeof expected[1] === "number") {
        lines.push(`if (typeof ${v} !== "string" || pushText(${v}, texts) !== ${expected[1]}) ${bail}`);
        return true;
      }
      if (at.each !== undefined) {
        lines.push(`if (!Array.isArray(${v}) || ${v}.length !== ${expected.length}) ${bail}`);
        for (let i = 0; i < expected.length; i++) {
          const item = fresh();
          lines.push(`const ${item} = ${v}[${i}];`);
          if (!check(item, at.each, expected[i])) return false;
        }
        return true;
      }
      if (at.first !== undefined) {
        if (expected.length === 0) {
          lines.push(`if (!Array.isArray(${v}) || ${v}.length !== 0) ${bail}`);
          return true;
        }
        if (expected.length !== 1) return false;
        lines.push(`if (!Array.isArray(${v}) || ${v}.length === 0) ${bail}`);
        const item = fresh();
        lines.push(`const ${item} = ${v}[0];`);
        return check(item, at.first, expected[0]);
      }
      if (expected.length !== 0) return false;
      lines.push(`if (!Array.isArray(${v})) ${bail}`);
      return true;
    }
    if (!(expected instanceof Members) || at.members === undefined || expected.seen === undefined) return false;
    const { names, values, seen, children } = expected;
    lines.push(`if (${v} === null || typeof ${v} !== "object" || Array.isArray(${v}) || Object.getPrototypeOf(${v}) !== Object.prototype) ${bail}`);
    lines.push(`{ let k = 0; const seen = ${constant(seen)}; for (const name in ${v}) { if (name !== seen[k]) ${bail} k++; } if (k !== ${seen.length}) ${bail} }`);
    let i = 0;
    for (let k = 0; k < seen.length; k++) {
      const child = children[k];
      if (child === undefined) continue;
      const name = JSON.stringify(seen[k]);
      const member = fresh();
      lines.push(`if (!Object.hasOwn(${v}, ${name})) ${bail}`);
      lines.push(`const ${member} = ${v}[${name}];`);
      if (i < names.length && names[i] === seen[k]) {
        // (Each check refuses a value the copy leaves out.)
        if (!check(member, child, values[i])) return false;
        i++;
      } else {
        // Left out of the copy it was noted from: left out again.
        lines.push(`if (!${leftOutTest(member)}) ${bail}`);
      }
    }
    return i === names.length;
  };
  if (!check("value", node, shape)) return undefined;
  lines.push("return true;");
  const written = functionFrom(["value", "texts", "c", "pushText", "idReference", "argumentsReference"], lines);
  return written === undefined ? undefined : (value, texts) => written(value, texts, constants, pushText, idReference, argumentsReference);
}

/**
 * A strict-mode function of `params` whose body is `lines`, or undefined
 * where functions are not made from source: in a browser (see
 * `makeNoFunctions`), or where the runtime refuses (node
 * --disallow-code-generation-from-strings, a worker without eval). The
 * package writes a few for the response and usage shapes it meets, and
 * does their work without them there.
 */
export function functionFrom(params, lines) {
  if (!functionsFromSource) return undefined;
  try {
    return new Function(...params, `"use strict";\n${lines.join("\n")}`);
  } catch {
    return undefined;
  }
}

/** Whether `functionFrom` tries to make functions from source at all. */
let functionsFromSource = true;

/**
 * Makes `functionFrom` give undefined without trying, for the browser
 * build: a page's Content Security Policy may refuse eval, and each
 * refused try is a policy violation the page sees (and, where the site
 * has a reporting endpoint, a report). A policy sent in a header cannot be
 * read from a script, so it is not asked; what the functions save is a
 * fraction of a microsecond a check.
 */
export function makeNoFunctions() {
  functionsFromSource = false;
}

/** An array item for `matchAlong`: one the copy leaves out is written as null. */
function matchItem(item, node, shape, plans, texts) {
  if (!node.simple) return sameCopy(copyAlong(item, node, plans, texts) ?? null, shape);
  if (leftOut(item)) return shape === null;
  return matchAlong(item, node, shape, plans, texts);
}

/** A value that neither the copy nor JSON.stringify writes as a member: undefined, a function, a symbol. */
function leftOut(value) {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}
