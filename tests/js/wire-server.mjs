// A local HTTP server on 127.0.0.1 that answers in a provider's wire format,
// so the real SDK clients (their class instances, getters and fields) meet
// the guard as they meet users. Not a test file itself.
import { createServer } from "node:http";

const ENVELOPE = Symbol("wire reply");

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
    close: () => new Promise((resolve) => server.close(resolve)),
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
