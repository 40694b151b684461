// The tools a request declares, read from its live declaration lists by
// property access, by the core's rules (`RULES` in
// src/providers/declarations.rs, handed over in `requestPlan()`): a list's
// schemas are never serialised, and a list rebuilt for every request from
// the same schema objects (as executors map their registry into each
// request) costs one walk over its names. What a list declares is kept by
// the list, and a call's tool is found again at once, as long as the list
// has the same length and the called declaration is still the one read.
// A list the rules cannot vouch for (a value JSON.stringify writes other
// than as it reads: a toJSON, a boxed primitive) is read by the core from
// its JSON, as is a single declaration or record given alone.
import { argumentError } from "./errors.mjs";
import { jsonText, serialisationProblem } from "./arguments.mjs";
import { callRaw, rawGlue } from "./instance.mjs";
import { requestPlan } from "./session.mjs";

/** Thrown inside the reader for a value it cannot vouch for; the caller then asks the core. */
const UNREAD = Symbol("a value JSON.stringify would not write as it reads");

/** The core's rules (see `DeclarationRules`), read once. */
let rules;
function rulesNow() {
  rules ??= requestPlan().declarationRules;
  return rules;
}

const enumerable = Object.prototype.propertyIsEnumerable;

/**
 * A list or object the reader descends into, checked to be written by
 * JSON.stringify as its own members (an object with a `toJSON`, or a boxed
 * string, number or boolean, is not).
 */
function container(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === Array.prototype || proto === null) {
    if (Object.hasOwn(value, "toJSON")) throw UNREAD;
    return;
  }
  if (typeof value.toJSON === "function" || value instanceof String || value instanceof Number || value instanceof Boolean) throw UNREAD;
}

/**
 * The member `key` of `value` as the core reads it in the JSON text of the
 * list (serde's `get`): undefined where JSON has none (not an object, no
 * own enumerable member, or a value JSON leaves out).
 */
function member(value, key) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  container(value);
  if (!enumerable.call(value, key)) return undefined;
  const found = value[key];
  return found === undefined || typeof found === "function" || typeof found === "symbol" ? undefined : found;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** A name as the core reads it: a string, any lone surrogate written as U+FFFD (as the JSON text the core reads has it). */
function nameOf(value) {
  if (typeof value !== "string") return undefined;
  return value.isWellFormed?.() === false ? value.toWellFormed() : value;
}

/**
 * One declaration (the core's `declaration`): `{ name, path }`, `path` the
 * keys from the declaration to its schema, or null for a tool that takes
 * no parameters; null for an item that declares nothing.
 */
function declarationOf(tool, r) {
  for (const [holder, schemaPath] of r.holders) {
    const inner = member(tool, holder);
    if (!isObject(inner)) continue;
    const name = nameOf(member(inner, r.name));
    if (name === undefined) return null;
    let node = inner;
    for (const key of schemaPath) {
      node = member(node, key);
      if (node === undefined) return { name, path: null };
    }
    return { name, path: [holder, ...schemaPath] };
  }
  const name = nameOf(member(tool, r.name));
  for (const key of r.schemaKeys) {
    const schema = member(tool, key);
    if (schema === undefined) continue;
    if (name === undefined) return null;
    return { name, path: wrapped(schema, r) ? [key, r.inner] : [key] };
  }
  if (name === undefined) return null;
  const described = member(tool, r.described) !== undefined || member(tool, r.kind[0]) === r.kind[1];
  return described ? { name, path: null } : null;
}

/** Whether a schema is the AI SDK's `jsonSchema()` wrapper (the core's `ai_sdk_inner`). */
function wrapped(schema, r) {
  const inner = member(schema, r.inner);
  return inner !== undefined && (isObject(inner) || typeof inner === "boolean");
}

/** The schema path of a record member no declaration rule reads (the core's `ai_sdk_schema`), or null. */
function recordSchema(tool, r) {
  for (const key of r.recordKeys) {
    const schema = member(tool, key);
    if (schema !== undefined) return wrapped(schema, r) ? [key, r.inner] : [key];
  }
  return null;
}

