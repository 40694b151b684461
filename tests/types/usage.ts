// Typed usage of the public API. Every line must type-check (see
// types.test.mjs); the expected errors prove the types also reject misuse.
import {
  escapeForDisplay,
  StructuredOutputError,
  SchemaError,
  checkOutput,
  compileSchema,
  createStreamCheck,
  detectTruncation,
  guardedCall,
  mergeUsage,
  normalizeUsage,
  ready,
  rescueJson,
  wasmMemoryBytes,
  type Issue,
  type StreamState,
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
    const missing: string | undefined = issues[0]?.params?.missingProperty;
    const limit: number | undefined = issues[0]?.params?.limit;
    void missing;
    void limit;
    const failure: "truncated" | "empty" | "unparseable" | "not_object" | "schema" | "rule" = verdict.failure;
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

  // A Validator<T> carries T: isValid narrows, checkOutput and guardedCall infer it.
  const typed = compileSchema<Observation>(schema);
  const candidate: unknown = { type: "fact", text: "t" };
  if (typed.isValid(candidate)) {
    const narrowed: Observation = candidate;
    void narrowed;
  }
  const typedVerdict = checkOutput("{}", typed);
  if (typedVerdict.ok) {
    const text: string = typedVerdict.value.text;
    void text;
  }
  const inferred = await guardedCall(request, () => "{}", { schema: typed });
  const inferredValue: Observation = inferred.value;
  const firstVerdict: Verdict<Observation> | undefined = inferred.verdicts[0];
  void inferredValue;
  void firstVerdict;
  const inferredLenient = await guardedCall(request, () => "{}", { schema: typed, strict: false });
  const maybeInferred: Observation | null = inferredLenient.value;
  void maybeInferred;

  // `strict` known only at run time: either result, so the value may be null.
  const strictFlag: boolean = Math.random() < 2;
  const either = await guardedCall<Observation>(request, () => "{}", { schema, strict: strictFlag });
  if (either.value !== null) {
    const checked: Observation = either.value;
    void checked;
  }
  const explicitTrue = await guardedCall<Observation>(request, () => "{}", { schema, strict: true });
  const definite: Observation = explicitTrue.value;
  void definite;

  // @ts-expect-error isValid narrows only inside the check
  const unnarrowed: Observation = candidate;
  void unnarrowed;
  // @ts-expect-error an inferred verdict's value is an Observation, not a number
  const wrongKind: number = typedVerdict.ok ? typedVerdict.value : 0;
  void wrongKind;
  // @ts-expect-error with a run-time strict flag the value may be null
  const notNullEither: Observation = either.value;
  void notNullEither;
  // @ts-expect-error a lenient call inferred from a Validator may still return null
  const notNullInferred: Observation = inferredLenient.value;
  void notNullInferred;
  // @ts-expect-error a guarded call's inferred value keeps its type
  const wrongInferred: string = inferred.value;
  void wrongInferred;

  const stream = createStreamCheck(compileSchema<Observation>(schema), { maxErrors: 2 });
  const state: StreamState = stream.push('{"type":');
  if (state.status === "rejected") {
    const at: number = state.atByte;
    const early: "unparseable" | "not_object" | "schema" | "rule" = state.failure;
    void at;
    void early;
  }
  const sent: number = stream.bytes;
  void sent;
  const streamed = stream.end("stop");
  if (streamed.ok) {
    const streamedKind: Observation["type"] = streamed.value.type;
    void streamedKind;
    // @ts-expect-error an accepted verdict was decided by no byte
    void streamed.atByte;
  } else {
    const decidedAt: number | undefined = streamed.atByte;
    void decidedAt;
  }
  createStreamCheck(schema).end(null);
  // With toolName, a provider's stream event is pushed as it comes.
  const forced = createStreamCheck(schema, { toolName: "record" });
  forced.push({ type: "tool-input-delta", id: "call_1", delta: '{"type":' });
  forced.free();
  // With partial: true, every state carries the partial value, typed from the validator's.
  const preview = createStreamCheck(compileSchema<Observation>(schema), { partial: true });
  const shown = preview.push('{"type":"fa').partial;
  const shownKind: Observation["type"] | undefined = shown.value?.type;
  const failing: ReadonlyArray<string> = shown.invalid;
  void shownKind;
  void failing;
  const forcedPreview = createStreamCheck(schema, { toolName: "record", partial: true });
  void forcedPreview.push({ type: "tool-input-delta", id: "call_1", delta: "{" }).partial.value;
  forcedPreview.free();
  // @ts-expect-error a state carries partial only with partial: true
  void stream.push("").partial;
  // @ts-expect-error partial is a boolean
  createStreamCheck(schema, { partial: "yes" });
  // @ts-expect-error a partial value is read, not written
  shown.invalid = [];
  preview.free();
  const released: void = createStreamCheck(schema).free();
  void released;
  if (state.status === "rejected") {
    // @ts-expect-error a state is frozen
    state.atByte = 0;
    // @ts-expect-error and so are its issues
    state.errors.push({ path: "", schemaPath: "", code: "type", message: "" });
  }
  // @ts-expect-error push takes text
  stream.push(new Uint8Array(1));
  // @ts-expect-error a pending state has no issues
  void (state.status === "pending" && state.errors);

  // A request written inline keeps its literal types, arrays mutable, as
  // an SDK's request type asks for them.
  const delivered = await guardedCall(
    { model: "m", messages: [{ role: "user", content: "hi" }], stream: false },
    (req, { signal }) => send(req, { signal }),
    { schema: typed },
  );
  const reply: string = delivered.response.reply;
  const sentKind: Observation["type"] = delivered.value.type;
  void [reply, sentKind];
  // @ts-expect-error the request's role is one send() does not take
  await guardedCall({ model: "m", messages: [{ role: "system", content: "hi" }] }, (req) => send(req), { schema: typed });
  // The value's type written out.
  const written = await guardedCall<Observation>({ model: "m", messages: [] }, (req, { signal }) => send(req, { signal }), { schema });
  const writtenKind: Observation["type"] = written.value.type;
  void writtenKind;
  // @ts-expect-error with the type written out, the request can be passed on but not read
  await guardedCall<Observation>({ model: "m", messages: [] }, (req) => send({ ...req, model: req.model }), { schema });
  // @ts-expect-error an appender gets and returns the request
  await guardedCall({ model: "m", messages: [] }, (req) => send(req), { schema, retry: "repair", appendFeedback: (req: string) => req });
  // Any object is a model output; a number is not.
  checkOutput(new Map(), schema);
  // @ts-expect-error a number is no model output
  checkOutput(42, schema);
  // @ts-expect-error a number is no schema
  checkOutput("{}", 42);

  // @ts-expect-error formats takes "assert" or "annotate" only
  checkOutput("{}", schema, { formats: "strict" });
  // @ts-expect-error rescueJson takes a string
  rescueJson(42);
  // A guarded call without a schema checks against the request's (a TypeError at run time when it has none).
  await guardedCall(request, () => "{}", {});
  // @ts-expect-error dialect is "json-schema" or "gemini"
  checkOutput("{}", schema, { dialect: "openapi" });
  // @ts-expect-error the lenient value may be null
  const notNull: Observation = lenient.value;
  void notNull;
}

void main;

// escapeForDisplay: a string in, a string out.
const printable: string = escapeForDisplay("/\u001b]0;title\u0007");
void printable;
// @ts-expect-error it takes a string
escapeForDisplay(1);

/** An SDK's method as the request's type asks for it. */
declare function send(
  body: { model: string; messages: { role: "user" | "assistant"; content: string }[]; stream?: false },
  options?: { signal?: AbortSignal },
): Promise<{ reply: string }>;
