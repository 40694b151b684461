// Typed usage of the public API. `tsc -p tests/types` must accept every line;
// the @ts-expect-error lines prove the types also reject misuse.
import {
  StructuredOutputError,
  SchemaError,
  checkOutput,
  compileSchema,
  detectTruncation,
  guardedCall,
  mergeUsage,
  normalizeUsage,
  ready,
  rescueJson,
  wasmMemoryBytes,
  type Issue,
  type Usage,
  type Verdict,
} from "structured-output-guard";

interface Observation {
  type: "fact" | "decision" | "question";
  text: string;
}

const schema = { type: "object", properties: { type: { enum: ["fact", "decision", "question"] } } };

async function main(): Promise<void> {
  await ready();
  const verdict: Verdict<Observation> = checkOutput<Observation>("{}", schema, { maxErrors: 3, formats: "assert" });
  if (verdict.ok) {
    const kind: Observation["type"] = verdict.value.type;
    void kind;
  } else {
    const issues: Issue[] = verdict.errors;
    const failure: "truncated" | "empty" | "unparseable" | "not_object" | "schema" = verdict.failure;
    void issues;
    void failure;
  }

  const validator = compileSchema(schema, { draft: "2020-12", rejectUnknownFields: true });
  const hash: string = validator.schemaHash;
  const result = validator.validate({ type: "fact" }, { maxErrors: 1 });
  const valid: boolean = result.valid && validator.isValid({});
  void hash;
  void valid;
  checkOutput({ content: "{}", finishReason: "stop" }, validator);
  checkOutput({ choices: [{ message: { content: "{}" } }] }, { name: "obs", strict: true, schema });

  const t = detectTruncation({ stop_reason: "max_tokens" });
  const truncated: boolean = t.truncated;
  const reason: string | null = t.finishReason;
  void truncated;
  void reason;
  const rescued: "none" | "code_fence" = rescueJson("```json\n{}\n```").rescue;
  void rescued;

  const bytes: number = wasmMemoryBytes();
  void bytes;
  const usage: Usage = mergeUsage(normalizeUsage({ prompt_tokens: 1 }), { tokens: { input: 2 } });
  const input: number | undefined = usage.tokens?.input;
  void input;

  const request = { messages: [{ role: "user", content: "hi" }] };
  const strictResult = await guardedCall<Observation>(request, async (r) => ({ content: JSON.stringify(r) }), {
    schema,
    maxErrors: 2,
    onAttempt: (event) => void event.verdict.ok,
  });
  const observed: Observation = strictResult.value;
  const attempts: number = strictResult.attempts;
  void observed;
  void attempts;

  const lenient = await guardedCall<Observation>(request, () => "not json", { schema, strict: false });
  const maybe: Observation | null = lenient.value;
  const warning: string | undefined = lenient.warning;
  void maybe;
  void warning;

  try {
    await guardedCall(request, () => "x", { schema, signal: new AbortController().signal });
  } catch (error) {
    if (error instanceof StructuredOutputError) {
      const spent: Usage = error.usage;
      const tries: number = error.attempts;
      void spent;
      void tries;
    } else if (error instanceof SchemaError) {
      const code: "invalid_schema" = error.code;
      void code;
    }
  }

  // @ts-expect-error formats takes "assert" or "annotate" only
  checkOutput("{}", schema, { formats: "strict" });
  // @ts-expect-error rescueJson takes a string
  rescueJson(42);
  // @ts-expect-error a guarded call needs a schema
  await guardedCall(request, () => "{}", {});
  // @ts-expect-error the lenient value may be null
  const notNull: Observation = lenient.value;
  void notNull;
}

void main;
