// Streams a generated log of about 1 GB (the sample log of examples/audit
// repeated, request ids kept distinct) through `structured-output-guard
// audit` over a pipe, and reports wall time, lines and megabytes per second,
// and the CLI's peak resident memory. The log is never written to disk.
//
//   node bench/audit-1gb.mjs [--gb 1] [--runtime node|bun|<path>]
//
// Not part of the tests; needs a built pkg/ (bash scripts/build.sh).
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { repeatedSampleLog, sampleLog } from "../examples/audit/generate.mjs";

const { values } = parseArgs({ options: { gb: { type: "string", default: "1" }, runtime: { type: "string", default: "node" } } });
const runtime =
  values.runtime === "node" ? process.execPath : values.runtime === "bun" ? fileURLToPath(new URL("../node_modules/.bin/bun", import.meta.url)) : values.runtime;
const cli = fileURLToPath(new URL("../pkg/cli.mjs", import.meta.url));
const schema = fileURLToPath(new URL("../examples/audit/schema.json", import.meta.url));

const once = Buffer.byteLength(sampleLog());
const repeats = Math.ceil((Number(values.gb) * 1e9) / once);
let bytes = 0;
async function* log() {
  for (const chunk of repeatedSampleLog(repeats)) {
    bytes += chunk.length;
    yield chunk;
  }
}

const started = process.hrtime.bigint();
const child = spawn(runtime, [cli, "audit", "--schema", schema, "--json", "--debug-stats"], { stdio: ["pipe", "pipe", "pipe"] });
const out = [];
const err = [];
child.stdout.on("data", (c) => out.push(c));
child.stderr.on("data", (c) => err.push(c));
const closed = new Promise((resolve) => child.on("close", resolve));
// A child that stops early closes the pipe; its exit code and stderr say why.
const fed = await pipeline(Readable.from(log()), child.stdin).catch((error) => error);
const code = await closed;
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const stderr = Buffer.concat(err).toString("utf8");
if (code !== 0) {
  process.stderr.write(stderr);
  throw new Error(`the audit exited with ${code}`);
}
if (fed instanceof Error) throw fed;
const report = JSON.parse(Buffer.concat(out).toString("utf8"));
const stats = JSON.parse(stderr.split("\n").find((l) => l.startsWith("debug-stats ")).slice("debug-stats ".length));

const lines = report.lines.total;
const rows = [
  ["runtime", `${values.runtime} (${runtime})`],
  ["log", `${(bytes / 1e9).toFixed(2)} GB, ${lines.toLocaleString("en-US")} lines through a pipe`],
  ["wall time", `${seconds.toFixed(1)} s`],
  ["throughput", `${Math.round(lines / seconds).toLocaleString("en-US")} lines/s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s`],
  ["peak RSS", `${(stats.maxRssKb / 1024).toFixed(0)} MB`],
  ["accepted", `${report.responses.accepted.toLocaleString("en-US")} of ${report.responses.checked.toLocaleString("en-US")} responses`],
];
const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
