// What each part of the package's wasm module costs, raw, gzip and brotli:
// per crate (and per family of crates), and the twenty largest items.
//   node bench/size.mjs NAMED_WASM PACKAGE_WASM [--out FILE]
// bench/size.sh makes NAMED_WASM: the module scripts/build.sh optimises,
// optimised the same way but with its function names kept (wasm-opt -g),
// so that its code and data are byte for byte the package's; this checks
// that they are, and fails otherwise.
//
// Functions are named by the module's name section (twiggy reads the same);
// a function belongs to the first crate its name paths through that is not
// the standard library's, so that `core::ptr::drop_in_place<jsonschema::…>`
// counts as jsonschema's, while generic standard-library code whose name
// keeps no type (sorting, hash tables) counts as core's or alloc's. Data
// (string literals, tables, vtables) is cut into items at each address that
// code holds (read with Binaryen's wasm-dis), and an item belongs to the
// crates whose functions hold its address, or else to those of the items
// that point into it; an item several crates share counts as "shared data".
//
// A part's gzip (level 9, Node's zlib, as tests/package/wasm-size.test.mjs
// measures) and brotli (quality 11) cost is what the module compresses to
// with the part than without it: the bytes its removal would save, given
// everything else. Parts share context, so the costs add up to less than
// the whole.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const outFile = outAt >= 0 ? args[outAt + 1] : null;
const [namedFile, packageFile] = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--out");
if (!namedFile || !packageFile) {
  console.error("usage: node bench/size.mjs NAMED_WASM PACKAGE_WASM [--out FILE]");
  process.exit(2);
}
const root = new URL("../", import.meta.url);

// --- the module's sections ------------------------------------------------

