// A local HTTP server on 127.0.0.1 that answers in a provider's wire format,
// so the real SDK clients (their class instances, getters and fields) meet
// the guard as they meet users. Not a test file itself.
import { createServer } from "node:http";

const ENVELOPE = Symbol("wire reply");
const STREAM = Symbol("wire stream");

/**
 * A reply streamed as server-sent events: each of `chunks` (text, already
 * in the provider's SSE framing) written on its own, `delayMs` apart.
 */
export function sse(chunks, { delayMs = 0 } = {}) {
  return { [STREAM]: true, chunks, delayMs };
}

/** A reply with its own status and headers (otherwise a reply is a 200 JSON body). */
export function reply(status, body, headers = {}) {
  return { [ENVELOPE]: true, status, body, headers };
}

/**
 * Starts a server that answers each request with the next of `replies`
 * (JSON bodies, or `reply(status, body, headers)`), records every request it
 * saw as `{ method, url, headers, body }` (the body parsed as JSON where it
 * is JSON), and answers 500 once the replies run out.
 */
export async function wireServer(...replies) {
  const requests = [];
  // For each streamed reply: how many of its chunks were written, and
  // whether the client went away before the last.
  const streams = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const next = replies[requests.length - 1];
      if (next === undefined) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no reply scripted for request #${requests.length}` } }));
        return;
      }
      if (next[STREAM]) {
        const record = { total: next.chunks.length, written: 0, closedEarly: false };
        streams.push(record);
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.on("close", () => {
          if (record.written < record.total) record.closedEarly = true;
        });
        const writeNext = () => {
          if (res.destroyed || res.writableEnded) return;
          if (record.written === record.total) {
            res.end();
            return;
          }
          res.write(next.chunks[record.written]);
          record.written += 1;
          setTimeout(writeNext, next.delayMs);
        };
        writeNext();
        return;
      }
      const { status, body: replyBody, headers } = next[ENVELOPE] ? next : { status: 200, body: next, headers: {} };
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(typeof replyBody === "string" ? replyBody : JSON.stringify(replyBody));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    streams,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(resolve);
      }),
  };
}

/** Runs `fn(server)` against a fresh server and closes it afterwards. */
export async function withWireServer(replies, fn) {
  const server = await wireServer(...replies);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
