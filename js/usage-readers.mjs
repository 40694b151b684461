// A response's usage as a guarded call's ledger takes it: the usage plan's
// copy as JSON text, for the core to normalise, or, for a usage of a shape
// read before (an agent's calls to one provider differ only in their
// counts), the counts alone, with the core's program for that shape
// (crates/hot-path/src/usage/program.rs), which says what each count of the
// normalised usage sums. On Node, writing a small usage as JSON text,
// normalising it in the core and parsing the result took as long as
// checking the response.
import { jsonText, readCopy, readPlans } from "./arguments.mjs";
import { LIMITS } from "./generated/contract.mjs";
import { callRaw, instanceNumber, raw } from "./wasm-instance.mjs";
import { functionFrom } from "./functions-from-source.mjs";
import { membersAlone, primitive } from "./response-copy.mjs";

/** In a shape, the place of a count. */
const COUNT = Symbol("count");

/** An object of a shape: its members' names and shapes, in order. */
class ShapeMembers {
  constructor(names, values) {
    this.names = names;
    this.values = values;
  }
}

/**
 * The shapes read last, the latest first: { shape, program (a
 * RawUsageProgram, or null for a shape the core has none for), template
 * (the program's template, as `usageTemplate` makes it), born (the
 * instance's number) }.
 */
const shapes = [];
const SHAPES_HELD = 8;

/** As many counts as a program takes at most (`MOST_COUNTS` in the core). */
const MOST_COUNTS = LIMITS.usageCounts;

/**
 * `usageRead` of the usage plan's copy of `response`, for a response of a
 * usage shape held, without making the copy: the members the copy takes
 * (see `membersAlone`) are walked as `deepCopy` in js/response-copy.mjs would copy
 * them and compared with each held shape. Anything this walk does not vouch
 * for (another shape, a copy made another way, a shape without a program,
 * counts too large to sum here, a getter that throws) is read as ever.
 */
export function usageOfResponse(response) {
  const plans = readPlans();
  const members = membersAlone(response, plans.usage);
  // JSON.stringify would write what an inherited toJSON gives for every object of the copy.
  if (members !== undefined && typeof Object.prototype.toJSON !== "function") {
    for (let i = 0; i < shapes.length; i++) {
      const held = shapes[i];
      if (held.born !== instanceNumber || held.program === null) continue;
      const counts = [];
      let same;
      try {
        same = held.match?.(members, counts);
      } catch {
        // Read again below, which says whether the walk can be made at all.
      }
      try {
        same ??= membersMatch(members, held.shape, counts, plans.deep_limit);
      } catch {
        break;
      }
      if (!same) continue;
      if (!summable(counts)) break;
      return countedRead(i, counts);
    }
  }
  return usageRead(readCopy("the usage", response, "usage"));
}

/**
 * A function of `(members, counts)` that says what `membersMatch(members,
 * shape, counts, limit)` says when the response is exactly of the shape,
 * written for it: every object holds the shape's member names, in order,
 * and nothing else (so its members are read by their names), each count a
 * safe integer and each other value the shape's own. It then pushes the
 * counts and gives true; for anything else (a member the copy leaves out,
 * a value of another kind, an object met twice) it gives undefined, and
 * `membersMatch` walks the response as ever. On Bun, walking a chat
 * completion's usage took 0.25 us, about a tenth of a guarded call's
 * attempt. Undefined for a shape with an array, or an object at the depth
 * where the copy stops, which `membersMatch` walks, and where no function
 * can be made from source (see `functionFrom` in js/functions-from-source.mjs).
 */
