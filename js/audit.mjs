// The audit behind `structured-output-guard audit`: reads a log of model
// responses and tallies what checkOutput says about each one. Everything here
// is synchronous and free of process I/O (the command line is cli.mjs), so an
// audit can be fed from any source and its report inspected in-process.
//
// Memory stays constant however long the log is: lines are split from byte
// chunks with a cap on line length, and every table the audit keeps (issue
// paths, issue codes, failure classes, open request ids) has a fixed bound.
import { checkOutput, compileSchema, escapeForDisplay, normalizeUsage } from "./node.mjs";
import { redactPath } from "./schema-tools.mjs";
import * as contract from "./generated/contract.mjs";

/**
 * The failure classes of the verdict pipeline, in order, but for "rule": an
 * audit checks no business rules. The report lists each, even at zero, and
 * any class beyond them once a verdict carries one.
 */
export const FAILURE_CLASSES = contract.FAILURE_CLASSES.filter((name) => name !== "rule");

export const DEFAULTS = Object.freeze({
  /** Issues collected per response (checkOutput's `maxErrors`). */
  maxErrors: contract.DEFAULTS.maxErrors,
  /** Rows in the top-paths and codes tables. */
  top: 10,
  /** A line longer than this many bytes is not read: it counts as a bad line. */
  maxLineBytes: 16 * 1024 * 1024,
  /** Distinct (path, code) pairs counted; issues at further pairs are counted together. */
  maxPaths: 10_000,
  /** Request ids remembered for grouping attempts (least recently seen forgotten first). */
  maxOpenRequests: 65_536,
  /** Bad lines listed by number in the report (all of them are counted). */
  badLineSamples: 10,
});

/** Failure classes or issue codes beyond the known ones that get a row of their own. */
const MAX_EXTRA_NAMES = 64;
/** A request id longer than this is not used for grouping. */
const MAX_REQUEST_ID_LENGTH = 256;
/** Issue paths are counted by their first this many characters, so the table's memory has a bound too. */
const MAX_PATH_LENGTH = 1000;

export const BAD_LINE_REASONS = {
  not_json: "not JSON",
  not_object: "not a JSON object",
  too_long: "longer than the line limit",
  check_error: "could not be checked",
};

/**
 * Compiles the schema file's content: a JSON Schema, or a response-format
 * wrapper (`{ name, schema, strict }`) exactly as checkOutput reads one.
 * Throws SchemaError when it cannot be compiled.
 */
export function loadSchema(schema, { formats, dialect } = {}) {
  const options = formats === undefined && dialect === undefined ? undefined : { ...(formats === undefined ? {} : { formats }), ...(dialect === undefined ? {} : { dialect }) };
  const inner = wrappedSchema(schema);
  if (inner !== undefined) {
    // checkOutput decides what counts as a wrapper; a wrapper's verdict
    // carries the hash of the schema inside it.
    const probe = checkOutput("{}", schema, { ...options, onInvalidSchema: "throw" });
    try {
      const validator = compileSchema(inner, options);
      if (validator.schemaHash === probe.schemaHash) return { validator, wrapper: true };
    } catch {
      // The member named `schema` is not itself a schema: the whole object is.
    }
  }
  return { validator: compileSchema(schema, options), wrapper: false };
}

function wrappedSchema(schema) {
  if (!isPlainObject(schema)) return undefined;
  return isPlainObject(schema.schema) ? schema.schema : undefined;
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Splits byte chunks into lines without ever holding more than one capped
 * line. `push` and `end` call `onLine({ number, text })` for each line, or
 * `onLine({ number, tooLong: true, bytes })` for a line over `maxLineBytes`
 * (its bytes are skipped, not kept). Line numbers start at 1; a `\r` before
 * the newline is dropped.
 */
export class LineSplitter {
  constructor(maxLineBytes = DEFAULTS.maxLineBytes) {
    this.maxLineBytes = maxLineBytes;
    this.parts = [];
    this.length = 0;
    this.skipped = -1; // bytes of an over-long line so far, or -1 when none
    this.number = 0;
    this.bytes = 0;
  }

  push(chunk, onLine) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.bytes += buffer.length;
    let start = 0;
    while (start < buffer.length) {
      const newline = buffer.indexOf(10, start);
      const end = newline === -1 ? buffer.length : newline;
      this.take(buffer, start, end);
      if (newline === -1) return;
      this.emit(onLine);
      start = newline + 1;
    }
  }

  /** Emits the last line when the input does not end with a newline. */
  end(onLine) {
    if (this.length > 0 || this.skipped >= 0) this.emit(onLine);
  }

  take(buffer, start, end) {
    const size = end - start;
    if (this.skipped >= 0) {
      this.skipped += size;
    } else if (this.length + size > this.maxLineBytes) {
      this.skipped = this.length + size;
      this.parts = [];
      this.length = 0;
    } else if (size > 0) {
      this.parts.push(buffer.subarray(start, end));
      this.length += size;
    }
  }

  emit(onLine) {
    this.number += 1;
    if (this.skipped >= 0) {
      const bytes = this.skipped;
      this.skipped = -1;
      onLine({ number: this.number, tooLong: true, bytes });
      return;
    }
    const joined = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.length);
    let text = joined.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    this.parts = [];
    this.length = 0;
    onLine({ number: this.number, text });
  }
}

