// `structured-output-guard audit`: the command line (spawned with the runtime
// running this suite, so it is exercised under Node and under Bun) and the
// audit module behind it. Expected figures come from the sample log's own
// description of each line (examples/audit/generate.mjs), not from the audit.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import * as guard from "../../../pkg/node.mjs";
import { Audit, LineSplitter, collapseIndices, formatReport, loadSchema } from "../../../pkg/audit.mjs";
import { repeatedSampleLog, sampleCases, sampleLog } from "../../../examples/audit/generate.mjs";

const CLI = fileURLToPath(new URL("../../../pkg/cli.mjs", import.meta.url));
const SCHEMA_FILE = fileURLToPath(new URL("../../../examples/audit/schema.json", import.meta.url));
const LOG_FILE = fileURLToPath(new URL("../../../examples/audit/responses.jsonl", import.meta.url));
const SCHEMA = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));
const CASES = sampleCases();
/** For tests that spawn the CLI: runtimes' default per-test timeouts are shorter than a busy machine may need. */
const SPAWNS = { timeout: 60_000 };
const FAILURES = ["truncated", "empty", "unparseable", "not_object", "schema"];

/** Runs the CLI; `input` (string, Buffer or async iterable of Buffers) is piped to its stdin. */
function runCli(args, { input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", reject);
    let fed = Promise.resolve();
    if (input === undefined) child.stdin.end();
    else if (typeof input === "string" || Buffer.isBuffer(input)) child.stdin.end(input);
    else fed = pipeline(Readable.from(input), child.stdin);
    child.on("close", (code) => {
      fed.then(
        () => resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
        reject,
      );
    });
  });
}