function matcherOf(shape, limit) {
  if (!(shape instanceof ShapeMembers)) return undefined;
  const lines = [`if (members.length !== ${shape.names.length}) return undefined;`];
  const pushes = [];
  let names = 0;
  const fresh = (prefix) => `${prefix}${names++}`;
  // The checks of `value` (a variable) against `expected` at `depth`, the
  // objects met before it in this member's walk in `objects` (the copy
  // leaves out an object met again, anywhere in the walk); false when the
  // shape is one this function leaves to `membersMatch`.
  const check = (value, expected, depth, objects) => {
    if (expected === COUNT) {
      lines.push(`if (typeof ${value} !== "number" || !Number.isSafeInteger(${value})) return undefined;`);
      // JSON writes -0 as 0.
      pushes.push(`${value} === 0 ? 0 : ${value}`);
      return true;
    }
    if (expected === null || typeof expected === "string" || typeof expected === "boolean") {
      lines.push(`if (${value} !== ${JSON.stringify(expected)}) return undefined;`);
      return true;
    }
    if (!(expected instanceof ShapeMembers) || depth >= limit) return false;
    lines.push(`if (${value} === null || typeof ${value} !== "object" || Array.isArray(${value})) return undefined;`);
    for (const met of objects) lines.push(`if (${value} === ${met}) return undefined;`);
    objects.push(value);
    const keys = fresh("k");
    lines.push(`const ${keys} = Object.keys(${value});`);
    const sameNames = expected.names.map((name, j) => ` || ${keys}[${j}] !== ${JSON.stringify(name)}`).join("");
    lines.push(`if (${keys}.length !== ${expected.names.length}${sameNames}) return undefined;`);
    for (let j = 0; j < expected.names.length; j++) {
      const member = fresh("v");
      lines.push(`const ${member} = ${value}[${JSON.stringify(expected.names[j])}];`);
      if (!check(member, expected.values[j], depth + 1, objects)) return false;
    }
    return true;
  };
  for (let i = 0; i < shape.names.length; i++) {
    const member = fresh("v");
    lines.push(`if (members[${i}][0] !== ${JSON.stringify(shape.names[i])}) return undefined;`);
    lines.push(`const ${member} = members[${i}][1];`);
    if (!check(member, shape.values[i], 0, [])) return undefined;
  }
  // A usage of a great many members (a hostile response's) is walked by
  // `membersMatch`, not by a function as long as itself.
  if (lines.length > MOST_WRITTEN_LINES) return undefined;
  if (pushes.length > 0) lines.push(`counts.push(${pushes.join(", ")});`);
  lines.push("return true;");
  return functionFrom(["members", "counts"], lines);
}

/** The most lines `matcherOf` writes (a usage with token details takes about 40). */
const MOST_WRITTEN_LINES = 400;

/** Whether the copy of `members` (as `membersAlone` gives them) has `shape`, its counts pushed to `counts`. */
function membersMatch(members, shape, counts, limit) {
  if (!(shape instanceof ShapeMembers)) return false;
  const { names, values } = shape;
  let i = 0;
  for (const [name, member] of members) {
    if (leftOutOfCopy(member)) continue;
    if (i >= names.length || names[i] !== name || !deepMatches(member, values[i], counts, 0, limit, [])) return false;
    i++;
  }
  return i === names.length;
}

/** A value `deepCopy` gives undefined for, which the copy leaves out (or, in an array, writes as null). */
function leftOutOfCopy(value) {
  return (value === null || typeof value !== "object") && primitive(value) === undefined;
}

/**
 * Whether `deepCopy(value, depth, limit, seen)` would give a copy of
 * `shape` (see `matches`), without making it; false, too, for an object met
 * twice, which the copy leaves out: the caller then copies.
 */
function deepMatches(value, shape, counts, depth, limit, seen) {
  if (value === null || typeof value !== "object") {
    const copied = primitive(value);
    if (shape !== COUNT) return copied === shape;
    if (typeof copied !== "number" || !Number.isSafeInteger(copied)) return false;
    // JSON writes -0 as 0.
    counts.push(copied === 0 ? 0 : copied);
    return true;
  }
  if (depth >= limit) return shape === null;
  // A usage holds a handful of objects: a list is quicker to make and search than a Set.
  if (seen.includes(value)) return false;
  seen.push(value);
  if (Array.isArray(value)) {
    if (!Array.isArray(shape) || shape.length !== value.length) return false;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (leftOutOfCopy(item) ? shape[i] !== null : !deepMatches(item, shape[i], counts, depth + 1, limit, seen)) return false;
    }
    return true;
  }
  if (!(shape instanceof ShapeMembers)) return false;
  const { names, values } = shape;
  let i = 0;
  for (const name of Object.keys(value)) {
    const member = value[name];
    if (typeof member === "number") {
      // Most members are counts: matched here, without a call.
      if (i >= names.length || names[i] !== name) return false;
      const expected = values[i];
      if (expected === COUNT) {
        if (!Number.isSafeInteger(member)) return false;
        counts.push(member === 0 ? 0 : member);
      } else if (member !== expected) {
        return false;
      }
      i++;
      continue;
    }
    if (leftOutOfCopy(member)) continue;
    if (i >= names.length || names[i] !== name || !deepMatches(member, values[i], counts, depth + 1, limit, seen)) return false;
    i++;
  }
  return i === names.length;
}