/** Counts by name with a fixed number of names; later names share one overflow count. */
class BoundedCounts {
  constructor(limit) {
    this.limit = limit;
    this.counts = new Map();
    this.overflow = 0;
  }

  add(name, by = 1) {
    const count = this.counts.get(name);
    if (count !== undefined) this.counts.set(name, count + by);
    else if (this.counts.size < this.limit) this.counts.set(name, by);
    else this.overflow += by;
  }

  get(name) {
    return this.counts.get(name) ?? 0;
  }

  /** The `n` largest counts, ties broken by name so the order is stable. */
  top(n) {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, n);
  }
}

/** Tokens and cost of a set of responses. */
class Spend {
  constructor() {
    this.responses = 0;
    this.withUsage = 0;
    this.withCost = 0;
    this.tokens = { input: 0, output: 0, total: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
    this.cost = 0;
  }

  add(usage) {
    this.responses += 1;
    const tokens = isPlainObject(usage.tokens) ? usage.tokens : undefined;
    if (tokens) {
      let counted = false;
      for (const field of Object.keys(this.tokens)) {
        if (field !== "total" && isCount(tokens[field])) {
          this.tokens[field] += tokens[field];
          counted = true;
        }
      }
      // normalizeUsage gives `total` whenever it knows input or output; a
      // usage in the executor's shape may still leave it out.
      const total = isCount(tokens.total) ? tokens.total : sumCounts(tokens.input, tokens.output);
      if (total !== undefined) {
        this.tokens.total += total;
        counted = true;
      }
      if (counted) this.withUsage += 1;
    }
    const cost = costOf(usage.cost);
    if (cost !== undefined) {
      this.cost += cost;
      this.withCost += 1;
    }
  }

  merge(other) {
    this.responses += other.responses;
    this.withUsage += other.withUsage;
    this.withCost += other.withCost;
    for (const field of Object.keys(this.tokens)) this.tokens[field] += other.tokens[field];
    this.cost += other.cost;
  }

  toJSON() {
    return {
      responses: this.responses,
      usageReported: this.withUsage,
      costReported: this.withCost,
      tokens: { ...this.tokens },
      cost: roundCost(this.cost),
    };
  }
}

function isCount(value) {
  return typeof value === "number" && Number.isFinite(value);
}

function sumCounts(a, b) {
  if (!isCount(a) && !isCount(b)) return undefined;
  return (isCount(a) ? a : 0) + (isCount(b) ? b : 0);
}

/** A usage's cost: its `total`, else the sum of its input and output cost. */
function costOf(cost) {
  if (isCount(cost)) return cost;
  if (!isPlainObject(cost)) return undefined;
  if (isCount(cost.total)) return cost.total;
  return sumCounts(cost.input, cost.output);
}

/** Sums of many small prices: rounded to a nano-unit so float noise does not show. */
function roundCost(cost) {
  return Math.round(cost * 1e9) / 1e9;
}

/** A JSON Pointer with each array index (a bare non-negative integer segment) replaced by `*`. */
export function collapseIndices(path) {
  return path.replace(/\/(?:0|[1-9][0-9]*)(?=\/|$)/g, "/*");
}

/**
 * The request id a log line carries in `requestId` or `request_id` (a string
 * or a number), as a map key; undefined when it has none usable.
 */
function requestKey(line) {
  const id = line.requestId ?? line.request_id;
  if (typeof id === "number" && Number.isFinite(id)) return `n:${id}`;
  if (typeof id === "string" && id.length > 0 && id.length <= MAX_REQUEST_ID_LENGTH) return `s:${id}`;
  return undefined;
}

/**
 * One audit over a log. Feed it lines (`line(text, number)`, `tooLong(number)`,
 * or `onLine` as a LineSplitter callback) and read `report()` at any time.
 *
 * options: `validator` (from loadSchema or compileSchema), or `schema`
 * (checked as checkOutput takes it: one that cannot be compiled degrades,
 * and the report counts `responses.degraded`) with its `dialect`;
 * `maxErrors`, `toolName` (the output comes as a call of that tool), `maxPaths`, `maxOpenRequests`, `badLineSamples`, `exactPaths`
 * (keep array indices in issue paths instead of collapsing them to `*`).
 */
export class Audit {
  constructor(options) {
    const o = { ...DEFAULTS, ...options };
    if (!o.validator && o.schema === undefined) throw new TypeError("an Audit needs a validator (see loadSchema)");
    this.validator = o.validator ?? o.schema;
    this.checkOptions = o.toolName === undefined ? { maxErrors: o.maxErrors } : { maxErrors: o.maxErrors, toolName: o.toolName };
    if (!o.validator && o.dialect !== undefined) this.checkOptions.dialect = o.dialect;
    this.exactPaths = Boolean(o.exactPaths);
    this.maxOpenRequests = o.maxOpenRequests;
    this.badLineSamples = o.badLineSamples;

    this.lines = 0;
    this.blank = 0;
    this.badReasons = new BoundedCounts(MAX_EXTRA_NAMES);
    this.badSamples = [];
    this.firstCheckError = undefined;

    this.outcomes = new BoundedCounts(FAILURE_CLASSES.length + MAX_EXTRA_NAMES);
    /** Responses checked at the parse level only: the schema could not be applied. */
    this.degraded = 0;
    this.spendByOutcome = new Map();
    this.fromCodeFence = 0;

    this.issues = new BoundedCounts(o.maxPaths);
    this.codes = new BoundedCounts(MAX_EXTRA_NAMES);
    this.issuesListed = 0;
    this.withMoreIssues = 0;

    this.requests = 0;
    this.groupedLines = 0;
    this.acceptedFirstTry = 0;
    this.acceptedAfterRetry = 0;
    this.retried = 0;
    this.open = new Map(); // request key -> { attempts, accepted }
    this.forgotten = 0;

    this.onLine = (event) => {
      if (event.tooLong) this.tooLong(event.number);
      else this.line(event.text, event.number);
    };
  }

