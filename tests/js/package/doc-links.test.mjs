// Every link between the pages (README.md and docs/*.md) leads somewhere: the
// file it names exists, and the section it names (`page.md#section`) is a
// heading of that page, by the anchor GitHub and npm give it. The README is
// the way in, so a link that leads nowhere loses its reader.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pages } from "../../types/doc-blocks.mjs";

const repo = fileURLToPath(new URL("../../../", import.meta.url));

/** A page's text without its fenced blocks (a `# comment` in a shell block is not a heading). */
function prose(text) {
  return text.replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, "");
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings, a repeated one numbered as GitHub numbers it. */
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The links of a page that stay in the repository: `{ target, anchor, line }`. */
function linksOf(text) {
  const links = [];
  prose(text)
    .split("\n")
    .forEach((line, i) => {
      for (const [, href] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(href)) continue;
        const [target, anchor] = href.split("#");
        links.push({ target, anchor, line: i + 1 });
      }
    });
  return links;
}

describe("the links between the pages", () => {
  test("a heading's anchor is GitHub's", () => {
    assert.equal(anchorOf("guardedCall(request, callModel, options)"), "guardedcallrequest-callmodel-options");
    assert.equal(anchorOf('"Stopped at the token limit": finish reasons'), "stopped-at-the-token-limit-finish-reasons");
    assert.equal(anchorOf("Budgets, deadline and stats"), "budgets-deadline-and-stats");
  });

  test("every link names a file and a section that exist", () => {
    const broken = [];
    let checked = 0;
    for (const page of pages(repo)) {
      const text = readFileSync(join(repo, page), "utf8");
      for (const { target, anchor, line } of linksOf(text)) {
        checked++;
        const file = target === "" ? join(repo, page) : join(repo, dirname(page), target);
        if (!existsSync(file)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(readFileSync(file, "utf8")).has(anchor)) {
          broken.push(`${page}: ${target}#${anchor} (no such section)`);
        }
      }
    }
    assert.ok(checked > 20, `only ${checked} links found`);
    assert.deepEqual(broken, []);
  });
});
