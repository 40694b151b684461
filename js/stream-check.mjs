// createStreamCheck: a response checked as it streams in, by the core's
// incremental check (src/stream.rs), crossed once per batch of pieces.
import { argumentKind, optionsText } from "./arguments.mjs";
import { shapeVerdict } from "./check.mjs";
import { SchemaError, argumentError } from "./errors.mjs";
import { callRaw, encoder, ensureLoaded, memory, raw, translate, traps } from "./instance.mjs";
import { compileKey, entryFor, handleForAnyValidator, isValidatorArgument, readableSchemaText, recordOf } from "./schemas.mjs";

// ---- streamed responses (src/stream.rs) ----

const PENDING = Object.freeze({ status: "pending" });

/** The rejected state from the core's JSON text, frozen: push returns it again and again. */
function rejectedState(json) {
  const state = JSON.parse(json);
  for (const issue of state.errors) Object.freeze(issue);
  Object.freeze(state.errors);
  return Object.freeze(state);
}

/**
 * A raw stream check for `schema` and `options`, the schema found as
 * checkOutput finds it (so a stream and checkOutput share compiled
 * validators, and degrade or throw alike for a schema that cannot compile).
 */
function openStream(schema, options, opts) {
  if (schema === undefined || schema === null) return raw.streamOpen(undefined, opts);
  if (isValidatorArgument(schema)) {
    return raw.streamOpenWith(handleForAnyValidator(schema), opts);
  }
  const record = recordOf(schema);
  if (record === undefined) return raw.streamOpen(readableSchemaText(schema, options), opts);
  if (record.problem !== undefined) {
    if (options?.onInvalidSchema === "throw") throw new SchemaError(record.problem);
    return raw.streamOpen("", opts);
  }
  const key = compileKey(options);
  const entry = key === undefined ? undefined : entryFor(record, key);
  if (entry === undefined) return raw.streamOpen(record.text, opts);
  if (entry.handle !== undefined) return raw.streamOpenWith(entry.handle, opts);
  try {
    return raw.streamOpen("", opts);
  } catch (error) {
    if (error?.code === "invalid_schema") throw new SchemaError(entry.error);
    throw error;
  }
}

/**
 * Pieces are gathered before they cross into the core: a crossing costs
 * about as much as reading 64 bytes, and model streams send a few
 * characters at a time. The batch is `bytes` bytes (a test may change it),
 * and grows with the text to a sixteenth of what was pushed, up to 16
 * times that: a
 * rejection comes at most that many bytes late, a small share of what the
 * stream already cost, while a long response crosses a few hundred times
 * instead of once every 64 bytes.
 */
export const streamBatch = { bytes: 64 };

/**
 * Pieces of at most this many characters are gathered here (see
 * StreamCheck); a longer one is encoded with `encodeInto`, which costs more
 * to call and less per character than copying them one by one.
 */
const GATHER_PIECE = 16;
/** The most a batch holds is 16 * streamBatch.bytes bytes (see batchAfter) and one piece more. */
const GATHER_BYTES = 2048;

/** The batch for a check that has been pushed `bytes` so far. */
function batchAfter(bytes) {
  return Math.min(16 * streamBatch.bytes, Math.max(streamBatch.bytes, bytes / 16));
}

/**
 * A response checked as it streams in (see createStreamCheck). Pieces are
 * encoded into the check's own staging buffer in wasm memory and handed
 * over once a batch (see `batchAfter`) is waiting (at once for a longer
 * piece); the core keeps the text, and `end` reads the accepted JSON back
 * from it. Short ASCII pieces are first gathered in a JS buffer, and moved into the staging buffer as the batch crosses: a
 * view of wasm memory must be checked on every write (the memory may have
 * grown, detaching it, in any call), and that check costs more than the
 * write of a character.
 */
export class StreamCheck {
  #handle;
  /** The instance the handle belongs to (the count of traps when it was made). */
  #generation;
  /** The view of the staging buffer, and the bytes waiting in it. */
  #view = null;
  #staged = 0;
  /** Bytes waiting after those, gathered here (see the class). */
  #gathered = new Uint8Array(GATHER_BYTES);
  #pending = 0;
  /**
   * Bytes the gathered ones may come to: none while a surrogate is held or
   * once the check has ended, which take the long way (so the short one
   * tests only this).
   */
  #room = GATHER_BYTES;
  /** A high surrogate that ended the last piece, waiting for its other half. */
  #held = "";
  #bytes = 0;
  /** Bytes waiting (staged and pending) that make a batch, as of the last crossing. */
  #due = batchAfter(0);
  #state = PENDING;
  #ended = false;

  constructor(open) {
    this.#handle = callRaw(open);
    this.#generation = traps;
  }

  /** UTF-8 bytes pushed so far. */
  get bytes() {
    return this.#bytes;
  }

