// The benchmark's workloads: realistic extraction outputs as a model returns
// them (JSON text), each with its schema and the verdict every validator must
// reach. Deterministic (seeded), so every runtime and child process sees the
// same bytes. Shared by run.mjs, load-first-verdict.mjs and memory.mjs.
import { prng as rng } from "../tests/support/random.mjs";

const WORDS = (
  "the rollout plan for the billing service moves to the second quarter after the vendor " +
  "review finance asked whether the migration budget covers contractor hours legal confirmed " +
  "that customer data stays in the eu region support reported three escalations about invoice " +
  "exports the team agreed to freeze schema changes until the audit closes product wants a " +
  "weekly status note engineering estimated two sprints for the retry queue security flagged " +
  "the shared admin account operations will rotate the on call schedule in march"
).split(" ");

function sentence(next, length) {
  let out = "";
  while (out.length < length) {
    const word = WORDS[Math.floor(next() * WORDS.length)];
    out += out ? ` ${word}` : word[0].toUpperCase() + word.slice(1);
  }
  return `${out}.`;
}

function isoDate(next) {
  const month = 1 + Math.floor(next() * 12);
  const day = 1 + Math.floor(next() * 28);
  return `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

// --- small: one extraction (about 250 bytes) --------------------------------

export const smallSchema = {
  type: "object",
  additionalProperties: false,
  required: ["vendor", "invoiceNumber", "issuedOn", "currency", "total", "contactEmail", "status"],
  properties: {
    vendor: { type: "string", minLength: 1, maxLength: 200 },
    invoiceNumber: { type: "string", minLength: 1, maxLength: 40 },
    purchaseOrder: { type: "string", maxLength: 40 },
    issuedOn: { type: "string", format: "date" },
    currency: { enum: ["EUR", "USD", "GBP", "CHF", "JPY"] },
    total: { type: "number", minimum: 0 },
    lineItemCount: { type: "integer", minimum: 0 },
    contactEmail: { type: "string", format: "email" },
    status: { enum: ["draft", "approved", "disputed", "paid"] },
  },
};

export const smallDocument = {
  vendor: "Acme Industrial Supply GmbH",
  invoiceNumber: "INV-2026-004817",
  purchaseOrder: "PO-88213-B",
  issuedOn: "2026-03-14",
  currency: "EUR",
  total: 18432.5,
  lineItemCount: 7,
  contactEmail: "billing@acme-industrial.example.com",
  status: "approved",
};

// --- rows: observations (about 240 bytes a row) -------------------------------

export const rowsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["observations"],
  properties: {
    observations: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["type", "text", "importance", "observedOn"],
        properties: {
          type: { enum: ["fact", "decision", "question", "risk"] },
          text: { type: "string", minLength: 1, maxLength: 400 },
          importance: { type: "integer", minimum: 1, maximum: 5 },
          observedOn: { type: "string", format: "date" },
        },
      },
    },
  },
};

const TYPES = ["fact", "decision", "question", "risk"];

function rows(count, seed) {
  const next = rng(seed);
  return Array.from({ length: count }, () => ({
    type: TYPES[Math.floor(next() * TYPES.length)],
    text: sentence(next, 150 + Math.floor(next() * 40)),
    importance: 1 + Math.floor(next() * 5),
    observedOn: isoDate(next),
  }));
}

/**
 * Every row is wrong, the way model output goes wrong: one or two faults a
 * row (a label outside the enum, an out-of-range or stringly importance, an
 * impossible date, a missing field, an empty text, an unknown field).
 */
function invalidRows(count, seed) {
  const next = rng(seed);
  const faults = [
    (r) => { r.type = "observation"; },
    (r) => { r.importance = 0; },
    (r) => { r.importance = "3"; },
    (r) => { r.observedOn = "2026-02-30"; },
    (r) => { delete r.observedOn; },
    (r) => { r.text = ""; },
    (r) => { r.confidence = 0.8; },
    (r) => { r.observedOn = "March 3rd"; },
  ];
  return rows(count, seed).map((row, i) => {
    faults[i % faults.length](row);
    if (next() < 0.5) faults[Math.floor(next() * faults.length)](row);
    return row;
  });
}

// --- refs: $ref / $defs / oneOf / pattern / formats ---------------------------

export const refsSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  additionalProperties: false,
  required: ["documentId", "extractedAt", "source", "contacts"],
  properties: {
    documentId: { $ref: "#/$defs/documentId" },
    extractedAt: { type: "string", format: "date-time" },
    source: { type: "string", format: "uri" },
    contacts: { type: "array", maxItems: 500, items: { $ref: "#/$defs/contact" } },
  },
  $defs: {
    documentId: { type: "string", pattern: "^DOC-[0-9]{4}-[0-9]{6}$" },
    contactId: { type: "string", pattern: "^C-[0-9]{5}$" },
    contact: {
      type: "object",
      additionalProperties: false,
      required: ["id", "name", "channel"],
      properties: {
        id: { $ref: "#/$defs/contactId" },
        name: { type: "string", minLength: 1, maxLength: 120 },
        role: { type: "string", maxLength: 80 },
        website: { type: "string", format: "uri" },
        since: { type: "string", format: "date" },
        channel: { oneOf: [{ $ref: "#/$defs/emailChannel" }, { $ref: "#/$defs/phoneChannel" }] },
      },
    },
    emailChannel: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "email"],
      properties: { kind: { const: "email" }, email: { type: "string", format: "email" } },
    },
    phoneChannel: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "phone"],
      properties: { kind: { const: "phone" }, phone: { type: "string", pattern: "^\\+[1-9][0-9 ]{6,18}$" } },
    },
  },
};

const NAMES = ["Ana Souza", "Jonas Berg", "Mei Tanaka", "Omar Haddad", "Priya Nair", "Lena Fischer", "Tom Walsh", "Sara Conti"];
const ROLES = ["procurement lead", "account manager", "finance controller", "site engineer", "legal counsel"];

function refsDocument(count, seed) {
  const next = rng(seed);
  return {
    documentId: "DOC-2026-004211",
    extractedAt: "2026-04-01T10:22:31Z",
    source: "https://intranet.example.com/contracts/2026/framework-agreement.pdf",
    contacts: Array.from({ length: count }, (_, i) => {
      const name = NAMES[i % NAMES.length];
      const handle = name.toLowerCase().replace(" ", ".");
      const contact = {
        id: `C-${String(10000 + i).slice(-5)}`,
        name,
        role: ROLES[Math.floor(next() * ROLES.length)],
        channel:
          next() < 0.6
            ? { kind: "email", email: `${handle}@partner-${i % 7}.example.org` }
            : { kind: "phone", phone: `+49 30 ${1000000 + Math.floor(next() * 8999999)}` },
      };
      if (next() < 0.7) contact.website = `https://partner-${i % 7}.example.org/team/${handle}`;
      if (next() < 0.7) contact.since = isoDate(next);
      return contact;
    }),
  };
}