async function auditJson(args, options) {
  const result = await runCli([...args, "--json"], options);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

// ---------------------------------------------------------------------------
// What the sample log should give, worked out from each line's description
// ---------------------------------------------------------------------------

function emptySpend() {
  return { responses: 0, input: 0, output: 0, total: 0, cost: 0, costReported: 0 };
}

/** The audit a log of these cases should produce, `repeats` times over. */
function expectedFor(cases, { formats = "assert" } = {}) {
  const outcomes = new Map([["accepted", 0], ...FAILURES.map((f) => [f, 0])]);
  const spend = new Map();
  const issues = new Map();
  const codes = new Map();
  const bad = [];
  const requests = new Map();
  let fence = 0;
  let requestCount = 0;
  let firstTry = 0;
  let afterRetry = 0;
  cases.forEach((c, index) => {
    if (c.expect === "bad") {
      bad.push({ line: index + 1, reason: c.reason });
      return;
    }
    let outcome = c.expect;
    let caseIssues = c.issues ?? [];
    if (formats === "annotate") caseIssues = caseIssues.filter(([, code]) => code !== "format");
    if (outcome === "schema" && caseIssues.length === 0) outcome = "accepted";
    outcomes.set(outcome, outcomes.get(outcome) + 1);
    if (outcome === "accepted" && c.fence) fence += 1;
    if (outcome === "schema") {
      for (const [path, code] of caseIssues) {
        const key = `${path.split("/").map((s) => (/^\d+$/.test(s) ? "*" : s)).join("/")} ${code}`;
        issues.set(key, (issues.get(key) ?? 0) + 1);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    }
    const usage = guard.normalizeUsage(c.line);
    const s = spend.get(outcome) ?? emptySpend();
    s.responses += 1;
    s.input += usage.tokens?.input ?? 0;
    s.output += usage.tokens?.output ?? 0;
    s.total += usage.tokens?.total ?? 0;
    if (typeof usage.cost?.total === "number") {
      s.cost += usage.cost.total;
      s.costReported += 1;
    }
    spend.set(outcome, s);

    const id = c.line.requestId;
    const ok = outcome === "accepted";
    if (id === undefined || !requests.has(id)) {
      requestCount += 1;
      if (ok) firstTry += 1;
      if (id !== undefined) requests.set(id, ok);
    } else if (ok && !requests.get(id)) {
      requests.set(id, true);
      afterRetry += 1;
    }
  });
  const responses = cases.length - bad.length;
  return { lines: cases.length, responses, bad, outcomes, fence, spend, issues, codes, requestCount, firstTry, afterRetry };
}

const EXPECTED = expectedFor(CASES);

function sumSpend(expected, names) {
  const total = emptySpend();
  for (const name of names) {
    const s = expected.spend.get(name) ?? emptySpend();
    for (const k of Object.keys(total)) total[k] += s[k];
  }
  return total;
}

function assertSpend(actual, expected, what) {
  assert.equal(actual.tokens.input, expected.input, `${what}: input tokens`);
  assert.equal(actual.tokens.output, expected.output, `${what}: output tokens`);
  assert.equal(actual.tokens.total, expected.total, `${what}: total tokens`);
  assert.equal(actual.costReported, expected.costReported, `${what}: responses with a cost`);
  assert.ok(Math.abs(actual.cost - expected.cost) < 1e-8, `${what}: cost ${actual.cost} vs ${expected.cost}`);
}

const percent = (n, of) => `${((100 * n) / of).toFixed(1)}%`;

// ---------------------------------------------------------------------------

describe("audit: the sample log", { timeout: 60_000 }, () => {
  let report;
  before(async () => {
    report = await auditJson(["audit", "--schema", SCHEMA_FILE, "--top", "50", LOG_FILE]);
  });

  test("the committed log is the one the generator describes", () => {
    assert.equal(readFileSync(LOG_FILE, "utf8"), sampleLog(CASES));
    assert.ok(CASES.length >= 40 && CASES.length <= 80, `${CASES.length} lines`);
    for (const expect of ["accepted", "bad", ...FAILURES]) {
      assert.ok(CASES.some((c) => c.expect === expect), `the sample has a ${expect} line`);
    }
  });

  test("line, response and bad-line counts", () => {
    assert.equal(report.lines.total, EXPECTED.lines);
    assert.equal(report.lines.responses, EXPECTED.responses);
    assert.equal(report.lines.bad, EXPECTED.bad.length);
    assert.deepEqual(report.lines.badLines, EXPECTED.bad);
    assert.equal(report.lines.badReasons.not_json, EXPECTED.bad.filter((b) => b.reason === "not_json").length);
    assert.equal(report.lines.badReasons.not_object, EXPECTED.bad.filter((b) => b.reason === "not_object").length);
  });

  test("accepted, rejected and every failure class with its share", () => {
    const accepted = EXPECTED.outcomes.get("accepted");
    assert.equal(report.responses.checked, EXPECTED.responses);
    assert.equal(report.responses.accepted, accepted);
    assert.equal(report.responses.rejected, EXPECTED.responses - accepted);
    assert.equal(report.responses.acceptedFromCodeFence, EXPECTED.fence);
    assert.deepEqual(Object.keys(report.failures), FAILURES);
    for (const failure of FAILURES) {
      assert.equal(report.failures[failure].count, EXPECTED.outcomes.get(failure), failure);
      assert.equal(report.failures[failure].share, EXPECTED.outcomes.get(failure) / EXPECTED.responses, failure);
    }
  });

  test("tokens and cost per failure class, on rejected responses and in total", () => {
    for (const failure of FAILURES) assertSpend(report.failures[failure], sumSpend(EXPECTED, [failure]), failure);
    assertSpend(report.spend.accepted, sumSpend(EXPECTED, ["accepted"]), "accepted");
    assertSpend(report.spend.rejected, sumSpend(EXPECTED, FAILURES), "rejected");
    assertSpend(report.spend.all, sumSpend(EXPECTED, ["accepted", ...FAILURES]), "all");
    assert.ok(report.spend.rejected.tokens.total > 0 && report.spend.rejected.cost > 0);
  });

  test("requests: lines sharing a requestId are attempts of one request", () => {
    assert.equal(report.requests.total, EXPECTED.requestCount);
    assert.equal(report.requests.acceptedFirstTry, EXPECTED.firstTry);
    assert.equal(report.requests.acceptedAfterRetry, EXPECTED.afterRetry);
    assert.equal(report.requests.neverAccepted, EXPECTED.requestCount - EXPECTED.firstTry - EXPECTED.afterRetry);
    assert.equal(report.requests.groupedLines, CASES.filter((c) => c.line?.requestId !== undefined).length);
    assert.ok(report.requests.total < EXPECTED.responses, "the sample has retries");
  });

  test("top failing paths and codes, array indices collapsed", () => {
    const byKey = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    const actual = report.issues.top.map(({ path, code, count }) => [`${path} ${code}`, count]).sort((a, b) => byKey(a[0], b[0]));
    assert.deepEqual(actual, [...EXPECTED.issues].sort((a, b) => byKey(a[0], b[0])));
    for (let i = 1; i < report.issues.top.length; i += 1) assert.ok(report.issues.top[i - 1].count >= report.issues.top[i].count);
    const codes = report.issues.codes.map(({ code, count }) => [code, count]).sort((a, b) => byKey(a[0], b[0]));
    assert.deepEqual(codes, [...EXPECTED.codes].sort((a, b) => byKey(a[0], b[0])));
    assert.equal(report.issues.listed, [...EXPECTED.issues.values()].reduce((a, b) => a + b, 0));
    assert.ok(report.issues.top.some(({ path }) => path.includes("*")), "an indexed path is collapsed");
  });

  test("--top limits the paths and codes listed", SPAWNS, async () => {
    const small = await auditJson(["audit", "--schema", SCHEMA_FILE, "--top", "2", LOG_FILE]);
    assert.equal(small.issues.top.length, 2);
    assert.equal(small.issues.codes.length, 2);
    const most = Math.max(...EXPECTED.issues.values());
    assert.equal(small.issues.top[0].count, most);
  });

  test("--json: one JSON object on stdout with the documented members", () => {
    for (const key of ["input", "schema", "options", "lines", "responses", "failures", "requests", "issues", "spend"]) {
      assert.ok(key in report, key);
    }
    assert.equal(report.input, LOG_FILE);
    assert.equal(report.schema.file, SCHEMA_FILE);
    assert.equal(report.schema.hash, guard.compileSchema(SCHEMA).schemaHash);
    assert.equal(report.schema.dialect, "json-schema");
    assert.equal(report.schema.degraded, false);
    assert.equal(report.responses.degraded, 0);
    assert.deepEqual(report.options, { maxErrors: 5, toolName: null, formats: "assert", dialect: null, onInvalidSchema: "degrade", maxLineBytes: 16 * 1024 * 1024, top: 50 });
  });

  test("the text table shows each figure", SPAWNS, async () => {
    const { code, stdout, stderr } = await runCli(["audit", "--schema", SCHEMA_FILE, LOG_FILE]);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    const lines = stdout.split("\n");
    const row = (label, ...cells) => {
      const pattern = new RegExp(`^${label}\\s+${cells.map((c) => c.replace(/[.%]/g, "\\$&")).join("\\s+")}(\\s|$)`);
      assert.ok(lines.some((l) => pattern.test(l)), `a row ${pattern}\n${stdout}`);
    };
    const fmt = (n) => n.toLocaleString("en-US");
    row("lines", fmt(EXPECTED.lines));
    row("  responses checked", fmt(EXPECTED.responses));
    row("  bad lines", fmt(EXPECTED.bad.length));
    const accepted = EXPECTED.outcomes.get("accepted");
    row("accepted", fmt(accepted), percent(accepted, EXPECTED.responses));
    row("rejected", fmt(EXPECTED.responses - accepted), percent(EXPECTED.responses - accepted, EXPECTED.responses));
    for (const failure of FAILURES) {
      const n = EXPECTED.outcomes.get(failure);
      const s = sumSpend(EXPECTED, [failure]);
      row(`  ${failure}`, fmt(n), percent(n, EXPECTED.responses), fmt(s.input), fmt(s.output), fmt(s.total));
    }
    row("  accepted first try", fmt(EXPECTED.firstTry), percent(EXPECTED.firstTry, EXPECTED.requestCount));
    row("  accepted after a retry", fmt(EXPECTED.afterRetry));
    for (const { line, reason } of EXPECTED.bad) {
      assert.match(stdout, new RegExp(`line ${line} \\(${reason === "not_json" ? "not JSON" : "not a JSON object"}\\)`));
    }
    const [topKey, topCount] = [...EXPECTED.issues].sort((a, b) => b[1] - a[1])[0];
    const [topPath, topCode] = topKey.split(" ");
    row("\\s*" + topCount, topPath.replace(/\*/g, "\\*"), topCode);
    assert.doesNotMatch(stdout, /\x1b\[/, "no escape codes when stdout is not a terminal");
  });
});

describe("audit: inputs and options", { timeout: 60_000 }, () => {
  let dir;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "sog-audit-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('stdin: "-" and no file read the same log as the file', SPAWNS, async () => {
    const log = readFileSync(LOG_FILE);
    const fromFile = await auditJson(["audit", "--schema", SCHEMA_FILE, LOG_FILE]);
    const dash = await auditJson(["audit", "--schema", SCHEMA_FILE, "-"], { input: log });
    const none = await auditJson(["audit", "--schema", SCHEMA_FILE], { input: log });
    for (const r of [dash, none]) {
      assert.equal(r.input, "-");
      const { input: _a, ...rest } = r;
      const { input: _b, ...expected } = fromFile;
      assert.deepEqual(rest, expected);
    }
  });

  test("stdin in small pieces gives the same counts as in one piece", SPAWNS, async () => {
    const log = readFileSync(LOG_FILE);
    async function* pieces() {
      for (let i = 0; i < log.length; i += 997) yield log.subarray(i, i + 997);
    }
    const whole = await auditJson(["audit", "--schema", SCHEMA_FILE], { input: log });
    const split = await auditJson(["audit", "--schema", SCHEMA_FILE], { input: pieces() });
    assert.deepEqual(split, whole);
  });

  test("bad lines are counted with their line numbers; only the first ten are listed", SPAWNS, async () => {
    const good = JSON.stringify({ content: '{"a":1}', finishReason: "stop" });
    const lines = [];
    const badNumbers = [];
    for (let i = 1; i <= 40; i += 1) {
      if (i % 3 === 0) {
        lines.push(i % 2 === 0 ? "[1, 2]" : "{not json");
        badNumbers.push({ line: i, reason: i % 2 === 0 ? "not_object" : "not_json" });
      } else if (i === 20) {
        lines.push("   ");
      } else {
        lines.push(good);
      }
    }
    const schemaFile = join(dir, "a.json");
    writeFileSync(schemaFile, JSON.stringify({ type: "object", required: ["a"] }));
    const r = await auditJson(["audit", "--schema", schemaFile], { input: lines.join("\n") });
    assert.equal(r.lines.total, 40);
    assert.equal(r.lines.bad, badNumbers.length);
    assert.equal(r.lines.blank, 1);
    assert.equal(r.lines.responses, 40 - badNumbers.length - 1);
    assert.deepEqual(r.lines.badLines, badNumbers.slice(0, 10));
    assert.equal(r.responses.accepted, r.lines.responses);
    const text = await runCli(["audit", "--schema", schemaFile], { input: lines.join("\n") });
    assert.match(text.stdout, new RegExp(`and ${badNumbers.length - 10} more`));
  });

  test("a line over --max-line-bytes is a bad line, and the lines after it are read", SPAWNS, async () => {
    const schemaFile = join(dir, "b.json");
    writeFileSync(schemaFile, JSON.stringify({ type: "object" }));
    const good = JSON.stringify({ content: "{}", finishReason: "stop" });
    const long = JSON.stringify({ content: `{"x":"${"y".repeat(5000)}"}`, finishReason: "stop" });
    const input = [good, long, good, long].join("\n"); // the last line has no newline
    const r = await auditJson(["audit", "--schema", schemaFile, "--max-line-bytes", "1000"], { input });
    assert.equal(r.lines.total, 4);
    assert.equal(r.lines.bad, 2);
    assert.equal(r.lines.badReasons.too_long, 2);
    assert.deepEqual(r.lines.badLines, [{ line: 2, reason: "too_long" }, { line: 4, reason: "too_long" }]);
    assert.equal(r.responses.accepted, 2);
    const roomy = await auditJson(["audit", "--schema", schemaFile, "--max-line-bytes", String(long.length)], { input });
    assert.equal(roomy.lines.bad, 0);
    assert.equal(roomy.responses.accepted, 4);
  });

  test("--formats annotate stops checking formats", SPAWNS, async () => {
    const expected = expectedFor(CASES, { formats: "annotate" });
    assert.ok(expected.outcomes.get("accepted") > EXPECTED.outcomes.get("accepted"), "the sample has format-only failures");
    const r = await auditJson(["audit", "--schema", SCHEMA_FILE, "--formats", "annotate", "--top", "50", LOG_FILE]);
    assert.equal(r.responses.accepted, expected.outcomes.get("accepted"));
    assert.equal(r.failures.schema.count, expected.outcomes.get("schema"));
    assert.equal(r.issues.codes.some(({ code }) => code === "format"), false);
    assert.equal(r.options.formats, "annotate");
  });

  test("--max-errors caps the issues counted per response", SPAWNS, async () => {
    const schemaFile = join(dir, "c.json");
    writeFileSync(schemaFile, JSON.stringify({ type: "object", properties: { xs: { type: "array", items: { type: "integer" } } } }));
    const line = JSON.stringify({ content: JSON.stringify({ xs: ["a", "b", "c", "d", "e", "f", "g", "h"] }) });
    const capped = await auditJson(["audit", "--schema", schemaFile, "--max-errors", "3"], { input: `${line}\n${line}\n` });
    assert.equal(capped.issues.listed, 6);
    assert.equal(capped.issues.responsesWithMore, 2);
    assert.deepEqual(capped.issues.top, [{ path: "/xs/*", code: "type", count: 6 }]);
    const all = await auditJson(["audit", "--schema", schemaFile, "--max-errors", "20", "--exact-paths"], { input: `${line}\n` });
    assert.equal(all.issues.listed, 8);
    assert.equal(all.issues.responsesWithMore, 0);
    assert.equal(all.issues.top.length, 8);
    assert.ok(all.issues.top.every(({ path }) => /^\/xs\/\d$/.test(path)));
  });

  test("a response-format wrapper in the schema file is read as its schema", SPAWNS, async () => {
    const wrapperFile = join(dir, "wrapper.json");
    writeFileSync(wrapperFile, JSON.stringify({ name: "invoice", strict: true, schema: SCHEMA }));
    const wrapped = await auditJson(["audit", "--schema", wrapperFile, LOG_FILE]);
    const bare = await auditJson(["audit", "--schema", SCHEMA_FILE, LOG_FILE]);
    assert.equal(wrapped.schema.hash, bare.schema.hash);
    assert.deepEqual(wrapped.failures, bare.failures);
    assert.equal(wrapped.responses.accepted, bare.responses.accepted);
  });

  test("exit code: 0 with rejections, 1 with --fail-on-reject, 0 with --fail-on-reject on a clean log", SPAWNS, async () => {
    assert.equal((await runCli(["audit", "--schema", SCHEMA_FILE, LOG_FILE])).code, 0);
    const failing = await runCli(["audit", "--schema", SCHEMA_FILE, "--fail-on-reject", LOG_FILE]);
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /^structured-output-guard audit/);
    const clean = CASES.filter((c) => c.expect === "accepted").map((c) => JSON.stringify(c.line)).join("\n");
    assert.equal((await runCli(["audit", "--schema", SCHEMA_FILE, "--fail-on-reject"], { input: clean })).code, 0);
    const badOnly = `${clean}\nnot json\n`;
    assert.equal((await runCli(["audit", "--schema", SCHEMA_FILE, "--fail-on-reject"], { input: badOnly })).code, 1);
  });

  test("--help prints the usage and exits 0", SPAWNS, async () => {
    const { code, stdout } = await runCli(["--help"]);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: structured-output-guard audit --schema/);
    assert.match(stdout, /--fail-on-reject/);
  });
});

