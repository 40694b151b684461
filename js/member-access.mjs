// How the package reads a member of a caller's object (a response, a
// request, a usage, a tool declaration): an own member, or one a class gives
// its instances (a getter on a prototype), never one that only
// Object.prototype or Array.prototype holds.

/**
 * A member's value as `memberOf` reads it; undefined when reading it
 * throws: a getter that refuses (the AI SDK's `output` when no output was
 * asked for) has nothing to give.
 */
export function readMember(value, name) {
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
