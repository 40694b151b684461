// The preview page: runs checkOutput on every edit (debounced) and shows the
// verdict, each issue, and where in the output each issue points.
// It loads the package from pkg/ relative to this file, so the repository
// root must be served (node examples/preview/serve.mjs does that).
import { SchemaError, checkOutput, ready, rescueJson } from "../../pkg/browser.mjs";

const OBSERVATIONS = {
  type: "object",
  required: ["observations"],
  properties: {
    observations: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "text", "observedOn"],
        properties: {
          type: { enum: ["fact", "decision", "question"] },
          text: { type: "string", minLength: 1 },
          observedOn: { type: "string", format: "date" },
          confidence: { type: "number", minimum: 0, maximum: 1 },
        },
        additionalProperties: false,
      },
    },
  },
};

const pretty = (value) => JSON.stringify(value, null, 2);

const SAMPLES = [
  {
    name: "Observations: two issues",
    schema: pretty(OBSERVATIONS),
    output: pretty({
      observations: [
        { type: "fact", text: "The deploy finished.", observedOn: "2024-02-29", confidence: 0.9 },
        { type: "rumour", text: "Someone said it is slow.", observedOn: "2026-02-30" },
      ],
    }),
  },
  {
    name: "Observations: accepted",
    schema: pretty(OBSERVATIONS),
    output: pretty({ observations: [{ type: "decision", text: "Ship on Friday.", observedOn: "2024-03-01" }] }),
  },
  {
    name: "Wrapped in a Markdown fence",
    schema: pretty(OBSERVATIONS),
    output: "```json\n" + pretty({ observations: [{ type: "question", text: "Who owns billing?", observedOn: "2024-03-02" }] }) + "\n```",
  },
  {
    name: "Cut off at the token limit",
    schema: pretty(OBSERVATIONS),
    output: '{"observations": [{"type": "fact", "text": "The queue is',
    finishReason: "length",
  },
  {
    name: "Parses, but stopped at the token limit",
    schema: pretty(OBSERVATIONS),
    output: pretty({ observations: [] }),
    finishReason: "max_tokens",
  },
  {
    name: "Prose around the JSON",
    schema: pretty(OBSERVATIONS),
    output: 'Sure! Here is the JSON:\n{"observations": []}',
  },
  {
    name: "Response-format wrapper as the schema",
    schema: pretty({ name: "observations", strict: true, schema: OBSERVATIONS }),
    output: pretty({ observations: [{ type: "fact", text: "", observedOn: "2024-01-01", extra: true }] }),
  },
  {
    name: "A schema with a typo",
    schema: pretty({ type: "object", properties: { id: { type: "strnig" } } }),
    output: '{"id": "a-1"}',
  },
];

const $ = (id) => document.getElementById(id);
const ui = {
  sample: $("sample"),
  finishReason: $("finish-reason"),
  schema: $("schema"),
  output: $("output"),
  maxErrors: $("max-errors"),
  formats: $("formats"),
  rejectUnknown: $("reject-unknown"),
  verdict: $("verdict"),
  title: $("verdict-title"),
  message: $("verdict-message"),
  facts: $("verdict-facts"),
  issuesHeading: $("issues-heading"),
  issues: $("issues"),
  rendered: $("rendered"),
  renderedNote: $("rendered-note"),
  raw: $("raw-verdict"),
};

/** The text of a JSON Pointer token (RFC 6901 escaping). */
const pointerToken = (key) => String(key).replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * The parsed value as pretty-printed JSON in which every value, and every
 * object member with its key, is a span carrying its JSON Pointer in
 * data-path, so an issue's path finds its text.
 */
function renderJson(value, path = "", depth = 0) {
  const node = document.createElement("span");
  node.className = "node";
  node.dataset.path = path;
  const pad = "  ".repeat(depth + 1);
  const close = "  ".repeat(depth);
  if (value !== null && typeof value === "object") node.classList.add("container");
  if (Array.isArray(value)) {
    if (value.length === 0) {
      node.append("[]");
      return node;
    }
    node.append("[\n");
    value.forEach((item, index) => {
      node.append(pad, renderJson(item, `${path}/${index}`, depth + 1), index < value.length - 1 ? ",\n" : "\n");
    });
    node.append(close, "]");
  } else if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) {
      node.append("{}");
      return node;
    }
    node.append("{\n");
    keys.forEach((key, index) => {
      const memberPath = `${path}/${pointerToken(key)}`;
      const member = document.createElement("span");
      member.className = "member";
      member.dataset.member = memberPath;
      const keyText = document.createElement("span");
      keyText.className = "key";
      keyText.textContent = JSON.stringify(key);
      member.append(keyText, ": ", renderJson(value[key], memberPath, depth + 1));
      node.append(pad, member, index < keys.length - 1 ? ",\n" : "\n");
    });
    node.append(close, "}");
  } else {
    node.classList.add(value === null ? "null" : typeof value);
    node.textContent = JSON.stringify(value);
  }
  return node;
}

/** The element showing `path`, else that of its nearest ancestor. */
function elementForPath(path) {
  let current = path;
  for (;;) {
    const found =
      ui.rendered.querySelector(`[data-member="${CSS.escape(current)}"]`) ??
      ui.rendered.querySelector(`[data-path="${CSS.escape(current)}"]`);
    if (found || current === "") return found;
    current = current.slice(0, current.lastIndexOf("/"));
  }
}

/** The text checkOutput reads (after fence rescue) and its parsed value, if it parses. */
function parsedOutput(text) {
  const rescued = rescueJson(text);
  try {
    return { ok: true, value: JSON.parse(rescued.text), rescue: rescued.rescue };
  } catch {
    return { ok: false, text };
  }
}

