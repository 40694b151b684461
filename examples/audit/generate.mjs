// The sample log for `structured-output-guard audit`: an invoice-extraction
// service's responses from five providers, with what a week of such a log
// holds — clean answers, fenced ones, answers cut off at the token limit,
// refusals, prose around the JSON, arrays where an object was asked for,
// schema violations, retries of the same request, and a few lines that are
// not responses at all.
//
//   node examples/audit/generate.mjs   rewrites responses.jsonl beside it
//
// Each case says what it is meant to be (`expect`, and for schema failures
// the issues it carries), so the audit's counts can be checked against the
// intent of the log rather than against the audit itself.

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// ---------------------------------------------------------------------------
// Invoices
// ---------------------------------------------------------------------------

const VENDORS = [
  { name: "Nordlicht Druck GmbH", email: "rechnung@nordlicht-druck.de", currency: "EUR" },
  { name: "Harbour & Finch Ltd", email: "accounts@harbourfinch.co.uk", currency: "GBP" },
  { name: "Cascade Cloud Services Inc.", email: "billing@cascadecloud.io", currency: "USD" },
  { name: "Alpenfracht AG", email: "debitoren@alpenfracht.ch", currency: "CHF" },
  { name: "Atelier Moreau SARL", email: "compta@ateliermoreau.fr", currency: "EUR" },
  { name: "Bluegate Logistics LLC", email: "ar@bluegatelogistics.com", currency: "USD" },
];

const ITEMS = [
  ["Offset printing, A4 brochures", 500, 0.42],
  ["Design hours", 12, 85],
  ["Managed Kubernetes cluster, monthly", 1, 1240],
  ["Object storage, TB-month", 18, 21.5],
  ["Pallet freight Basel to Milano", 3, 310],
  ["Customs clearance", 1, 95],
  ["Consulting, on-site day", 2, 1150],
  ["Express courier", 4, 27.9],
];

/** A valid invoice, varied by `n`. */
function invoice(n) {
  const vendor = VENDORS[n % VENDORS.length];
  const items = [];
  for (let k = 0; k < 1 + (n % 3); k += 1) {
    const [description, quantity, unitPrice] = ITEMS[(n + k * 3) % ITEMS.length];
    items.push({ description, quantity, unitPrice });
  }
  const total = Math.round(items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0) * 100) / 100;
  const month = 1 + (n % 12);
  const day = 1 + ((n * 7) % 27);
  const pad = (x) => String(x).padStart(2, "0");
  const result = {
    vendor: n % 4 === 0 ? { name: vendor.name } : { name: vendor.name, email: vendor.email },
    invoiceNumber: `INV-2025-${String(1000 + n * 37).padStart(5, "0")}`,
    issueDate: `2025-${pad(month)}-${pad(day)}`,
    currency: vendor.currency,
    total,
    lineItems: items,
  };
  if (n % 2 === 1) result.dueDate = `2025-${pad(month)}-${pad(Math.min(day + 14, 28))}`;
  return result;
}

/** An invoice with `change` applied to a copy. */
function broken(n, change) {
  const value = structuredClone(invoice(n));
  change(value);
  return value;
}

const compact = (value) => JSON.stringify(value);
const pretty = (value) => JSON.stringify(value, null, 2);
const fenced = (value) => `\`\`\`json\n${pretty(value)}\n\`\`\``;
/** JSON cut off part-way, as a model at its token limit leaves it. */
const cutOff = (value, keep = 0.6) => {
  const text = pretty(value);
  return text.slice(0, Math.floor(text.length * keep));
};

// ---------------------------------------------------------------------------
// Provider responses (shapes from the providers' SDKs; see
// docs/providers.md)
// ---------------------------------------------------------------------------

const CREATED = 1_764_489_600; // 2025-11-30T08:00:00Z
const id = (prefix, n) => `${prefix}${(0x9e3779b1 * (n + 1)).toString(36).slice(0, 12)}`;

/** USD per million tokens (input, output) for the costs a gateway logs. */
const PRICES = {
  "gpt-4.1-mini": [0.4, 1.6],
  "gpt-4.1": [2, 8],
  "claude-sonnet-4-5": [3, 15],
  "gemini-2.5-flash": [0.3, 2.5],
};
const price = (model, input, output) => {
  const [pin, pout] = PRICES[model];
  return { input: round9((input * pin) / 1e6), output: round9((output * pout) / 1e6), total: round9((input * pin + output * pout) / 1e6) };
};
const round9 = (x) => Math.round(x * 1e9) / 1e9;

