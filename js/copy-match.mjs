// Whether a live response would make the same copy as the one the core
// read last (its JSON text parsed back into a shape), found without making
// the copy: the walk along the plan that stops at the first difference, and
// the same walk written as a function for a shape met again.
import { TEXT_REFERENCE, argumentsReference, bigintValue, copyAlong, copyMembers, idReference, pushText } from "./response-copy.mjs";
import { functionFrom } from "./functions-from-source.mjs";

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
 * `PlanNode.simple` in
 * js/response-copy.mjs) and objects that are not plain are copied and
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