describe("audit: bad arguments exit 2 with one clear message", { timeout: 60_000 }, () => {
  let dir;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "sog-audit-args-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function refused(args, pattern) {
    const { code, stdout, stderr } = await runCli(args, { input: "" });
    assert.equal(code, 2, `exit code for ${args.join(" ")}: ${stderr}`);
    assert.equal(stdout, "");
    assert.equal(stderr.trimEnd().split("\n").length, 1, `one line: ${stderr}`);
    assert.match(stderr, /^structured-output-guard: /);
    assert.match(stderr, pattern);
    return stderr;
  }

  test("a schema file that does not exist", SPAWNS, async () => {
    await refused(["audit", "--schema", join(dir, "missing.json"), LOG_FILE], /cannot read the schema file .*missing\.json: no such file/);
  });

  test("a schema file that is not JSON", SPAWNS, async () => {
    const file = join(dir, "not-json.json");
    writeFileSync(file, "{ type: object");
    await refused(["audit", "--schema", file, LOG_FILE], /not-json\.json is not JSON/);
  });

  test("a schema file that is not JSON is refused without echoing its bytes", SPAWNS, async () => {
    const secret = `sk-proj-${"Q7x9".repeat(12)}`;
    const file = join(dir, "leaky.json");
    writeFileSync(file, `{"type": "object",\n "description": ${secret}}`);
    const stderr = await refused(["audit", "--schema", file, LOG_FILE], /leaky\.json is not JSON \(it stops being JSON at line 2, column \d+\)/);
    assert.ok(!stderr.includes("sk-proj"), stderr);
  });

  test("model-written keys that look like credentials are redacted in the table and in --json", SPAWNS, async () => {
    const secret = `sk-proj-${"Zk3m".repeat(12)}`;
    const schema = join(dir, "closed.json");
    writeFileSync(schema, JSON.stringify({ type: "object", additionalProperties: false, properties: { city: { type: "string" }, [secret]: { type: "integer" } } }));
    const log = join(dir, "leaky.jsonl");
    const lines = [JSON.stringify({ content: JSON.stringify({ city: "Oslo", [secret]: "not a number" }) }), JSON.stringify({ content: JSON.stringify({ city: 1, nested: { [secret]: 1 } }) })];
    writeFileSync(log, `${lines.join("\n")}\n`);
    const table = await runCli(["audit", "--schema", schema, log]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /\[redacted\]/);
    assert.ok(!table.stdout.includes(secret.slice(0, 20)), table.stdout);
    const json = await runCli(["audit", "--schema", schema, log, "--json"]);
    assert.equal(json.code, 0, json.stderr);
    assert.ok(!json.stdout.includes(secret.slice(0, 20)), json.stdout);
    assert.match(json.stdout, /\[redacted\]/);
  });

  test("an invalid schema gives the SchemaError message", SPAWNS, async () => {
    const invalid = { type: "object", properties: { a: { type: "integr" } } };
    let message;
    try {
      guard.compileSchema(invalid);
    } catch (error) {
      assert.equal(error.name, "SchemaError");
      message = error.message;
    }
    assert.ok(message, "compileSchema refuses the schema");
    const file = join(dir, "invalid.json");
    writeFileSync(file, JSON.stringify(invalid));
    const stderr = await refused(["audit", "--schema", file, "--on-invalid-schema", "throw", LOG_FILE], /invalid\.json is invalid/);
    assert.ok(stderr.includes(message), stderr);
  });

  test("by default an invalid schema degrades the audit to the parse-level checks, and the report and exit code say so", SPAWNS, async () => {
    const invalid = { type: "object", properties: { a: { type: "integr" } } };
    const file = join(dir, "degraded.json");
    writeFileSync(file, JSON.stringify(invalid));
    const table = await runCli(["audit", "--schema", file, LOG_FILE]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /degraded\.json \(not applied: the schema is invalid/);
    assert.match(table.stdout, /checked at the parse level only: the schema could not be applied/);
    assert.match(table.stderr, /degraded\.json could not be applied/);
    const json = await runCli(["audit", "--schema", file, LOG_FILE, "--json"]);
    const report = JSON.parse(json.stdout);
    assert.equal(report.schema.degraded, true);
    assert.match(report.schema.problem, /the schema is invalid/);
    assert.ok(report.responses.degraded > 0);
    assert.equal(report.responses.degraded, report.responses.checked);
    const strict = await runCli(["audit", "--schema", file, LOG_FILE, "--fail-on-reject"]);
    assert.equal(strict.code, 1, "a degraded audit fails --fail-on-reject");
    await refused(["audit", "--schema", file, "--on-invalid-schema", "ignore", LOG_FILE], /--on-invalid-schema is "degrade" or "throw"/);
  });

  test("an unknown flag", SPAWNS, async () => {
    await refused(["audit", "--schema", SCHEMA_FILE, "--colour", LOG_FILE], /--colour/);
  });

  test("no --schema, no command, an unknown command", SPAWNS, async () => {
    await refused(["audit", LOG_FILE], /--schema <file> is required/);
    await refused([], /a command is required/);
    await refused(["check", "--schema", SCHEMA_FILE], /unknown command "check"/);
  });

  test("option values that are not whole numbers or known modes", SPAWNS, async () => {
    await refused(["audit", "--schema", SCHEMA_FILE, "--top", "ten", LOG_FILE], /--top takes a whole number/);
    await refused(["audit", "--schema", SCHEMA_FILE, "--max-errors", "0", LOG_FILE], /--max-errors takes a whole number from 1/);
    await refused(["audit", "--schema", SCHEMA_FILE, "--formats", "strict", LOG_FILE], /--formats is "assert" or "annotate"/);
  });

  test("a log that cannot be read, or more than one log", SPAWNS, async () => {
    await refused(["audit", "--schema", SCHEMA_FILE, join(dir, "nope.jsonl")], /cannot read the log .*nope\.jsonl: no such file/);
    await refused(["audit", "--schema", SCHEMA_FILE, dir], /is a directory/);
    await refused(["audit", "--schema", SCHEMA_FILE, LOG_FILE, LOG_FILE], /one log at a time/);
  });
});

