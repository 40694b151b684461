// Every `Schema` example in @google/genai's shipped typings
// (dist/genai.d.ts), in its samples (sdk-samples/), and in the Gemini API's
// structured-output documentation, as test data: the schema as written
// there, the dialect it is read in (the documentation's REST examples spell
// types in lower case, which only the request's `responseSchema` member,
// or the `dialect` option, says is Gemini's), answers Gemini's own
// validation accepts, answers it refuses, and what the guard lists as
// unenforced. Not a test file itself.
import { Type } from "@google/genai";

export const GEMINI_SCHEMA_EXAMPLES = [
  {
    source: "genai.d.ts, GenerateContentResponse.functionCalls: controlLight's parameters",
    schema: {
      type: Type.OBJECT,
      description: "Set the brightness and color temperature of a room light.",
      properties: {
        brightness: { type: Type.NUMBER, description: "Light level from 0 to 100. Zero is off and 100 is full brightness." },
        colorTemperature: { type: Type.STRING, description: "Color temperature of the light fixture which can be `daylight`, `cool` or `warm`." },
      },
      required: ["brightness", "colorTemperature"],
    },
    accepts: [{ brightness: 25, colorTemperature: "warm" }, { brightness: 0.5, colorTemperature: "daylight" }],
    rejects: [{ brightness: "25", colorTemperature: "warm" }, { brightness: 25 }, { colorTemperature: "cool" }, [25, "warm"]],
    unenforced: [],
  },
  {
    source: "genai.d.ts, Schema.enum: directions",
    schema: { type: Type.STRING, format: "enum", enum: ["EAST", "NORTH", "SOUTH", "WEST"] },
    accepts: ["EAST", "WEST"],
    rejects: ["east", "UP", 1, null],
    unenforced: [],
  },
  {
    source: "genai.d.ts, Schema.enum: apartment numbers",
    schema: { type: Type.INTEGER, format: "enum", enum: ["101", "201", "301"] },
    accepts: [101, 301],
    rejects: ["101", 102, 101.5, null],
    unenforced: [],
  },
  {
    source: "sdk-samples/generate_content_with_response_schema.ts: cookie recipes",
    schema: {
      type: Type.ARRAY,
      items: {
        type: Type.OBJECT,
        properties: { recipeName: { type: Type.STRING, description: "Name of the recipe", nullable: false } },
        required: ["recipeName"],
      },
    },
    accepts: [[{ recipeName: "Snickerdoodles" }], []],
    rejects: [[{ recipeName: null }], [{ name: "Snickerdoodles" }], { recipeName: "Snickerdoodles" }],
    unenforced: [],
  },
  {
    source: "Gemini API docs, structured output (REST): recipes with propertyOrdering",
    schema: {
      type: "ARRAY",
      items: {
        type: "OBJECT",
        properties: { recipeName: { type: "STRING" }, ingredients: { type: "ARRAY", items: { type: "STRING" } } },
        propertyOrdering: ["recipeName", "ingredients"],
      },
    },
    accepts: [[{ recipeName: "Sugar Cookies", ingredients: ["flour", "sugar"] }], [{ ingredients: [], recipeName: "x" }]],
    rejects: [[{ recipeName: "Sugar Cookies", ingredients: "flour" }], [{ recipeName: 7 }]],
    unenforced: [{ path: "/items", keyword: "propertyOrdering" }],
  },
  {
    source: "Gemini API docs, Schema by type: string with enum",
    dialect: "gemini",
    schema: { type: "string", enum: ["a", "b", "c"] },
    accepts: ["a", "c"],
    rejects: ["d", 1],
    unenforced: [],
  },
  {
    source: "Gemini API docs, Schema by type: string date-time",
    dialect: "gemini",
    schema: { type: "string", format: "date-time" },
    accepts: ["2026-01-31T09:30:00Z"],
    rejects: ["yesterday", "2026-02-30T09:30:00Z"],
    unenforced: [],
  },
  {
    source: "Gemini API docs, Schema by type: integer int64",
    dialect: "gemini",
    schema: { type: "integer", format: "int64" },
    accepts: [42, -7],
    rejects: [4.5, "42"],
    unenforced: [{ path: "", keyword: "format" }],
  },
  {
    source: "Gemini API docs, Schema by type: number double",
    dialect: "gemini",
    schema: { type: "number", format: "double" },
    accepts: [4.5, 3],
    rejects: ["4.5", true],
    unenforced: [{ path: "", keyword: "format" }],
  },
  {
    source: "Gemini API docs, Schema by type: boolean",
    dialect: "gemini",
    schema: { type: "boolean" },
    accepts: [true, false],
    rejects: ["true", 0],
    unenforced: [],
  },
  {
    source: "Gemini API docs, Schema by type: array of exactly 3",
    dialect: "gemini",
    schema: { type: "array", minItems: 3, maxItems: 3, items: { type: "integer" } },
    accepts: [[1, 2, 3]],
    rejects: [[1, 2], [1, 2, 3, 4], [1, 2, "3"]],
    unenforced: [],
  },
  {
    source: "Gemini API docs, Schema by type: nullable object with propertyOrdering",
    dialect: "gemini",
    schema: {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: "boolean" } },
      nullable: true,
      required: ["c"],
      propertyOrdering: ["c", "b", "a"],
    },
    accepts: [{ c: true }, { a: "x", b: 2, c: false }, null],
    rejects: [{ a: "x" }, { c: "yes" }, { b: 1.5, c: true }],
    unenforced: [{ path: "", keyword: "propertyOrdering" }],
  },
];
