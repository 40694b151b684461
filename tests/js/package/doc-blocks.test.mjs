// The code blocks of README.md and docs/*.md marked `<!-- runs -->` run as
// they are printed, against the built package (pkg/), under Node and Bun.
// Every block is type-checked by tests/types/; a block marked to run also
// has to work. A statement whose comment states its value (`x.ok; // false`,
// `v.errors; // [{ path: "/a", code: "rule" }]`) asserts it: an object
// stated holds at least the members it states, an array has exactly the
// items stated, anything else is equal. A comment that is not a JavaScript
// value (prose, `{ ok: false, ... }`) is read as prose, as the reader reads it.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { blocksOf, pages } from "../../types/doc-blocks.mjs";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
/** Inside the repository, so that the blocks' other imports resolve from its node_modules. */
const scratch = join(repo, "test-results", `doc-blocks-${typeof Bun === "undefined" ? "node" : "bun"}-${process.pid}`);

/** The package's entries, as a user imports them. */
const ENTRIES = {
  "structured-output-guard": "pkg/node.mjs",
  "structured-output-guard/matchers": "pkg/matchers.mjs",
  "structured-output-guard/ai-sdk": "pkg/ai-sdk.mjs",
};

/** Whether `text` is one JavaScript expression (compiled, never run). */
function isExpression(text) {
  if (text.trim() === "" || text.includes("...")) return false;
  try {
    new Function(`return (${text}\n);`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The value a comment states, or null: the whole comment, or the part
 * before an explanation (`false: minItems "1"`, `"x" (the default)`).
 */
function statedValue(comment) {
  const candidates = [comment];
  for (const separator of [": ", " (", "; ", ", "]) {
    let at = comment.indexOf(separator);
    while (at > 0) {
      candidates.push(comment.slice(0, at));
      at = comment.indexOf(separator, at + 1);
    }
  }
  // The longest candidate that is a value: `{ a: 1 }` before `{ a`.
  return candidates.filter(isExpression).sort((a, b) => b.length - a.length)[0] ?? null;
}

/**
 * A block's code as a module that runs it: the package's entries imported
 * from pkg/, and each `expression; // value` line an assertion. Returns
 * the source and how many assertions it makes.
 */
export function runnable(code, where) {
  let assertions = 0;
  const lines = code.split("\n").map((line, i) => {
    let out = line;
    for (const [specifier, path] of Object.entries(ENTRIES)) {
      out = out.replace(new RegExp(`(from\\s+)(["'])${specifier.replace(/[/]/g, "\\/")}\\2`), `$1"${pathToFileURL(join(repo, path)).href}"`);
    }
    const at = out.indexOf("; //");
    if (at < 0) return out;
    const indent = /^\s*/.exec(out)[0];
    const expression = out.slice(indent.length, at);
    const comment = out.slice(at + 4).trim();
    if (/^(const|let|var|import|export|return|throw|await\s+import)\b/.test(expression) || !isExpression(expression)) return out;
    const value = statedValue(comment);
    if (value === null) return out;
    assertions++;
    return `${indent}__stated((${expression}), (${value}), ${JSON.stringify(`${where.page}:${where.line + 1 + i}`)});`;
  });
  const helper = `
function __holds(actual, stated) {
  if (Array.isArray(stated)) return Array.isArray(actual) && actual.length === stated.length && stated.every((s, i) => __holds(actual[i], s));
  if (stated !== null && typeof stated === "object") {
    return actual !== null && typeof actual === "object" && Object.keys(stated).every((k) => __holds(actual[k], stated[k]));
  }
  return Object.is(actual, stated);
}
function __stated(actual, stated, where) {
  if (!__holds(actual, stated)) {
    throw new Error(where + ": the page states " + JSON.stringify(stated) + ", the code gives " + JSON.stringify(actual));
  }
}
`;
  return { source: `${lines.join("\n")}\n${helper}`, assertions };
}

let written = 0;
async function run(code, where) {
  const { source, assertions } = runnable(code, where);
  mkdirSync(scratch, { recursive: true });
  const file = join(scratch, `block-${written++}.mjs`);
  writeFileSync(file, source);
  await import(pathToFileURL(file).href);
  return assertions;
}

after(() => rmSync(scratch, { recursive: true, force: true }));

describe("the pages' runnable code blocks", () => {
  const blocks = pages(repo).flatMap((page) => blocksOf(page, readFileSync(join(repo, page), "utf8"))).filter((b) => b.runs);

  test("the pages mark blocks to run, and the marks are found", () => {
    assert.ok(blocks.length >= 3, `only ${blocks.length} blocks are marked <!-- runs -->`);
    assert.ok(blocks.some((b) => b.page === "README.md"), "README.md has no runnable block");
    for (const block of blocks) assert.equal(block.prelude, null, `${block.page}:${block.line} runs, so it declares nothing`);
  });

  for (const block of blocks) {
    test(`${block.page}:${block.line} runs and gives the values it states`, async () => {
      const assertions = await run(block.code, block);
      assert.ok(assertions > 0, `${block.page}:${block.line} states no value to check`);
    });
  }

  test("a value stated wrongly fails the block", async () => {
    const code = 'import { rescueJson } from "structured-output-guard";\nrescueJson("```json\\n{}\\n```").rescue; // "none"';
    await assert.rejects(run(code, { page: "example.md", line: 0 }), /example\.md:2: the page states "none", the code gives "code_fence"/);
    const right = 'import { rescueJson } from "structured-output-guard";\nrescueJson("```json\\n{}\\n```").rescue; // "code_fence"';
    assert.equal(await run(right, { page: "example.md", line: 0 }), 1);
  });

  test("a stated object holds at least its members; prose is not a value", () => {
    assert.equal(runnable("f(); // { ok: false, ... }", { page: "p", line: 0 }).assertions, 0);
    assert.equal(runnable("f(); // the verdict", { page: "p", line: 0 }).assertions, 0);
    assert.equal(runnable('f(); // false: minItems "1"', { page: "p", line: 0 }).assertions, 1);
    assert.equal(runnable("const x = f(); // 3", { page: "p", line: 0 }).assertions, 0);
  });
});
