// Module load to first verdict in a real browser: headless Chromium
// (playwright-core driving the system's chromium, or CHROMIUM=path), the
// page served from 127.0.0.1 by this process, each load in a fresh browser
// context (an empty cache). Ours: import the package's browser entry (which
// starts fetching the wasm, served as application/wasm, and compiling it
// with WebAssembly.compileStreaming as it is evaluated), `await ready()`
// (the compiled module instantiated), compileSchema, checkOutput of the
// small workload. ajv: import one bundle of ajv + ajv-formats (esbuild,
// minified), new Ajv2020, addFormats, compile, validate of the same
// document. Each time runs from just before the import to the first
// verdict; "from navigation" adds the page's own load. The page says its
// result on the console, so the driver runs nothing in the page while it
// loads. The package's browser entry is one file (the loader and its
// modules inlined by scripts/build.sh); a third row loads the same loader
// as separate modules (js/browser.mjs and what it imports, from pkg/),
// which tells what the module graph's requests cost. --baseline DIR adds
// the browser entry of another build of the package (DIR is its pkg/, e.g.
// one of main) as a fourth row, loaded in the same rounds, so that a change
// is measured against what it changes, side by side. Each of our rows is
// also given in its three spans: the entry imported, the wasm ready
// (`await ready()` returned), the first verdict.
//   node bench/load-browser.mjs [--repeats N] [--markdown] [--baseline DIR]
import { createServer } from "node:http";
import { readFileSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, extname, normalize, resolve } from "node:path";
import { chromium } from "playwright-core";
import { smallWorkload } from "./workloads.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const repeatsAt = args.indexOf("--repeats");
const REPEATS = repeatsAt >= 0 ? Number(args[repeatsAt + 1]) : 11;
const MARKDOWN = args.includes("--markdown");
const baselineAt = args.indexOf("--baseline");
const BASELINE = baselineAt >= 0 ? resolve(args[baselineAt + 1]) : null;
const root = new URL("../", import.meta.url).pathname;
if (!existsSync(join(root, "pkg/browser.mjs"))) {
  console.error("pkg/ is not built (bash scripts/build.sh)");
  process.exit(2);
}
if (BASELINE && !existsSync(join(BASELINE, "browser.mjs"))) {
  console.error(`--baseline ${BASELINE}: no browser.mjs there (give a built pkg/ directory)`);
  process.exit(2);
}
const ENTRIES = { ours: "/pkg/browser.mjs", modules: "/pkg/browser-modules.mjs", baseline: "/baseline/browser.mjs" };

const dir = mkdtempSync(join(tmpdir(), "load-browser-"));
const bundle = join(dir, "ajv.mjs");
{
  const entry = join(dir, "ajv-entry.mjs");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(entry, `export { default as Ajv2020 } from "ajv/dist/2020.js";\nexport { default as addFormats } from "ajv-formats";\n`);
  execFileSync(join(root, "node_modules/.bin/esbuild"), [entry, "--bundle", "--minify", "--format=esm", "--platform=browser",
    `--outfile=${bundle}`, "--log-level=warning"], { cwd: root, env: { ...process.env, NODE_PATH: join(root, "node_modules") } });
}
// The browser loader as separate modules (served beside browser.mjs, so that
// its imports and the wasm's URL resolve to the package's files).
const oursModules = join(root, "js/browser.mjs");

const { schema, text } = smallWorkload();
const page = (lib) => `<!doctype html><meta charset="utf-8"><script type="module">
const schema = ${JSON.stringify(schema)};
const text = ${JSON.stringify(text)};
const start = performance.now();
let valid;
if (${JSON.stringify(lib)} !== "ajv") {
  const { ready, compileSchema, checkOutput } = await import(${JSON.stringify(ENTRIES[lib] ?? "")});
  window.__imported = performance.now() - start;
  await ready();
  window.__ready = performance.now() - start;
  valid = checkOutput(text, compileSchema(schema), { maxErrors: 5 }).ok;
} else {
  const { Ajv2020, addFormats } = await import("/ajv/ajv.mjs");
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  valid = ajv.compile(schema)(JSON.parse(text));
}
const end = performance.now();
// Said on the console, which the driver hears without running anything in the page.
console.log(JSON.stringify({ loadBrowserResult: { valid, ms: end - start, fromNavigation: end, imported: window.__imported, ready: window.__ready } }));
</script>`;