/** A record member's declaration (the core's `collect` over a record), named by its key; undefined if none. */
function recordDeclaration(record, key, r) {
  const tool = member(record, key);
  if (tool === undefined) return undefined;
  const declared = declarationOf(tool, r);
  if (declared !== null) return { path: declared.path === null ? null : [key, ...declared.path] };
  const path = recordSchema(tool, r);
  return path === null ? undefined : { path: [key, ...path] };
}

/**
 * What a list (an array) declares, the first declaration of a name kept:
 * `{ length, byName }`, each `{ path, index, item, group, groupLength,
 * slot, fn }` (`path` from the list to the schema, or null; `item` the
 * list's entry, and for a declaration in a group, the group's list, its
 * length, the declaration's place in it and the declaration), to find it
 * again and to tell that it is unchanged.
 */
function readArray(list, r) {
  container(list);
  const byName = new Map();
  const length = list.length;
  for (let index = 0; index < length; index++) {
    const item = list[index];
    const group = member(item, r.group);
    if (Array.isArray(group)) {
      container(group);
      const groupLength = group.length;
      for (let j = 0; j < groupLength; j++) {
        const fn = group[j];
        const declared = declarationOf(fn, r);
        if (declared === null || byName.has(declared.name)) continue;
        byName.set(declared.name, { path: declared.path === null ? null : [index, r.group, j, ...declared.path], index, item, group, groupLength, slot: j, fn });
      }
      continue;
    }
    const declared = declarationOf(item, r);
    if (declared === null || byName.has(declared.name)) continue;
    byName.set(declared.name, { path: declared.path === null ? null : [index, ...declared.path], index, item, group: undefined, groupLength: 0, slot: 0, fn: undefined });
  }
  return { length, byName };
}

/** Whether a declaration found in `list` before is where and what it was. */
function unchanged(list, reading, found) {
  if (list.length !== reading.length || list[found.index] !== found.item) return false;
  const { group } = found;
  return group === undefined || (found.item[rulesNow().group] === group && group.length === found.groupLength && group[found.slot] === found.fn);
}

/** What each array read was found to declare (see `readArray`). */
const readings = new WeakMap();

/**
 * The declaration of `name` in `list` (an array or a record at one of the
 * request's declaration paths, or an array given alone): `{ path }`, path
 * null for a tool that takes any object; undefined when the list does not
 * declare it; UNREAD thrown for a list the rules cannot vouch for.
 */
function findIn(list, name) {
  const r = rulesNow();
  if (!Array.isArray(list)) return recordDeclaration(list, name, r);
  let reading = readings.get(list);
  if (reading !== undefined) {
    const found = reading.byName.get(name);
    if (found !== undefined && unchanged(list, reading, found)) return found;
  }
  // Read (again): the list is new, or changed, or this name is not one it
  // declared when read (a declaration may have been put in since).
  reading = readArray(list, r);
  readings.set(list, reading);
  return reading.byName.get(name);
}

/**
 * The tools of `tools` (a request, a list or record of declarations, or one
 * declaration) as checkToolCalls looks them up: `find(name)` gives `{
 * schema }`, the live schema object (or `undefined` for a tool that takes
 * any object), or undefined for a name not declared; `all()` every
 * declared tool by name, `Map(name → { schema })`.
 */
export function declaredTools(tools) {
  const lists = Array.isArray(tools) ? [tools] : declarationLists(tools);
  if (lists.length === 0) return coreDeclared(tools, "declaredTools");
  return new Declared(lists);
}

class Declared {
  constructor(lists) {
    this.lists = lists;
    /** By list, the core's reading of one the rules could not read (see `coreDeclared`). */
    this.byCore = undefined;
  }

