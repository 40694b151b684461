// Nothing a model, a provider, a schema's author or a caller wrote reaches a
// terminal or a log raw: every text the package prints or puts in a message
// (the audit's report and its --json, verdicts' and issues' messages,
// errors, repair feedback, stream rejections, tool-call verdicts) shows C0
// and C1 controls and the bidirectional overrides as \uXXXX escapes, through
// one function (escapeForDisplay, the core's). The data itself (an issue's
// path) stays what it is.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as guard from "../../../pkg/node.mjs";
import { thrown } from "../../support/fixtures.mjs";

/** The issue's reproductions: a terminal title and clear, a CSI in one character (U+009B), a right-to-left override, an isolate. */
const TITLE_AND_CLEAR = "\u001b]0;PWNED\u0007\u001b[2J";
const HOSTILE_KEYS = [TITLE_AND_CLEAR, "a\u009b2Jb", "user\u202enimda", "x\u2066y\u2069", "del\u007f", "nl\nforged line"];
const HOSTILE_OUTPUT = JSON.stringify(Object.fromEntries(HOSTILE_KEYS.map((key) => [key, "s"])));
const ADDITIONAL_INTEGERS = { additionalProperties: { type: "integer" } };

/** Characters a terminal or log viewer acts on (what escapeForDisplay escapes). */
const ACTED_ON = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** Asserts `text` holds none of them, but where `allowed` (the text's own line breaks, say). */
function assertPrintable(text, what, allowed = "") {
  for (const c of text) {
    if (ACTED_ON.test(c) && !allowed.includes(c)) assert.fail(`${what} holds U+${c.codePointAt(0).toString(16).padStart(4, "0")} raw:\n${JSON.stringify(text)}`);
  }
}

function runCli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL("../../../pkg/cli.mjs", import.meta.url)), ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

describe("escapeForDisplay", () => {
  test("escapes C0, DEL, C1 and the bidirectional overrides and isolates as JSON writes them; nothing else", () => {
    assert.equal(guard.escapeForDisplay(TITLE_AND_CLEAR), "\\u001b]0;PWNED\\u0007\\u001b[2J");
    assert.equal(guard.escapeForDisplay("a\u009b2Jb"), "a\\u009b2Jb");
    assert.equal(guard.escapeForDisplay("user\u202enimda x\u2066y\u2069 del\u007f"), "user\\u202enimda x\\u2066y\\u2069 del\\u007f");
    for (const text of ["", "plain /a/b~1c", "café ✓ 日本語 🦀", "\u00a0\u200e\u2028"]) assert.equal(guard.escapeForDisplay(text), text);
    for (const key of HOSTILE_KEYS) {
      const shown = guard.escapeForDisplay(key);
      assertPrintable(shown, key);
      assert.equal(JSON.parse(`"${shown}"`), key, "read as JSON, the escape is the text again");
      assert.equal(guard.escapeForDisplay(shown), shown, "escaping twice changes nothing more");
    }
    assert.equal(thrown(() => guard.escapeForDisplay(42)).code, "invalid_argument");
  });
});

