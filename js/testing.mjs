// Hooks for the package's own tests, which reach below the public API. This
// file is built into pkg/ for them but left out of the published package
// (see `files` in pkg/package.json and tests/package/pack.test.mjs).
import { NotJsonValue, jsonText, matchesCopy, readCopy, readPlans, valueSnapshot } from "./arguments.mjs";
import { callRaw, encoder, markLoaded, memory, raw, rawGlue, traps } from "./wasm-instance.mjs";
import { membersAloneBy } from "./response-copy.mjs";
import { shapeOf } from "./copy-match.mjs";
import { cacheState, defaultCacheBound, handleForAnyValidator } from "./schemas.mjs";
import { declaredTools, declarationsWritten } from "./declarations.mjs";
import { BAIL, TEXT, VALUE, collectedIssues, errorHashOf, makeProgram, programOf, rejectionMessage, sha256Head, useCheckPrograms, withoutPrograms, writtenSource } from "./check-program.mjs";
import { checkOutput } from "./check.mjs";

/** What the lane reads of check options (see `laneOptions` in js/check.mjs). */
export { laneOptions } from "./check.mjs";
import { openSessionCount, toolPathsReadBy } from "./session.mjs";
import { streamBatch } from "./stream-check.mjs";
import { acceptedValue, streamValue } from "./stream-value.mjs";
import { fill, usageTemplate } from "./usage-readers.mjs";

export { cacheState, callRaw, declaredTools, declarationsWritten, defaultCacheBound, markLoaded, rawGlue, sha256Head, toolPathsReadBy, useCheckPrograms };

/** The usage plan's members of `value`, read as a guarded call reads them (see `membersAlone` in js/response-copy.mjs), written or by the general loop. */
export function usageMembersBy(value, written) {
  return membersAloneBy(value, readPlans().usage, written);
}

/**
 * The reader's copy of a response along the output plan, as its JSON text
 * and texts: what the core reads of it.
 */
export function outputCopy(response) {
  const texts = [];
  const text = jsonText("the output", readCopy("the output", response, "output", texts));
  return { text, texts };
}

/**
 * Whether the reader, walking `response` against the copy that `copyText`
 * is, finds them the same (see `matchAlong`), and the texts it pushed. One
 * shape is kept per copy text, as the read lane keeps its copies, so that
 * a walk after the first meets what the first remembered of the names
 * (see `Members` in js/copy-match.mjs).
 */
export function matchesOutputCopy(response, copyText) {
  const texts = [];
  let shape = copyShapes.get(copyText);
  if (shape === undefined) {
    shape = shapeOf(JSON.parse(copyText));
    copyShapes.set(copyText, shape);
  }
  return { same: matchesCopy(response, "output", shape, texts), texts };
}
const copyShapes = new Map();

/**
 * The usage a program's template (as parsed from the core's JSON) makes of
 * `counts`: `built` by the template's own builder (undefined when it has
 * none), `filled` by `fill`, which a template without one uses.
 */
export function usageBuilt(template, counts) {
  const ready = usageTemplate(template);
  return { built: ready.build?.(counts), filled: fill(ready, counts) };
}

/** How many times the instance trapped and was replaced. */
export function trapCount() {
  return traps;
}

/** How many guarded-call sessions are made and not yet freed. */
export function liveSessions() {
  return openSessionCount();
}

/** Sets a stream check's first batch (0 hands every piece over at once); returns the previous one. */
export function setStreamBatch(bytes) {
  const previous = streamBatch.bytes;
  streamBatch.bytes = bytes;
  return previous;
}

/**
 * Sets how many UTF-16 units a reading of a partial value crosses, at the
 * least, to have them checked as a batch (Infinity: never); returns the
 * previous number.
 */
export function setCheckedReading(units) {
  const previous = streamBatch.checkedReading;
  streamBatch.checkedReading = units;
  return previous;
}

/**
 * Sets when (`from` bytes of JSON) and in what parts (`part` bytes) an
 * accepted stream's value is read in parts (see js/stream-value.mjs);
 * returns the settings before.
 */
export function setStreamValue(settings) {
  const previous = { ...streamValue };
  Object.assign(streamValue, settings);
  return previous;
}

/**
 * `text` checked as one piece by a raw stream check without a schema (any
 * root accepted), its accepted value then read twice in parts of `part`
 * bytes, as the stream check's `end` reads it once: the second read sees
 * the text the first one left behind. Undefined when the text is not
 * accepted.
 */
export function acceptedValueTwice(text, part) {
  const handle = callRaw(() => raw.streamOpen(undefined, '{"requireObject":false}'));
  const previous = setStreamValue({ from: 0, part });
  try {
    handle.noteOutline();
    const bytes = encoder.encode(text);
    new Uint8Array(memory.buffer, handle.staging(bytes.length), bytes.length).set(bytes);
    handle.push(bytes.length, 0);
    if (!JSON.parse(handle.end(undefined, false)).ok) return undefined;
    return [acceptedValue(handle), acceptedValue(handle)];
  } finally {
    setStreamValue(previous);
    handle.free();
  }
}

/** Forgets the tool-call reader's copies and what the core answered for them (see `readCalls`). */
export { forgetCallsRead as forgetToolCallsRead } from "./tool-calls.mjs";

/**
 * The copy of `value` a Validator's value path reads it into before any
 * check (see `valueSnapshot`), along its program's reach once it has one:
 * the cost `~standard.validate` pays for reading a caller's value once (and
 * `isValid` and `validate` where the program cannot read it where it lies,
 * see `runInPlace`), which the cost table shows as the value path's floor.
 */
export function readOnceCopy(validator, value) {
  const program = programOf(handleForAnyValidator(validator));
  return valueSnapshot(value, program?.reach);
}

