// Credentials must not travel into messages. Verdict messages, issue
// messages, thrown errors and repair feedback end up in logs, dashboards and
// the next prompt; a credential a model echoed, a caller pasted into a
// schema, or a rule author wrote into a message must never be quoted there.
// (An issue's `path` is structured data and may name an object key
// verbatim; its `message` may not.)
//
// The property tests below plant generated credentials of every common shape
// in every place the package reads, with a seeded generator so any failure
// replays exactly, and look for any 10-character run of a credential's
// secret part in every message produced.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { Audit, formatReport, loadSchema } from "../../../pkg/audit.mjs";
import { thrown } from "../../support/fixtures.mjs";
import { prng } from "../../support/random.mjs";

// ---------------------------------------------------------------------------
// Generated credentials
// ---------------------------------------------------------------------------


const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;

const pick = (random, list) => list[Math.floor(random() * list.length)];

function randomText(random, length, alphabet) {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** Random text with at least one upper-case letter, one lower-case letter and one digit, as real keys have. */
function keyText(random, length, alphabet = ALNUM) {
  for (;;) {
    const text = randomText(random, length, alphabet);
    if (/[A-Z]/.test(text) && /[a-z]/.test(text) && /[0-9]/.test(text)) return text;
  }
}

const base64url = (text) => Buffer.from(text).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/**
 * Each kind makes `{ kind, text, cores }`: `text` is the credential as it
 * would be pasted, `cores` the random parts that must never appear.
 */
const KINDS = {
  "OpenAI sk-": (r) => {
    const body = keyText(r, 48);
    return { text: `sk-${body}`, cores: [body] };
  },
  "OpenAI sk-proj-": (r) => {
    const body = keyText(r, 56, ALNUM + "_-");
    return { text: `sk-proj-${body}`, cores: [body] };
  },
  "Anthropic sk-ant-": (r) => {
    const body = keyText(r, 60, ALNUM + "_-");
    return { text: `sk-ant-api03-${body}AA`, cores: [body] };
  },
  "AWS access key id": (r) => {
    const body = randomText(r, 16, UPPER + DIGITS);
    return { text: `AKIA${body}`, cores: [body] };
  },
  "AWS secret access key": (r) => {
    const text = keyText(r, 40, ALNUM + "/+");
    return { text, cores: [text] };
  },
  "GitHub ghp_": (r) => {
    const body = keyText(r, 36);
    return { text: `ghp_${body}`, cores: [body] };
  },
  "Slack xoxb-": (r) => {
    const team = randomText(r, 12, DIGITS);
    const bot = randomText(r, 13, DIGITS);
    const secret = keyText(r, 24);
    return { text: `xoxb-${team}-${bot}-${secret}`, cores: [team, bot, secret] };
  },
  "Google AIza": (r) => {
    const body = keyText(r, 35, ALNUM + "_-");
    return { text: `AIza${body}`, cores: [body] };
  },
  JWT: (r) => {
    const payload = base64url(JSON.stringify({ sub: keyText(r, 24), iat: 1767225600 + Math.floor(r() * 1e6) }));
    const signature = keyText(r, 43, ALNUM + "_-");
    return { text: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${signature}`, cores: [payload.slice(12), signature] };
  },
  "Bearer token": (r) => {
    const token = keyText(r, 40, ALNUM + "._~+/-");
    return { text: `Bearer ${token}`, cores: [token] };
  },
  "password in a URL": (r) => {
    const password = keyText(r, 20);
    return { text: `postgres://svc_${randomText(r, 4, LOWER)}:${password}@db.internal.example:5432/prod`, cores: [password] };
  },
  "Slack xapp-": (r) => {
    const id = randomText(r, 13, DIGITS);
    const secret = randomText(r, 64, DIGITS + "abcdef");
    return { text: `xapp-1-A${randomText(r, 10, UPPER + DIGITS)}-${id}-${secret}`, cores: [id, secret] };
  },
  "Slack webhook URL": (r) => {
    const secret = keyText(r, 24);
    return { text: `https://hooks.slack.com/services/T${randomText(r, 8, UPPER + DIGITS)}/B${randomText(r, 10, UPPER + DIGITS)}/${secret}`, cores: [secret] };
  },
  "Stripe whsec_": (r) => {
    const body = keyText(r, 32);
    return { text: `whsec_${body}`, cores: [body] };
  },
  "password in a URL, no user name": (r) => {
    const password = keyText(r, 20);
    return { text: `redis://:${password}@cache.internal.example:6379/0`, cores: [password] };
  },
  "PEM private key": (r) => {
    const lines = [keyText(r, 64, ALNUM + "+/"), keyText(r, 64, ALNUM + "+/"), keyText(r, 24, ALNUM + "+/")];
    const type = pick(r, ["RSA ", "EC ", "OPENSSH ", ""]);
    return { text: `-----BEGIN ${type}PRIVATE KEY-----\n${lines.join("\n")}\n-----END ${type}PRIVATE KEY-----`, cores: lines };
  },
};

function credential(random, kind = pick(random, Object.keys(KINDS))) {
  return { kind, ...KINDS[kind](random) };
}

const WINDOW = 10;

/** The first 10-character run of a credential's secret parts found in `text`, or null. */
function leakedRun(text, secret) {
  if (typeof text !== "string") return null;
  for (const core of secret.cores) {
    for (let i = 0; i + WINDOW <= core.length; i++) {
      const run = core.slice(i, i + WINDOW);
      if (text.includes(run)) return run;
    }
  }
  return null;
}

function excerpt(text, run) {
  const at = text.indexOf(run);
  return JSON.stringify(`${at > 60 ? "…" : ""}${text.slice(Math.max(0, at - 60), at + run.length + 20)}…`);
}

/** Collects every message a case produced and records each one that carries a credential. */
class LeakLog {
  constructor(site) {
    this.site = site;
    this.leaks = [];
    this.checked = 0;
    this.byKind = {};
    this.byChannel = {};
  }

  check(secret, channel, text, caseLabel) {
    this.checked += 1;
    const run = leakedRun(text, secret);
    if (run) {
      this.leaks.push(`${this.site} / ${secret.kind} / ${caseLabel} -> ${channel}: ${excerpt(text, run)}`);
      const kindOfChannel = channel.replace(/\[\d+\]/g, "[i]").replace(/ \(path .*\)$/, "");
      this.byKind[secret.kind] = (this.byKind[secret.kind] ?? 0) + 1;
      this.byChannel[kindOfChannel] = (this.byChannel[kindOfChannel] ?? 0) + 1;
    }
  }

  /** Every message of a verdict, and the repair feedback for it. */
  verdict(secret, verdict, schema, caseLabel) {
    if (verdict.ok) return;
    this.check(secret, "verdict.message", verdict.message, caseLabel);
    verdict.errors.forEach((issue, i) => this.check(secret, `errors[${i}].message (path ${JSON.stringify(issue.path).slice(0, 40)})`, issue.message, caseLabel));
    let feedback;
    try {
      feedback = guard.repairFeedback(verdict, schema);
    } catch (error) {
      this.thrown(secret, error, `${caseLabel}, repairFeedback`);
      return;
    }
    this.check(secret, "repairFeedback", feedback, caseLabel);
  }

  thrown(secret, error, caseLabel) {
    assert.ok(error instanceof Error, `${caseLabel}: threw a non-Error ${String(error)}`);
    this.check(secret, `${error.constructor.name}.message`, error.message, caseLabel);
    if (error instanceof guard.StructuredOutputError) {
      for (const verdict of error.verdicts ?? []) this.verdict(secret, verdict, undefined, `${caseLabel}, error.verdicts`);
      (error.errors ?? []).forEach((issue, i) => this.check(secret, `StructuredOutputError.errors[${i}].message`, issue.message, caseLabel));
    }
  }

  assertClean(minimumChecked) {
    assert.ok(this.checked >= minimumChecked, `${this.site}: only ${this.checked} messages were checked`);
    // SHOW_LEAKS=n in the environment lists more of them.
    const shown = this.leaks.slice(0, Number(process.env.SHOW_LEAKS ?? 12));
    assert.deepEqual(
      this.leaks.length,
      0,
      `${this.leaks.length} of ${this.checked} messages carry a credential.\n` +
        `By credential: ${JSON.stringify(this.byKind)}\nBy channel: ${JSON.stringify(this.byChannel)}\n` +
        `First ${shown.length}:\n${shown.join("\n")}`,
    );
  }
}

/** Runs `fn`, expecting it to throw; records the error's message. */
function expectThrown(log, secret, caseLabel, fn) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  if (error === undefined) return false;
  log.thrown(secret, error, caseLabel);
  return true;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function validPattern(source) {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

const CASES_PER_SITE = 48;

// ---------------------------------------------------------------------------
// The detector itself
// ---------------------------------------------------------------------------

describe("the leak detector", () => {
  test("finds every kind of credential quoted whole or in part, and not the redaction placeholder", () => {
    const random = prng(1);
    for (const kind of Object.keys(KINDS)) {
      const secret = credential(random, kind);
      assert.ok(leakedRun(`The title says ${secret.text}.`, secret), `${kind} quoted whole`);
      assert.ok(leakedRun(`…${secret.cores[0].slice(2, 2 + WINDOW)}…`, secret), `${kind} quoted in part`);
      assert.equal(leakedRun("The title says [redacted].", secret), null);
      assert.equal(secret.cores.every((core) => core.length >= WINDOW), true, kind);
    }
  });
});

// ---------------------------------------------------------------------------
// Property tests: one per place a credential can be planted
// ---------------------------------------------------------------------------

describe("credentials planted anywhere never appear in a message", () => {
  test("in model output values", async () => {
    const random = prng(0x5eed0001);
    const log = new LeakLog("output value");
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      const quoted = JSON.stringify(secret.text);
      const variants = [
        [`{"note":${quoted}}`, { type: "object", properties: { note: { type: "integer" } } }],
        [`{"status":${quoted}}`, { type: "object", properties: { status: { enum: ["open", "closed"] } } }],
        [`{"note":${JSON.stringify(`see ${secret.text} here`)}}`, { type: "object", properties: { note: { type: "string", maxLength: 5 } } }],
        [`{"code":${quoted}}`, { type: "object", properties: { code: { type: "string", pattern: "^[0-9]+$" } } }],
        [`{"email":${quoted},"on":${quoted}}`, { type: "object", properties: { email: { format: "email" }, on: { format: "date" } } }],
        [`{"a":${quoted}}`, { type: "object", properties: { a: { const: "expected" } } }],
        [`{"list":[${quoted},${quoted}]}`, { type: "object", properties: { list: { uniqueItems: true, maxItems: 1 } } }],
        [`{"a":{"b":${quoted}}}`, { type: "object", properties: { a: { oneOf: [{ properties: { b: { type: "number" } } }, { properties: { b: { type: "boolean" } } }] } } }],
        [quoted, { type: "object" }],
        [`Here is the key you asked for: ${secret.text}`, { type: "object" }],
        [`{"a": ${secret.text}}`, { type: "object" }],
        [`{"a": "${secret.text.slice(0, 20)}`, { type: "object" }],
      ];
      const [text, schema] = variants[n % variants.length];
      const label = `case ${n}`;
      log.verdict(secret, guard.checkOutput(text, schema), schema, label);
      log.verdict(secret, guard.checkOutput(text, guard.compileSchema(schema)), schema, `${label} (Validator)`);
      log.verdict(secret, guard.checkOutput({ content: text, finishReason: n % 5 === 0 ? "length" : "stop" }, schema), schema, `${label} ({ content })`);
      const rules = [{ name: "never-echo", then: { not: { required: ["note"] } }, message: "the note must be left out" }];
      log.verdict(secret, guard.checkOutput(`{"note":${quoted}}`, { type: "object" }, { rules }), { type: "object" }, `${label} (rule)`);
      if (n % 4 === 0) {
        try {
          await guard.guardedCall({ messages: [] }, async () => ({ choices: [{ message: { content: text }, finish_reason: "stop" }] }), { schema, budgets: { total: 0 } });
        } catch (error) {
          log.thrown(secret, error, `${label} (guardedCall)`);
        }
        const lenient = await guard.guardedCall({ messages: [] }, async () => text, { schema, strict: false });
        log.check(secret, "lenient warning", lenient.warning, `${label} (strict: false)`);
      }
    }
    log.assertClean(CASES_PER_SITE * 4);
  });

  test("in object keys the model wrote (they land in issue paths, never in messages)", async () => {
    const random = prng(0x5eed0002);
    const log = new LeakLog("object key");
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      const key = secret.text;
      const variants = [
        [{ [key]: 1 }, { type: "object", additionalProperties: { type: "string" } }],
        [{ [key]: 1 }, { type: "object", additionalProperties: false }],
        [{ [key]: 1 }, { type: "object", propertyNames: { maxLength: 5 } }],
        [{ [key]: 1 }, { type: "object", unevaluatedProperties: false }],
        [{ outer: { [key]: { x: 1 } } }, { type: "object", properties: { outer: { additionalProperties: { properties: { x: { type: "string" } } } } } }],
        [{ rows: [{ [key]: 1 }, { [key]: "ok" }] }, { type: "object", properties: { rows: { items: { additionalProperties: { type: "string" } } } } }],
        [{ o: { [key]: 1 } }, { type: "object", properties: { o: { anyOf: [{ additionalProperties: { type: "string" } }, { additionalProperties: { type: "boolean" } }] } } }],
        [{ o: { [key]: 1 } }, { type: "object", properties: { o: { oneOf: [{ additionalProperties: { type: "string" } }, { additionalProperties: { type: "null" } }] } } }],
        [{ [key]: 1 }, { type: "object", dependentRequired: { [key]: ["companion"] } }],
        [{ [key]: { [key]: 1 } }, { type: "object", additionalProperties: { additionalProperties: { type: "string" } } }],
        [{ [key]: 1 }, { type: "object", required: ["id"], patternProperties: { "^[a-z]+$": { type: "string" } } }],
        [{ [key]: 1 }, { type: "object", additionalProperties: { not: { type: "integer" } } }],
      ];
      const [value, schema] = variants[n % variants.length];
      const text = JSON.stringify(value);
      const label = `case ${n}`;
      log.verdict(secret, guard.checkOutput(text, schema, { maxErrors: 10 }), schema, label);
      log.verdict(secret, guard.checkOutput(text, guard.compileSchema(schema)), schema, `${label} (Validator)`);
      const validated = guard.compileSchema(schema).validate(value, { maxErrors: 10 });
      validated.errors.forEach((issue, i) => log.check(secret, `validate().errors[${i}].message`, issue.message, label));
      if (n % 4 === 1) {
        try {
          await guard.guardedCall({ messages: [] }, async () => text, { schema, budgets: { total: 1 }, retry: "repair" });
        } catch (error) {
          log.thrown(secret, error, `${label} (guardedCall, repair)`);
        }
      }
    }
    log.assertClean(CASES_PER_SITE * 2);
  });

  test("in schema titles, descriptions and annotations", () => {
    const random = prng(0x5eed0003);
    const log = new LeakLog("schema annotation");
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      const around = pick(random, [secret.text, `Use ${secret.text} to call it.`, `token: ${secret.text}`, `"${secret.text}"`]);
      const schema = {
        title: around,
        description: around,
        $comment: around,
        type: "object",
        required: ["a", "b"],
        properties: {
          a: { type: "string", title: around, description: around, examples: [secret.text], default: secret.text, minLength: 3 },
          b: { type: "integer", deprecated: true, description: around, minimum: 10 },
        },
      };
      const label = `case ${n}`;
      for (const output of ['{"a":1,"b":"x"}', '{"a":"x","b":1}', "{}", '{"a":"xyz"}']) {
        log.verdict(secret, guard.checkOutput(output, schema), schema, label);
        const wrapper = { name: "w", description: around, strict: true, schema };
        log.verdict(secret, guard.checkOutput(output, wrapper), wrapper, `${label} (wrapper)`);
      }
    }
    log.assertClean(CASES_PER_SITE * 8);
  });

  test("in enum and const values", () => {
    const random = prng(0x5eed0004);
    const log = new LeakLog("enum/const value");
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      // Decoys of every length, so the credential sits at every place in
      // the quoted list, including where a long value is shortened.
      const decoys = Array.from({ length: Math.floor(random() * 15) }, (_, i) => (random() < 0.3 ? `${"lorem ipsum ".repeat(1 + Math.floor(random() * 8))}${i}` : `value-${i}`));
      const at = Math.floor(random() * (decoys.length + 1));
      const prefix = random() < 0.4 ? `${"padding ".repeat(Math.floor(random() * 10))}` : "";
      const planted = `${prefix}${secret.text}`;
      const options = [...decoys.slice(0, at), planted, ...decoys.slice(at)];
      const variants = [
        { type: "object", properties: { a: { enum: options } } },
        { type: "object", properties: { a: { const: planted } } },
        { type: "object", properties: { a: { const: { token: planted, scope: "read" } } } },
        { type: "object", properties: { a: { enum: [{ token: planted }, ...decoys] } } },
        { type: "object", properties: { a: { anyOf: [{ const: planted }, { enum: options }] } } },
        { type: "object", properties: { a: { type: "array", contains: { const: planted } } } },
        { type: "object", properties: { a: { not: { enum: ["wrong"] }, enum: options } } },
        { type: "object", required: [planted] },
      ];
      const schema = variants[n % variants.length];
      const label = `case ${n}`;
      for (const output of ['{"a":"wrong"}', '{"a":["wrong"]}', '{"a":1}']) {
        log.verdict(secret, guard.checkOutput(output, schema, { maxErrors: 20 }), schema, label);
        log.verdict(secret, guard.checkOutput(output, guard.compileSchema(schema)), schema, `${label} (Validator)`);
      }
    }
    log.assertClean(CASES_PER_SITE * 6);
  });

  test("in patterns, patternProperties, propertyNames and custom formats", () => {
    const random = prng(0x5eed0005);
    const log = new LeakLog("pattern");
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      const escaped = escapeRegExp(secret.text);
      const sources = [`^${escaped}$`, `(?!${escaped})^x`];
      if (validPattern(secret.text)) sources.push(secret.text, `^(?:${secret.text})$`);
      const source = sources[n % sources.length];
      const variants = [
        { type: "object", properties: { a: { type: "string", pattern: source } } },
        { type: "object", patternProperties: { [source]: { type: "string" } }, additionalProperties: false },
        { type: "object", propertyNames: { pattern: source } },
        { type: "object", properties: { a: { anyOf: [{ pattern: source }, { type: "integer" }] } } },
      ];
      const schema = variants[n % variants.length];
      const label = `case ${n} (${JSON.stringify(source).slice(0, 30)}…)`;
      for (const output of ['{"a":"nope"}', '{"nope":1}']) {
        const verdict = guard.checkOutput(output, schema);
        log.verdict(secret, verdict, schema, label);
        if (verdict.degraded) expectThrown(log, secret, `${label} (compile)`, () => guard.compileSchema(schema));
      }
      const formatted = { type: "object", properties: { a: { type: "string", format: "account" } } };
      const custom = { customFormats: { account: source } };
      log.verdict(secret, guard.checkOutput('{"a":"nope"}', formatted, custom), formatted, `${label} (custom format)`);
      expectThrown(log, secret, `${label} (custom format compile)`, () => guard.compileSchema(formatted, custom));
    }
    log.assertClean(CASES_PER_SITE * 3);
  });

  /** Rules with `plant(secret)` applied; the checks and messages gathered. */
  function ruleSite(site, seed, plant) {
    const random = prng(seed);
    const log = new LeakLog(site);
    const schema = { type: "object", properties: { verdict: { enum: ["pass", "fail"] }, confidence: { type: "number" } } };
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      const rules = plant(secret, random, n);
      const label = `case ${n}`;
      for (const output of ['{"verdict":"fail","confidence":0.9}', '{"confidence":0.1}', '{"confidence":0.9,"verdict":"fail"}']) {
        log.verdict(secret, guard.checkOutput(output, schema, { rules }), schema, label);
        log.verdict(secret, guard.checkOutput(output, guard.compileSchema(schema), { rules, maxErrors: 1 }), schema, `${label} (Validator)`);
      }
      // Malformed rules carrying the credential.
      const message = rules[0].message;
      const name = rules[1].name;
      expectThrown(log, secret, `${label} (rule without then)`, () => guard.checkOutput("{}", schema, { rules: [{ name, message }] }));
      expectThrown(log, secret, `${label} (duplicate rule names)`, () => guard.checkOutput("{}", schema, { rules: [rules[1], rules[1]] }));
      expectThrown(log, secret, `${label} (rule with an invalid schema)`, () => guard.checkOutput("{}", schema, { rules: [{ name, then: { type: 5 }, message }] }));
    }
    return log;
  }

  const ruleMessage = (secret, random) =>
    pick(random, [
      `never send ${secret.text} to the client`,
      `confidence must be at most 0.5 (token ${secret.text})`,
      secret.text,
      `"${secret.text}" is not allowed`,
    ]);

  test("in rule messages", () => {
    const log = ruleSite("rule message", 0x5eed0006, (secret, random) => [
      { name: "low-confidence-on-fail", if: { properties: { verdict: { const: "fail" } } }, then: { properties: { confidence: { maximum: 0.5 } } }, message: ruleMessage(secret, random) },
      { name: "verdict-required", then: { required: ["verdict"] }, message: ruleMessage(secret, random) },
    ]);
    log.assertClean(CASES_PER_SITE * 6);
  });

  test("in rule names", () => {
    const log = ruleSite("rule name", 0x5eed0008, (secret, random, n) => [
      { name: "low-confidence-on-fail", if: { properties: { verdict: { const: "fail" } } }, then: { properties: { confidence: { maximum: 0.5 } } }, message: "confidence must be at most 0.5" },
      { name: n % 2 ? secret.text : `rule ${secret.text}`, then: { required: ["verdict"] }, message: "a verdict is required" },
    ]);
    log.assertClean(CASES_PER_SITE * 6);
  });

  test("in thrown errors: invalid schemas, bad options and values that cannot be serialised", async () => {
    const random = prng(0x5eed0007);
    const log = new LeakLog("thrown error");
    let threw = 0;
    for (let n = 0; n < CASES_PER_SITE; n++) {
      const secret = credential(random);
      const s = secret.text;
      const cyclic = {};
      cyclic[s] = cyclic;
      const label = `case ${n}`;
      const attempts = [
        ["a property named with it, holding an invalid schema", () => guard.compileSchema({ properties: { [s]: { type: 5 } } })],
        ["a $ref into a missing $defs entry named with it", () => guard.compileSchema({ $ref: `#/$defs/${s}` })],
        ["a $ref to an anchor named with it", () => guard.compileSchema({ $ref: `#${s}` })],
        ["a remote $ref with it as the password", () => guard.compileSchema({ $ref: `https://auth:${encodeURIComponent(secret.cores[0])}@schemas.example/schema.json` })],
        ["a remote $ref with it in the path", () => guard.compileSchema({ $ref: `https://schemas.example/${s}.json` })],
        ["a $schema holding it", () => guard.compileSchema({ $schema: s })],
        ["an unknown format named with it", () => guard.compileSchema({ format: s }, { unknownFormats: "error" })],
        ["an invalid pattern holding it", () => guard.compileSchema({ pattern: `(${s}` })],
        ["invalid schema text holding it", () => guard.compileSchema(`{"title": ${s}}`)],
        ["checkOutput, asked to throw", () => guard.checkOutput("{}", { properties: { [s]: { minimum: "x" } } }, { onInvalidSchema: "throw" })],
        ["options.formats", () => guard.checkOutput("{}", { type: "object" }, { formats: s })],
        ["options.draft", () => guard.compileSchema({}, { draft: s })],
        ["options.onInvalidSchema", () => guard.checkOutput("{}", { type: "object" }, { onInvalidSchema: s })],
        ["options.maxErrors", () => guard.checkOutput("{}", { type: "object" }, { maxErrors: s })],
        ["a custom format named with it, not a string", () => guard.compileSchema({}, { customFormats: { [s]: 1 } })],
        ["a custom format named with it, not a regex", () => guard.compileSchema({}, { customFormats: { [s]: "(" } })],
        ["options.resources keyed by it, holding an invalid schema", () => guard.compileSchema({ $ref: "https://x.example/a" }, { resources: { [s]: { type: 5 } } })],
        ["toProviderSchema's provider", () => guard.toProviderSchema({ type: "object" }, s)],
        ["toProviderSchema of a schema it cannot express", () => guard.toProviderSchema({ type: "string", title: s, description: s }, "openai")],
        ["a cyclic instance keyed by it", () => guard.compileSchema(true).validate(cyclic)],
        ["a cyclic schema keyed by it", () => guard.compileSchema({ properties: cyclic })],
        ["a cyclic output keyed by it", () => guard.checkOutput({ content: "{}", meta: cyclic }, { type: "object" })],
        ["a cyclic usage keyed by it", () => guard.normalizeUsage({ usage: cyclic })],
        ["repairFeedback with a broken verdict", () => guard.repairFeedback({ ok: false, failure: s, errors: [s], moreErrors: false }, { title: s })],
        ["an appender given it as the request", () => guard.appendOpenAIChatFeedback(s, "feedback")],
      ];
      const [what, fn] = attempts[n % attempts.length];
      if (expectThrown(log, secret, `${label}: ${what}`, fn)) threw += 1;
      // Every case also goes through guardedCall's own option checks.
      const options = [
        { retry: s },
        { budgets: { [s]: 1 } },
        { budgets: { total: s } },
        { deadlineMs: s },
        { strict: s },
        { rules: [{ name: s }] },
        { appendFeedback: s },
        { stats: { [s]: true } },
      ][n % 8];
      try {
        await guard.guardedCall({ messages: [] }, async () => '{"a":1}', { schema: { type: "object" }, ...options });
      } catch (error) {
        threw += 1;
        log.thrown(secret, error, `${label}: guardedCall ${Object.keys(options)[0]}`);
      }
    }
    assert.ok(threw >= CASES_PER_SITE, `only ${threw} of the cases threw`);
    log.assertClean(CASES_PER_SITE);
  });
});