describe("audit module", () => {
  const { validator } = loadSchema({ type: "object", required: ["a"], properties: { a: { type: "integer" } } });
  const good = (extra = {}) => ({ content: '{"a":1}', finishReason: "stop", ...extra });
  const wrong = (extra = {}) => ({ content: '{"a":"x"}', finishReason: "stop", ...extra });

  function feed(audit, objects) {
    objects.forEach((o, i) => audit.line(JSON.stringify(o), i + 1));
    return audit.report();
  }

  test("LineSplitter gives the same lines however the bytes are chunked", () => {
    const text = Buffer.from('{"a":1}\r\n\nlong line here\n{"é":"ü"}\nlast');
    const collect = (size) => {
      const events = [];
      const splitter = new LineSplitter(12);
      for (let i = 0; i < text.length; i += size) splitter.push(text.subarray(i, i + size), (e) => events.push(e));
      splitter.end((e) => events.push(e));
      return events;
    };
    const expected = [
      { number: 1, text: '{"a":1}' },
      { number: 2, text: "" },
      { number: 3, tooLong: true, bytes: 14 },
      { number: 4, text: '{"é":"ü"}' },
      { number: 5, text: "last" },
    ];
    for (let size = 1; size <= text.length; size += 1) assert.deepEqual(collect(size), expected, `chunks of ${size}`);
  });

  test("LineSplitter: a line of exactly the limit is read, one byte more is not", () => {
    const events = [];
    const splitter = new LineSplitter(4);
    splitter.push(new TextEncoder().encode("abcd\nabcde\n"), (e) => events.push(e));
    splitter.end((e) => events.push(e));
    assert.deepEqual(events, [{ number: 1, text: "abcd" }, { number: 2, tooLong: true, bytes: 5 }]);
  });

  test("grouping: first try, after a retry, never accepted", () => {
    const report = feed(new Audit({ validator }), [
      wrong({ requestId: "r1" }),
      good({ requestId: "r2" }),
      good({ requestId: "r1" }),
      wrong({ request_id: 7 }),
      wrong({ request_id: 7 }),
      good(),
      wrong(),
      good({ requestId: "r2" }),
    ]);
    assert.equal(report.requests.total, 5);
    assert.equal(report.requests.acceptedFirstTry, 2);
    assert.equal(report.requests.acceptedAfterRetry, 1);
    assert.equal(report.requests.neverAccepted, 2);
    assert.equal(report.requests.retried, 3);
    assert.equal(report.requests.groupedLines, 6);
    assert.equal(report.responses.accepted, 4);
  });

  test("grouping remembers only the most recently seen request ids", () => {
    const lines = [wrong({ requestId: "a" }), wrong({ requestId: "b" }), wrong({ requestId: "c" }), good({ requestId: "a" })];
    const roomy = feed(new Audit({ validator, maxOpenRequests: 3 }), lines);
    assert.equal(roomy.requests.total, 3);
    assert.equal(roomy.requests.acceptedAfterRetry, 1);
    assert.equal(roomy.requests.forgotten, 0);
    const tight = feed(new Audit({ validator, maxOpenRequests: 2 }), lines);
    assert.equal(tight.requests.total, 4);
    assert.equal(tight.requests.acceptedFirstTry, 1);
    assert.equal(tight.requests.acceptedAfterRetry, 0);
    assert.equal(tight.requests.forgotten, 2);
  });

  test("the path table keeps at most maxPaths pairs and counts the rest together", () => {
    const { validator: v } = loadSchema({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } },
    });
    const lines = [{ content: '{"a":"x"}' }, { content: '{"a":"x","b":"x"}' }, { content: '{"c":"x","b":"x"}' }];
    const report = feed(new Audit({ validator: v, maxPaths: 2 }), lines);
    assert.equal(report.issues.listed, 5);
    // Equal counts are listed by path.
    assert.deepEqual(report.issues.top, [
      { path: "/a", code: "type", count: 2 },
      { path: "/b", code: "type", count: 2 },
    ]);
    assert.equal(report.issues.distinctTracked, 2);
    assert.equal(report.issues.untracked, 1);
    assert.match(formatReport(report), /1 more issues at other paths \(1 past the 2 distinct paths counted\)/);
  });

  test("collapseIndices replaces whole-number segments only", () => {
    assert.equal(collapseIndices("/items/12/tags/0"), "/items/*/tags/*");
    assert.equal(collapseIndices("/v2/01/x1"), "/v2/01/x1");
    assert.equal(collapseIndices(""), "");
  });

  test("a usage without a cost adds tokens but not to the cost count", () => {
    const report = feed(new Audit({ validator }), [
      good({ usage: { tokens: { input: 10, output: 5 }, cost: { input: 0.001, output: 0.002 } } }),
      wrong({ usage: { prompt_tokens: 7, completion_tokens: 3 } }),
      wrong(),
    ]);
    assert.deepEqual(
      [report.spend.all.tokens.input, report.spend.all.tokens.output, report.spend.all.tokens.total],
      [17, 8, 25],
    );
    assert.equal(report.spend.all.usageReported, 2);
    assert.equal(report.spend.all.costReported, 1);
    assert.equal(report.spend.all.cost, 0.003);
    assert.equal(report.spend.rejected.tokens.total, 10);
    assert.equal(report.spend.rejected.costReported, 0);
  });
});

