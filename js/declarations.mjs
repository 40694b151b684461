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
import { boundedJsonText, serialisationProblem } from "./arguments.mjs";
import { callRaw, rawGlue } from "./wasm-instance.mjs";
import { functionFrom } from "./functions-from-source.mjs";
import { memberOf } from "./member-access.mjs";
import { requestPlan } from "./session.mjs";

/** Thrown inside the reader for a value it cannot vouch for; the caller then asks the core. */
const UNREAD = Symbol("a value JSON.stringify would not write as it reads");

/**
 * The core's rules (see `DeclarationRules`), read once, with the paths to
 * a schema each rule gives made once: `holders` as `[holder, path from the
 * holder, path from the declaration]`, `schemaPaths` and `wrappedPaths`
 * by schema member.
 */
let rules;
function rulesNow() {
  if (rules === undefined) {
    const written = requestPlan().declarationRules;
    const paths = (keys) => Object.fromEntries(keys.map((key) => [key, Object.freeze([key])]));
    const wrappedPaths = (keys) => Object.fromEntries(keys.map((key) => [key, Object.freeze([key, written.inner])]));
    const keys = [...new Set([...written.schemaKeys, ...written.recordKeys])];
    rules = {
      ...written,
      holders: written.holders.map(([holder, path]) => [holder, path, Object.freeze([holder, ...path])]),
      schemaPaths: paths(keys),
      wrappedPaths: wrappedPaths(keys),
      /** `declarationOf` and `nameOf` written for these rules (see `writeDeclarationOf`), or null. */
      written: undefined,
      writtenName: undefined,
    };
    rules.written = writeDeclarationOf(rules);
    rules.writtenName = writeNameOf(rules);
  }
  return rules;
}

const enumerable = Object.prototype.propertyIsEnumerable;

/**
 * A list or object the reader descends into, checked to be written by
 * JSON.stringify as its own members (one with a `toJSON`, or a boxed
 * string, number or boolean, is not).
 */
function container(value) {
  if (typeof value.toJSON === "function") throw UNREAD;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null && (value instanceof String || value instanceof Number || value instanceof Boolean)) throw UNREAD;
}

/**
 * The member `key` of `value` (an object already checked, see `container`)
 * as the core reads it in the JSON text of the list (serde's `get`):
 * undefined where JSON has none (not an object, no own enumerable member,
 * or a value JSON leaves out); an object found is checked in turn. Read
 * first and confirmed own only when present: most keys a rule asks for are
 * absent.
 */
function member(value, key) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const found = value[key];
  if (found === undefined || typeof found === "function" || typeof found === "symbol" || !enumerable.call(value, key)) return undefined;
  if (typeof found === "object" && found !== null) container(found);
  return found;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** A name as the core reads it: a string, any lone surrogate written as U+FFFD (as the JSON text the core reads has it). */
function wellFormedName(value) {
  if (typeof value !== "string") return undefined;
  return value.isWellFormed?.() === false ? value.toWellFormed() : value;
}

/**
 * One declaration (the core's `declaration`): `{ name, path }`, `path` the
 * keys from the declaration to its schema, or null for a tool that takes
 * no parameters; null for an item that declares nothing. By the function
 * written for the rules where there is one, else by `readDeclaration`.
 */
function declarationOf(tool, r) {
  const written = useWritten ? r.written : null;
  return written === null ? readDeclaration(tool, r) : written(tool);
}

/** Whether `declarationOf` uses the function written for the rules (the tests compare both ways). */
let useWritten = true;

/** Makes `declarationOf` use the written function, or not; gives what it did before. */
export function declarationsWritten(use) {
  const before = useWritten;
  useWritten = use;
  return before;
}

/**
 * `readDeclaration` written out for the rules `r`, its member names in the
 * source: a list rebuilt for every request is read item by item, and each
 * read by a name that varies cost about as much as the rest of an item's
 * reading. Reads exactly what `readDeclaration` reads, in the same order;
 * null where no function can be made from source.
 */