// --- the workload list -------------------------------------------------------

let cache;

/**
 * The five workloads: { id, label, schema, text, valid }. `text` is the
 * model's JSON text; `valid` is the verdict every validator must reach.
 */
export function workloads() {
  if (cache) return cache;
  const valid2000 = { observations: rows(2000, 7) };
  cache = [
    { id: "small", label: "small extraction", schema: smallSchema, text: JSON.stringify(smallDocument), valid: true },
    { id: "rows50", label: "50 rows", schema: rowsSchema, text: JSON.stringify({ observations: rows(50, 3) }), valid: true },
    { id: "rows2000", label: "2,000 rows", schema: rowsSchema, text: JSON.stringify(valid2000), valid: true },
    { id: "invalid2000", label: "2,000 invalid rows", schema: rowsSchema, text: JSON.stringify({ observations: invalidRows(2000, 7) }), valid: false },
    { id: "refs", label: "$ref/$defs/oneOf/pattern/formats", schema: refsSchema, text: JSON.stringify(refsDocument(40, 11)), valid: true },
  ];
  return cache;
}

/** Only the small workload, without building the large documents. */
export function smallWorkload() {
  return { schema: smallSchema, text: JSON.stringify(smallDocument), valid: true };
}

/** The 2,000-row workloads (valid and invalid) for the memory children. */
export function largeWorkloads() {
  return workloads().filter((w) => w.id === "rows2000" || w.id === "invalid2000");
}

/** The OpenAI chat completion an SDK hands back for `text`. */
export function chatCompletion(text) {
  return {
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: 1760000000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" }],
    usage: {
      prompt_tokens: 512,
      completion_tokens: 180,
      total_tokens: 692,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: "default",
    system_fingerprint: "fp_bench",
  };
}
