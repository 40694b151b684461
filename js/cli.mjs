#!/usr/bin/env node
// structured-output-guard's command line. `audit` reads a log of model
// responses, one JSON object a line, and reports what checkOutput says about
// them: how many were accepted, why the others failed, where in the schema,
// and what the failed ones cost. The tallying is audit.mjs; this file parses
// arguments, streams the log and prints.
//
// Exit codes: 0 the audit ran (whatever the responses said); 1 with
// --fail-on-reject when a response was rejected, a line was bad or the
// schema could not be applied; 2 bad arguments, an unusable schema (with
// --on-invalid-schema throw), or a log that cannot be read.
import { createReadStream, readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { Audit, DEFAULTS, LineSplitter, formatReport, loadSchema } from "./audit.mjs";
import { checkOutput, escapeForDisplay } from "./node.mjs";

const USAGE = `Usage: structured-output-guard audit --schema <schema.json> [options] [log.jsonl | -]

Checks every response in a log (one JSON object a line: a provider response
checkOutput reads, or { content, finishReason, usage }) against the schema and
prints accepted and rejected counts, failure classes, top failing paths and
codes, and the tokens and cost spent. Reads stdin when the log is "-" or absent.
Lines that share a "requestId" (or "request_id") are attempts of one request.

Options:
  -s, --schema <file>       JSON Schema, or a response-format wrapper { name, schema, strict } (required)
      --json                print the report as one JSON object
      --top <n>             rows in the paths and codes tables (default ${DEFAULTS.top})
      --max-errors <n>      issues collected per response (default ${DEFAULTS.maxErrors})
      --tool-name <name>    the output comes as a call of this tool: check its arguments
      --formats <mode>      "assert" (default) or "annotate" (format is not checked)
      --dialect <name>      "json-schema" or "gemini" (default: told by the schema's shape)
      --on-invalid-schema <what>
                            "degrade" (default): a schema that cannot be applied
                            leaves the parse-level checks, and the report says so;
                            "throw": refuse it (exit 2)
      --exact-paths         keep array indices in paths instead of showing them as *
      --max-line-bytes <n>  longer lines are counted as bad, not read (default ${DEFAULTS.maxLineBytes})
      --max-paths <n>       distinct (path, code) pairs counted (default ${DEFAULTS.maxPaths})
      --fail-on-reject      exit 1 when any response is rejected or any line is bad
      --progress            report progress on stderr (default: only when stderr is a terminal)
  -h, --help                show this help

Exit codes: 0 the audit ran; 1 --fail-on-reject and something was rejected
(or the schema could not be applied); 2 bad arguments, an unusable schema
under --on-invalid-schema throw, or an unreadable log.
`;

const OPTIONS = {
  schema: { type: "string", short: "s" },
  json: { type: "boolean" },
  top: { type: "string" },
  "max-errors": { type: "string" },
  "tool-name": { type: "string" },
  formats: { type: "string" },
  dialect: { type: "string" },
  "on-invalid-schema": { type: "string" },
  "exact-paths": { type: "boolean" },
  "max-line-bytes": { type: "string" },
  "max-paths": { type: "string" },
  "fail-on-reject": { type: "boolean" },
  progress: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  // Prints the peak resident memory and timing on stderr when done, for
  // tests and benchmarks that check memory stays flat on long logs.
  "debug-stats": { type: "boolean" },
};

/** A bad argument: reported as one line on stderr, exit code 2. */
class UsageError extends Error {}

function wholeNumber(values, name, min) {
  const text = values[name];
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${name} takes a whole number from ${min} up, not "${text}"`);
  }
  return Number(text);
}

function toolName(name) {
  if (name === "") throw new UsageError("--tool-name takes a tool's name, not an empty string");
  return name;
}

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error.message.split(". ")[0]);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [command, ...files] = positionals;
  if (command === undefined) throw new UsageError('a command is required: "audit"');
  if (command !== "audit") throw new UsageError(`unknown command "${command}" (the command is "audit")`);
  if (files.length > 1) throw new UsageError(`one log at a time, not ${files.length} (${files.join(", ")})`);
  if (values.schema === undefined) throw new UsageError("--schema <file> is required");
  if (values.formats !== undefined && values.formats !== "assert" && values.formats !== "annotate") {
    throw new UsageError(`--formats is "assert" or "annotate", not "${values.formats}"`);
  }
  if (values.dialect !== undefined && values.dialect !== "json-schema" && values.dialect !== "gemini") {
    throw new UsageError(`--dialect is "json-schema" or "gemini", not "${values.dialect}"`);
  }
  const onInvalid = values["on-invalid-schema"] ?? "degrade";
  if (onInvalid !== "degrade" && onInvalid !== "throw") {
    throw new UsageError(`--on-invalid-schema is "degrade" or "throw", not "${onInvalid}"`);
  }
  return {
    input: files[0] ?? "-",
    inputNamed: files.length > 0,
    schemaFile: values.schema,
    json: Boolean(values.json),
    top: wholeNumber(values, "top", 1) ?? DEFAULTS.top,
    maxErrors: wholeNumber(values, "max-errors", 1) ?? DEFAULTS.maxErrors,
    toolName: toolName(values["tool-name"]),
    formats: values.formats,
    dialect: values.dialect,
    onInvalidSchema: onInvalid,
    exactPaths: Boolean(values["exact-paths"]),
    maxLineBytes: wholeNumber(values, "max-line-bytes", 1) ?? DEFAULTS.maxLineBytes,
    maxPaths: wholeNumber(values, "max-paths", 1) ?? DEFAULTS.maxPaths,
    failOnReject: Boolean(values["fail-on-reject"]),
    progress: values.progress === true || Boolean(process.stderr.isTTY),
    debugStats: Boolean(values["debug-stats"]),
  };
}

/**
 * Where the text stops being JSON, as a line and column, read by the core's
 * parser: the engine's JSON.parse message quotes the file's bytes, and a
 * schema file can hold a key.
 */
function whereParsingStopped(text) {
  const verdict = checkOutput(text, undefined, { requireObject: false });
  const at = /line (\d+) column (\d+)/.exec(verdict.message ?? "");
  if (at) return ` (it stops being JSON at line ${at[1]}, column ${at[2]})`;
  return /ends early/.test(verdict.message ?? "") ? " (it ends early)" : "";
}

/**
 * The schema file's validator (see loadSchema); under "degrade", one that
 * cannot be compiled gives `{ schema, problem }` instead: the audit then
 * checks with the schema as checkOutput takes it, which degrades.
 */
function readSchema(file, { formats, dialect, onInvalidSchema }) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the schema file ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}`);
  }
  let schema;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the schema file ${file} is not JSON${whereParsingStopped(text)}`);
  }
  try {
    return loadSchema(schema, { formats, dialect });
  } catch (error) {
    if (error?.name !== "SchemaError") throw error;
    if (onInvalidSchema === "throw") throw new UsageError(`the schema in ${file} is invalid: ${error.message}`);
    return { schema, problem: error.message };
  }
}

function openLog(input) {
  if (input === "-") return { stream: process.stdin, size: undefined };
  let size;
  try {
    const stat = statSync(input);
    if (stat.isDirectory()) throw new UsageError(`cannot read the log ${input}: it is a directory`);
    size = stat.isFile() ? stat.size : undefined;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the log ${input}: ${error.code === "ENOENT" ? "no such file" : error.message}`);
  }
  return { stream: createReadStream(input, { highWaterMark: 1 << 20 }), size };
}

