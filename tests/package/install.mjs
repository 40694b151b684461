// The npm package as a user installs it: `npm pack` of the built pkg/,
// installed offline into a fresh project in a temporary directory. Shared by
// the package test (tests/package/pack.test.mjs) and the type test
// (tests/types/types.test.mjs).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../..", import.meta.url));
export const pkgDir = join(repo, "pkg");

/** Runs a command; fails the test with its output unless it exits 0 (or `allowFailure`). */
export function run(command, args, cwd, { allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
  if (result.error) throw result.error;
  if (!allowFailure) {
    assert.equal(result.status, 0, `${command} ${args.join(" ")} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/**
 * Packs pkg/ into a new temporary directory and installs the tarball,
 * offline, into a fresh project there (`manifest` is its package.json).
 * `links` names packages of this repository's node_modules (the pinned dev
 * dependencies: the SDKs, the test runners, their types) that the project
 * gets by symbolic link, so nothing is downloaded; the package itself is
 * the installed copy, never a link. Returns `{ work, project, packed }`,
 * `packed` being npm's report of the tarball; remove `work` when done.
 */
export function installPacked({ manifest = {}, links = [] } = {}) {
  const work = mkdtempSync(join(tmpdir(), "sog-pack-"));
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], pkgDir).stdout);
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "fresh-consumer", private: true, version: "0.0.0", ...manifest }, null, 2)}\n`);
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(work, packed.filename)], project);
  for (const name of links) linkPackage(project, name, join(repo, "node_modules", name));
  return { work, project, packed };
}

/** Makes `project`'s node_modules/`name` a symbolic link to `target`. */
export function linkPackage(project, name, target) {
  const at = join(project, "node_modules", name);
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at, "dir");
}