  /** A line over the length limit: counted as bad, never read. */
  tooLong(number) {
    this.lines += 1;
    this.bad(number, "too_long");
  }

  /** One line of the log, as text. */
  line(text, number = this.lines + 1) {
    this.lines += 1;
    const body = number === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (body.trim() === "") {
      this.blank += 1;
      return;
    }
    let response;
    try {
      response = JSON.parse(body);
    } catch {
      this.bad(number, "not_json");
      return;
    }
    if (!isPlainObject(response)) {
      this.bad(number, "not_object");
      return;
    }
    let verdict;
    let usage;
    try {
      verdict = checkOutput(response, this.validator, this.checkOptions);
      usage = normalizeUsage(response);
    } catch (error) {
      this.firstCheckError ??= `line ${number}: ${String(error?.message ?? error).slice(0, 300)}`;
      this.bad(number, "check_error");
      return;
    }
    this.record(verdict, usage, requestKey(response));
  }

  bad(number, reason) {
    this.badReasons.add(reason);
    if (this.badSamples.length < this.badLineSamples) this.badSamples.push({ line: number, reason });
  }

  record(verdict, usage, key) {
    const outcome = verdict.ok ? "accepted" : String(verdict.failure);
    this.outcomes.add(outcome);
    if (verdict.degraded) this.degraded += 1;
    this.spendFor(outcome).add(isPlainObject(usage) ? usage : {});
    if (verdict.ok) {
      if (verdict.rescue === "code_fence") this.fromCodeFence += 1;
    } else {
      this.recordIssues(verdict);
    }
    this.recordAttempt(key, verdict.ok);
  }

  /** The spend of an outcome; outcomes past the table's limit share "other". */
  spendFor(outcome) {
    const name = this.outcomes.counts.has(outcome) ? outcome : "other";
    let spend = this.spendByOutcome.get(name);
    if (spend === undefined) {
      spend = new Spend();
      this.spendByOutcome.set(name, spend);
    }
    return spend;
  }