/** Progress on stderr at most once a second: rewritten in place on a terminal, a line each otherwise. */
function progressReporter(enabled, size) {
  if (!enabled) return { tick() {}, done() {} };
  const started = Date.now();
  let last = started;
  let shown = false;
  const tty = Boolean(process.stderr.isTTY);
  const write = (splitter) => {
    const seconds = (Date.now() - started) / 1000;
    const mb = splitter.bytes / 1e6;
    const of = size ? ` of ${(size / 1e6).toFixed(0)} MB (${((100 * splitter.bytes) / size).toFixed(0)}%)` : " MB";
    const text = `audit: ${splitter.number.toLocaleString("en-US")} lines, ${mb.toFixed(0)}${of}, ${Math.round(splitter.number / Math.max(seconds, 0.001)).toLocaleString("en-US")} lines/s`;
    process.stderr.write(tty ? `\r${text.padEnd(78)}` : `${text}\n`);
    shown = true;
  };
  return {
    tick(splitter) {
      const now = Date.now();
      if (now - last >= 1000) {
        last = now;
        write(splitter);
      }
    },
    done() {
      if (shown && tty) process.stderr.write(`\r${" ".repeat(78)}\r`);
    },
  };
}

async function audit(options) {
  const started = Date.now();
  const { validator, schema, problem } = readSchema(options.schemaFile, options);
  if (problem !== undefined) {
    process.stderr.write(`structured-output-guard: the schema in ${options.schemaFile} could not be applied (${problem}); only the parse-level checks run\n`);
  }
  if (!options.inputNamed && process.stdin.isTTY) {
    throw new UsageError('no log given and stdin is a terminal: name a log file, or pipe one in ("-" reads stdin)');
  }
  const { stream, size } = openLog(options.input);
  const run = new Audit({
    validator,
    schema,
    dialect: options.dialect,
    maxErrors: options.maxErrors,
    toolName: options.toolName,
    maxPaths: options.maxPaths,
    exactPaths: options.exactPaths,
  });
  const splitter = new LineSplitter(options.maxLineBytes);
  const progress = progressReporter(options.progress, size);
  try {
    for await (const chunk of stream) {
      splitter.push(chunk, run.onLine);
      progress.tick(splitter);
    }
  } catch (error) {
    progress.done();
    throw new UsageError(`cannot read the log ${options.input === "-" ? "from stdin" : options.input}: ${error.message}`);
  }
  splitter.end(run.onLine);
  progress.done();

  const report = run.report({ top: options.top });
  if (options.json) {
    const full = {
      input: options.input,
      schema: { file: options.schemaFile, hash: validator?.schemaHash ?? null, dialect: validator?.dialect ?? null, degraded: problem !== undefined, ...(problem === undefined ? {} : { problem }) },
      options: { maxErrors: options.maxErrors, toolName: options.toolName ?? null, formats: options.formats ?? "assert", dialect: options.dialect ?? null, onInvalidSchema: options.onInvalidSchema, maxLineBytes: options.maxLineBytes, top: options.top },
      ...report,
    };
    process.stdout.write(`${printableJson(full)}\n`);
  } else {
    process.stdout.write(formatReport(report, { input: options.input, schema: options.schemaFile, schemaHash: validator?.schemaHash, schemaProblem: problem }));
  }
  if (options.debugStats) {
    const stats = { maxRssKb: process.resourceUsage().maxRSS, elapsedMs: Date.now() - started, lines: splitter.number, bytes: splitter.bytes };
    process.stderr.write(`debug-stats ${JSON.stringify(stats)}\n`);
  }
  if (options.failOnReject && (report.responses.rejected > 0 || report.lines.bad > 0 || report.responses.degraded > 0)) return 1;
  return 0;
}

/**
 * `value` as indented JSON that is safe to print: JSON.stringify escapes
 * the C0 controls but leaves the C1 controls (U+009B is a CSI on its own),
 * DEL and the bidirectional overrides raw. Each line (the indentation's
 * line breaks are its only raw controls) is passed through
 * escapeForDisplay, whose \uXXXX is JSON's own escape: the text reads
 * back as the same value.
 */
function printableJson(value) {
  return JSON.stringify(value, null, 2).split("\n").map(escapeForDisplay).join("\n");
}

async function main(argv) {
  // A closed pipe (`| head`) ends the output, not the process with a stack trace.
  process.stdout.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    const options = parse(argv);
    if (options.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    return await audit(options);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`structured-output-guard: ${escapeForDisplay(String(error.message))}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
