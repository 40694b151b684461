// A local HTTP/2 server on 127.0.0.1 that answers as Amazon Bedrock's
// runtime does: `ConverseStream` in the binary `application/vnd.amazon.eventstream`
// framing (each message a prelude, headers, a JSON payload and CRCs, encoded
// by the AWS SDK's own codec), `Converse` and errors as JSON. The real
// `@aws-sdk/client-bedrock-runtime` talks HTTP/2 by default (cleartext to an
// `http://` endpoint), so its events, classes and `$metadata` meet the guard
// as they meet users. Not a test file itself.
import { createServer } from "node:http2";
import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";

const STREAM = Symbol("event stream");
const ENVELOPE = Symbol("reply");

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const text = (value) => ({ type: "string", value });

/** One message of an event stream: an event of `type` whose payload is `body` (its members, as JSON). */
export function event(type, body) {
  return codec.encode({
    headers: { ":event-type": text(type), ":message-type": text("event"), ":content-type": text("application/json") },
    body: fromUtf8(JSON.stringify(body)),
  });
}

/** One message of an event stream that ends it with a modelled error (`modelStreamErrorException`, `throttlingException`, ...). */
export function exception(type, message) {
  return codec.encode({
    headers: { ":exception-type": text(type), ":message-type": text("exception"), ":content-type": text("application/json") },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/**
 * A reply streamed as an event stream: `messages` (from `event` and
 * `exception`) written one by one, `delayMs` apart; with `split`, each
 * message is written in two writes cut at its middle, so the client's
 * decoder meets messages cut across reads.
 */
export function eventStream(messages, { delayMs = 0, split = false } = {}) {
  const writes = split ? messages.flatMap((m) => [m.subarray(0, m.length >> 1), m.subarray(m.length >> 1)]) : messages;
  return { [STREAM]: true, writes, delayMs };
}

/** A reply with its own status and headers (otherwise a reply is a 200 JSON body). */
export function reply(status, body, headers = {}) {
  return { [ENVELOPE]: true, status, body, headers };
}

/**
 * Starts a server that answers each request with the next of `replies`
 * (JSON bodies, `reply(...)` or `eventStream(...)`), records every request
 * as `{ method, url, headers, body }` (the body parsed as JSON), and answers
 * 500 once the replies run out. For each streamed reply, `streams` records
 * `{ total, written, bytes, closedEarly }`: the writes scripted and made,
 * the bytes written, and whether the client went away before the last.
 */
export async function eventStreamServer(...replies) {
  const requests = [];
  const streams = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = raw;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        // Not JSON: kept as text.
      }
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const next = replies[requests.length - 1];
      if (next === undefined) {
        res.writeHead(500, { "content-type": "application/json", "x-amzn-errortype": "InternalServerException" });
        res.end(JSON.stringify({ message: `no reply scripted for request #${requests.length}` }));
        return;
      }
      if (next[STREAM]) {
        const record = { total: next.writes.length, written: 0, bytes: 0, closedEarly: false };
        streams.push(record);
        res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": `request-${requests.length}` });
        res.on("close", () => {
          if (record.written < record.total) record.closedEarly = true;
        });
        const writeNext = () => {
          if (res.destroyed || res.writableEnded || res.stream.destroyed) return;
          if (record.written === record.total) {
            res.end();
            return;
          }
          const bytes = next.writes[record.written];
          res.write(bytes);
          record.written += 1;
          record.bytes += bytes.length;
          setTimeout(writeNext, next.delayMs);
        };
        writeNext();
        return;
      }
      const { status, body: replyBody, headers } = next[ENVELOPE] ? next : { status: 200, body: next, headers: {} };
      res.writeHead(status, { "content-type": "application/json", "x-amzn-requestid": `request-${requests.length}`, ...headers });
      res.end(typeof replyBody === "string" ? replyBody : JSON.stringify(replyBody));
    });
  });
  const sessions = new Set();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    streams,
    close: () =>
      new Promise((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs `fn(server)` against a fresh server and closes it afterwards. */
export async function withEventStreamServer(replies, fn) {
  const server = await eventStreamServer(...replies);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