/** Runs the audit command line over a log of the hostile output, with `args`, in a directory of its own. */
async function audit(...args) {
  const dir = mkdtempSync(join(tmpdir(), "sog-terminal-"));
  try {
    const schemaFile = join(dir, "schema.json");
    const logFile = join(dir, "log.jsonl");
    writeFileSync(schemaFile, JSON.stringify(ADDITIONAL_INTEGERS));
    writeFileSync(logFile, `${JSON.stringify({ content: HOSTILE_OUTPUT, finishReason: "stop" })}\n`);
    const result = await runCli(["audit", ...args, "--top", "20", "--max-errors", "10", "--schema", schemaFile, logFile]);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

describe("the audit command line", { timeout: 60_000 }, () => {
  test("the report prints the output's keys as escapes: no title, no clear, no CSI, no reordering", async () => {
    const stdout = await audit();
    assertPrintable(stdout, "the report", "\n");
    assert.match(stdout, /\/\\u001b\]0;PWNED\\u0007\\u001b\[2J/);
    assert.match(stdout, /\/a\\u009b2Jb/);
    assert.match(stdout, /\/user\\u202enimda/);
    // A key with a line break cannot forge a line of the report.
    assert.doesNotMatch(stdout, /^forged line/m);
  });

  test("--json escapes the C1 controls and the overrides too, and still reads back as the same paths", async () => {
    const stdout = await audit("--json", "--exact-paths");
    assertPrintable(stdout, "the --json report", "\n");
    const report = JSON.parse(stdout);
    assert.deepEqual(report.issues.top.map((row) => row.path).sort(), HOSTILE_KEYS.map((key) => `/${key}`).sort());
  });
});

describe("every message the package makes", () => {
  test("verdicts and issues: the path is the data, the messages are printable", () => {
    const verdict = guard.checkOutput(HOSTILE_OUTPUT, ADDITIONAL_INTEGERS);
    assert.equal(verdict.failure, "schema");
    assert.ok(verdict.errors.some((issue) => issue.path === `/${TITLE_AND_CLEAR}`));
    assertPrintable(verdict.message, "the verdict's message");
    for (const issue of verdict.errors) assertPrintable(issue.message, "an issue's message");
    assert.ok(verdict.errors.some((issue) => issue.message.includes("\\u001b]0;PWNED")));
    // A finish reason a provider wrote is printed safely too.
    assertPrintable(guard.checkOutput({ content: "{}", finishReason: "\tlength\r\n" }, ADDITIONAL_INTEGERS).message, "a truncation's message");
  });

  test("the value path: validate's and ~standard's issues, and a value that is not JSON", () => {
    const value = JSON.parse(HOSTILE_OUTPUT);
    const validator = guard.compileSchema(ADDITIONAL_INTEGERS);
    for (const issue of validator.validate(value, { maxErrors: 10 }).errors) assertPrintable(issue.message, "validate's issue");
    const standard = validator["~standard"].validate(value);
    assert.ok(standard.issues.some((issue) => issue.path[0] === TITLE_AND_CLEAR), "paths stay the keys");
    for (const issue of standard.issues) assertPrintable(issue.message, "~standard's issue");
    const notJson = { [TITLE_AND_CLEAR]: new Date(0) };
    assertPrintable(validator["~standard"].validate(notJson).issues[0].message, "a not-JSON issue");
    assertPrintable(thrown(() => validator.validate(notJson)).message, "validate's TypeError");
  });

  test("repair feedback, a guarded call's rejection, a stream's rejection, tool-call verdicts", async () => {
    const verdict = guard.checkOutput(HOSTILE_OUTPUT, ADDITIONAL_INTEGERS);
    assertPrintable(guard.repairFeedback(verdict, ADDITIONAL_INTEGERS), "the repair feedback", "\n");
    const error = await guard.guardedCall({}, async () => HOSTILE_OUTPUT, { schema: ADDITIONAL_INTEGERS }).then(
      () => assert.fail("accepted"),
      (e) => e,
    );
    assert.ok(error instanceof guard.StructuredOutputError);
    assertPrintable(error.message, "the StructuredOutputError");
    const stream = guard.createStreamCheck(ADDITIONAL_INTEGERS);
    stream.push(HOSTILE_OUTPUT);
    const end = stream.end("stop");
    assertPrintable(end.message, "the stream's verdict");
    const stopped = await guard
      .guardedStream({}, async function* () {
        yield HOSTILE_OUTPUT;
      }, { schema: ADDITIONAL_INTEGERS })
      .then(() => assert.fail("accepted"), (e) => e);
    assertPrintable(stopped.message, "guardedStream's rejection");
    const tools = [{ type: "function", function: { name: "f", parameters: ADDITIONAL_INTEGERS } }];
    const calls = guard.checkToolCalls({ choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: HOSTILE_OUTPUT } }] } }] }, tools);
    assertPrintable(calls.message, "the tool-call verdict");
    assertPrintable(calls.calls[0].message, "the call's message");
    assertPrintable(guard.repairFeedback(calls, tools), "the tool-call feedback", "\n");
  });

  test("errors: a schema's words, an option's name, a value's path", () => {
    const schemaError = thrown(() => guard.compileSchema({ type: "object", properties: { a: { type: "string", pattern: "(\u001b[2J" } } }));
    assert.equal(schemaError.code, "invalid_schema");
    assertPrintable(schemaError.message, "a SchemaError");
    const optionError = thrown(() => guard.checkOutput("{}", {}, { [`maxErrors${TITLE_AND_CLEAR}`]: 1 }));
    assert.equal(optionError.code, "invalid_argument");
    assertPrintable(optionError.message, "an option's error");
    const finite = thrown(() => guard.checkOutput("{}", {}, { [`x${TITLE_AND_CLEAR}`]: NaN }));
    assertPrintable(finite.message, "a non-finite option's error");
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const hostileName = { name: TITLE_AND_CLEAR, message: TITLE_AND_CLEAR };
    const reading = thrown(() => guard.compileSchema({ get type() { throw hostileName; } }));
    assertPrintable(reading.message, "a thrown value's name");
    return guard.guardedCall({}, async () => "{}", { schema: {}, [TITLE_AND_CLEAR]: 1 }).then(
      () => assert.fail("accepted"),
      (error) => {
        assert.equal(error.code, "invalid_argument");
        assertPrintable(error.message, "guardedCall's unknown option");
      },
    );
  });
});
