// createStreamCheck: a response checked as it streams in, by the core's
// incremental check (src/stream.rs), crossed once per batch of pieces.
import { argumentKind, optionsText } from "./arguments.mjs";
import { shapeVerdict } from "./check.mjs";
import { SchemaError, argumentError } from "./errors.mjs";
import { INPUT_STATUS } from "./generated/contract.mjs";
import { callRaw, decoder, encoder, ensureLoaded, memory, raw, translate, traps, whenReplaced } from "./wasm-instance.mjs";
import { compileKey, entryFor, handleForAnyValidator, isValidatorArgument, readableSchemaText, recordOf } from "./schemas.mjs";
import { acceptedValue, readsInParts } from "./stream-value.mjs";
import { StreamedCalls, readEvent, streamReaders } from "./stream-read.mjs";

// ---- streamed responses (src/stream.rs) ----

const PENDING = Object.freeze({ status: "pending" });

/** The check's own reading of its partial value (see PartialStreamCheck), kept off its public face. */
const readPartial = Symbol("readPartial");

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
 * characters at a time. The batch is `bytes` characters (a test may change
 * it), and grows with the text to a sixteenth of what was pushed, up to 256
 * times that: a rejection comes at most a batch late (two, for what is
 * wrong inside an item a batch cuts: see `holdFor`), a small share of what
 * the stream already cost, while a long response crosses once every 16
 * kilobytes instead of once every 64 bytes. Larger batches cost less, as
 * fewer items are cut: with the cut item read by the core value by value,
 * checking 2,000 rows of about 240 bytes took 1.12 times as long with
 * batches of at most 1,024 characters as with 4,096, and 4,096 about 1.05
 * times as long as 16,384 (Node 20 and Bun, 64-byte pieces); 65,536 gained
 * no more than 1%.
 */
export const streamBatch = { bytes: 64, checkedReading: 512 };
// `checkedReading`: a reading of the partial value (see `readPartial`)
// that crosses at least this many UTF-16 units, with those kept for it
// before, has them checked as a batch is, rather than kept for the next
// batch; the core's reading then takes the array items the check passed
// as judged (see `PartialValue::vouch`), and judges only the rest. Fewer
// are not worth it: an item the crossing cuts is read again with the
// next batch.

/**
 * What the core may leave for the next crossing of a check whose batch is
 * `due` (see `StreamCheck::hold_items` in src/stream.rs): an array item
 * that a batch cuts, begun within the batch's length of its end, when the
 * item before it was no longer than a batch, waits for the next batch and
 * is read whole then, instead of value by value, which cost a 480 KB array
 * of rows in 64-byte pieces about a twentieth of its check on Bun. What is
 * wrong inside such an item then comes a batch later. The last batch holds
 * nothing back.
 */
function holdFor(due, last) {
  return last ? 0 : due;
}

/**
 * The batch, in UTF-16 code units, for a check that has been pushed `bytes`
 * so far: a whole number, as every push compares with it (a fraction made
 * Bun's pushes of one character 3-6% slower).
 */
function batchAfter(bytes) {
  return Math.min(256 * streamBatch.bytes, Math.max(streamBatch.bytes, Math.floor(bytes / 16)));
}