  recordIssues(verdict) {
    const errors = Array.isArray(verdict.errors) ? verdict.errors : [];
    for (const issue of errors) {
      // Redacted before anything is kept: the path names the output's own
      // keys, and a model can write a credential as a key.
      const full = typeof issue.path === "string" ? redactPath(issue.path) : "";
      const path = full.length > MAX_PATH_LENGTH ? `${full.slice(0, MAX_PATH_LENGTH)}...` : full;
      const code = typeof issue.code === "string" ? issue.code.slice(0, MAX_PATH_LENGTH) : "unknown";
      this.issues.add(`${this.exactPaths ? path : collapseIndices(path)}\u0000${code}`);
      this.codes.add(code);
      this.issuesListed += 1;
    }
    if (verdict.moreErrors) this.withMoreIssues += 1;
  }

  /**
   * Lines that share a request id are attempts of one request, in log order;
   * a line without one is a request of its own. Ids are remembered for the
   * `maxOpenRequests` most recently seen requests: an attempt whose id has
   * left that window starts a new request. `forgotten` counts the ids that
   * left it, so a report can say when that may have happened.
   */
  recordAttempt(key, ok) {
    if (key === undefined) {
      this.requests += 1;
      if (ok) this.acceptedFirstTry += 1;
      return;
    }
    this.groupedLines += 1;
    const state = this.open.get(key);
    if (state === undefined) {
      this.requests += 1;
      if (ok) this.acceptedFirstTry += 1;
      if (this.open.size >= this.maxOpenRequests) {
        // A Map iterates in insertion order and seen keys are re-inserted, so
        // the first key is the least recently seen.
        this.open.delete(this.open.keys().next().value);
        this.forgotten += 1;
      }
      this.open.set(key, { attempts: 1, accepted: ok });
      return;
    }
    state.attempts += 1;
    if (state.attempts === 2) this.retried += 1;
    if (ok && !state.accepted) {
      state.accepted = true;
      this.acceptedAfterRetry += 1;
    }
    this.open.delete(key);
    this.open.set(key, state);
  }

