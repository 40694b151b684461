// The facade reads a request's tool declarations from its live lists by the
// core's rules (js/declarations.mjs, `RULES` in
// src/providers/declarations.rs), so that no schema is serialised to find
// a call's tool. It must find exactly what the core finds in the lists'
// JSON text, both by the reader written for the rules and by the general
// loop over them: every shape the providers and SDKs write, and seeded
// random lists of everything those shapes are made of.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { prng } from "../../support/random.mjs";
import { jsonSchema, tool } from "ai";

/** What the core declares in the JSON text of `tools`, each name's first declaration, with its schema taken from the live value. */
function byCore(tools, reader) {
  // A lone surrogate becomes U+FFFD, as the facade writes the text it hands the core.
  const text = JSON.stringify(tools, (_, value) => (typeof value === "string" ? value.toWellFormed() : value));
  const declared = JSON.parse(internals.rawGlue()[reader](text));
  const out = new Map();
  for (const { name, schemaPointer } of declared) {
    if (out.has(name)) continue;
    out.set(name, schemaPointer === null ? undefined : at(tools, schemaPointer));
  }
  return out;
}

function at(root, pointer) {
  let node = root;
  for (const token of pointer.split("/").slice(1)) node = node[token.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node;
}

/** What the facade's reader declares: name → schema (the live object, or undefined for a tool that takes any object). */
function byFacade(tools) {
  const out = new Map();
  for (const [name, { schema }] of internals.declaredTools(tools).all()) out.set(name, schema);
  return out;
}

/** The facade's reading, by the function written for the core's rules and by the general loop over them, against the core's. */
function assertSame(tools, label) {
  assertSameBy(tools, `${label} (written)`);
  const before = internals.declarationsWritten(false);
  try {
    assertSameBy(tools, `${label} (general)`);
  } finally {
    internals.declarationsWritten(before);
  }
}

function assertSameBy(tools, label) {
  const expected = byCore(tools, "declaredTools");
  const found = byFacade(tools);
  assert.deepEqual([...found.keys()], [...expected.keys()], `${label}: the names`);
  for (const [name, schema] of expected) {
    assert.ok(found.get(name) === schema, `${label}: the schema of ${name}`);
    const one = internals.declaredTools(tools).find(name);
    assert.ok(one !== undefined && one.schema === schema, `${label}: find(${name})`);
  }
}

const S = { type: "object", properties: { a: { type: "string" } } };

describe("declarations read by the core's rules", () => {
  test("every provider's and SDK's shape, as lists and in requests", () => {
    const shapes = {
      "OpenAI Chat": [{ type: "function", function: { name: "a", description: "d", parameters: S } }, { type: "function", function: { name: "now" } }],
      "OpenAI Responses": [{ type: "function", name: "a", parameters: S, strict: true }, { type: "web_search" }],
      Anthropic: [{ name: "a", description: "d", input_schema: S }, { type: "bash_20250124", name: "bash" }],
      "Gemini REST": [{ functionDeclarations: [{ name: "a", parameters: S }, { name: "b", parametersJsonSchema: S }] }, { googleSearch: {} }],
      Bedrock: [{ toolSpec: { name: "a", description: "d", inputSchema: { json: S } } }, { toolSpec: { name: "b" } }],
      MCP: [{ name: "a", description: "d", inputSchema: S }, { name: "b", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
      "AI SDK record": { a: tool({ inputSchema: jsonSchema(S), execute: async () => "x" }), b: { parameters: S }, c: { inputSchema: S, description: "d" } },
      "a name declared twice": [{ name: "a", input_schema: S }, { name: "a", input_schema: { type: "object" } }],
      "odd members": [null, 3, "x", [], { function: "not an object", name: "a", parameters: S }, { toolSpec: { name: "b", inputSchema: [] } }, { name: 7, parameters: S }, { parameters: S }],
    };
    for (const [label, list] of Object.entries(shapes)) {
      assertSame(list, label);
      assertSame({ model: "m", messages: [{ role: "user", content: "hi" }], tools: list }, `${label} in a request`);
    }
    assertSame({ toolConfig: { tools: shapes.Bedrock } }, "Bedrock's request");
    assertSame({ config: { tools: shapes["Gemini REST"] } }, "@google/genai's request");
    assertSame({ tools: shapes.Anthropic, functions: [{ name: "a", parameters: { type: "object" } }, { name: "z", parameters: S }] }, "two lists, the first declaration of a name kept");
  });

  test("seeded random lists of what declarations are made of", () => {
    const next = prng(0x5eed1);
    const pick = (items) => items[Math.floor(next() * items.length)];
    const SCHEMA_KEYS = ["parameters", "parametersJsonSchema", "input_schema", "inputSchema"];
    const name = () => pick(["a", "b", "c", "a", "b", "\ud800x", 7, null, undefined, ""]);
    const schema = () => pick([S, { type: "object" }, S, null, true, [], "s", undefined, { jsonSchema: S }, { jsonSchema: true }, { jsonSchema: "x" }, { jsonSchema: null }, { jsonSchema: [] }]);
    const odd = () => pick([null, "x", 3, [], {}, undefined, () => 1]);
    /** A declaration of one of the shapes, or something near one. */
    const entry = (depth) => {
      const made = pick([
        () => ({ type: pick(["function", "other", undefined]), function: next() < 0.8 ? { name: name(), parameters: schema(), description: "d" } : next() < 0.5 ? { name: name() } : odd() }),
        () => ({ toolSpec: next() < 0.8 ? { name: name(), inputSchema: next() < 0.8 ? { json: schema() } : odd() } : odd() }),
        () => ({ type: pick(["function", undefined]), name: name(), [pick(SCHEMA_KEYS)]: schema(), description: pick([undefined, "d", null]) }),
        () => ({ name: name(), description: pick(["d", undefined, null]), type: pick(["function", "x", undefined]) }),
        () => (depth > 0 ? odd() : { functionDeclarations: next() < 0.8 ? Array.from({ length: Math.floor(next() * 3) }, () => entry(depth + 1)) : odd() }),
        () => odd(),
      ])();
      // Members of other shapes beside, as a confused or a hostile list has them.
      if (made !== null && typeof made === "object" && !Array.isArray(made)) {
        for (let i = Math.floor(next() * 3); i > 0; i--) {
          made[pick([...SCHEMA_KEYS, "function", "toolSpec", "name", "description", "type", "functionDeclarations"])] = pick([schema(), name(), odd(), { name: name(), parameters: schema() }]);
        }
      }
      return made;
    };
    const kinds = new Set();
    for (let round = 0; round < 3000; round++) {
      const list =
        next() < 0.8
          ? Array.from({ length: 1 + Math.floor(next() * 4) }, () => entry(0))
          : Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 3) }, () => [pick(["a", "b", "c/d", "__proto__"]), entry(1)]));
      assertSame(list, `random list ${round}: ${JSON.stringify(list)}`);
      for (const { schemaPointer } of JSON.parse(internals.rawGlue().declaredTools(JSON.stringify(list, (_, v) => (typeof v === "string" ? v.toWellFormed() : v))))) {
        kinds.add(schemaPointer === null ? "none" : schemaPointer.replace(/^\/[^/]+/, "").replace(/\/\d+/g, "/N"));
      }
    }
    // The lists declare tools in every shape, not only nothing.
    for (const kind of ["none", "/function/parameters", "/toolSpec/inputSchema/json", "/parameters", "/parametersJsonSchema", "/input_schema", "/inputSchema", "/inputSchema/jsonSchema", "/functionDeclarations/N/parameters"]) {
      assert.ok(kinds.has(kind), `a declaration read at ${kind}: ${[...kinds].join(", ")}`);
    }
  });

  test("values JSON.stringify writes otherwise are read by the core", () => {
    const dated = { name: "a", parameters: S, description: new Date(0) };
    const boxed = [{ name: new String("a"), input_schema: S }, { function: new Date(0), name: "b", parameters: S }];
    const custom = [{ name: "a", parameters: S, toJSON: () => ({ name: "b", parameters: { type: "object" } }) }];
    assertSame([dated], "a Date");
    assertSame(boxed, "a boxed string and a Date where an object is read");
    assertSame({ tools: custom }, "a toJSON");
  });
});