function showOutput(text) {
  ui.rendered.replaceChildren();
  const parsed = parsedOutput(text);
  if (parsed.ok) {
    ui.rendered.classList.remove("unparsed");
    ui.rendered.append(renderJson(parsed.value));
    ui.renderedNote.textContent = parsed.rescue === "code_fence" ? "(the body of the code fence)" : "";
  } else {
    ui.rendered.classList.add("unparsed");
    ui.rendered.textContent = text;
    ui.renderedNote.textContent = "(not JSON: shown as written)";
  }
}

function fact(name, value) {
  const dt = document.createElement("dt");
  dt.textContent = name;
  const dd = document.createElement("dd");
  dd.textContent = value;
  ui.facts.append(dt, dd);
}

function setVerdict(state, title, message) {
  ui.verdict.dataset.verdict = state;
  ui.verdict.dataset.failure = "";
  ui.title.textContent = title;
  ui.message.textContent = message;
  ui.facts.replaceChildren();
  ui.issues.replaceChildren();
  ui.issuesHeading.hidden = true;
}

const showPath = (path) => (path === "" ? "(root)" : path);

function showIssues(errors, moreErrors) {
  ui.issuesHeading.hidden = errors.length === 0;
  errors.forEach((issue, index) => {
    const item = document.createElement("li");
    item.className = "issue";
    item.dataset.path = issue.path;
    item.dataset.code = issue.code;
    item.tabIndex = 0;
    const path = document.createElement("code");
    path.className = "path";
    path.textContent = showPath(issue.path);
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = issue.code;
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = issue.message;
    item.append(path, code, message);
    ui.issues.append(item);

    const target = elementForPath(issue.path);
    if (!target) return;
    target.classList.add("flagged");
    target.dataset.issues = `${target.dataset.issues ? `${target.dataset.issues} ` : ""}${index + 1}`;
    target.title = `${showPath(issue.path)}: ${issue.message}`;
    const focus = (on) => {
      target.classList.toggle("focused", on);
      item.classList.toggle("focused", on);
    };
    for (const element of [item, target]) {
      element.addEventListener("mouseenter", () => focus(true));
      element.addEventListener("mouseleave", () => focus(false));
    }
    item.addEventListener("focus", () => focus(true));
    item.addEventListener("blur", () => focus(false));
    item.addEventListener("click", () => target.scrollIntoView({ block: "nearest" }));
  });
  if (moreErrors) {
    const item = document.createElement("li");
    item.className = "more";
    item.textContent = "More issues past maxErrors.";
    ui.issues.append(item);
  }
}

function readOptions() {
  const options = { formats: ui.formats.value, onInvalidSchema: "throw" };
  const maxErrors = Number.parseInt(ui.maxErrors.value, 10);
  if (Number.isInteger(maxErrors) && maxErrors >= 0) options.maxErrors = maxErrors;
  if (ui.rejectUnknown.checked) options.rejectUnknownFields = true;
  return options;
}

function evaluate() {
  const schemaText = ui.schema.value;
  const outputText = ui.output.value;
  const finishReason = ui.finishReason.value;
  const output = finishReason === "" ? outputText : { content: outputText, finishReason };
  showOutput(outputText);

  let verdict;
  try {
    verdict = checkOutput(output, schemaText.trim() === "" ? null : schemaText, readOptions());
  } catch (error) {
    if (error instanceof SchemaError) {
      setVerdict("schema-error", "Schema error", error.message);
      fact("code", error.code);
    } else {
      setVerdict("error", error.name, error.message);
    }
    ui.raw.textContent = pretty({ name: error.name, code: error.code, message: error.message });
    ui.rendered.classList.remove("flagged-all");
    return;
  }

  ui.raw.textContent = pretty(verdict);
  if (verdict.ok) {
    setVerdict("accepted", "Accepted", verdict.degraded ? "Only the parse-level checks ran." : "The output satisfies every check.");
    fact("rescue", verdict.rescue);
  } else {
    setVerdict("rejected", `Rejected: ${verdict.failure}`, verdict.message);
    ui.verdict.dataset.failure = verdict.failure;
    fact("errorHash", verdict.errorHash);
    showIssues(verdict.errors, verdict.moreErrors);
  }
  // A failure before the schema stage concerns the whole output.
  ui.rendered.classList.toggle("flagged-all", !verdict.ok && verdict.failure !== "schema");
  fact("finish reason", verdict.finishReason ?? "(none)");
  fact("schemaHash", verdict.schemaHash ?? "(no schema)");
}

function debounce(fn, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

function loadSample(sample) {
  ui.schema.value = sample.schema;
  ui.output.value = sample.output;
  ui.finishReason.value = sample.finishReason ?? "";
}

SAMPLES.forEach((sample, index) => {
  const option = document.createElement("option");
  option.value = String(index);
  option.textContent = sample.name;
  ui.sample.append(option);
});

await ready();
const later = debounce(evaluate, 150);
for (const input of [ui.schema, ui.output, ui.maxErrors]) input.addEventListener("input", later);
// Edited by hand, the inputs are no longer the chosen example.
for (const input of [ui.schema, ui.output]) input.addEventListener("input", () => (ui.sample.value = ""));
for (const input of [ui.finishReason, ui.formats, ui.rejectUnknown]) input.addEventListener("change", evaluate);
ui.sample.addEventListener("change", () => {
  const sample = SAMPLES[Number(ui.sample.value)];
  if (sample) {
    loadSample(sample);
    evaluate();
  }
});
loadSample(SAMPLES[0]);
ui.sample.value = "0";
evaluate();
document.body.dataset.state = "ready";