// ---------------------------------------------------------------------------
// Kinds that were missed once: each in a verdict message and an audit record
// ---------------------------------------------------------------------------

describe("each kind once missed, in a verdict message and an audit record", () => {
  /** `text` as a schema author writes it into a pattern, slashes escaped as `\/`. */
  const patternOf = (text) => `^${text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`;
  const KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  const CASES = [
    { kind: "Slack app token", text: "xapp-1-A0123456789-1234567890123-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b", secret: "0a1b2c3d4e5f6a7b8c9d" },
    { kind: "Slack webhook URL", text: "https://hooks.slack.com/services/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", secret: "Zq8fK2mN4pR7tV1xY3bC5dE9" },
    { kind: "Stripe webhook secret", text: "whsec_Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ", secret: "Zq8fK2mN4pR7tV1xY3bC5dE9" },
    { kind: "URL password without a user name", text: "redis://:Zq8fK2mN4pR7tV1x@cache.internal.example:6379", secret: "Zq8fK2mN4pR7tV1x" },
    { kind: "URL password in a pattern written with \\/\\/", text: "postgres://svc:Zq8fK2mN4pR7tV1x@db.internal.example/prod", secret: "Zq8fK2mN4pR7tV1x", asPattern: true },
    { kind: "AWS secret access key in a $ref pointer", text: KEY, secret: "bPxRfiCYEXAMPLEKEY", asRef: true },
  ];

  const assertRedacted = (text, { kind, secret }, where) => {
    assert.equal(typeof text, "string", `${kind}: ${where} is not a string`);
    assert.ok(!text.includes(secret), `${kind}: ${where} quotes ${secret}: ${JSON.stringify(text)}`);
    assert.ok(text.includes("[redacted]"), `${kind}: ${where} says nothing was redacted: ${JSON.stringify(text)}`);
  };

  for (const c of CASES) {
    test(`${c.kind}: in a verdict message`, async () => {
      if (c.asRef) {
        // The pointer names a $defs entry that is not there: the message
        // that says so quotes it, in a SchemaError and in guardedCall's.
        for (const ref of [`#/$defs/${c.text}`, `#/$defs/${c.text}/properties/a`, `#/$defs/${encodeURIComponent(c.text)}`]) {
          const schema = { type: "object", properties: { a: { $ref: ref } } };
          const error = thrown(() => guard.checkOutput('{"a":1}', schema, { onInvalidSchema: "throw" }));
          assert.ok(error instanceof guard.SchemaError, String(error));
          assertRedacted(error.message, c, `SchemaError.message for ${ref}`);
          const failed = await guard.guardedCall({ messages: [] }, async () => '{"a":1}', { schema, onInvalidSchema: "throw" }).catch((e) => e);
          assert.ok(failed instanceof guard.SchemaError, String(failed));
          assertRedacted(failed.message, c, `guardedCall's SchemaError for ${ref}`);
        }
        return;
      }
      const schema = c.asPattern
        ? { type: "object", properties: { a: { type: "string", pattern: patternOf(c.text) } } }
        : { type: "object", properties: { a: { enum: ["fast", c.text] } } };
      const verdict = guard.checkOutput('{"a":"slow"}', schema);
      assert.equal(verdict.failure, "schema");
      assertRedacted(verdict.message, c, "verdict.message");
      assertRedacted(verdict.errors[0].message, c, "errors[0].message");
      assertRedacted(guard.repairFeedback(verdict, schema), c, "repairFeedback");
      const error = await guard.guardedCall({ messages: [] }, async () => '{"a":"slow"}', { schema, budgets: { total: 0 } }).catch((e) => e);
      assert.ok(error instanceof guard.StructuredOutputError, String(error));
      assertRedacted(error.message, c, "StructuredOutputError.message");
    });

    test(`${c.kind}: in an audit record`, () => {
      // The credential as a key the model wrote: the audit's table of
      // failing paths, in the report and as printed.
      const key = c.asPattern ? patternOf(c.text) : c.text;
      const { validator } = loadSchema({ type: "object", properties: { city: { type: "string" } }, additionalProperties: { type: "integer" } });
      const audit = new Audit({ validator, exactPaths: true });
      audit.line(JSON.stringify({ content: JSON.stringify({ city: "Oslo", [key]: "not a number" }) }));
      audit.line(JSON.stringify({ content: JSON.stringify({ city: "Oslo", nested: { [key]: "x" }, [key]: "y" }) }));
      const report = audit.report();
      assert.equal(report.failures.schema.count, 2, JSON.stringify(report.failures));
      assertRedacted(JSON.stringify(report), c, "the audit report");
      assertRedacted(formatReport(report), c, "the printed audit");
      if (c.asRef) {
        // A schema file with the pointer: the error the audit stops with.
        const error = thrown(() => loadSchema({ type: "object", properties: { a: { $ref: `#/$defs/${c.text}` } } }));
        assertRedacted(error.message, c, "loadSchema's SchemaError");
      }
    });
  }
});

