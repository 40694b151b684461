// The browser build on a page whose Content Security Policy, delivered in
// a header (which no script can read), allows WebAssembly
// ('wasm-unsafe-eval') and no 'unsafe-eval': every check works, and the
// page sees no policy violation at all (each would also be a report to the
// site's security endpoint, where one is configured). Debian's Chromium,
// headless, never a downloaded one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

/** The repository over HTTP on 127.0.0.1, each HTML page with the policy in its header. */
function serveWithPolicy() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path.includes("..")) return res.writeHead(403).end();
    try {
      const body = await readFile(join(root, path));
      const headers = { "content-type": types[extname(path)] ?? "application/octet-stream" };
      if (extname(path) === ".html") headers["content-security-policy"] = POLICY;
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("under script-src 'self' 'wasm-unsafe-eval', every check works and the page sees no violation", async () => {
  assert.ok(existsSync(chromium), `no Chromium at ${chromium}: scripts/setup.sh installs Debian's package`);
  const server = await serveWithPolicy();
  const { chromium: driver } = await import("playwright-core");
  const browser = await driver.launch({
    executablePath: chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (error) => problems.push(error.message));
    const response = await page.goto(`http://127.0.0.1:${server.address().port}/tests/browser/csp-page.html`);
    assert.equal(response.headers()["content-security-policy"], POLICY);
    await page.waitForFunction(() => window.__report !== undefined, null, { timeout: 20000 });
    const report = await page.evaluate(() => window.__report);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.violations, []);
    assert.deepEqual(report.verdicts, Array.from({ length: 8 }, (_, round) => [round % 2 === 0, true]).flat());
    assert.deepEqual(report.guarded, Array.from({ length: 8 }, () => [2, 30]));
    assert.deepEqual(report.toolCalls, [true, true]);
  } finally {
    await browser.close();
    server.close();
  }
});