const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const bytesServed = new Map();
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  let file = null;
  if (url.pathname === "/page.html") {
    res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store" });
    res.end(page(url.searchParams.get("lib")));
    return;
  }
  if (url.pathname === "/pkg/browser-modules.mjs") file = oursModules;
  else if (url.pathname.startsWith("/pkg/")) file = join(root, normalize(url.pathname));
  else if (BASELINE && url.pathname.startsWith("/baseline/")) file = join(BASELINE, normalize(url.pathname.slice("/baseline/".length)));
  else if (url.pathname === "/ajv/ajv.mjs") file = bundle;
  const inside = file && (file.startsWith(root.replace(/\/$/, "")) || file === bundle || (BASELINE && file.startsWith(BASELINE)));
  if (!inside || !existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  const body = readFileSync(file);
  bytesServed.set(url.pathname, body.length);
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true });
const LIBS = BASELINE ? ["ours", "baseline", "modules", "ajv"] : ["ours", "modules", "ajv"];
const samples = Object.fromEntries(LIBS.map((lib) => [lib, []]));
const navigation = Object.fromEntries(LIBS.map((lib) => [lib, []]));
const phases = Object.fromEntries(LIBS.map((lib) => [lib, { imported: [], ready: [] }]));
try {
  for (let i = 0; i < REPEATS + 1; i++) {
    for (const lib of i % 2 ? LIBS : [...LIBS].reverse()) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      // The result comes as a console message: polling for it (waitForFunction)
      // would evaluate the driver's own script in the page while it loads.
      const said = tab.waitForEvent("console", { predicate: (message) => message.text().startsWith('{"loadBrowserResult"'), timeout: 30_000 });
      await tab.goto(`${origin}/page.html?lib=${lib}`);
      const result = JSON.parse((await said).text()).loadBrowserResult;
      await context.close();
      if (result.valid !== true) throw new Error(`${lib}: wrong first verdict`);
      // The first round warms the server and the browser process, not a cache.
      if (i === 0) continue;
      samples[lib].push(result.ms);
      navigation[lib].push(result.fromNavigation);
      if (lib !== "ajv") { phases[lib].imported.push(result.imported); phases[lib].ready.push(result.ready); }
    }
  }
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}

const version = browser.version();
const ours = median(samples.ours), ajv = median(samples.ajv);
const ratio = (lib) => `${(median(samples[lib]) / ajv).toFixed(2)}x`;
const spans = (lib) => {
  const imported = median(phases[lib].imported), ready = median(phases[lib].ready), verdict = median(samples[lib]);
  return `| ${imported.toFixed(1)} | ${ready.toFixed(1)} | ${verdict.toFixed(1)} |`;
};
const lines = [
  `Headless Chromium ${version}, ${REPEATS} fresh contexts per library (empty cache), medians in ms:`,
  "",
  "| library | import to first verdict | from navigation | ours/ajv |",
  "| --- | ---: | ---: | ---: |",
  `| ours: the package's browser entry, one file (wasm fetched and compiled from import, compileStreaming + compileSchema + checkOutput) | ${ours.toFixed(1)} | ${median(navigation.ours).toFixed(1)} | ${ratio("ours")} |`,
  ...(BASELINE ? [`| the baseline's browser entry (${BASELINE}) | ${median(samples.baseline).toFixed(1)} | ${median(navigation.baseline).toFixed(1)} | ${ratio("baseline")} |`] : []),
  `| ours, the same loader as separate modules (js/browser.mjs) | ${median(samples.modules).toFixed(1)} | ${median(navigation.modules).toFixed(1)} | ${ratio("modules")} |`,
  `| ajv allErrors:true + ajv-formats (one minified bundle) | ${ajv.toFixed(1)} | ${median(navigation.ajv).toFixed(1)} | — |`,
  "",
  "In spans (medians, ms from just before the import): the entry imported, the wasm ready (`await ready()` returned), the first verdict.",
  "",
  "| library | imported | wasm ready | first verdict |",
  "| --- | ---: | ---: | ---: |",
  `| ours, one file ${spans("ours")}`,
  ...(BASELINE ? [`| the baseline, one file ${spans("baseline")}`] : []),
  `| ours, separate modules ${spans("modules")}`,
  ""
];
console.log(MARKDOWN ? lines.join("\n") : lines.join("\n").replace(/\|/g, " "));
