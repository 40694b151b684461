// A static file server for the repository root, so the preview page can load
// the package from pkg/ (browsers refuse ES modules and WebAssembly from
// file:// URLs). Nothing is fetched from anywhere else.
//
//   bash scripts/build.sh                 # once, to fill pkg/
//   node examples/preview/serve.mjs       # then open the printed address
//   node examples/preview/serve.mjs --port 9000
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** The file under `root` that a request path names, or null when it escapes `root`. */
function fileFor(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const base = resolve(root);
  const file = resolve(join(base, decoded));
  return file === base || file.startsWith(base + sep) ? file : null;
}

/** Starts a server for `root` on host:port (port 0 picks a free one); resolves with the node:http server. */
export function startServer({ root = ROOT, host = "127.0.0.1", port = 0 } = {}) {
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return res.writeHead(405).end();
    let file = fileFor(root, new URL(req.url, "http://localhost").pathname);
    if (file === null) return res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) {
        if (!req.url.split("?")[0].endsWith("/")) {
          return res.writeHead(301, { location: `${req.url.split("?")[0]}/` }).end();
        }
        file = join(file, "index.html");
      }
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolvePromise(server));
  });
}

/** The preview's address on a running server. */
export function previewUrl(server) {
  const { address, port } = server.address();
  const host = address.includes(":") ? `[${address}]` : address;
  return `http://${host}:${port}/examples/preview/`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
  };
  const port = Number(option("--port", "8787"));
  const host = option("--host", "127.0.0.1");
  try {
    await stat(join(ROOT, "pkg", "wasm", "guard_bg.wasm"));
  } catch {
    console.error("pkg/ is not built yet: run `bash scripts/build.sh` first");
    process.exit(1);
  }
  const server = await startServer({ host, port });
  console.log(`structured-output-guard preview: ${previewUrl(server)}  (Ctrl-C stops it)`);
}