/**
 * The usage of a response, from `copy` (what the usage plan reads of it):
 * `{ text }`, its JSON text (see `textRead`), or, for a shape with a program, the counted
 * read `countedRead` gives. A copy that cannot be written as JSON throws, as
 * `jsonText` does.
 */
export function usageRead(copy) {
  for (let i = 0; i < shapes.length; i++) {
    const held = shapes[i];
    const counts = [];
    if (held.born !== instanceNumber || !matches(copy, held.shape, counts)) continue;
    // Beyond the largest safe integer, a sum here could round where the core's does not.
    if (held.program === null || !summable(counts)) {
      if (i > 0) shapes.unshift(...shapes.splice(i, 1));
      return textRead(jsonText("the usage", copy));
    }
    return countedRead(i, counts);
  }
  const text = jsonText("the usage", copy);
  const shape = shapeOf(copy, { counts: 0 });
  // A shape not held (one held would have matched, unless its counts were too large to sum here).
  if (shape !== undefined && !shapes.some((held) => held.born === instanceNumber && sameShape(held.shape, shape))) {
    const program = callRaw(() => raw.usageProgram(text)) ?? null;
    const template = program === null ? undefined : usageTemplate(JSON.parse(callRaw(() => program.template())));
    if (shapes.length >= SHAPES_HELD) {
      const oldest = shapes.pop();
      if (oldest.program !== null && oldest.born === instanceNumber) oldest.program.free();
    }
    const match = program === null ? undefined : matcherOf(shape, readPlans().deep_limit);
    shapes.unshift({ shape, program, template, match, born: instanceNumber });
  }
  return textRead(text);
}

/**
 * A usage read as JSON text, as `usageRead` gives it. Its members, and a
 * counted read's, are all its own (undefined where they do not apply), so
 * that none is ever read from a polluted Object.prototype.
 */
export function textRead(text) {
  return { text, program: undefined, template: undefined, counts: undefined, shape: undefined };
}

/**
 * The read of held shape `i` with `counts` (the shape moved to the front,
 * as the likeliest next): `{ program, template, counts, shape }`.
 */
function countedRead(i, counts) {
  const held = shapes[i];
  if (i > 0) shapes.unshift(...shapes.splice(i, 1));
  return { text: undefined, program: held.program, template: held.template, counts, shape: held.shape };
}

/** The JSON text of a usage `usageRead` or `usageOfResponse` gave. */
export function usageText(usage) {
  return usage.text ?? jsonText("the usage", copyOfShape(usage.shape, usage.counts, { next: 0 }));
}

/** The copy a shape with these counts was read from. */
function copyOfShape(shape, counts, at) {
  if (shape === COUNT) return counts[at.next++];
  if (Array.isArray(shape)) return shape.map((item) => copyOfShape(item, counts, at));
  if (!(shape instanceof ShapeMembers)) return shape;
  const out = {};
  shape.names.forEach((name, i) => {
    out[name] = copyOfShape(shape.values[i], counts, at);
  });
  return out;
}

/** The normalised usage of a counted read: each count of the template summed from the read's counts. */
export function countedUsage({ template, counts }) {
  return template.build === undefined ? fill(template, counts) : template.build(counts);
}

/**
 * A program's template, parsed, made ready for `fill`: at each object, its
 * member names and steps in order (a step is the list of counts a member
 * sums, or the template of a nested object); at the top, `build`, the
 * template's own builder (see `builderOf`), where one can be made.
 */
export function usageTemplate(parsed, top = true) {
  const names = Object.keys(parsed);
  const steps = names.map((name) => {
    const step = parsed[name];
    return Array.isArray(step) ? step : usageTemplate(step, false);
  });
  const template = { names, steps, build: undefined };
  if (top) template.build = builderOf(template);
  return template;
}

/**
 * A function that builds what `fill(template, counts)` builds, as one
 * object literal: a guarded call builds the usage of every attempt it
 * accepts, and `fill`'s stores under names it reads from a list cost a
 * chat completion's usage 0.22 µs on Node 20 and 0.11 µs on Bun, the
 * literal under 0.01. The names are written as JSON strings and the
 * steps are whole numbers, so the source holds nothing but the
 * template's shape. Undefined where no function can be made from source
 * (see `functionFrom` in js/functions-from-source.mjs), or for a template
 * with a member named `__proto__`, which a literal would define where
 * `fill` sets the prototype: `fill` builds those.
 */