  /** The audit so far, as plain data (the `--json` shape). */
  report({ top = DEFAULTS.top } = {}) {
    const accepted = this.outcomes.get("accepted");
    const responses = [...this.outcomes.counts.values()].reduce((a, b) => a + b, 0) + this.outcomes.overflow;
    const rejected = responses - accepted;
    const share = (n) => (responses === 0 ? null : n / responses);

    const failures = {};
    const names = [...FAILURE_CLASSES];
    for (const name of this.outcomes.counts.keys()) {
      if (name !== "accepted" && !names.includes(name)) names.push(name);
    }
    if (this.outcomes.overflow > 0) names.push("other");
    const rejectedSpend = new Spend();
    for (const name of names) {
      const count = name === "other" ? this.outcomes.overflow : this.outcomes.get(name);
      const spend = this.spendByOutcome.get(name) ?? new Spend();
      rejectedSpend.merge(spend);
      const { tokens, cost, usageReported, costReported } = spend.toJSON();
      failures[name] = { count, share: share(count), tokens, cost, usageReported, costReported };
    }
    const acceptedSpend = this.spendByOutcome.get("accepted") ?? new Spend();
    const allSpend = new Spend();
    allSpend.merge(acceptedSpend);
    allSpend.merge(rejectedSpend);

    const bad = [...this.badReasons.counts.values()].reduce((a, b) => a + b, 0);
    const badReasons = Object.fromEntries(Object.keys(BAD_LINE_REASONS).map((reason) => [reason, this.badReasons.get(reason)]));
    const requestShare = (n) => (this.requests === 0 ? null : n / this.requests);

    return {
      lines: {
        total: this.lines,
        responses,
        blank: this.blank,
        bad,
        badReasons,
        badLines: this.badSamples.map((sample) => ({ ...sample })),
        ...(this.firstCheckError === undefined ? {} : { firstCheckError: this.firstCheckError }),
      },
      responses: {
        checked: responses,
        accepted,
        acceptedShare: share(accepted),
        acceptedFromCodeFence: this.fromCodeFence,
        rejected,
        rejectedShare: share(rejected),
        degraded: this.degraded,
      },
      failures,
      requests: {
        total: this.requests,
        groupedLines: this.groupedLines,
        acceptedFirstTry: this.acceptedFirstTry,
        acceptedFirstTryShare: requestShare(this.acceptedFirstTry),
        acceptedAfterRetry: this.acceptedAfterRetry,
        acceptedAfterRetryShare: requestShare(this.acceptedAfterRetry),
        neverAccepted: this.requests - this.acceptedFirstTry - this.acceptedAfterRetry,
        neverAcceptedShare: requestShare(this.requests - this.acceptedFirstTry - this.acceptedAfterRetry),
        retried: this.retried,
        window: this.maxOpenRequests,
        forgotten: this.forgotten,
      },
      issues: {
        listed: this.issuesListed,
        responsesWithMore: this.withMoreIssues,
        indicesCollapsed: !this.exactPaths,
        top: this.issues.top(top).map(([key, count]) => {
          const cut = key.lastIndexOf("\u0000");
          return { path: key.slice(0, cut), code: key.slice(cut + 1), count };
        }),
        distinctTracked: this.issues.counts.size,
        untracked: this.issues.overflow,
        codes: this.codes.top(top).map(([code, count]) => ({ code, count })),
      },
      spend: {
        all: allSpend.toJSON(),
        accepted: acceptedSpend.toJSON(),
        rejected: rejectedSpend.toJSON(),
      },
    };
  }
}

// ---------------------------------------------------------------------------
// The report as text
// ---------------------------------------------------------------------------

/** 1234567 -> "1,234,567", the same under every locale. */
function count(n) {
  const [whole, fraction] = String(n).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

function percent(share) {
  return share === null ? "-" : `${(share * 100).toFixed(1)}%`;
}

/** A cost with `decimals` places; "-" when no response in the row reported one. */
function money(cost, reported, decimals) {
  return reported === 0 ? "-" : cost.toFixed(decimals);
}

/** Places enough to show the smallest cost in a table with two significant digits (4 to 9). */
function costDecimals(costs) {
  const smallest = Math.min(...costs.filter((c) => c > 0));
  if (!Number.isFinite(smallest)) return 4;
  return Math.max(4, Math.min(9, 1 - Math.floor(Math.log10(smallest))));
}

/** Rows of cells as aligned text: the first column left-aligned, the rest right-aligned unless `left` says so. */
function table(rows, { indent = "", left = [0] } = {}) {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    (indent + row.map((cell, i) => {
      if (i === row.length - 1 && left.includes(i)) return cell;
      return left.includes(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]);
    }).join("  ")).trimEnd(),
  );
}

function spendCells(spend, decimals) {
  const t = spend.tokens;
  const cost = money(spend.cost, spend.costReported, decimals);
  if (spend.usageReported === 0) return ["-", "-", "-", cost];
  return [count(t.input), count(t.output), count(t.total), cost];
}

/**
 * Text from the log (an issue path names the output's own keys) or the
 * command line as the report prints it: C0 and C1 controls and the
 * bidirectional overrides as \uXXXX (see escapeForDisplay), so that
 * reading the report never retitles, clears or rewrites the terminal.
 * Cells are escaped before the table is laid out, so that columns line up.
 */
function printable(text) {
  return escapeForDisplay(String(text));
}

/**
 * The report as aligned plain text, every line safe to print. `meta` may
 * name the `input` and the `schema` file shown in the heading.
 */
