// The functions the package writes at run time for the shapes it meets
// (response walks, usage readers, check programs, declaration readers), and
// the switch that refuses them: each caller has a general path that does
// the same work without them, taken where no function can be made from
// source (a browser page's Content Security Policy, node
// --disallow-code-generation-from-strings).

/**
 * A strict-mode function of `params` whose body is `lines`, or undefined
 * where functions are not made from source: in a browser (see
 * `makeNoFunctions`), or where the runtime refuses (node
 * --disallow-code-generation-from-strings, a worker without eval). The
 * package writes a few for the response and usage shapes it meets, and
 * does their work without them there.
 */
export function functionFrom(params, lines) {
  if (!functionsFromSource) return undefined;
  try {
    return new Function(...params, `"use strict";\n${lines.join("\n")}`);
  } catch {
    return undefined;
  }
}

/** Whether `functionFrom` tries to make functions from source at all. */
let functionsFromSource = true;

/**
 * Makes `functionFrom` give undefined without trying, for the browser
 * build: a page's Content Security Policy may refuse eval, and each
 * refused try is a policy violation the page sees (and, where the site
 * has a reporting endpoint, a report). A policy sent in a header cannot be
 * read from a script, so it is not asked; what the functions save is a
 * fraction of a microsecond a check.
 */
export function makeNoFunctions() {
  functionsFromSource = false;
}