function writeDeclarationOf(r) {
  const constants = [];
  const constant = (value) => `c[${constants.push(value) - 1}]`;
  const read = memberRead;
  const object = (v) => `(${v} !== null && typeof ${v} === "object" && !Array.isArray(${v}))`;
  const lines = [
    'if (tool === null || typeof tool !== "object") return null;',
    "let inner, name, node, next, schema, proto;",
    checkSource("tool"),
    "if (Array.isArray(tool)) return null;",
  ];
  for (const [holder, schemaPath, path] of r.holders) {
    lines.push(...read("inner", "tool", holder), `if (${object("inner")}) {`);
    lines.push(...read("name", "inner", r.name), 'if (typeof name !== "string") return null;', "if (name.isWellFormed?.() === false) name = name.toWellFormed();", "node = inner;");
    for (const key of schemaPath) lines.push(`if (!${object("node")}) return { name, path: null };`, ...read("next", "node", key), "if (next === undefined) return { name, path: null };", "node = next;");
    lines.push(`return { name, path: ${constant(path)} };`, "}");
  }
  lines.push(...read("name", "tool", r.name), 'if (typeof name !== "string") name = undefined;', "else if (name.isWellFormed?.() === false) name = name.toWellFormed();");
  for (const key of r.schemaKeys) {
    lines.push(...read("schema", "tool", key), "if (schema !== undefined) {", "if (name === undefined) return null;");
    lines.push(`if (${object("schema")}) {`, ...read("node", "schema", r.inner), `if (node !== undefined && (${object("node")} || typeof node === "boolean")) return { name, path: ${constant(r.wrappedPaths[key])} };`, "}");
    lines.push(`return { name, path: ${constant(r.schemaPaths[key])} };`, "}");
  }
  lines.push("if (name === undefined) return null;", ...read("node", "tool", r.described), "if (node !== undefined) return { name, path: null };");
  lines.push(...read("node", "tool", r.kind[0]), `return node === ${JSON.stringify(r.kind[1])} ? { name, path: null } : null;`);
  const written = functionFrom(["tool", "c", "enumerable", "UNREAD", "OBJECT", "ARRAY"], lines);
  return written === undefined ? null : (tool) => written(tool, constants, enumerable, UNREAD, Object.prototype, Array.prototype);
}

/** `declarationOf` by the general loop over the rules. */
function readDeclaration(tool, r) {
  if (tool === null || typeof tool !== "object") return null;
  container(tool);
  if (Array.isArray(tool)) return null;
  for (const [holder, schemaPath, path] of r.holders) {
    const inner = member(tool, holder);
    if (!isObject(inner)) continue;
    const name = wellFormedName(member(inner, r.name));
    if (name === undefined) return null;
    let node = inner;
    for (const key of schemaPath) {
      node = member(node, key);
      if (node === undefined) return { name, path: null };
    }
    return { name, path };
  }
  const name = wellFormedName(member(tool, r.name));
  for (const key of r.schemaKeys) {
    const schema = member(tool, key);
    if (schema === undefined) continue;
    if (name === undefined) return null;
    return { name, path: wrapped(schema, r) ? r.wrappedPaths[key] : r.schemaPaths[key] };
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
    if (schema !== undefined) return wrapped(schema, r) ? r.wrappedPaths[key] : r.schemaPaths[key];
  }
  return null;
}

/** A record member's declaration (the core's `collect` over a record), named by its key; undefined if none. */
function recordDeclaration(record, key, r) {
  const tool = member(record, key);
  if (tool === undefined) return undefined;
  const declared = declarationOf(tool, r);
  if (declared !== null) return { from: tool, path: declared.path };
  const path = recordSchema(tool, r);
  return path === null ? undefined : { from: tool, path };
}

/**
 * What has been read of a list (an array): its length then; the first name
 * looked up and where its declaration is (undefined where it has none),
 * the list read up to it; and once another name is looked up, every
 * name's first declaration (`byName`, the list read to its end), each at
 * the index of its item (a number) or, for a declaration in a group, at `{
 * index, slot }`. A list rebuilt for one request, whose one call is
 * looked up once, is read only up to that call's tool.
 */
class Reading {
  constructor(length) {
    this.length = length;
    this.firstName = undefined;
    this.firstAt = undefined;
    this.byName = undefined;
  }
}

