#!/usr/bin/env node
// Regenerates this folder's corpus from a SchemaStore checkout:
//
//   node tests/corpus/schemastore/select.mjs /path/to/schemastore
//
// The selection: every schema in src/schemas/json/ that has JSON test
// instances (src/test/<name>/*.json, valid; src/negative_test/<name>/*.json,
// invalid; YAML and TOML instances are left out), that SchemaStore's own
// runner does not skip (`skiptest` in src/schema-validation.jsonc), and whose
// text with the SchemaStore schemas it refers to (each `$ref` resolved
// against the schema's `$id`, else https://json.schemastore.org/<file>, the
// URI it is served at; kept as resources) is at most SCHEMA_BYTES; of its
// instances, the first INSTANCES of each kind (by file name) of at most
// INSTANCE_BYTES each. Written as one file per schema in cases/ (`{ name,
// schema, resources: { uri: file }, valid, invalid }`, each instance as
// `{ file, data }`), and resources/ once each. The tests read only what this
// writes; they never run it.
import { readFileSync, writeFileSync, readdirSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const SCHEMA_BYTES = 64_000;
const INSTANCE_BYTES = 16_000;
const INSTANCES = 5;
const STORE = "https://json.schemastore.org/";

const checkout = process.argv[2];
if (!checkout || !existsSync(join(checkout, "src/schemas/json"))) {
  console.error("usage: node select.mjs /path/to/schemastore-checkout");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const schemasDir = join(checkout, "src/schemas/json");

/** JSON with comments, as SchemaStore's configuration is written. */
function readJsonc(path) {
  const text = readFileSync(path, "utf8");
  let out = "";
  for (let i = 0, inString = false; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[\]}])/g, "$1"));
}

const config = readJsonc(join(checkout, "src/schema-validation.jsonc"));
const skipped = new Set(config.skiptest ?? []);

/** The SchemaStore file a URI names (json. or www.schemastore.org, with or without ".json"), if it names one. */
function storeFile(uri) {
  const match = /^https?:\/\/(?:json|www)\.schemastore\.org\/([^#?]+)/.exec(uri);
  if (!match) return undefined;
  return match[1].endsWith(".json") ? match[1] : `${match[1]}.json`;
}

/**
 * The SchemaStore schemas `schema` (retrieved from `base`) refers to: each
 * `$ref` resolved against the schema's `$id`, else `base`, as URI (without
 * fragment) → file.
 */
function storeReferences(schema, base, found) {
  const root = typeof schema?.$id === "string" && /^https?:/.test(schema.$id) ? schema.$id : base;
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) {
        let uri;
        try {
          uri = new URL(value, root).href.split("#")[0];
        } catch {
          uri = undefined;
        }
        const file = uri === undefined ? undefined : storeFile(uri);
        if (file !== undefined && uri !== root.split("#")[0] && !(uri in found)) found[uri] = file;
      }
      walk(value);
    }
  };
  walk(schema);
  return found;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** The resources a schema needs, recursively, as URI → file; undefined when one cannot be read. */
function resourcesOf(schema, base) {
  const found = storeReferences(schema, base, {});
  const done = new Set();
  for (let pending = Object.keys(found); pending.length > 0; pending = Object.keys(found).filter((uri) => !done.has(uri))) {
    for (const uri of pending) {
      done.add(uri);
      const path = join(schemasDir, found[uri]);
      const resource = existsSync(path) ? readJson(path) : undefined;
      if (resource === undefined) return undefined;
      storeReferences(resource, uri, found);
    }
  }
  return Object.fromEntries(Object.entries(found).sort());
}

function instances(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .filter((file) => statSync(join(dir, file)).size <= INSTANCE_BYTES)
    .map((file) => ({ file, data: readJson(join(dir, file)) }))
    .filter((instance) => instance.data !== undefined)
    .slice(0, INSTANCES);
}

rmSync(join(here, "cases"), { recursive: true, force: true });
rmSync(join(here, "resources"), { recursive: true, force: true });
mkdirSync(join(here, "cases"), { recursive: true });
mkdirSync(join(here, "resources"), { recursive: true });

const usedResources = new Set();
let cases = 0;
let instanceCount = 0;
for (const file of readdirSync(schemasDir).filter((f) => f.endsWith(".json")).sort()) {
  const name = file.slice(0, -".json".length);
  if (skipped.has(file)) continue;
  const valid = instances(join(checkout, "src/test", name));
  const invalid = instances(join(checkout, "src/negative_test", name));
  if (valid.length + invalid.length === 0) continue;
  const schema = readJson(join(schemasDir, file));
  if (schema === undefined) continue;
  const resources = resourcesOf(schema, `${STORE}${file}`);
  if (resources === undefined) continue;
  const files = new Set(Object.values(resources));
  files.delete(file);
  const bytes = [file, ...files].reduce((sum, f) => sum + statSync(join(schemasDir, f)).size, 0);
  if (bytes > SCHEMA_BYTES) continue;
  for (const resource of files) usedResources.add(resource);
  writeFileSync(join(here, "cases", file), `${JSON.stringify({ name, schema, resources, valid, invalid })}\n`);
  cases++;
  instanceCount += valid.length + invalid.length;
}
for (const resource of usedResources) {
  writeFileSync(join(here, "resources", resource), `${JSON.stringify(readJson(join(schemasDir, resource)))}\n`);
}
let commit = "unknown";
try {
  commit = execFileSync("git", ["-C", checkout, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
} catch {
  // A checkout without git history: SOURCE.md then says so.
}
console.log(`${cases} schemas, ${instanceCount} instances, ${usedResources.size} resources, from commit ${commit}`);
