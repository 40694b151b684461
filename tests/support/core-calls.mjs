// What the tests see of the core's raw exports: how often a call reaches
// each, and the verdict of the core's text path, which no lane takes.
import * as internals from "../../pkg/testing.mjs";

/** Counts calls of the current instance's raw exports in `names` while `fn` runs. */
export function coreCalls(names, fn) {
  const glue = internals.rawGlue();
  const counts = Object.fromEntries(names.map((name) => [name, 0]));
  const originals = names.map((name) => glue[name]);
  names.forEach((name, i) => {
    glue[name] = (...args) => {
      counts[name] += 1;
      return originals[i](...args);
    };
  });
  try {
    fn();
  } finally {
    names.forEach((name, i) => {
      glue[name] = originals[i];
    });
  }
  return counts;
}

/** A verdict as the text path computes it: the schema serialised and handed to the core, shaped as checkOutput shapes it. */
export function textPathVerdict(output, schema, options) {
  const schemaText = typeof schema === "string" ? schema : JSON.stringify(schema);
  const result = JSON.parse(internals.rawGlue().checkOutput(output, true, schemaText, options === undefined ? "null" : JSON.stringify(options)));
  const { textStart, textEnd, text, ...shaped } = result;
  if (shaped.ok) shaped.value = JSON.parse(output.slice(textStart, textEnd));
  return shaped;
}
