// The code blocks of README.md and docs/*.md, written out as modules for
// tsc to check against the installed package (tests/types/types.test.mjs
// describes the rules for the pages' authors).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** Fence languages that are checked, and the extension each is checked as. */
const LANGUAGES = { js: "mjs", javascript: "mjs", mjs: "mjs", ts: "mts", typescript: "mts", mts: "mts" };

/** A prelude: an HTML comment `<!-- prelude ... -->` right before a fence (blank lines between allowed). */
const PRELUDE = /^<!--\s*prelude\b([\s\S]*?)-->\s*$/;

/**
 * The mark of a block that also runs, as it is printed, against the built
 * package (tests/js/package/doc-blocks.test.mjs): `<!-- runs -->` right before the
 * fence. Such a block needs no prelude: everything it uses, it makes.
 */
const RUNS = /^<!--\s*runs\s*-->\s*$/;

/**
 * Names a prelude declares, by kind: values (`declare const x`, ...),
 * variables the block may assign (`declare let x`, `declare var x`), and
 * types (`type X`, `interface X`).
 */
const VALUE_NAMES = /^(?:export\s+)?declare\s+(?:const|function|class|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
const VARIABLE_NAMES = /^(?:export\s+)?declare\s+(?:let|var)\s+([A-Za-z_$][\w$]*)/gm;
const TYPE_NAMES = /^(?:export\s+)?(?:declare\s+)?(?:type|interface)\s+([A-Za-z_$][\w$]*)/gm;

/** README.md and every docs/*.md of the repository, relative paths. */
export function pages(repo) {
  const docs = readdirSync(join(repo, "docs")).filter((name) => name.endsWith(".md")).sort();
  return ["README.md", ...docs.map((name) => `docs/${name}`)];
}

/**
 * The checked blocks of one page: `{ page, line, language, code, prelude, runs }`,
 * `line` the fence's line (1-based), `prelude` the prelude's TypeScript or
 * null, `runs` whether the block is marked to run. Fences of other
 * languages (sh, text, none) are skipped.
 */
export function blocksOf(page, text) {
  const lines = text.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (open === null) continue;
    const [, indent, fence, language] = open;
    // The fence closes at a line of only the same character, at least as many.
    const closes = (line) => line.trim().length >= fence.length && [...line.trim()].every((c) => c === fence[0]);
    let end = i + 1;
    while (end < lines.length && !closes(lines[end])) end++;
    const extension = LANGUAGES[language.toLowerCase()];
    if (extension !== undefined) {
      const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join("\n");
      const before = lines.slice(0, i).join("\n");
      const comment = before.slice(before.lastIndexOf("<!--"));
      const prelude = PRELUDE.exec(comment);
      const runs = RUNS.test(comment);
      blocks.push({ page, line: i + 1, language, extension, code, prelude: prelude === null ? null : prelude[1], runs });
    }
    i = end;
  }
  return blocks;
}

/**
 * Writes each block of the pages into `dir` as a module, with its prelude
 * as a declaration module it imports every declared name from. Returns the
 * files written (for tsconfig's `files`) and a function that rewrites tsc's
 * output to name each page and line instead of the generated files.
 */
export function writeBlocks(repo, dir) {
  mkdirSync(dir, { recursive: true });
  const files = [];
  const origins = new Map();
  for (const page of pages(repo)) {
    const stem = basename(page, ".md").toLowerCase();
    for (const block of blocksOf(page, readFileSync(join(repo, page), "utf8"))) {
      const name = `${stem}-${block.line}`;
      let head = "";
      if (block.prelude !== null) {
        const values = [...block.prelude.matchAll(VALUE_NAMES)].map((m) => m[1]);
        // An import cannot be assigned: a variable is imported under another
        // name and copied into a `let` of its own (same line, same type).
        const variables = [...block.prelude.matchAll(VARIABLE_NAMES)].map((m) => m[1]);
        const types = block.extension === "mts" ? [...block.prelude.matchAll(TYPE_NAMES)].map((m) => m[1]) : [];
        const exported = block.prelude
          .replace(/^declare\s/gm, "export declare ")
          .replace(/^(type|interface)\s/gm, "export $1 ");
        writeFileSync(join(dir, `${name}.prelude.d.mts`), `${exported}\nexport {};\n`);
        const names = [...values, ...types, ...variables.map((v) => `${v} as prelude$${v}`)];
        const copies = variables.map((v) => ` let ${v} = prelude$${v};`).join("");
        if (names.length > 0) head = `import { ${names.join(", ")} } from "./${name}.prelude.mjs";${copies}\n`;
      }
      const file = `${name}.${block.extension}`;
      // Every block is a module, so that blocks never share names.
      writeFileSync(join(dir, file), `${head}${block.code}\nexport {};\n`);
      files.push(file);
      origins.set(file, { page: block.page, line: block.line, offset: head === "" ? 0 : 1 });
    }
  }
  /** tsc's `file(line,col)` for a generated block, as `page:line:col` of its fence's content. */
  const locate = (output) =>
    output.replace(/(?:^|(?<=\s))(?:[^\s(]*\/)?([\w.-]+\.m[jt]s)\((\d+),(\d+)\)/g, (whole, file, line, column) => {
      const origin = origins.get(file);
      if (origin === undefined) return whole;
      return `${origin.page}:${origin.line + Number(line) - origin.offset}:${column}`;
    });
  return { files, locate, count: files.length };
}
