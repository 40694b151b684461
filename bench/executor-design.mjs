// The executor design this package replaces, written from its description
// (shared by bench/user-path.mjs and bench/cost-table.mjs): the finish reason
// of the last model segment, JSON.parse with a code-fence fallback, an LRU
// of ajv validators keyed by JSON.stringify(schema), ajv with allErrors and
// ajv-formats, on a chat completion and a response-format wrapper.
const { default: Ajv2020 } = await import("ajv/dist/2020.js");
const { default: addFormats } = await import("ajv-formats");

/**
 * The executor design: an agent handler's own check, as such handlers are
 * written before a guard replaces them.
 */
export function executorDesign() {
  const cache = new Map();
  const LIMIT = 64;
  const validatorFor = (schema) => {
    const key = JSON.stringify(schema);
    let validate = cache.get(key);
    if (validate !== undefined) {
      cache.delete(key);
      cache.set(key, validate);
      return validate;
    }
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
    cache.set(key, validate);
    if (cache.size > LIMIT) cache.delete(cache.keys().next().value);
    return validate;
  };
  const FENCE = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/;
  return (response, wrapper) => {
    const choice = response.choices?.[0];
    const segments = response.timing?.timeSegments;
    const lastModel = Array.isArray(segments) ? segments.filter((s) => s.type === "model").at(-1) : undefined;
    const finishReason = lastModel?.finishReason ?? choice?.finish_reason;
    if (finishReason === "length") return { ok: false, failure: "truncated" };
    const content = choice?.message?.content;
    if (typeof content !== "string") return { ok: false, failure: "empty" };
    let value;
    try {
      value = JSON.parse(content);
    } catch {
      const fenced = FENCE.exec(content);
      if (fenced === null) return { ok: false, failure: "unparseable" };
      try {
        value = JSON.parse(fenced[1]);
      } catch {
        return { ok: false, failure: "unparseable" };
      }
    }
    const validate = validatorFor(wrapper.json_schema?.schema ?? wrapper);
    return validate(value) ? { ok: true, value } : { ok: false, failure: "schema", errors: validate.errors.slice(0, 5) };
  };
}

