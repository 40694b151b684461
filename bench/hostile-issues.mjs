// What collecting the issues of an invalid response costs beside deciding
// that it is invalid, on schemas built to make the collection blow up: many
// bad property names, `anyOf`/`allOf` trees of references that share their
// subschemas, thousands of `required` names. Each case runs in a child
// process of the same runtime with a deadline, so a case that never finishes
// is reported as such instead of stopping the run.
//   node bench/hostile-issues.mjs [case ...]      (also: bun bench/hostile-issues.mjs)
// Prints, per case: isValid and checkOutput times (the fastest of a few
// runs), the check's time as a multiple of isValid's, the longest issue
// message and the verdict's size, and the wasm memory before and after the
// check.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { hostileCases } from "../tests/support/hostile-schemas.mjs";

const DEADLINE_MS = Number(process.env.DEADLINE_MS ?? 60000);
const runtime = typeof Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.version}`;
const MiB = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function runOne(name) {
  const guard = await import("../pkg/node.mjs");
  // The first verdict with issues pays for one-time set-up (the redaction
  // patterns, say); it is not what a case measures.
  guard.checkOutput('{"a":1}', { type: "object", properties: { a: { type: "string" } } });
  const made = hostileCases()[name]();
  const validator = guard.compileSchema(made.schema);
  const value = JSON.parse(made.text);
  // The fastest of a few runs, as long as they take under a second in all.
  const fastest = (fn) => {
    let best = Infinity;
    let result;
    for (let run = 0, spent = 0; run < 5 && spent < 1000; run++) {
      const started = performance.now();
      result = fn();
      const ms = performance.now() - started;
      best = Math.min(best, ms);
      spent += ms;
    }
    return [best, result];
  };
  const [isValidMs, valid] = fastest(() => validator.isValid(value));
  process.stderr.write("isValid finished\n");
  const before = guard.wasmMemoryBytes();
  const [checkMs, verdict] = fastest(() => guard.checkOutput(made.text, validator));
  const after = guard.wasmMemoryBytes();
  const longest = Math.max(0, ...(verdict.errors ?? []).map((e) => e.message.length));
  const normal = guard.checkOutput('{"city":"O"}', { type: "object", properties: { city: { type: "string", minLength: 2 } } });
  process.stdout.write(`${JSON.stringify({
    valid,
    isValidMs,
    checkMs,
    failure: verdict.failure,
    errors: verdict.errors?.length,
    moreErrors: verdict.moreErrors,
    longestMessage: longest,
    verdictBytes: JSON.stringify(verdict).length,
    memoryBefore: before,
    memoryAfter: after,
    normalAfter: normal.failure === "schema" && normal.errors[0].path === "/city",
  })}\n`);
}

function runAll(names) {
  console.log(`runtime: ${runtime}; deadline ${DEADLINE_MS / 1000} s per case`);
  console.log(
    `${"case".padEnd(34)} ${"isValid".padStart(9)} ${"check".padStart(10)} ${"ratio".padStart(8)} ${"message".padStart(9)} ${"verdict".padStart(9)}  wasm memory`,
  );
  for (const name of names) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--one", name], {
      encoding: "utf8",
      timeout: DEADLINE_MS,
      maxBuffer: 1 << 26,
    });
    const line = child.stdout?.trim().split("\n").pop();
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      const stage = child.stderr?.includes("isValid finished") ? "the check" : "isValid";
      const why = child.error?.code === "ETIMEDOUT" || child.signal
        ? `${stage} did not finish within ${DEADLINE_MS / 1000} s`
        : `failed: ${(child.stderr || "").trim().split("\n").slice(-3).join(" | ")}`;
      console.log(`${name.padEnd(34)} ${why}`);
      continue;
    }
    const ratio = r.checkMs / Math.max(r.isValidMs, 0.05);
    console.log(
      `${name.padEnd(34)} ${`${r.isValidMs.toFixed(1)} ms`.padStart(9)} ${`${r.checkMs.toFixed(1)} ms`.padStart(10)} ${`${ratio.toFixed(1)}x`.padStart(8)} ${`${r.longestMessage} B`.padStart(9)} ${`${r.verdictBytes} B`.padStart(9)}  ${MiB(r.memoryBefore)} -> ${MiB(r.memoryAfter)}${r.normalAfter ? "" : "  (the next normal check was WRONG)"}${r.valid ? "  (isValid said valid!)" : ""}`,
    );
  }
}

const args = process.argv.slice(2);
if (args[0] === "--one") {
  await runOne(args[1]);
} else {
  runAll(args.length ? args : Object.keys(hostileCases()));
}