export function formatReport(report, meta = {}) {
  const out = [];
  const { lines, responses, failures, requests, issues, spend } = report;
  out.push("structured-output-guard audit");
  const heading = [];
  if (meta.input !== undefined) heading.push(["log", meta.input === "-" ? "(stdin)" : printable(meta.input)]);
  if (meta.schema !== undefined) {
    const about = meta.schemaProblem !== undefined ? ` (not applied: ${printable(meta.schemaProblem)})` : meta.schemaHash ? ` (hash ${printable(meta.schemaHash)})` : "";
    heading.push(["schema", `${printable(meta.schema)}${about}`]);
  }
  if (heading.length > 0) out.push(...table(heading, { indent: "  ", left: [0, 1] }));
  out.push("");

  const lineRows = [
    ["lines", count(lines.total)],
    ["  responses checked", count(lines.responses)],
    ["  bad lines", count(lines.bad)],
  ];
  if (lines.blank > 0) lineRows.push(["  blank lines", count(lines.blank)]);
  out.push(...table(lineRows));
  if (lines.badLines.length > 0) {
    const listed = lines.badLines.map(({ line, reason }) => `line ${line} (${BAD_LINE_REASONS[reason] ?? reason})`);
    const more = lines.bad - lines.badLines.length;
    out.push(`  bad: ${listed.join(", ")}${more > 0 ? `, and ${count(more)} more` : ""}`);
  }
  if (lines.firstCheckError !== undefined) out.push(`  first check error: ${printable(lines.firstCheckError)}`);
  out.push("");

  const decimals = costDecimals([spend.all.cost, ...Object.values(failures).map((f) => f.cost)]);
  const outcomeRows = [["outcome", "responses", "share", "input tok", "output tok", "total tok", "cost"]];
  outcomeRows.push(["accepted", count(responses.accepted), percent(responses.acceptedShare), ...spendCells(spend.accepted, decimals)]);
  if (responses.acceptedFromCodeFence > 0) {
    const share = responses.checked === 0 ? null : responses.acceptedFromCodeFence / responses.checked;
    outcomeRows.push(["  from a code fence", count(responses.acceptedFromCodeFence), percent(share), "", "", "", ""]);
  }
  outcomeRows.push(["rejected", count(responses.rejected), percent(responses.rejectedShare), ...spendCells(spend.rejected, decimals)]);
  for (const [name, failure] of Object.entries(failures)) {
    outcomeRows.push([`  ${printable(name)}`, count(failure.count), percent(failure.share), ...spendCells(failure, decimals)]);
  }
  outcomeRows.push(["all responses", count(responses.checked), percent(responses.checked === 0 ? null : 1), ...spendCells(spend.all, decimals)]);
  out.push(...table(outcomeRows));
  const all = spend.all;
  out.push(
    `usage reported by ${count(all.usageReported)} of ${count(all.responses)} responses, cost by ${count(all.costReported)};` +
      " costs are summed as logged",
  );
  if (responses.degraded > 0) {
    out.push(`${count(responses.degraded)} responses checked at the parse level only: the schema could not be applied (degraded)`);
  }
  out.push("");

  out.push(
    requests.groupedLines > 0
      ? "requests (lines sharing a requestId are attempts of one request; any other line is one request)"
      : "requests (no line carries a requestId: each line is one request)",
  );
  out.push(
    ...table(
      [
        ["  accepted first try", count(requests.acceptedFirstTry), percent(requests.acceptedFirstTryShare)],
        ["  accepted after a retry", count(requests.acceptedAfterRetry), percent(requests.acceptedAfterRetryShare)],
        ["  never accepted", count(requests.neverAccepted), percent(requests.neverAcceptedShare)],
        ["  requests", count(requests.total), ""],
      ],
    ),
  );
  if (requests.forgotten > 0) {
    out.push(
      `  ${count(requests.forgotten)} request ids left the window of the ${count(requests.window)} most recently seen;` +
        " a later attempt of one counts as a new request",
    );
  }
  out.push("");

  if (issues.top.length === 0) {
    out.push("top failing paths: none (no response listed an issue)");
  } else {
    out.push(`top failing paths${issues.indicesCollapsed ? " (array indices shown as *)" : ""}`);
    const rows = [["issues", "path", "code"]];
    for (const { path, code, count: n } of issues.top) rows.push([count(n), path === "" ? "(root)" : printable(path), printable(code)]);
    out.push(...table(rows, { indent: "  ", left: [1, 2] }));
    const shown = issues.top.reduce((sum, row) => sum + row.count, 0);
    const rest = issues.listed - shown;
    if (rest > 0) out.push(`  ${count(rest)} more issues at other paths${issues.untracked > 0 ? ` (${count(issues.untracked)} past the ${count(issues.distinctTracked)} distinct paths counted)` : ""}`);
    out.push("");
    out.push("issue codes");
    const codeRows = [["issues", "code"]];
    for (const { code, count: n } of issues.codes) codeRows.push([count(n), printable(code)]);
    out.push(...table(codeRows, { indent: "  ", left: [1] }));
  }
  if (issues.responsesWithMore > 0) {
    out.push(`  ${count(issues.responsesWithMore)} responses had more issues than listed (raise --max-errors to count them)`);
  }
  // Each line once more as a whole: nothing this function missed reaches the terminal raw.
  return `${out.map(printable).join("\n")}\n`;
}
