// The public types as a user meets them: the built package packed with
// `npm pack` and installed offline into a fresh project (never linked), the
// user's code type-checked there with `strict` and `module` and
// `moduleResolution` "nodenext", on TypeScript 5 and on TypeScript 7 (the
// pinned dev dependencies `typescript` and `typescript7`). The SDKs, test
// runners and their types are this repository's pinned dev dependencies,
// linked into the project.
//
// Programs, each checked by both compilers:
// - the package's own declarations (usage.ts, governance.ts, tool-calls.ts,
//   guarded-stream.ts, entries.ts), with no other types and skipLibCheck
//   off, so every .d.ts the package ships is checked too;
// - the code a user writes with each SDK's real types: openai.ts
//   (Chat Completions and Responses), anthropic.ts, gemini.ts (@google/genai),
//   bedrock.ts (@aws-sdk/client-bedrock-runtime),
//   ai-sdk.ts and standard-schema.ts (ai with @ai-sdk/openai), telemetry.ts
//   (@opentelemetry/api's Tracer and Meter);
// - the matchers under Vitest (matchers-vitest.ts) and bun:test
//   (matchers-bun.ts), and under Vitest again with the package linked from
//   outside the project (as npm link and workspaces do), where its own
//   location does not resolve the project's Vitest;
// - every js, javascript, ts or typescript code block of README.md and
//   docs/*.md (see below).
// Each file marks the mistakes a user could make with `@ts-expect-error`,
// and tsc fails on a directive with no error under it: a type loosened to
// `any` fails the test.
//
// Code blocks of the pages. Every fenced block whose language is js,
// javascript, mjs, ts, typescript or mts is a module of its own (JS blocks
// checked as .mjs with checkJs, TS blocks as .mts), and must type-check as
// it is printed. A block that uses what the page has shown before, or what
// a user has at hand (a client, a request, a response), declares it in a
// prelude: an HTML comment right before the fence, which the page's
// readers never see:
//
//   <!-- prelude
//   declare const openai: import("openai").OpenAI;
//   declare const messages: import("openai/resources/chat/completions").ChatCompletionMessageParam[];
//   -->
//
// A prelude is TypeScript declarations (and the `import type`s they use);
// each `declare const|let|function|class ...` (and, for TS blocks, each
// `type` or `interface`) is imported into the block by name. An error is
// reported at the page's own line.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installPacked, linkPackage, repo, run } from "../package/install.mjs";
import { writeBlocks } from "./doc-blocks.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));

/** The compilers, each by the path of its tsc and its version. */
const COMPILERS = ["typescript", "typescript7"].map((name) => {
  const dir = join(repo, "node_modules", name);
  return { tsc: join(dir, "bin", "tsc"), version: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version };
});

/** What the project links from this repository's node_modules. */
const LINKS = [
  "openai",
  "@anthropic-ai/sdk",
  "@google/genai",
  "@aws-sdk/client-bedrock-runtime",
  "ai",
  "@ai-sdk/openai",
  "vitest",
  "bun-types",
  "@types/node",
  "@opentelemetry/api",
  "@opentelemetry/context-async-hooks",
  "@opentelemetry/sdk-trace-base",
];

const BASE = {
  strict: true,
  noEmit: true,
  target: "ES2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  lib: ["ES2022", "DOM", "DOM.Iterable"],
  types: [],
  skipLibCheck: true,
};

let work;
let project;
let linkedApp;
let blocks;

/** Writes `tsconfig.<id>.json` in `dir` and returns its name. */
function tsconfig(dir, id, files, options = {}) {
  const name = `tsconfig.${id}.json`;
  writeFileSync(join(dir, name), `${JSON.stringify({ compilerOptions: { ...BASE, ...options }, files }, null, 2)}\n`);
  return name;
}

const PROGRAMS = [
  {
    id: "own",
    title: "the package's own declarations, skipLibCheck off",
    files: ["usage.ts", "governance.ts", "tool-calls.ts", "guarded-stream.ts", "entries.ts"],
    options: { skipLibCheck: false, skipDefaultLibCheck: true },
  },
  {
    id: "sdks",
    title: "user code with the SDKs' types (openai, @anthropic-ai/sdk, @google/genai, @aws-sdk/client-bedrock-runtime, ai + @ai-sdk/openai, @opentelemetry/api)",
    files: ["openai.ts", "anthropic.ts", "gemini.ts", "bedrock.ts", "ai-sdk.ts", "standard-schema.ts", "telemetry.ts"],
    options: { types: ["node"] },
  },
  { id: "vitest", title: "the matchers under Vitest", files: ["matchers-vitest.ts"] },
  { id: "bun", title: "the matchers under bun:test", files: ["matchers-bun.ts"], options: { lib: ["ES2022"], types: ["bun-types"] } },
  { id: "linked", title: "the matchers under Vitest, the package linked from outside the project", files: ["matchers-vitest.ts"], linked: true },
  { id: "docs", title: "the code blocks of README.md and docs/*.md", docs: true },
];

before(() => {
  ({ work, project } = installPacked({ manifest: { type: "module" }, links: LINKS }));
  for (const file of readdirSync(here).filter((name) => name.endsWith(".ts"))) copyFileSync(join(here, file), join(project, file));

  // A linked install: the package's real path is outside the project, where
  // no Vitest resolves (tar is the tarball npm made; the package is in it
  // under package/).
  const outside = join(work, "outside");
  mkdirSync(outside);
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
  run("tar", ["-xzf", join(work, tarball), "-C", outside], work);
  linkedApp = join(work, "linked-app");
  mkdirSync(linkedApp);
  writeFileSync(join(linkedApp, "package.json"), `${JSON.stringify({ name: "linked-app", private: true, type: "module" })}\n`);
  linkPackage(linkedApp, "structured-output-guard", join(outside, "package"));
  linkPackage(linkedApp, "vitest", join(repo, "node_modules", "vitest"));
  copyFileSync(join(here, "matchers-vitest.ts"), join(linkedApp, "matchers-vitest.ts"));

  blocks = writeBlocks(repo, join(project, "doc-blocks"));
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the installed package's types", () => {
  for (const program of PROGRAMS) {
    for (const { tsc, version } of COMPILERS) {
      test(`${program.title}, TypeScript ${version}`, () => {
        let dir = project;
        let config;
        let locate = (text) => text;
        if (program.linked) {
          dir = linkedApp;
          config = tsconfig(dir, program.id, program.files, program.options);
        } else if (program.docs) {
          assert.ok(blocks.count > 0, "no code blocks found");
          config = tsconfig(dir, program.id, blocks.files.map((f) => `doc-blocks/${f}`), { types: ["node"], allowJs: true, checkJs: true });
          locate = blocks.locate;
        } else {
          config = tsconfig(dir, program.id, program.files, program.options);
        }
        const result = run(process.execPath, [tsc, "-p", config, "--pretty", "false"], dir, { allowFailure: true });
        assert.equal(result.status, 0, `tsc ${version} -p ${config}:\n${locate(`${result.stdout}${result.stderr}`)}`);
      });
    }
  }
});
