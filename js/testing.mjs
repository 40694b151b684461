// Hooks for the package's own tests, which reach below the public API. This
// file is built into pkg/ for them but left out of the published package
// (see `files` in pkg/package.json and tests/package/pack.test.mjs).
import { callRaw, markLoaded, rawGlue, traps } from "./instance.mjs";
import { openSessions } from "./session.mjs";
import { streamBatch } from "./stream-check.mjs";

export { callRaw, markLoaded, rawGlue };

/** How many times the instance trapped and was replaced. */
export function trapCount() {
  return traps;
}

/** How many guarded-call sessions are made and not yet freed. */
export function liveSessions() {
  return openSessions.size;
}

/** Sets a stream check's first batch (0 hands every piece over at once); returns the previous one. */
export function setStreamBatch(bytes) {
  const previous = streamBatch.bytes;
  streamBatch.bytes = bytes;
  return previous;
}
