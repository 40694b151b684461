// Loads pkg/browser.mjs in headless Chromium (Debian's, never a downloaded
// one) from a static server on 127.0.0.1 and checks the browser entry: one
// module (scripts/build.sh inlines the loader's imports), unusable before
// ready(), then the same verdicts as in Node.
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

export function serveRepo(overrides = {}) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path.includes("..")) return res.writeHead(403).end();
    try {
      const body = await readFile(join(root, path));
      const type = overrides[extname(path)] ?? types[extname(path)] ?? "application/octet-stream";
      res.writeHead(200, { "content-type": type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export async function launchChromium() {
  const { chromium: driver } = await import("playwright-core");
  return driver.launch({
    executablePath: chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

test("the package's browser entry is one module, which fetches the wasm alone", async () => {
  const manifest = JSON.parse(await readFile(join(root, "pkg/package.json"), "utf8"));
  // The page below loads this file, the one browsers and bundlers resolve.
  assert.equal(manifest.exports["."].browser, "./browser.mjs");
  assert.equal(manifest.exports["./browser"].default, "./browser.mjs");
  const { build } = await import("esbuild");
  const entry = join(root, "pkg/browser.mjs");
  const { metafile } = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: "esm", platform: "browser", external: ["*"], logLevel: "silent" });
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map(({ path, kind }) => `${kind} ${path}`));
  // Nothing to wait for but the wasm itself (and the optional peer, imported only when asked for).
  assert.deepEqual(imports, ["dynamic-import @opentelemetry/api"]);
  const source = await readFile(entry, "utf8");
  assert.ok(/new URL\("\.\/wasm\/guard_bg\.wasm",\s*import\.meta\.url\)/.test(source), "the entry finds the wasm beside itself");
});

test("the browser entry loads with ready() and gives the same verdicts", async () => {
  assert.ok(existsSync(chromium), `no Chromium at ${chromium}: scripts/setup.sh installs Debian's package`);
  const server = await serveRepo();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/tests/browser/page.html`);
    await page.waitForFunction(() => window.__report !== undefined || false, null, { timeout: 20000 });
    const report = await page.evaluate(() => window.__report);
    assert.deepEqual(problems, []);
    assert.match(report.beforeReady, /await ready\(\)/);
    assert.equal(report.valid.ok, true);
    assert.equal(report.valid.rescue, "code_fence");
    assert.deepEqual(report.valid.value, { d: "2024-02-29" });
    assert.equal(report.invalid.failure, "schema");
    assert.deepEqual(report.invalid.errors.map((e) => [e.path, e.code]), [["/d", "format"]]);
    assert.deepEqual(report.truncated, { truncated: true, finishReason: "MAX_TOKENS" });
    assert.deepEqual(report.schemaError, { isSchemaError: true, isError: true, code: "invalid_schema" });
    assert.deepEqual(report.guarded, { value: { d: "2024-01-01" }, attempts: 2, calls: 2 });
    // A stream check, rejected as it streams (an impossible date closes early), ends with its
    // rejection: checkOutput's verdict, and the byte at which the stream was stopped.
    assert.deepEqual(report.streamStates, ["pending", "rejected"]);
    const { atByte, ...streamVerdict } = report.streamEnd;
    assert.equal(typeof atByte, "number");
    assert.deepEqual(streamVerdict, report.streamExpected);
    assert.equal(report.streamEnd.failure, "schema");
    // guardedStream stops the same stream early (aborting its signal), resamples and accepts;
    // the stopped attempt never reached its usage part.
    assert.deepEqual(report.guardedStream, { value: { d: "2024-01-01" }, attempts: 2, stoppedEarly: [true, false], firstAborted: true, input: 3 });
    // The optional peer dependency is never needed to load; asked for without it, a typed error.
    assert.deepEqual(report.telemetry, { name: "TypeError", code: "invalid_argument", names: true, calls: 0 });
  } finally {
    await browser.close();
    server.close();
  }
});

/** Loads tests/browser/early-page.html (the package's browser entry) and gives its report and anything the page complained of. */
async function earlyLoad(overrides) {
  const server = await serveRepo(overrides);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (message) => message.type() === "warning" && problems.push(message.text()));
    await page.goto(`http://127.0.0.1:${server.address().port}/tests/browser/early-page.html?entry=/pkg/browser.mjs`);
    await page.waitForFunction(() => window.__report !== undefined, null, { timeout: 20000 });
    return { report: await page.evaluate(() => window.__report), problems };
  } finally {
    await browser.close();
    server.close();
  }
}

test("the browser entry fetches and compiles the wasm while it is being imported, streaming where the server sends application/wasm", async () => {
  assert.ok(existsSync(chromium), `no Chromium at ${chromium}: scripts/setup.sh installs Debian's package`);
  const { report, problems } = await earlyLoad();
  assert.deepEqual(problems, []);
  // The request went out before the import resolved, not when ready() was called.
  assert.equal(report.requestedWhileImporting, true);
  assert.equal(report.requests, 1);
  // Compiled as the bytes arrive, then instantiated from the compiled module by ready().
  assert.deepEqual(report.beforeReady, [["compileStreaming", "Response"]]);
  assert.deepEqual(report.calls, [["compileStreaming", "Response"], ["instantiate", "Module"]]);
  assert.equal(report.ok, true);
});

test("served as another type than application/wasm, the wasm is compiled from its bytes, without a warning", async () => {
  assert.ok(existsSync(chromium), `no Chromium at ${chromium}: scripts/setup.sh installs Debian's package`);
  const { report, problems } = await earlyLoad({ ".wasm": "application/octet-stream" });
  assert.deepEqual(problems, []);
  assert.equal(report.requestedWhileImporting, true);
  assert.equal(report.requests, 1);
  assert.deepEqual(report.calls, [["compile", "bytes"], ["instantiate", "Module"]]);
  assert.equal(report.ok, true);
});

test("after a trap the browser entry re-instantiates and the next call works", async () => {
  assert.ok(existsSync(join(root, "target/trap-pkg/browser.mjs")), "target/trap-pkg is missing: run scripts/build-trap.sh");
  const server = await serveRepo();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/tests/browser/trap-page.html`);
    await page.waitForFunction(() => window.__report !== undefined || false, null, { timeout: 30000 });
    const report = await page.evaluate(() => window.__report);
    assert.deepEqual(problems, []);
    assert.equal(report.before, true);
    assert.deepEqual(report.trap, { code: "internal", isRuntimeError: true });
    assert.equal(report.traps, 1);
    assert.deepEqual(report.after, [["/d", "format"]]);
    assert.equal(report.afterPlain, true);
  } finally {
    await browser.close();
    server.close();
  }
});