function sections(bytes) {
  let p = 8;
  const leb = () => {
    let r = 0, s = 0, x;
    do { x = bytes[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return r;
  };
  const out = [];
  while (p < bytes.length) {
    const id = bytes[p++];
    const len = leb();
    const start = p;
    let name = null;
    if (id === 0) { const n = leb(); name = bytes.subarray(p, p + n).toString(); }
    out.push({ id, name, start, end: start + len });
    p = start + len;
  }
  return out;
}

/** Function bodies (file offset, size, name) and data segments (file offset, address, size). */
function readModule(bytes) {
  let p;
  const leb = () => {
    let r = 0, s = 0, x;
    do { x = bytes[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return r;
  };
  const sleb = () => {
    let r = 0, s = 0, x;
    do { x = bytes[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return x & 0x40 ? r - 2 ** s : r;
  };
  let imported = 0;
  const bodies = [];
  const segments = [];
  const names = new Map();
  for (const section of sections(bytes)) {
    p = section.start;
    if (section.id === 2) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        for (let part = 0; part < 2; part++) { const len = leb(); p += len; }
        const kind = bytes[p++];
        if (kind === 0) { leb(); imported++; }
        else if (kind === 1) { p++; const f = bytes[p++]; leb(); if (f & 1) leb(); }
        else if (kind === 2) { const f = bytes[p++]; leb(); if (f & 1) leb(); }
        else if (kind === 3) { p += 2; }
      }
    } else if (section.id === 10) {
      const n = leb();
      for (let i = 0; i < n; i++) { const len = leb(); bodies.push({ offset: p, size: len }); p += len; }
    } else if (section.id === 11) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        const flags = leb();
        let address = null;
        if (flags === 0 || flags === 2) {
          if (flags === 2) leb();
          if (bytes[p++] !== 0x41) throw new Error("a data segment whose offset is not an i32.const");
          address = sleb();
          if (bytes[p++] !== 0x0b) throw new Error("a data segment offset longer than one i32.const");
        }
        const len = leb();
        segments.push({ offset: p, address, size: len });
        p += len;
      }
    } else if (section.id === 0 && section.name === "name") {
      p += 1 + "name".length;
      while (p < section.end) {
        const sub = bytes[p++];
        const len = leb();
        const end = p + len;
        if (sub === 1) {
          const n = leb();
          for (let i = 0; i < n; i++) { const index = leb(); const l = leb(); names.set(index, bytes.subarray(p, p + l).toString()); p += l; }
        }
        p = end;
      }
    }
  }
  bodies.forEach((body, i) => { body.name = names.get(i + imported) ?? `function ${i + imported}`; });
  return { bodies, segments };
}

const named = readFileSync(namedFile);
const pkg = readFileSync(packageFile);
const sectionBytes = (bytes, id) => sections(bytes).filter((s) => s.id === id).map((s) => bytes.subarray(s.start, s.end));
for (const id of [10, 11]) {
  const [a] = sectionBytes(named, id);
  const [b] = sectionBytes(pkg, id);
  if (!a || !b || Buffer.compare(a, b) !== 0) {
    console.error(`${namedFile} is not ${packageFile} with names: their ${id === 10 ? "code" : "data"} sections differ (run bash bench/size.sh)`);
    process.exit(1);
  }
}
// The package's sections come first and in the same order, so the offsets
// read from the named module are offsets in the package's bytes.
const codeAt = (bytes) => sections(bytes).find((s) => s.id === 10).start;
if (codeAt(named) !== codeAt(pkg)) {
  console.error("the named module's sections do not start where the package's do");
  process.exit(1);
}
const { bodies, segments } = readModule(named);

// --- crates ---------------------------------------------------------------

const lock = readFileSync(new URL("Cargo.lock", root), "utf8");
const crates = new Set([...lock.matchAll(/^name = "([^"]+)"/gm)].map((m) => m[1].replaceAll("-", "_")));
crates.add("hot_path");
const STD = new Set(["core", "alloc", "std", "compiler_builtins"]);

function crateOf(name) {
  if (/ multivalue shim$/.test(name) || /^[a-zA-Z_]+$/.test(name)) return "structured_output_guard (exports)";
  const ids = [...name.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/g)].map((m) => m[1]);
  if (ids.length === 0) return name.startsWith("function ") ? "unnamed (made by wasm-opt)" : "other";
  const user = ids.find((id) => crates.has(id) && !STD.has(id));
  if (user) {
    if (user === "structured_output_guard" && /structured_output_guard::(providers|provider_schema)::/.test(name)) return "structured_output_guard (providers)";
    return user;
  }
  return STD.has(ids[0]) ? ids[0] : "other";
}

/** The families the breakdown sums crates into. */
const FAMILIES = [
  ["jsonschema (validation, its own crates)", /^(jsonschema|jsonschema_value|referencing|fluent_uri|email_address|uuid_simd|vsimd|outref|fraction|num|num_\w+|bytecount|percent_encoding|ahash|micromap|unicode_general_category|borrow_or_share|ref_cast)$/],
  ["fancy-regex", /^(fancy_regex|bit_set|bit_vec)$/],
  ["regex-automata, regex-syntax, regex, jsonschema-regex (code)", /^(regex|regex_automata|regex_syntax|jsonschema_regex)$/],
  ["idna, ICU4X (UTS 46)", /^(idna|idna_adapter|icu_\w+|zerovec|zerotrie|yoke|zerofrom|potential_utf|utf8_iter|tinystr|writeable|litemap|smallvec|utf16_iter|write16)$/],
  ["serde, serde_json", /^(serde|serde_core|serde_json|itoa|zmij|ryu|indexmap|memchr)$/],
  ["the guard's own crates", /^(structured_output_guard|hot_path|sha2|digest|block_buffer|crypto_common|generic_array|cpufeatures|lru|simdutf8|hashbrown|foldhash|equivalent)$|^structured_output_guard \(/],
  ["wasm-bindgen glue", /^(wasm_bindgen|js_sys|console_error_panic_hook|getrandom|once_cell)$/],
  ["Rust standard library, allocator", /^(core|alloc|std|compiler_builtins|talc|dlmalloc)$/],
];
const familyOf = (crate) => (FAMILIES.find(([, re]) => re.test(crate)) ?? ["other"])[0];

// --- data items -------------------------------------------------------------

const dataStart = Math.min(...segments.map((s) => s.address));
const dataEnd = Math.max(...segments.map((s) => s.address + s.size));
const inData = (a) => a >= dataStart && a < dataEnd;

// The addresses each function's code holds.
const refs = bodies.map(() => new Set());
{
  const dir = mkdtempSync(join(tmpdir(), "size-"));
  try {
    const wat = join(dir, "module.wat");
    execFileSync(new URL("node_modules/.bin/wasm-dis", root).pathname, [namedFile, "-o", wat], { stdio: ["ignore", "ignore", "inherit"] });
    const text = readFileSync(wat, "utf8");
    let index = -1;
    for (const line of text.split("\n")) {
      if (line.startsWith(" (func ")) { index++; continue; }
      if (index < 0) continue;
      // Addresses as constants, and as the static offsets of loads and
      // stores (a table indexed at run time).
      for (const m of line.matchAll(/\(i32\.const (-?\d+)\)|offset=(\d+)/g)) {
        const value = Number(m[1] ?? m[2]);
        if (inData(value)) refs[index].add(value);
      }
    }
    if (index + 1 !== bodies.length) throw new Error(`wasm-dis printed ${index + 1} functions, the module has ${bodies.length}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Data by address: the bytes of each segment, cut at each address code
// holds, and the addresses that data itself holds (4-byte aligned words
// that point into the data).
const memory = Buffer.alloc(dataEnd - dataStart);
for (const s of segments) pkg.copy(memory, s.address - dataStart, s.offset, s.offset + s.size);
const cuts = new Set([dataStart, dataEnd]);
for (const r of refs) for (const a of r) cuts.add(a);
const pointers = [];
for (let at = 0; at + 4 <= memory.length; at += 4) {
  const value = memory.readUInt32LE(at);
  if (inData(value)) pointers.push([dataStart + at, value]);
}
const bounds = [...cuts].sort((a, b) => a - b);
const items = [];
for (let i = 0; i + 1 < bounds.length; i++) items.push({ address: bounds[i], size: bounds[i + 1] - bounds[i], crates: new Set(), from: new Set() });
const itemAt = (address) => {
  let lo = 0, hi = items.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (items[mid].address <= address) lo = mid; else hi = mid - 1; }
  return items[lo];
};
bodies.forEach((body, i) => { body.crate = crateOf(body.name); for (const a of refs[i]) itemAt(a).crates.add(body.crate); });
for (const [at, value] of pointers) itemAt(value).from.add(itemAt(at));
// Items only other data points at take the crates of the items pointing at them.
for (let changed = true; changed;) {
  changed = false;
  for (const item of items) {
    if (item.crates.size > 0) continue;
    for (const parent of item.from) for (const c of parent.crates) { item.crates.add(c); changed = true; }
  }
}
// File offsets of each item's bytes (the parts that lie in a segment).
for (const item of items) {
  item.ranges = [];
  for (const s of segments) {
    const from = Math.max(item.address, s.address), to = Math.min(item.address + item.size, s.address + s.size);
    if (from < to) item.ranges.push([s.offset + from - s.address, s.offset + to - s.address]);
  }
  item.bytes = item.ranges.reduce((n, [a, b]) => n + b - a, 0);
  item.crate = item.crates.size === 1 ? [...item.crates][0] : item.crates.size === 0 ? "unreferenced data" : "shared data";
}

// --- costs ----------------------------------------------------------------

const gzip = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;
const brotliAsync = promisify(zlib.brotliCompress);
const brotli = async (bytes) => (await brotliAsync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })).length;

/** The package's bytes without the given [start, end) file ranges. */
function without(ranges) {
  const sorted = ranges.slice().sort((a, b) => a[0] - b[0]);
  const parts = [];
  let at = 0;
  for (const [a, b] of sorted) { if (a > at) parts.push(pkg.subarray(at, a)); at = Math.max(at, b); }
  parts.push(pkg.subarray(at));
  return Buffer.concat(parts);
}

const parts = [
  ...bodies.map((b) => ({ kind: "code", name: b.name, crate: b.crate, size: b.size, ranges: [[b.offset, b.offset + b.size]] })),
  ...items.filter((i) => i.bytes > 0).map((i) => ({ kind: "data", name: describeData(i), crate: i.crate, size: i.bytes, ranges: i.ranges })),
];

function describeData(item) {
  const bytes = memory.subarray(item.address - dataStart, item.address - dataStart + Math.min(item.size, 48));
  const text = [...bytes].map((c) => (c >= 32 && c < 127 ? String.fromCharCode(c) : "·")).join("");
  return `data at ${item.address} (${text.replace(/\|/g, "¦").replace(/`/g, "'")}${item.size > 48 ? "…" : ""})`;
}

const total = { raw: pkg.length, gzip: gzip(pkg), brotli: await brotli(pkg) };

async function costOf(group) {
  const ranges = group.flatMap((p) => p.ranges);
  const rest = without(ranges);
  return { raw: group.reduce((n, p) => n + p.size, 0), gzip: total.gzip - gzip(rest), brotli: total.brotli - (await brotli(rest)) };
}

async function inBatches(list, fn, width = 4) {
  const out = [];
  for (let i = 0; i < list.length; i += width) out.push(...(await Promise.all(list.slice(i, i + width).map(fn))));
  return out;
}

const byCrate = new Map();
for (const p of parts) {
  const entry = byCrate.get(p.crate) ?? { crate: p.crate, code: 0, data: 0, parts: [] };
  entry[p.kind] += p.size;
  entry.parts.push(p);
  byCrate.set(p.crate, entry);
}
const crateRows = [...byCrate.values()].filter((c) => c.code + c.data >= 8192).sort((a, b) => b.code + b.data - (a.code + a.data));
const familyRows = FAMILIES.map(([name]) => name).concat(["other"]).map((name) => {
  const members = [...byCrate.values()].filter((c) => familyOf(c.crate) === name);
  return { name, members, parts: members.flatMap((c) => c.parts), code: members.reduce((n, c) => n + c.code, 0), data: members.reduce((n, c) => n + c.data, 0) };
}).filter((f) => f.parts.length > 0);

for (const row of [...familyRows, ...crateRows]) Object.assign(row, { cost: null });
const costed = await inBatches([...familyRows, ...crateRows], async (row) => { row.cost = await costOf(row.parts); return row; });
void costed;

// The twenty largest items: the 40 largest by raw size, ranked by gzip cost.
const candidates = parts.slice().sort((a, b) => b.size - a.size).slice(0, 40);
for (const p of candidates) p.gzip = total.gzip - gzip(without(p.ranges));
const largest = candidates.sort((a, b) => b.gzip - a.gzip || b.size - a.size).slice(0, 20);
await inBatches(largest, async (p) => { p.brotli = total.brotli - (await brotli(without(p.ranges))); });

// --- report ---------------------------------------------------------------

const n = (x) => x.toLocaleString("en-US");
const pct = (x, of) => `${((100 * x) / of).toFixed(1)}%`;
const lines = [];
lines.push(`The package's module: ${n(total.raw)} B raw, ${n(total.gzip)} B gzip (level 9), ${n(total.brotli)} B brotli (quality 11); ` +
  `code ${n(bodies.reduce((s, b) => s + b.size, 0))} B in ${n(bodies.length)} functions, data ${n(segments.reduce((s, g) => s + g.size, 0))} B.`);
lines.push("");
lines.push("| part | code B | data B | raw share | gzip cost B | brotli cost B |");
lines.push("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const f of familyRows.sort((a, b) => b.cost.gzip - a.cost.gzip)) {
  lines.push(`| **${f.name}** | ${n(f.code)} | ${n(f.data)} | ${pct(f.code + f.data, total.raw)} | ${n(f.cost.gzip)} | ${n(f.cost.brotli)} |`);
}
lines.push("");
lines.push("Per crate (8 KB raw or more):");
lines.push("");
lines.push("| crate | code B | data B | raw share | gzip cost B | brotli cost B |");
lines.push("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const c of crateRows.sort((a, b) => b.cost.gzip - a.cost.gzip)) {
  lines.push(`| ${c.crate} | ${n(c.code)} | ${n(c.data)} | ${pct(c.code + c.data, total.raw)} | ${n(c.cost.gzip)} | ${n(c.cost.brotli)} |`);
}
lines.push("");
lines.push("The twenty largest items (functions, data), by gzip cost:");
lines.push("");
lines.push("| item | crate | raw B | gzip cost B | brotli cost B |");
lines.push("| --- | --- | ---: | ---: | ---: |");
for (const p of largest) {
  const name = p.name.length > 110 ? `${p.name.slice(0, 107)}…` : p.name;
  lines.push(`| \`${name.replace(/\|/g, "¦").replace(/`/g, "'")}\` | ${p.crate} | ${n(p.size)} | ${n(p.gzip)} | ${n(p.brotli)} |`);
}
const report = lines.join("\n") + "\n";
if (outFile) writeFileSync(outFile, report);
process.stdout.write(report);