  find(name) {
    const { lists } = this;
    for (let i = 0; i < lists.length; i++) {
      const found = this.findAt(i, name);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The declaration of `name` in the i-th list, as `find` gives it. */
  findAt(i, name) {
    const list = this.lists[i];
    const core = this.byCore?.[i];
    if (core !== undefined) return core.find(name);
    let found;
    try {
      found = findIn(list, name);
    } catch (error) {
      if (error !== UNREAD) throw argumentError(`the tools could not be read: ${serialisationProblem(error)}`);
      (this.byCore ??= [])[i] = coreDeclared(list, "declaredToolsIn");
      return this.byCore[i].find(name);
    }
    return found === undefined ? undefined : { schema: found.path === null ? undefined : schemaAt(list, found.path) };
  }

  all() {
    const byName = new Map();
    const r = rulesNow();
    for (let i = 0; i < this.lists.length; i++) {
      const list = this.lists[i];
      let names;
      try {
        names = this.byCore?.[i] !== undefined ? undefined : Array.isArray(list) ? [...readArray(list, r).byName.keys()] : Object.keys(list);
      } catch (error) {
        if (error !== UNREAD) throw argumentError(`the tools could not be read: ${serialisationProblem(error)}`);
        (this.byCore ??= [])[i] = coreDeclared(list, "declaredToolsIn");
      }
      if (names === undefined) {
        for (const [name, tool] of this.byCore[i].all()) if (!byName.has(name)) byName.set(name, tool);
        continue;
      }
      for (const name of names) {
        if (byName.has(name)) continue;
        const found = this.findAt(i, name);
        if (found !== undefined) byName.set(name, found);
      }
    }
    return byName;
  }
}

/** The value at `path` (keys) from `root`, read as a call reads its tool's schema: live, every time. */
function schemaAt(root, path) {
  let node = root;
  for (let k = 0; k < path.length && node !== undefined && node !== null; k++) node = node[path[k]];
  return node;
}

/** The lists and records of declarations a request holds at the core's declaration paths. */
function declarationLists(request) {
  const lists = [];
  for (const path of requestPlan().declarations) {
    let node = request;
    try {
      for (const key of path) node = node === null || typeof node !== "object" ? undefined : node[key];
    } catch (error) {
      throw argumentError(`the tools could not be read: ${serialisationProblem(error)}`);
    }
    if (node !== null && typeof node === "object") lists.push(node);
  }
  return lists;
}

// ---- The core's reading, for what the rules cannot vouch for ----

/**
 * What the core read of a list (or record, or request) of declarations
 * before, by the object: its entries then, to see that it is unchanged,
 * and the tools it declared. A declaration added, removed or replaced makes
 * the list read again.
 */
const coreReadings = new WeakMap();

/** The core's reading of `list` (`reader`: `declaredTools` for a request or a declaration given alone, `declaredToolsIn` for a list), as `find` and `all`. */
function coreDeclared(list, reader) {
  const entries = entriesOf(list);
  let known = coreReadings.get(list);
  if (known === undefined || known.reader !== reader || !sameEntries(known.entries, entries)) {
    const byName = new Map();
    for (const { name, schemaPointer } of declarationsByCore(list, reader)) if (!byName.has(name)) byName.set(name, schemaPointer);
    known = { reader, entries, byName };
    coreReadings.set(list, known);
  }
  const { byName } = known;
  return {
    find: (name) => (byName.has(name) ? { schema: pointerIn(list, byName.get(name)) } : undefined),
    all: () => new Map([...byName].map(([name, pointer]) => [name, { schema: pointerIn(list, pointer) }])),
  };
}

/** What the core's `reader` declares in `list`. */
function declarationsByCore(list, reader) {
  const text = jsonText("the tools", list);
  return JSON.parse(callRaw(() => rawGlue()[reader](text)));
}

/** A list's items, or an object's member names and values, in order, read as JSON.stringify reads them. */
function entriesOf(list) {
  try {
    if (Array.isArray(list)) return list.slice();
    const entries = [];
    for (const name of Object.keys(list)) entries.push(name, list[name]);
    return entries;
  } catch (error) {
    throw argumentError(`the tools could not be read: ${serialisationProblem(error)}`);
  }
}

function sameEntries(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The value at a JSON Pointer the core gave into the live declarations (undefined: a tool that takes any object). */
function pointerIn(root, pointer) {
  if (pointer === null) return undefined;
  let node = root;
  for (let start = 1; start <= pointer.length; ) {
    let end = pointer.indexOf("/", start);
    if (end < 0) end = pointer.length;
    let key = pointer.slice(start, end);
    if (key.includes("~")) key = key.replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(key)] : node?.[key];
    start = end + 1;
  }
  return node;
}