  push(chunk) {
    if (typeof chunk !== "string") throw argumentError(`push takes a string, not ${argumentKind(chunk)}`);
    // The common piece, a few ASCII characters: gathered here, as pushes of
    // a character or two come by the hundred thousand. Unless the instance
    // trapped since the check began, it is the check's and it is loaded.
    const n = chunk.length;
    const at = this.#pending;
    if (n <= GATHER_PIECE && n > 0 && at + n <= this.#room && this.#generation === traps) {
      const gathered = this.#gathered;
      let i = 0;
      while (i < n) {
        const unit = chunk.charCodeAt(i);
        if (unit >= 0x80) break;
        gathered[at + i] = unit;
        i++;
      }
      if (i === n) {
        this.#pending = at + n;
        this.#bytes += n;
        if (this.#staged + at + n >= this.#due) this.#forward();
        return this.#state;
      }
    }
    if (this.#ended) throw argumentError("push after end() or free(): this stream check has ended");
    if (this.#generation !== traps) this.#live();
    if (this.#held !== "") {
      chunk = this.#held + chunk;
      this.#held = "";
      this.#room = GATHER_BYTES;
    }
    // A character outside the BMP cut in two: its halves go to the core
    // together, as UTF-8 can only carry it whole.
    const last = chunk.charCodeAt(chunk.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#held = chunk.slice(-1);
      this.#room = 0;
      chunk = chunk.slice(0, -1);
    }
    if (chunk.length > 0) {
      this.#stage(chunk);
      if (this.#staged >= this.#due) this.#forward();
    }
    return this.#state;
  }

  end(finishReason) {
    if (finishReason !== undefined && finishReason !== null && typeof finishReason !== "string") {
      throw argumentError(`end takes a finish reason string, null or nothing, not ${argumentKind(finishReason)}`);
    }
    if (this.#ended) throw argumentError("this stream check has ended: end() or free() was already called");
    this.#live();
    if (this.#held !== "") {
      this.#stage(this.#held);
      this.#held = "";
    }
    if (this.#staged + this.#pending > 0) this.#forward();
    let result;
    let json;
    try {
      result = JSON.parse(this.#handle.end(finishReason ?? undefined));
      if (result.ok) json = this.#handle.json();
    } catch (error) {
      throw translate(error);
    }
    this.free();
    return shapeVerdict(result, result.ok ? JSON.parse(json) : undefined);
  }

  /**
   * Releases the check and the text it holds now, without a verdict (a
   * stream abandoned, or one whose verdict will come another way); push
   * and end throw afterwards. Does nothing on a check that has ended.
   */
  free() {
    if (this.#ended) return;
    this.#ended = true;
    this.#room = 0;
    this.#view = null;
    const handle = this.#handle;
    this.#handle = undefined;
    // A handle lost with an instance that trapped has nothing left to free.
    if (this.#generation === traps) handle.free();
  }

  /** The stream's text lives in the instance it began in; after a trap that instance is gone. */
  #live() {
    ensureLoaded();
    if (this.#generation !== traps) {
      const error = new Error("this stream check was lost when structured-output-guard was re-instantiated after an internal failure; start a new one");
      error.code = "internal";
      throw error;
    }
  }

  /** Moves the gathered bytes into the staging buffer, after those staged. */
  #flush() {
    const pending = this.#pending;
    if (pending === 0) return;
    const at = this.#staged;
    this.#viewFor(at + pending).set(this.#gathered.subarray(0, pending), at);
    this.#staged = at + pending;
    this.#pending = 0;
  }

  /** Encodes a piece after the bytes already waiting. */
  #stage(chunk) {
    this.#flush();
    const n = chunk.length;
    const at = this.#staged;
    const view = this.#viewFor(at + n * 3);
    let written = n;
    if (n <= 16) {
      for (let i = 0; i < n; i++) {
        const unit = chunk.charCodeAt(i);
        if (unit >= 0x80) {
          written = encoder.encodeInto(chunk, at === 0 ? view : view.subarray(at)).written;
          break;
        }
        view[at + i] = unit;
      }
    } else {
      written = encoder.encodeInto(chunk, at === 0 ? view : view.subarray(at)).written;
    }
    this.#staged = at + written;
    this.#bytes += written;
  }

  /**
   * The view of at least `capacity` staging bytes. The buffer moves only
   * when `staging` grows it, and the view must be remade when it is too
   * small or the memory grew (which detaches the old ArrayBuffer, and a
   * view of a detached buffer has length 0: cheaper to ask than
   * `memory.buffer`).
   */
  #viewFor(capacity) {
    const view = this.#view;
    if (view !== null && view.byteLength >= capacity) return view;
    const size = Math.max(capacity, GATHER_BYTES, view === null ? 0 : 2 * view.byteLength);
    try {
      const pointer = this.#handle.staging(size);
      this.#view = new Uint8Array(memory.buffer, pointer, size);
    } catch (error) {
      throw translate(error);
    }
    return this.#view;
  }

  /** One crossing: the waiting bytes are checked. */
  #forward() {
    try {
      this.#flush();
      if (this.#handle.push(this.#staged) === 1 && this.#state === PENDING) {
        this.#state = rejectedState(this.#handle.rejection());
      }
    } catch (error) {
      throw translate(error);
    } finally {
      this.#staged = 0;
      this.#pending = 0;
      this.#due = batchAfter(this.#bytes);
    }
  }
}

/**
 * A check of a response that streams in: `push` each piece as it arrives
 * (the state says as soon as the response can no longer be accepted),
 * `end` for the verdict, exactly checkOutput's on the whole text.
 */
export function createStreamCheck(schema, options) {
  const opts = optionsText(options);
  return new StreamCheck(() => openStream(schema, options, opts));
}