// ---------------------------------------------------------------------------
// The smallest case for each channel
// ---------------------------------------------------------------------------

describe("each channel, at its smallest", () => {
  const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  const PROJECT_KEY = "sk-proj-Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ";
  const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQzZ\n-----END RSA PRIVATE KEY-----";
  const assertNotQuoted = (text, secretPart, where) =>
    assert.ok(!String(text).includes(secretPart), `${where} quotes ${JSON.stringify(secretPart)}: ${JSON.stringify(text)}`);

  test("a key with a slash in it, reached through anyOf/oneOf, is not quoted in the branch summary", () => {
    const schema = { type: "object", properties: { o: { oneOf: [{ additionalProperties: { type: "string" } }, { additionalProperties: { type: "boolean" } }] } } };
    const verdict = guard.checkOutput(JSON.stringify({ o: { [AWS_SECRET]: 1 } }), schema);
    assert.equal(verdict.failure, "schema");
    assertNotQuoted(verdict.message, "wJalrXUtnFEMI", "verdict.message");
    assertNotQuoted(verdict.errors[0].message, "wJalrXUtnFEMI", "errors[0].message");
  });

  test("a schema property named with a key that has a slash in it is not quoted in the SchemaError", () => {
    const error = thrown(() => guard.compileSchema({ properties: { [AWS_SECRET]: { type: 5 } } }));
    assert.ok(error instanceof guard.SchemaError);
    assertNotQuoted(error.message, "wJalrXUtnFEMI", "SchemaError.message");
  });

  test("a private key quoted from a long enum value is redacted before it is shortened", () => {
    const schema = { type: "object", properties: { a: { enum: [PEM] } } };
    const verdict = guard.checkOutput('{"a":1}', schema);
    assertNotQuoted(verdict.message, "MIIEowIBAAKCAQEAq8fK2mN4pR7", "verdict.message");
    assertNotQuoted(verdict.errors[0].message, "MIIEowIBAAKCAQEAq8fK2mN4pR7", "errors[0].message");
  });

  test("a rule's name is not quoted verbatim in the verdict message or the StructuredOutputError", async () => {
    const rules = [{ name: PROJECT_KEY, then: { properties: { a: { type: "string" } } }, message: "a must be a string" }];
    const verdict = guard.checkOutput('{"a":1}', { type: "object" }, { rules });
    assert.equal(verdict.failure, "rule");
    assertNotQuoted(verdict.message, "Zq8fK2mN4pR7tV1x", "verdict.message");
    const error = await guard.guardedCall({ messages: [] }, async () => '{"a":1}', { schema: { type: "object" }, rules, budgets: { total: 0 } }).catch((e) => e);
    assert.ok(error instanceof guard.StructuredOutputError);
    assertNotQuoted(error.message, "Zq8fK2mN4pR7tV1x", "StructuredOutputError.message");
  });

  test("a token written as a pattern (its dots escaped) is not quoted", () => {
    const schema = { type: "object", properties: { a: { type: "string", pattern: `^${escapeRegExp(JWT)}$` } } };
    const verdict = guard.checkOutput('{"a":"x"}', schema);
    assert.equal(verdict.failure, "schema");
    assertNotQuoted(verdict.message, "dozjgNryP4J3jVmNHl0w5N", "verdict.message");
    assertNotQuoted(guard.repairFeedback(verdict, schema), "dozjgNryP4J3jVmNHl0w5N", "repairFeedback");
  });

  test("guardedCall's retry option is not echoed in its TypeError", async () => {
    const error = await guard.guardedCall({ messages: [] }, async () => "{}", { schema: { type: "object" }, retry: PROJECT_KEY }).catch((e) => e);
    assert.ok(error instanceof TypeError);
    assert.equal(error.code, "invalid_argument");
    assertNotQuoted(error.message, "Zq8fK2mN4pR7tV1x", "TypeError.message");
  });

  test("a cyclic value keyed by a credential is not quoted in the TypeError", () => {
    const cyclic = {};
    cyclic[PROJECT_KEY] = cyclic;
    // A schema that reads every member, at every level, meets the cycle.
    const error = thrown(() => guard.compileSchema({ additionalProperties: { $ref: "#" } }).validate(cyclic));
    assert.ok(error instanceof TypeError);
    assert.equal(error.code, "invalid_argument");
    assertNotQuoted(error.message, "Zq8fK2mN4pR7tV1x", "TypeError.message");
  });
});