describe("audit: a long log streams in constant memory", { timeout: 120_000 }, () => {
  test("a 219 MB log through a pipe, with 24 MB lines in it, peaks under 180 MB of memory", { timeout: 120_000 }, async () => {
    const repeats = 1600; // the sample log 1,600 times: 105,600 lines, 68 MB
    const hugeLines = 6; // each 24 MB, longer than the 1 MB line limit given below
    const huge = Buffer.alloc(24 * 1024 * 1024 + 1, "x");
    huge.write('{"content":"', 0);
    huge[huge.length - 1] = 10;
    let bytes = 0;
    async function* log() {
      let r = 0;
      for (const chunk of repeatedSampleLog(repeats, CASES)) {
        if (r % Math.floor(repeats / hugeLines) === 0 && r / Math.floor(repeats / hugeLines) < hugeLines) {
          bytes += huge.length;
          yield huge;
        }
        bytes += chunk.length;
        yield chunk;
        r += 1;
      }
    }
    const boundKb = 180 * 1024;
    const { code, stdout, stderr } = await runCli(
      ["audit", "--schema", SCHEMA_FILE, "--json", "--progress", "--max-line-bytes", String(1024 * 1024), "--debug-stats"],
      { input: log() },
    );
    assert.equal(code, 0, stderr);
    // Holding the log would take more than the bound by itself.
    assert.ok(bytes > boundKb * 1024, `the log is ${bytes} bytes`);

    const report = JSON.parse(stdout); // progress on stderr never reaches stdout
    const perRepeat = EXPECTED;
    assert.equal(report.lines.total, repeats * perRepeat.lines + hugeLines);
    assert.equal(report.lines.badReasons.too_long, hugeLines);
    assert.equal(report.lines.bad, repeats * perRepeat.bad.length + hugeLines);
    assert.equal(report.responses.accepted, repeats * perRepeat.outcomes.get("accepted"));
    for (const failure of FAILURES) assert.equal(report.failures[failure].count, repeats * perRepeat.outcomes.get(failure));
    assert.equal(report.requests.total, repeats * perRepeat.requestCount);
    assert.equal(report.requests.acceptedAfterRetry, repeats * perRepeat.afterRetry);
    assert.equal(report.spend.all.tokens.total, repeats * sumSpend(perRepeat, ["accepted", ...FAILURES]).total);

    const statsLine = stderr.split(/[\r\n]/).find((l) => l.startsWith("debug-stats "));
    assert.ok(statsLine, stderr);
    for (const l of stderr.split(/[\r\n]/).filter((x) => x.trim() !== "")) {
      assert.match(l, /^(audit: [\d,]+ lines, |debug-stats )/);
    }
    const stats = JSON.parse(statsLine.slice("debug-stats ".length));
    assert.equal(stats.bytes, bytes);
    assert.ok(stats.maxRssKb < boundKb, `peak RSS ${Math.round(stats.maxRssKb / 1024)} MB over ${Math.round(bytes / 1e6)} MB of log`);
  });
});