/** UTF-8 bytes of `text` as `encodeInto` writes it (a lone surrogate as U+FFFD, 3 bytes). */
function utf8Length(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Pieces shorter than this are copied here, character by character, into
 * a byte buffer; longer ones are joined as a string and encoded with one
 * `encodeInto` per batch, which costs about as much to call as copying 8
 * characters, and less per character.
 */
const SHORT_PIECE = 8;
/**
 * The most short pieces' bytes gathered; past that, pieces are joined. As
 * large as the largest batch (see `batchAfter`), so that a stream of short
 * pieces is never joined; the buffer grows to it with the batch, from
 * FIRST_GATHER, as allocating it whole cost a short response's stream
 * check a tenth more on Node.
 */
const GATHER_BYTES = 16_384;
const FIRST_GATHER = 512;

/** Room for the short pieces of a batch of `due`: its bytes and one piece more, within GATHER_BYTES. */
function gatherRoom(due) {
  return Math.min(GATHER_BYTES, due + SHORT_PIECE);
}
/** The staging buffer's first size, in bytes. */
const FIRST_STAGING = 512;

/**
 * A response checked as it streams in (see createStreamCheck). The pieces
 * of a batch (see `batchAfter`) wait here, in order: short ASCII ones
 * copied into a byte buffer (see SHORT_PIECE), others joined as a string.
 * As the batch crosses, they are written into the check's staging buffer
 * in wasm memory (a view of wasm memory must be checked before each use,
 * as any call may grow the memory and detach it, so nothing is written
 * there piece by piece). The core keeps the text, and `end` decodes the
 * accepted JSON where it lies in wasm memory.
 */
export class StreamCheck {
  #handle;
  /** Reads provider stream events for the named tool's arguments (see ToolArgumentsReader). */
  #tool;
  /** The instance the handle belongs to (the count of traps when it was made). */
  #generation;
  /** The view of the staging buffer. */
  #view = null;
  /** Short pieces' bytes (made with the first one, see `#pushOther`: many streams send none). */
  #gathered = null;
  #pending = 0;
  /** Pieces joined after those; once one is, every piece of the batch joins it. */
  #waiting = "";
  /**
   * Bytes the gathered ones may come to: none until there is a buffer for
   * them, once a piece is joined, and once the check has ended (so the
   * short path tests only this); otherwise the batch and one short piece
   * more (see `gatherRoom`).
   */
  #room = 0;
  /** UTF-8 bytes pushed, but those still waiting. */
  #crossed = 0;
  /** Of those, bytes a preview crossed that the check has not read yet (see `readPartial`). */
  #unchecked = 0;
  /** UTF-16 code units waiting that make a batch, as of the last crossing. */
  #due = batchAfter(0);
  #state = PENDING;
  #ended = false;
  /** Every byte that crossed was ASCII (see `acceptedValue`). */
  #ascii = true;
  /** The last partial value read, and the bytes crossed when it was (see `readPartial`). */
  #partial = undefined;
  /**
   * The partial value, grown in place, the open containers it holds (see
   * `applyDelta`), and the UTF-16 units its open string gained here since
   * the core last said what changed (see `#skipped`).
   */
  #preview = { value: undefined, levels: [], grown: 0 };
  #partialAt = -1;
  /** The pointers of what fails in the partial value, as the core last said. */
  #invalid = Object.freeze([]);
  /** What the waiting units after `#seen` change in the partial value, as the core last said (see `#skipped`). */
  #tail = TAIL.asks;
  /** Of the units waiting, those the partial value already holds (see `#skipped`). */
  #seen = 0;

  constructor(open, toolName) {
    this.#handle = callRaw(open);
    this.#generation = traps;
    if (readsInParts()) this.#handle.noteOutline();
    if (toolName !== undefined) this.#tool = new ToolArgumentsReader(toolName, (name) => this.noteToolCall(name));
  }

  /** A tool call the stream carries, named as it begins (the end names them when the tool's is missing). */
  noteToolCall(name) {
    if (this.#ended) return;
    this.#live();
    try {
      this.#handle.noteToolCall(name);
    } catch (error) {
      throw translate(error);
    }
  }

  /** The finish reason the events pushed reported (with `toolName`), or undefined. */
  get finishReason() {
    return this.#tool?.finishReason;
  }

  /** UTF-8 bytes pushed so far. */
  get bytes() {
    return this.#crossed + this.#pending + utf8Length(this.#waiting);
  }

  push(chunk) {
    if (typeof chunk !== "string") {
      if (this.#tool !== undefined && chunk !== null && typeof chunk === "object") return this.push(this.#tool.read(chunk));
      throw argumentError(`push takes a string${this.#tool === undefined ? "" : " or a provider stream event"}, not ${argumentKind(chunk)}`);
    }
    // The common piece, a few ASCII characters: copied, as pushes of a
    // character or two come by the hundred thousand; the crossing checks
    // that the instance did not trap since the check began. Then the
    // common longer piece, joined. Only these paths are here, so that an
    // engine can inline push into the caller's loop.
    const n = chunk.length;
    const at = this.#pending;
    // Strictly below the room: an ended check has none, so even an empty
    // piece takes the other path, which throws.
    if (n < SHORT_PIECE && at + n < this.#room) {
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
        // Nothing is joined while pieces are gathered.
        if (at + n >= this.#due) this.#forward(false);
        return this.#state;
      }
    } else if (n >= SHORT_PIECE && this.#room === 0 && !this.#ended && this.#generation === traps) {
      // A longer piece, with nothing gathered before it: joined.
      const waiting = (this.#waiting += chunk);
      if (at + waiting.length >= this.#due) this.#forward(false);
      return this.#state;
    }
    return this.#pushOther(chunk);
  }

  /** A piece the short path does not take (see `push`). */
  #pushOther(chunk) {
    if (this.#ended) throw argumentError("push after end() or free(): this stream check has ended");
    if (this.#generation !== traps) this.#live();
    if (this.#gathered === null && this.#waiting === "" && chunk.length < SHORT_PIECE) {
      // The first short piece, and none joined: the buffer is made for it, and it is pushed again.
      this.#room = this.#roomFor(this.#due);
      if (this.#room > 0) return this.push(chunk);
    }
    // The gathered bytes cross first, then the joined pieces.
    this.#room = 0;
    const waiting = (this.#waiting += chunk);
    if (this.#pending + waiting.length >= this.#due) this.#forward(false);
    return this.#state;
  }

  end(finishReason) {
    if (finishReason !== undefined && finishReason !== null && typeof finishReason !== "string") {
      throw argumentError(`end takes a finish reason string, null or nothing, not ${argumentKind(finishReason)}`);
    }
    if (this.#ended) throw argumentError("this stream check has ended: end() or free() was already called");
    this.#live();
    finishReason ??= this.#tool?.finishReason;
    // A rejection a push returned is the verdict; one that only the last
    // batch, crossing now, shows is not (see `StreamCheck::end`).
    const reported = this.#state !== PENDING;
    if (this.#pending + this.#waiting.length > 0 || this.#unchecked > 0) this.#forward(true);
    let result;
    let value;
    try {
      result = JSON.parse(this.#handle.end(finishReason ?? undefined, reported));
      // Decoded where the core keeps it.
      if (result.ok) value = acceptedValue(this.#handle, this.#ascii);
    } catch (error) {
      throw translate(error);
    }
    this.free();
    return shapeVerdict(result, value);
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
    // What waited is counted as pushed (`bytes`), though it never crossed.
    this.#crossed = this.bytes;
    this.#waiting = "";
    this.#pending = 0;
    const handle = this.#handle;
    this.#handle = undefined;
    // A handle lost with an instance that trapped has nothing left to free.
    if (this.#generation === traps) handle.free();
  }

  /**
   * The partial value of everything pushed so far: the waiting pieces
   * cross first, kept by the core but checked only with the next batch
   * (checking a batch early would cost the check a crossing per reading,
   * about nine times as much for 2,000 rows read after every 64-byte
   * piece), unless they come to `streamBatch.checkedReading` units with
   * those kept before: then they are checked now, and the items the check
   * passes are not judged again. Then the core closes the
   * frontier and judges the complete members and items, and says what
   * changed since the last reading as numbers in wasm memory (see
   * `StreamCheck::partial_words` in src/stream.rs): places in the text it
   * keeps, of which only the new members and items, and the new frontier,
   * are decoded and parsed here (see `readWords`), and applied to the
   * value kept here; the pointers of what fails are asked for only when
   * they changed. Pieces that change nothing shown, or only lengthen the open
   * string the value holds, do not cross (see `#skipped`). The same object
   * again until the value changes, and while only its open string grows.
   */
  [readPartial]() {
    if (this.#ended) throw argumentError("partial was read after end() or free(): read a state's partial before the check ends");
    this.#live();
    const waiting = this.#pending + this.#waiting.length;
    // Nothing crossed since the core last said what changed, and the units
    // pushed since change nothing or only lengthen the open string: no
    // crossing.
    if (this.#partialAt === this.#crossed && (waiting === this.#seen || this.#skipped(waiting))) return this.#partial;
    let delta;
    let invalid = this.#invalid;
    try {
      const at = this.#forward(false, true, this.#unchecked + waiting >= streamBatch.checkedReading);
      delta = readWords(at, this.#ascii);
      // Asked after the text is read: the answer may grow the memory.
      if (delta.invalid) invalid = this.#invalid = Object.freeze(JSON.parse(this.#handle.partialInvalid()));
    } catch (error) {
      throw translate(error);
    }
    applyDelta(this.#preview, delta);
    const value = this.#preview.value;
    // The same object while the value is the one grown in place and what fails is the same.
    const last = this.#partial;
    if (last === undefined || last.value !== value || last.invalid !== invalid) {
      this.#partial = Object.freeze({ value, invalid });
    }
    this.#partialAt = this.#crossed;
    this.#tail = delta.tail;
    return this.#partial;
  }

  /**
   * Whether the units waiting from `#seen` to `end`, which the core has
   * not read, leave the partial value as it is, or only lengthen the open
   * string it holds as its innermost frontier, by what the core said of
   * the bytes after the text it read (`tail`, see `Tail` in
   * crates/hot-path/src/stream/partial.rs); if so, the string is
   * lengthened here. A preview that reads after every piece of a long
   * string then crosses once per batch, not once per piece.
   */
  #skipped(end) {
    const tail = this.#tail;
    if (tail === TAIL.asks) return false;
    const from = this.#seen;
    const pending = this.#pending;
    const gathered = this.#gathered;
    const waiting = this.#waiting;
    if (tail === TAIL.any) {
      this.#seen = end;
      return true;
    }
    // The gathered units are ASCII bytes; the joined ones follow them.
    let added = end > pending ? waiting.slice(Math.max(0, from - pending), end - pending) : "";
    if (from < pending) added = String.fromCharCode.apply(null, gathered.subarray(from, Math.min(pending, end))) + added;
    if ((tail === TAIL.white ? NOT_WHITE : tail === TAIL.digits ? NOT_DIGIT : NOT_PLAIN).test(added)) return false;
    if (tail === TAIL.string) {
      const levels = this.#preview.levels;
      const held = levels[levels.length - 1];
      held.container[held.frontier] += added;
      this.#preview.grown += added.length;
    }
    this.#seen = end;
    return true;
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

  /**
   * The view of at least `capacity` staging bytes. The buffer moves only
   * when `staging` grows it, and the view must be remade when it is too
   * small or the memory grew (which detaches the old ArrayBuffer, and a
   * view of a detached buffer has length 0: cheaper to ask than
   * `memory.buffer`). It starts small, as most responses are, and at
   * least doubles as it grows.
   */
  #viewFor(capacity) {
    const view = this.#view;
    if (view !== null && view.byteLength >= capacity) return view;
    const size = Math.max(capacity, FIRST_STAGING, view === null ? 0 : 2 * view.byteLength);
    try {
      const pointer = this.#handle.staging(size);
      this.#view = new Uint8Array(memory.buffer, pointer, size);
    } catch (error) {
      throw translate(error);
    }
    return this.#view;
  }

  /**
   * One crossing: the waiting pieces are written and checked, the gathered
   * bytes first. Before the end, a high surrogate that ends them waits for
   * its other half (UTF-8 carries the character only whole); at the end it
   * goes as it is, and is encoded as U+FFFD, as checkOutput encodes it.
   */
  #forward(last, preview = false, checked = false) {
    // Gathered pieces are taken without this check (see `push`): a check
    // whose instance trapped meanwhile is lost, and touches no memory.
    if (this.#generation !== traps) this.#live();
    let text = this.#waiting;
    let kept = "";
    const final = text.charCodeAt(text.length - 1);
    if (!last && final >= 0xd800 && final <= 0xdbff) {
      kept = text.slice(-1);
      text = text.slice(0, -1);
    }
    const gathered = this.#pending;
    this.#waiting = kept;
    this.#pending = 0;
    this.#seen = 0;
    // Short pieces are gathered again once the batch is out, unless a
    // joined piece (a kept half of a pair) waits.
    const reopen = kept === "" && !this.#ended;
    this.#room = 0;
    let delta;
    try {
      if (gathered + text.length === 0) {
        if (preview && (!checked || this.#unchecked === 0)) return this.#handle.partialWords(0);
        // Text kept for a preview, not yet checked, is checked now.
        if (this.#unchecked === 0) return;
      }
      // Room for the text as if it were ASCII: encodeInto stops, between
      // characters, where the room ends, and the rest is written after it
      // into room for its worst case (3 bytes a UTF-16 unit), so that a
      // large piece is not given three times the staging it needs.
      let view = this.#viewFor(gathered + text.length);
      if (gathered > 0) view.set(this.#gathered.subarray(0, gathered));
      let length = gathered;
      if (text.length > 0) {
        // Gathered bytes are ASCII; the joined text is, where each unit
        // read took one byte.
        const first = encoder.encodeInto(text, length === 0 ? view : view.subarray(length));
        length += first.written;
        if (first.written !== first.read) this.#ascii = false;
        if (first.read < text.length) {
          const rest = text.slice(first.read);
          view = this.#viewFor(length + 3 * rest.length);
          const written = encoder.encodeInto(rest, view.subarray(length)).written;
          length += written;
          if (written !== rest.length) this.#ascii = false;
        }
      }
      this.#crossed += length;
      if (preview && !checked) {
        // Kept for the preview, and checked with the next batch.
        delta = this.#handle.partialWords(length);
        this.#unchecked += length;
      } else {
        this.#unchecked = 0;
        const status = this.#handle.push(length, holdFor(this.#due, last));
        // A rejection a preview's crossing finds becomes the state when the
        // next batch crosses (the core answers every push after it with
        // it), as if the text had waited for that batch: one that no push
        // returned is not the verdict (see `StreamCheck::end_json`).
        if (preview) delta = this.#handle.partialWords(0);
        else if (status === INPUT_STATUS.pushRejected && this.#state === PENDING) this.#state = rejectedState(this.#handle.rejection());
      }
    } catch (error) {
      throw translate(error);
    } finally {
      // What a preview kept counts toward the next batch, so that the
      // check still comes within a batch.
      this.#due = Math.max(1, batchAfter(this.#crossed) - this.#unchecked);
      // Without a buffer (no short piece yet), the next short piece makes one.
      if (reopen && this.#gathered !== null) this.#room = this.#roomFor(this.#due);
    }
    return delta;
  }

  /**
   * `gatherRoom(due)`, with the buffer, empty when this is asked, made
   * (`#pushOther` asks only then) or grown to it.
   */
  #roomFor(due) {
    const room = gatherRoom(due);
    const gathered = this.#gathered;
    if (gathered === null) this.#gathered = new Uint8Array(Math.max(FIRST_GATHER, room));
    else if (gathered.length < room) this.#gathered = new Uint8Array(Math.min(GATHER_BYTES, Math.max(room, 2 * gathered.length)));
    return room;
  }
}

/**
 * What the units after the text the core read change in the partial value
 * (`Tail` in crates/hot-path/src/stream/partial.rs): `asks`, anything may;
 * `string`, plain units (see `isPlain`) lengthen the open string held as
 * the innermost frontier; `hidden`, plain units change nothing; `white`,
 * JSON white space changes nothing; `digits`, digits change nothing;
 * `any`, nothing changes it.
 */
const TAIL = Object.freeze({ asks: 0, string: 1, hidden: 2, white: 3, digits: 4, any: 5 });

/**
 * A UTF-16 unit that a JSON string does not hold as itself, one unit one
 * character: a quote, a backslash, a control character, or half of a
 * surrogate pair (a lone one is encoded as U+FFFD when it crosses). The
 * others are "plain".
 */
const NOT_PLAIN = /[\u0000-\u001f"\\\ud800-\udfff]/;
/** A unit that is not JSON white space. */
const NOT_WHITE = /[^ \t\n\r]/;
/** A unit that is not a digit. */
const NOT_DIGIT = /[^0-9]/;

/**
 * Views of the whole wasm memory, for the numbers `partialWords` writes
 * and the text they point into: made again when the memory grew (which
 * detaches the old buffer: a view of it has length 0) or the instance was
 * replaced.
 */
let memoryWords = null;
let memoryBytes = null;
whenReplaced(() => {
  memoryWords = null;
  memoryBytes = null;
});

/** ASCII bytes as a string, where the engine has a copy that skips UTF-8 decoding (Node's and Bun's Buffer). */
const latin1Slice = globalThis.Buffer?.prototype?.latin1Slice;

/** What in a string's text JSON.parse must read: an escape, or a control character (which it refuses). */
const PARSED = /[\\\u0000-\u001f]/;

/**
 * The value of a complete value's JSON text, as JSON.parse gives it: a
 * string without escapes, a literal or a number (a JSON number is read by
 * Number as by JSON.parse) without parsing.
 */
function complete(json) {
  const c = json.charCodeAt(0);
  if (c === 0x22) return PARSED.test(json) ? JSON.parse(json) : json.slice(1, -1);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return Number(json);
  if (c === 0x74) return true;
  if (c === 0x66) return false;
  if (c === 0x6e) return null;
  return JSON.parse(json);
}

/** The layout of the numbers (`words` in crates/hot-path/src/stream/partial.rs). */
const WORD = Object.freeze({ same: 1, grow: 2, invalid: 4, value: 8, add: 16, at: 32, open: 64, tip: 128, index: 0xffffffff });

/**
 * What changed in the partial value, from the numbers at `at` in wasm
 * memory (see `RawStream::partial_words`), in the shape `applyDelta`
 * takes, with the text at the places they give decoded from the text the
 * core keeps: when every byte pushed was ASCII (`ascii`), the span they
 * cover at once, and each place a slice of it; otherwise each place on
 * its own. `invalid`: the pointers of what fails changed (the caller asks
 * for them).
 */
function readWords(at, ascii) {
  if (memoryWords === null || memoryWords.length === 0) {
    memoryWords = new Uint32Array(memory.buffer);
    memoryBytes = new Uint8Array(memory.buffer);
  }
  const w = memoryWords;
  let p = at >>> 2;
  const flags = w[p + 1];
  const delta = { invalid: (flags & WORD.invalid) !== 0, tail: w[p + 2], same: (flags & WORD.same) !== 0, keep: w[p + 3] };
  if (delta.same) return delta;
  const fins = w[p + 4];
  // The places, in order, and the span they cover.
  reading.base = w[p];
  reading.lo = 0xffffffff;
  reading.hi = 0;
  const finAt = p + 5;
  p = finAt;
  for (let i = 0; i < fins; i++) p = coverMembers(w, p);
  const growAt = p;
  if (flags & WORD.grow) {
    cover(w[p], w[p + 1]);
    p += 2;
  }
  const addAt = p;
  if (flags & WORD.add) p = coverMembers(w, p);
  const valueAt = p;
  if (flags & WORD.value) {
    cover(w[p], w[p + 1]);
    p += 4 + w[p + 3];
  }
  const slotAt = p;
  let q = slotAt;
  if (flags & WORD.at) {
    coverSlot(w, q);
    q += 2;
  }
  if (flags & WORD.open) {
    const n = w[q++];
    for (let i = 0; i < n; i++, q += 2) coverSlot(w, q);
    if (flags & WORD.tip) coverSlot(w, q);
  }
  const { base, lo, hi } = reading;
  reading.ascii = ascii;
  reading.span = "";
  if (ascii && hi > lo) {
    const bytes = memoryBytes;
    reading.span = latin1Slice !== undefined ? latin1Slice.call(bytes, base + lo, base + hi) : decoder.decode(bytes.subarray(base + lo, base + hi));
  }
  if (fins > 0) {
    delta.fin = [];
    for (let i = 0, q = finAt; i < fins; i++, q += 2 + 4 * w[q + 1]) delta.fin.push(membersAt(w, q));
  }
  if (flags & WORD.grow) {
    const grown = textAt(w[growAt], w[growAt + 1]);
    delta.grow = PARSED.test(grown) ? JSON.parse(`"${grown}"`) : grown;
    return delta;
  }
  if (flags & WORD.add) delta.add = membersAt(w, addAt);
  if (flags & WORD.value) {
    delta.hasValue = true;
    const openString = w[valueAt + 2] === 1;
    const closers = w[valueAt + 3];
    let json = textAt(w[valueAt], w[valueAt + 1]);
    if (openString && closers === 0 && !PARSED.test(json)) {
      // An open string, its text without the opening quote.
      delta.value = json.slice(1);
    } else {
      if (openString) json += '"';
      for (let i = 0; i < closers; i++) json += w[valueAt + 4 + i] === 1 ? "}" : "]";
      delta.value = JSON.parse(json);
    }
  }
  q = slotAt;
  if (flags & WORD.at) {
    delta.at = slotOf(w, q);
    q += 2;
  }
  if (flags & WORD.open) {
    const n = w[q++];
    delta.open = [];
    for (let i = 0; i < n; i++, q += 2) delta.open.push(slotOf(w, q));
    if (flags & WORD.tip) delta.tip = slotOf(w, q);
  }
  return delta;
}

/**
 * The reading `readWords` is making: where the text lies in wasm memory
 * (`base`), the span of it the places cover (`lo..hi`), and, when every
 * byte was ASCII, that span decoded (`span`).
 */
const reading = { base: 0, lo: 0, hi: 0, ascii: true, span: "" };

function cover(start, end) {
  if (start < reading.lo) reading.lo = start;
  if (end > reading.hi) reading.hi = end;
}

/** Covers a slot: a name's place (an index has none). */
function coverSlot(w, q) {
  if (w[q] !== WORD.index) cover(w[q], w[q + 1]);
}

/** Covers members or items (`object, n`, then each a slot and its value's place); gives where the next part begins. */
function coverMembers(w, q) {
  const end = q + 2 + 4 * w[q + 1];
  for (q += 2; q < end; q += 4) {
    coverSlot(w, q);
    cover(w[q + 2], w[q + 3]);
  }
  return end;
}

/** The text at `start..end`: a slice of the span, or decoded on its own. */
function textAt(start, end) {
  if (reading.ascii) return reading.span.slice(start - reading.lo, end - reading.lo);
  return decoder.decode(memoryBytes.subarray(reading.base + start, reading.base + end));
}

/** A slot's name or index. */
function slotOf(w, q) {
  if (w[q] === WORD.index) return w[q + 1];
  const name = textAt(w[q], w[q + 1]);
  return PARSED.test(name) ? JSON.parse(name) : name.slice(1, -1);
}

/** Members as an object (set as JSON.parse sets them), items as an array. */
function membersAt(w, q) {
  const object = w[q] === 1;
  const end = q + 2 + 4 * w[q + 1];
  const out = object ? {} : [];
  for (q += 2; q < end; q += 4) {
    const value = complete(textAt(w[q + 2], w[q + 3]));
    if (object) setMember(out, slotOf(w, q), value);
    else out.push(value);
  }
  return out;
}

/** Sets a member as JSON.parse does: `__proto__` too, as an own member. */
function setMember(object, key, value) {
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * Applies what the core says changed in the partial value (see
 * `PartialValue::read_delta` in crates/hot-path/src/stream/partial.rs,
 * whose JSON `readWords` gives in this shape, `hasValue` for `value`) to
 * `preview`: `{ value, levels }`, the value and the open containers it
 * holds, outermost first, each with its frontier (the open value last in
 * it, a name or an index), which is taken out before the complete members
 * or items that came since are added after the others. So the value grows
 * in place, and a reading costs the new text, not the whole value again.
 */
function applyDelta(preview, delta) {
  if (delta.same) return;
  const levels = preview.levels;
  const grown = delta.grow;
  const already = preview.grown;
  preview.grown = 0;
  if (grown !== undefined) {
    // The open string at the innermost container's frontier, longer: what
    // it gained begins with the units added here without asking.
    const held = levels[levels.length - 1];
    held.container[held.frontier] += already === 0 ? grown : grown.slice(already);
    return;
  }
  const fin = delta.fin;
  if (fin !== undefined) {
    // The held containers that closed, innermost first, finished in place;
    // each one's parent keeps it as its complete frontier.
    for (let i = 0; i < fin.length; i++) {
      const level = levels.length - 1 - i;
      extend(levels[level], fin[i], undefined);
      if (level > 0) levels[level - 1].frontier = undefined;
    }
  }
  levels.length = delta.keep;
  if (delta.keep === 0) {
    // The complete value is an object of its own, not the one the
    // previews before it grew (its members are theirs, finished).
    if (fin === undefined) preview.value = delta.value;
    else preview.value = Array.isArray(preview.value) ? preview.value.slice() : { ...preview.value };
  } else {
    const held = levels[delta.keep - 1];
    const container = held.container;
    const array = Array.isArray(container);
    extend(held, delta.add, delta.at);
    if (delta.hasValue) {
      // An array's frontier is its next item.
      if (array) container.push(delta.value);
      else setMember(container, delta.at, delta.value);
      held.frontier = delta.at;
    }
  }
  const open = delta.open;
  if (open !== undefined) {
    let container = delta.value;
    for (let i = 0; i <= open.length; i++) {
      levels.push({ container, frontier: i < open.length ? open[i] : delta.tip });
      if (i < open.length) container = container[open[i]];
    }
  }
}

/**
 * A held container (see `applyDelta`) without its frontier and with the
 * complete members or items `added` after the others; `at`: where its new
 * frontier goes, if it has one.
 */
function extend(held, added, at) {
  const container = held.container;
  const array = Array.isArray(container);
  const frontier = held.frontier;
  if (frontier !== undefined) {
    if (array) container.length = frontier;
    // A member set again needs no deleting (which would also slow the
    // object down for good): the common case, a string grown or closed.
    else if (!(at === frontier || (added !== undefined && Object.hasOwn(added, frontier)))) delete container[frontier];
  }
  if (added !== undefined) {
    if (array) for (let i = 0; i < added.length; i++) container.push(added[i]);
    else for (const key of Object.keys(added)) setMember(container, key, added[key]);
  }
  held.frontier = undefined;
}

/**
 * A state of a check made with `partial: true`: the state's own members,
 * and `partial`, worked out when first read (see `readPartial`): the
 * value of the text pushed up to then, the same object on every later
 * read of this state.
 */
class PartialState {
  #check;
  #partial;
  constructor(state, check) {
    Object.assign(this, state);
    this.#check = check;
  }

  get partial() {
    return (this.#partial ??= this.#check[readPartial]());
  }
}

/** A stream check whose states carry the partial value (`partial: true`). */
class PartialStreamCheck extends StreamCheck {
  push(chunk) {
    return new PartialState(super.push(chunk), this);
  }
}

/**
 * With `toolName`, what a stream check is pushed is provider stream events
 * (or the tool's argument text itself, as strings): this reads each along
 * the core's table for the pieces of tool calls, and gives the argument
 * text they add to the first call of the named tool, noting every call's
 * name as it begins and the finish reason the events report.
 */
class ToolArgumentsReader {
  constructor(toolName, onCall) {
    this.calls = new StreamedCalls(toolName, onCall);
    this.readers = streamReaders();
    this.finishReason = undefined;
  }

  read(event) {
    const read = readEvent(event, this.readers);
    if (read.failed) {
      throw argumentError("push was given a stream event that reports the stream's own failure (an AI SDK error part); the stream has no output");
    }
    if (typeof read.finishReason === "string" && read.finishReason.trim() !== "") this.finishReason = read.finishReason;
    return read.calls === undefined ? "" : this.calls.take(read.calls);
  }
}

/**
 * A check of a response that streams in: `push` each piece as it arrives
 * (the state says as soon as the response can no longer be accepted),
 * `end` for the verdict, exactly checkOutput's on the whole text.
 */
export function createStreamCheck(schema, options) {
  const opts = optionsText(options);
  // optionsText has checked toolName: a non-empty string, or absent; the
  // core, as the check opens, that partial is a boolean.
  const Check = options?.partial === true ? PartialStreamCheck : StreamCheck;
  return new Check(() => openStream(schema, options, opts), options?.toolName);
}