/** What has been read of each array (see `Reading`). */
const readings = new WeakMap();

/** Where the first declaration of `name` in the list is (as `Reading` keeps it), the list read up to it; undefined where it has none. */
function scanFor(list, name, r) {
  const length = list.length;
  for (let index = 0; index < length; index++) {
    const item = list[index];
    const declared = nameOf(item, r, true);
    if (declared === name) return index;
    if (declared !== GROUP) continue;
    const group = member(item, r.group);
    for (let slot = 0; slot < group.length; slot++) if (nameOf(group[slot], r, false) === name) return { index, slot };
  }
  return undefined;
}

/** Every name's first declaration in the list (see `Reading`), the list read to its end. */
function readAll(list, r) {
  const byName = new Map();
  const length = list.length;
  for (let index = 0; index < length; index++) {
    const item = list[index];
    const declared = nameOf(item, r, true);
    if (declared === GROUP) {
      const group = member(item, r.group);
      for (let slot = 0; slot < group.length; slot++) {
        const inGroup = nameOf(group[slot], r, false);
        if (inGroup !== undefined && !byName.has(inGroup)) byName.set(inGroup, { index, slot });
      }
    } else if (declared !== undefined && !byName.has(declared)) {
      byName.set(declared, index);
    }
  }
  return byName;
}

/** What `nameOf` gives for a list item that holds a group of declarations. */
const GROUP = Symbol("a group of declarations");

/**
 * The name `item` declares, as `declarationOf` reads it (undefined for an
 * item that declares nothing), without reading its schema: a list is read
 * this far for every item, and fully only at a call's tool; `GROUP` for a
 * list item (`asItem`) that holds a group of declarations. By the function
 * written for the rules where there is one.
 */
function nameOf(item, r, asItem) {
  const written = useWritten ? r.writtenName : null;
  if (written !== null) return written(item, asItem);
  if (item === null || typeof item !== "object") return undefined;
  container(item);
  if (asItem && Array.isArray(member(item, r.group))) return GROUP;
  const declared = readDeclaration(item, r);
  return declared === null ? undefined : declared.name;
}

/**
 * `nameOf` written out for the rules `r` (see `writeDeclarationOf`): the
 * reads `readDeclaration` makes up to the name, and whether the item
 * declares a tool, but none inside its schema; null where no function can
 * be made from source.
 */
function writeNameOf(r) {
  const object = (v) => `(${v} !== null && typeof ${v} === "object" && !Array.isArray(${v}))`;
  const lines = [
    'if (item === null || typeof item !== "object") return undefined;',
    "let inner, name, node, proto;",
    checkSource("item"),
    "if (Array.isArray(item)) return undefined;",
    ...memberRead("node", "item", r.group),
    "if (asItem && Array.isArray(node)) return GROUP;",
  ];
  for (const [holder] of r.holders) {
    lines.push(...memberRead("inner", "item", holder), `if (${object("inner")}) {`, ...memberRead("name", "inner", r.name));
    lines.push('if (typeof name !== "string") return undefined;', "return name.isWellFormed?.() === false ? name.toWellFormed() : name;", "}");
  }
  lines.push(...memberRead("name", "item", r.name), 'if (typeof name !== "string") name = undefined;', "else if (name.isWellFormed?.() === false) name = name.toWellFormed();");
  for (const key of r.schemaKeys) lines.push(...memberRead("node", "item", key), "if (node !== undefined) return name;");
  lines.push("if (name === undefined) return undefined;", ...memberRead("node", "item", r.described), "if (node !== undefined) return name;");
  lines.push(...memberRead("node", "item", r.kind[0]), `return node === ${JSON.stringify(r.kind[1])} ? name : undefined;`);
  const written = functionFrom(["item", "asItem", "GROUP", "enumerable", "UNREAD", "OBJECT", "ARRAY"], lines);
  return written === undefined ? null : (item, asItem) => written(item, asItem, GROUP, enumerable, UNREAD, Object.prototype, Array.prototype);
}

/**
 * Source that sets `target` to member `key` of `from` (an object, not an
 * array) as `member` reads it, `container`'s check written out (each read
 * then meets the few shapes one list's items have).
 */