/**
 * A Validator's check program, run on `value` as the text path runs it (a
 * value JSON.parse made), or as the value path does when `asValue` (on the
 * copy `valueSnapshot` makes along the program's reach): true,
 * false, "bail" (the core must answer), or undefined when the schema has
 * no program. Written as JavaScript, interpreted when `interpret` is true,
 * or run as closures when it is `"closures"`; the program text is the core's.
 */
export function runCheckProgram(validator, value, interpret = false, asValue = false) {
  const program = programMadeFor(validator, interpret);
  if (program === undefined) return undefined;
  try {
    // The value path runs on the copy made along what the program reads.
    return asValue ? program.run(valueSnapshot(value, program.reach), VALUE) : program.run(value, TEXT);
  } catch (error) {
    // A value that is not JSON is refused before any program runs.
    if (error === BAIL || error instanceof NotJsonValue) return "bail";
    throw error;
  }
}
const programsMade = new WeakMap();

/** A Validator's program made with the executor `interpret` names, once per handle and executor; undefined when the schema has none. */
function programMadeFor(validator, interpret) {
  const handle = handleForAnyValidator(validator);
  const text = callRaw(() => handle.checkProgram());
  if (text === undefined) return undefined;
  const key = `${interpret}`;
  let byMode = programsMade.get(handle);
  if (byMode === undefined) programsMade.set(handle, (byMode = new Map()));
  let program = byMode.get(key);
  if (program === undefined) byMode.set(key, (program = makeProgram(handle, JSON.parse(text), interpret)));
  return program;
}

/**
 * A Validator's check program run on a caller's value where it lies, as
 * `isValid` and `validate` first run it (see `inPlacePlan` in
 * js/check-program.mjs), by the executor `runCheckProgram` names: true
 * (accepted in place), "copy" where the copy path answers (the value
 * rejected, not JSON, or a read that threw), "none" where the program
 * never reads a value in place, undefined when the schema has no program.
 */
export function runInPlace(validator, value, interpret = false) {
  const program = programMadeFor(validator, interpret);
  if (program === undefined) return undefined;
  if (!program.inPlace) return "none";
  try {
    return program.runInPlace(value) === true ? true : "copy";
  } catch {
    return "copy";
  }
}

/**
 * How many calls into wasm `fn` makes (of the module's exports and of the
 * Validator's handle), and what it returns: `[crossings, result]`.
 */
export function crossingsDuring(validator, fn) {
  const handle = handleForAnyValidator(validator);
  let crossings = 0;
  const restore = [];
  const spy = (target) => {
    for (const name of Object.getOwnPropertyNames(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      if (name === "constructor" || typeof descriptor.value !== "function" || !descriptor.writable) continue;
      const original = descriptor.value;
      target[name] = function (...args) {
        crossings += 1;
        return original.apply(this, args);
      };
      restore.push(() => {
        target[name] = original;
      });
    }
  };
  spy(raw);
  spy(Object.getPrototypeOf(handle));
  try {
    const result = fn();
    return [crossings, result];
  } finally {
    for (const undo of restore) undo();
  }
}

/**
 * What a Validator's check program collects of a value it rejects (see
 * `collector` in js/check-program.mjs), on what JSON.parse made of the
 * value's text, or on a whole snapshot of the value itself (`asValue`):
 * `{ errors, moreErrors, message, errorHash }` (the verdict's members as a
 * rejected checkOutput gives them), "accepted" where the program accepts
 * it, "bail" where the core must answer, undefined where the schema has no
 * program.
 */
export function collectCheckIssues(validator, value, asValue, maxErrors) {
  const program = programMadeFor(validator, false);
  if (program === undefined) return undefined;
  let input;
  try {
    input = asValue ? valueSnapshot(value) : JSON.parse(JSON.stringify(value));
    if (asValue ? program.runValue(input) : program.run(input, TEXT)) return "accepted";
  } catch (error) {
    if (error === BAIL || error instanceof NotJsonValue) return "bail";
    throw error;
  }
  const collected = collectedIssues(program, input, asValue ? VALUE : TEXT, maxErrors);
  if (collected === undefined) return "bail";
  const { errors, moreErrors, wording } = collected;
  return { errors, moreErrors, message: rejectionMessage(wording, errors, moreErrors), errorHash: errorHashOf("schema", errors) };
}

/** The core's own answer for a Validator and a value's JSON text, without any program. */
export function coreIsValid(validator, text) {
  const handle = handleForAnyValidator(validator);
  return callRaw(() => handle.isValid(text));
}

/** checkOutput's verdict with every check left to the core (no check program). */
export function coreCheckOutput(output, schema, options) {
  return withoutPrograms(() => checkOutput(output, schema, options));
}

/**
 * The JavaScript a Validator's check program is written as for the text
 * path (or the value path, when `asValue`), one function per node
 * (`function n0(v, d, z) { ... }`), or undefined when it has no program.
 */
export function writtenCheckSource(validator, asValue = false) {
  const text = checkProgramText(validator);
  return text === undefined ? undefined : writtenSource(JSON.parse(text), asValue ? VALUE : TEXT).lines.join("\n");
}

/** A Validator's check program, as the core writes it (JSON text), or undefined when it has none. */
export function checkProgramText(validator) {
  const handle = handleForAnyValidator(validator);
  return callRaw(() => handle.checkProgram());
}

/** Whether a Validator's checks use its check program once it has been checked often enough (see `programOf`). */
export function checksWithProgram(validator) {
  const handle = handleForAnyValidator(validator);
  let program = null;
  for (let i = 0; i < 4 && program === null; i++) program = programOf(handle);
  return program !== null;
}