function builderOf(template) {
  const body = literalOf(template);
  return body === undefined ? undefined : functionFrom(["counts"], [`return ${body};`]);
}

/** The object literal `builderOf` writes for a template, or undefined. */
function literalOf({ names, steps }) {
  const members = [];
  for (let k = 0; k < names.length; k++) {
    const name = names[k];
    const step = steps[k];
    if (name === "__proto__") return undefined;
    let value;
    if (Array.isArray(step)) {
      if (step.length === 0 || !step.every((index) => Number.isSafeInteger(index) && index >= 0)) return undefined;
      value = step.map((index) => `counts[${index}]`).join(" + ");
    } else {
      value = literalOf(step);
      if (value === undefined) return undefined;
    }
    members.push(`${JSON.stringify(name)}: ${value}`);
  }
  return `{ ${members.join(", ")} }`;
}

/**
 * The usage a template's counts sum to, built member by member from an
 * empty object (where `builderOf` made no builder). Copying an object of
 * the template's members first and setting them costs the same on Node
 * for one usage shape; with three shapes in turn it took half as long
 * again there, and on Bun a third longer with one shape or several.
 */
export function fill({ names, steps }, counts) {
  const out = {};
  for (let k = 0; k < names.length; k++) {
    const step = steps[k];
    if (Array.isArray(step)) {
      let sum = counts[step[0]];
      for (let i = 1; i < step.length; i++) sum += counts[step[i]];
      out[names[k]] = sum;
    } else {
      out[names[k]] = fill(step, counts);
    }
  }
  return out;
}

function summable(counts) {
  let total = 0;
  for (const count of counts) total += Math.abs(count);
  return total <= Number.MAX_SAFE_INTEGER;
}

/** A value JSON.stringify leaves out of an object. */
const leftOut = (value) => value === undefined || typeof value === "function" || typeof value === "symbol";

/**
 * Whether the copy `value` has `shape`, its counts pushed to `counts` in
 * the order JSON.stringify writes them (the order of the text the core
 * made the program from).
 */
function matches(value, shape, counts) {
  if (shape === COUNT) {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) return false;
    // JSON writes -0 as 0.
    counts.push(value === 0 ? 0 : value);
    return true;
  }
  if (typeof value !== "object" || value === null) return value === shape;
  if (Array.isArray(value)) {
    if (!Array.isArray(shape) || shape.length !== value.length) return false;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (!matches(leftOut(item) ? null : item, shape[i], counts)) return false;
    }
    return true;
  }
  if (!(shape instanceof ShapeMembers) || typeof value.toJSON === "function") return false;
  const { names, values } = shape;
  let i = 0;
  // Own members, as JSON.stringify writes them: an enumerable member of
  // Object.prototype is no member of the copy.
  for (const name of Object.keys(value)) {
    const member = value[name];
    if (leftOut(member)) continue;
    if (i >= names.length || names[i] !== name || !matches(member, values[i], counts)) return false;
    i++;
  }
  return i === names.length;
}

/**
 * The shape of a copy: its counts replaced by `COUNT`, everything else as
 * it is; undefined when a number is not a safe integer, when there are
 * more counts than a program takes, or for anything but plain objects,
 * arrays and JSON's values (none of which the usage plan's copy holds).
 */
function shapeOf(value, seen) {
  switch (typeof value) {
    case "number":
      if (!Number.isSafeInteger(value) || ++seen.counts > MOST_COUNTS) return undefined;
      return COUNT;
    case "string":
    case "boolean":
      return value;
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    const items = [];
    for (const item of value) {
      const shape = shapeOf(leftOut(item) ? null : item, seen);
      if (shape === undefined) return undefined;
      items.push(shape);
    }
    return items;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || typeof value.toJSON === "function") return undefined;
  const names = [];
  const values = [];
  // Own members only, as `matches` reads them.
  for (const name of Object.keys(value)) {
    const member = value[name];
    if (leftOut(member)) continue;
    const shape = shapeOf(member, seen);
    if (shape === undefined) return undefined;
    names.push(name);
    values.push(shape);
  }
  return new ShapeMembers(names, values);
}

function sameShape(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameShape(item, b[i]));
  if (!(a instanceof ShapeMembers) || !(b instanceof ShapeMembers) || a.names.length !== b.names.length) return false;
  return a.names.every((name, i) => name === b.names[i] && sameShape(a.values[i], b.values[i]));
}