function memberRead(target, from, key) {
  const k = JSON.stringify(key);
  return [
    `${target} = ${from}[${k}];`,
    `if (${target} === undefined || typeof ${target} === "function" || typeof ${target} === "symbol" || !enumerable.call(${from}, ${k})) ${target} = undefined;`,
    `else if (typeof ${target} === "object" && ${target} !== null) { ${checkSource(target)} }`,
  ];
}

/** `container(v)` written out, for the functions written from the rules. */
function checkSource(v) {
  return `if (typeof ${v}.toJSON === "function") throw UNREAD; proto = Object.getPrototypeOf(${v}); if (proto !== OBJECT && proto !== ARRAY && proto !== null && (${v} instanceof String || ${v} instanceof Number || ${v} instanceof Boolean)) throw UNREAD;`;
}

/**
 * The declaration of `name` at `at` (see `Reading`) in `list` as it is
 * now: `{ from, path }`, the declaration and the path from it to its
 * schema (null for a tool that takes any object); undefined when that item
 * no longer declares `name` there.
 */
function declarationAt(list, at, name, r) {
  let declaration = list[typeof at === "number" ? at : at.index];
  if (declaration !== null && typeof declaration === "object") container(declaration);
  if (typeof at !== "number") {
    const group = member(declaration, r.group);
    if (!Array.isArray(group)) return undefined;
    declaration = group[at.slot];
  } else if (Array.isArray(member(declaration, r.group))) {
    return undefined;
  }
  const declared = declarationOf(declaration, r);
  return declared !== null && declared.name === name ? { from: declaration, path: declared.path } : undefined;
}

/**
 * The declaration of `name` in `list` (an array or a record at one of the
 * request's declaration paths, or an array given alone): `{ from, path }`,
 * the declaration and the path from it to its schema (null for a tool
 * that takes any object); undefined when the list does not declare it;
 * UNREAD thrown for a list the rules cannot vouch for.
 *
 * A list read before is not read again while it has the same length and
 * the item where the name was found still declares it: a declaration
 * added or removed changes the length, one replaced by another of another
 * name is found so, and a name not found reads the list again from the
 * start (a declaration may have been put in since). A list that declares a
 * name twice, which providers refuse, and whose earlier declaration of it
 * is put in by replacing another in place, may be read as it was.
 */
function findIn(list, name) {
  const r = rulesNow();
  if (!Array.isArray(list)) {
    container(list);
    return recordDeclaration(list, name, r);
  }
  let reading = readings.get(list);
  if (reading !== undefined && reading.length === list.length) {
    let at;
    if (reading.byName !== undefined) at = reading.byName.get(name);
    else if (reading.firstName === name) at = reading.firstAt;
    else at = (reading.byName = readAll(list, r)).get(name);
    if (at !== undefined) {
      const found = declarationAt(list, at, name, r);
      if (found !== undefined) return found;
    }
  }
  // Read from the start: the list is new, or changed, or this name was not
  // among those it declared when read.
  container(list);
  reading = new Reading(list.length);
  reading.firstName = name;
  reading.firstAt = scanFor(list, name, r);
  readings.set(list, reading);
  return reading.firstAt === undefined ? undefined : declarationAt(list, reading.firstAt, name, r);
}

/** Every name `list` declares, in order, the first declaration of each. */
function namesIn(list, r) {
  container(list);
  const reading = new Reading(list.length);
  reading.byName = readAll(list, r);
  readings.set(list, reading);
  return [...reading.byName.keys()];
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
    return found === undefined ? undefined : { schema: found.path === null ? undefined : schemaAt(found.from, found.path) };
  }

  all() {
    const byName = new Map();
    const r = rulesNow();
    for (let i = 0; i < this.lists.length; i++) {
      const list = this.lists[i];
      let names;
      try {
        names = this.byCore?.[i] !== undefined ? undefined : Array.isArray(list) ? namesIn(list, r) : Object.keys(list);
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

/** The value at `path` (keys) from a declaration, read as a call reads its tool's schema: live, every time. */
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
      for (const key of path) node = node === null || typeof node !== "object" ? undefined : memberOf(node, key);
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
  const text = boundedJsonText("the tools", list);
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