/** OpenAI Chat Completions; `gatewayCost` adds the dollar cost an OpenRouter-style gateway reports. */
function openaiChat(n, content, { finish = "stop", input = 1840, output = 310, cached = 0, model = "gpt-4.1-mini", refusal = null, gatewayCost = false } = {}) {
  const usage = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
  if (gatewayCost) usage.cost = price(model, input, output).total;
  return {
    id: id("chatcmpl-", n),
    object: "chat.completion",
    created: CREATED + n * 61,
    model,
    choices: [{ index: 0, message: { role: "assistant", content, refusal }, logprobs: null, finish_reason: finish }],
    usage,
    system_fingerprint: "fp_6f2c1b7e40",
  };
}

/** OpenAI Responses API. */
function openaiResponses(n, text, { incomplete = null, input = 2210, output = 420, reasoning = 0 } = {}) {
  return {
    id: id("resp_", n),
    object: "response",
    created_at: CREATED + n * 61,
    status: incomplete ? "incomplete" : "completed",
    incomplete_details: incomplete ? { reason: incomplete } : null,
    model: "gpt-4.1-2025-04-14",
    output: [
      {
        type: "message",
        id: id("msg_", n),
        status: incomplete ? "incomplete" : "completed",
        role: "assistant",
        content: [{ type: "output_text", text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + output,
    },
  };
}

/** Anthropic Messages; `input` excludes the cached tokens, as Anthropic reports it. */
function anthropic(n, text, { stop = "end_turn", input = 412, cacheRead = 1536, cacheWrite = 0, output = 388 } = {}) {
  return {
    id: id("msg_01", n),
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content: text === null ? [] : [{ type: "text", text }],
    stop_reason: stop,
    stop_sequence: null,
    usage: {
      input_tokens: input,
      cache_creation_input_tokens: cacheWrite,
      cache_read_input_tokens: cacheRead,
      output_tokens: output,
      service_tier: "standard",
    },
  };
}

/** Google Gemini generateContent. */
function gemini(n, text, { finish = "STOP", input = 1975, output = 344, thoughts = 0 } = {}) {
  const candidate = { index: 0, finishReason: finish };
  if (text !== null) candidate.content = { role: "model", parts: [{ text }] };
  const usageMetadata = { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output + thoughts };
  if (thoughts > 0) usageMetadata.thoughtsTokenCount = thoughts;
  return { candidates: [candidate], usageMetadata, modelVersion: "gemini-2.5-flash", responseId: id("", n) };
}

/** AWS Bedrock Converse. */
function bedrock(n, text, { stop = "end_turn", input = 1902, output = 365 } = {}) {
  return {
    output: { message: { role: "assistant", content: [{ text }] } },
    stopReason: stop,
    usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
    metrics: { latencyMs: 2400 + ((n * 137) % 1900) },
  };
}

/** An executor's own record: content, finish reason and usage with cost already worked out. */
function executor(n, content, { finish = "stop", input = 1760, output = 296, model = "gpt-4.1-mini" } = {}) {
  return {
    content,
    finishReason: finish,
    usage: {
      tokens: { input, output, total: input + output },
      cost: price(model, input, output),
    },
  };
}

// ---------------------------------------------------------------------------
// The log
// ---------------------------------------------------------------------------

/**
 * Every line of the sample log in order: `{ expect, line }` for a response
 * (`expect` is "accepted" or a failure class; `issues` lists the
 * [path, code] pairs of a schema failure; `fence` marks a fenced answer) or
 * `{ expect: "bad", reason, text }` for a line that is not one.
 * `requestId` on a line groups retries of one request.
 */
export function sampleCases() {
  const cases = [];
  const ok = (line, extra = {}) => cases.push({ expect: "accepted", line, ...extra });
  const fail = (expect, line, extra = {}) => cases.push({ expect, line, ...extra });
  const bad = (reason, text) => cases.push({ expect: "bad", reason, text });
  const withRequest = (requestId, line) => ({ requestId, ...line });
  let n = 0;
  const next = () => (n += 1);

  ok(openaiChat(next(), compact(invoice(n)), { gatewayCost: true }));
  ok(anthropic(next(), compact(invoice(n))));
  ok(gemini(next(), compact(invoice(n))));
  ok(bedrock(next(), compact(invoice(n))));
  ok(openaiResponses(next(), compact(invoice(n))));
  ok(executor(next(), compact(invoice(n))));
  ok(anthropic(next(), fenced(invoice(n)), { output: 512 }), { fence: true });
  fail("schema", openaiChat(next(), compact(broken(n, (v) => (v.currency = "€"))), { gatewayCost: true }), { issues: [["/currency", "enum"]] });
  // A request cut off at max_tokens, then retried with a larger budget.
  fail("truncated", withRequest("req-7f3a01", openaiChat(next(), cutOff(invoice(n)), { finish: "length", output: 256, gatewayCost: true })));
  ok(withRequest("req-7f3a01", openaiChat(next(), compact(invoice(n - 1)), { output: 402, gatewayCost: true })));
  ok(gemini(next(), compact(invoice(n)), { thoughts: 512 }));
  fail("schema", gemini(next(), compact(broken(n, (v) => (v.issueDate = "11/03/2025")))), { issues: [["/issueDate", "format"]] });
  fail("empty", openaiChat(next(), null, { output: 14, refusal: "I'm sorry, but I can't help with extracting data from this document." }));
  fail("unparseable", anthropic(next(), `Here is the extracted invoice data:\n\n${pretty(invoice(n))}`, { output: 421 }));
  bad("not_json", '{"id":"chatcmpl-9wQ2","object":"chat.completion","created":1764490211,"model":"gpt-4.1-mini","choices":[{"index":0,"message":{"role":"assis');
  ok(executor(next(), compact(invoice(n)), { model: "gpt-4.1" }));
  fail("not_object", gemini(next(), compact(invoice(n).lineItems)));
  ok(bedrock(next(), compact(invoice(n))));
  ok(openaiResponses(next(), compact(invoice(n)), { reasoning: 0 }));
  fail("schema", anthropic(next(), compact(broken(n, (v) => (v.lineItems[0].quantity = 0)))), {
    issues: [["/lineItems/0/quantity", "minimum"]],
  });
  ok(openaiChat(next(), compact(invoice(n)), { cached: 1536, gatewayCost: true }));
  fail("truncated", anthropic(next(), cutOff(invoice(n), 0.8), { stop: "max_tokens", output: 512 }));
  ok(executor(next(), fenced(invoice(n))), { fence: true });
  // Two attempts of one request, both naming the currency instead of its code.
  fail("schema", withRequest("req-7f3a19", executor(next(), compact(broken(n, (v) => (v.currency = "Euro"))))), { issues: [["/currency", "enum"]] });
  fail("schema", withRequest("req-7f3a19", executor(next(), compact(broken(n - 1, (v) => (v.currency = "euro"))))), { issues: [["/currency", "enum"]] });
  ok(gemini(next(), compact(invoice(n))));
  ok(anthropic(next(), compact(invoice(n)), { cacheRead: 0, cacheWrite: 1536, input: 420 }));
  fail("empty", gemini(next(), null, { finish: "SAFETY", output: 0 }));
  ok(openaiChat(next(), compact(invoice(n)), { gatewayCost: true }));
  fail("schema", bedrock(next(), compact(broken(n, (v) => (v.vendor.name = "")))), { issues: [["/vendor/name", "minLength"]] });
  fail("unparseable", openaiChat(next(), `${compact(invoice(n))}\n\nLet me know if you need anything else!`, { gatewayCost: true }));
  ok(bedrock(next(), compact(invoice(n))));
  bad("not_object", JSON.stringify([openaiChat(900, compact(invoice(900)))]));
  fail("truncated", gemini(next(), cutOff(invoice(n), 0.5), { finish: "MAX_TOKENS", output: 256 }));
  ok(openaiResponses(next(), fenced(invoice(n))), { fence: true });
  fail("schema", openaiChat(next(), compact(broken(n, (v) => (v.lineItems[1].quantity = 2.5))), { gatewayCost: true }), {
    issues: [["/lineItems/1/quantity", "type"]],
  });
  // A request whose first answer put prose around the JSON.
  fail("unparseable", withRequest("req-7f3a2c", anthropic(next(), `\`\`\`json\n${pretty(invoice(n))}\n\`\`\`\nThe due date was not stated.`)));
  ok(withRequest("req-7f3a2c", anthropic(next(), compact(invoice(n - 1)), { cacheRead: 1536 })));
  ok(executor(next(), compact(invoice(n))));
  fail("schema", executor(next(), compact(broken(n, (v) => delete v.total))), { issues: [["", "required"]] });
  ok(gemini(next(), compact(invoice(n))));
  fail("not_object", openaiChat(next(), '"N/A"', { output: 4, gatewayCost: true }));
  ok(anthropic(next(), compact(invoice(n))));
  fail("truncated", openaiResponses(next(), cutOff(invoice(n), 0.7), { incomplete: "max_output_tokens", output: 400 }));
  fail("schema", gemini(next(), compact(broken(n, (v) => (v.vendor.email = "billing at cascadecloud dot io")))), { issues: [["/vendor/email", "format"]] });
  ok(bedrock(next(), compact(invoice(n))));
  bad("not_json", "2025-11-30T09:14:07.118Z WARN upstream timeout after 60000 ms, request req-7f3a41 abandoned");
  ok(openaiChat(next(), compact(invoice(n)), { model: "gpt-4.1", gatewayCost: true }));
  fail("schema", anthropic(next(), compact(broken(n, (v) => {
    v.currency = "usd";
    v.dueDate = "next Friday";
    v.notes = "Paid by card";
  }))), { issues: [["", "additionalProperties"], ["/currency", "enum"], ["/dueDate", "format"]] });
  ok(executor(next(), compact(invoice(n))));
  fail("empty", executor(next(), "   ", { output: 2 }));
  ok(gemini(next(), compact(invoice(n))));
  // Truncated, then a second answer that broke the schema, then accepted.
  fail("truncated", withRequest("req-7f3a5e", bedrock(next(), cutOff(invoice(n), 0.4), { stop: "max_tokens", output: 256 })));
  fail("schema", withRequest("req-7f3a5e", bedrock(next(), compact(broken(n - 1, (v) => (v.lineItems = []))), { output: 190 })), { issues: [["/lineItems", "minItems"]] });
  ok(withRequest("req-7f3a5e", bedrock(next(), compact(invoice(n - 2)), { output: 371 })));
  ok(openaiResponses(next(), compact(invoice(n))));
  fail("unparseable", gemini(next(), `{'vendor': {'name': '${VENDORS[n % VENDORS.length].name}'}, 'currency': 'EUR'}`, { output: 40 }));
  ok(anthropic(next(), fenced(invoice(n))), { fence: true });
  fail("not_object", executor(next(), compact([invoice(n), invoice(n + 1)]), { output: 640 }));
  ok(openaiChat(next(), compact(invoice(n)), { gatewayCost: true }));
  fail("schema", openaiResponses(next(), compact(broken(n, (v) => (v.issueDate = "2025-02-30")))), { issues: [["/issueDate", "format"]] });
  bad("not_object", "null");
  ok(bedrock(next(), compact(invoice(n))));
  fail("empty", anthropic(next(), null, { stop: "refusal", output: 0 }));
  fail("unparseable", executor(next(), cutOff(invoice(n), 0.9), { output: 300 }));
  ok(executor(next(), compact(invoice(n))));
  return cases;
}

/** The log text: one JSON document (or bad line) per line. */
export function sampleLog(cases = sampleCases()) {
  return cases.map((c) => (c.expect === "bad" ? c.text : JSON.stringify(c.line))).join("\n") + "\n";
}

/**
 * The sample log repeated `repeats` times, one Buffer per repetition, for
 * long-log tests and benchmarks. Request ids get the repetition's number,
 * so every repetition's retries stay separate requests.
 */
export function* repeatedSampleLog(repeats, cases = sampleCases()) {
  const lines = sampleLog(cases);
  for (let r = 0; r < repeats; r += 1) {
    yield Buffer.from(lines.replace(/"requestId":"([^"]+)"/g, `"requestId":"$1-${r}"`));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = new URL("./responses.jsonl", import.meta.url);
  writeFileSync(target, sampleLog());
  process.stdout.write(`wrote ${fileURLToPath(target)}\n`);
}
