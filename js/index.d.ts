// Public type contract of structured-output-guard. Checked as users meet it
// (the package packed and installed, user code with each SDK's types,
// TypeScript 5 and 7) by tests/types/types.test.mjs.

export type Rescue = "none" | "code_fence";
export type FailureClass = "truncated" | "empty" | "unparseable" | "not_object" | "schema" | "rule";
export type Draft = "2020-12" | "2019-09" | "7" | "6" | "4";

/** One problem found by schema validation. */
export interface Issue {
  /** JSON Pointer into the instance; "" is the root, e.g. "/observations/0/type". */
  path: string;
  /** JSON Pointer into the schema, to the failing keyword. */
  schemaPath: string;
  /** The failing JSON Schema keyword: "type", "enum", "required", "format", ... */
  code: string;
  /** One English sentence. Never quotes the instance's values. */
  message: string;
  /** For code "rule": the broken rule's name (and `message` is the rule's). */
  rule?: string;
  /**
   * The keyword's parameters, taken from the schema: `missingProperty`
   * (required), `limit` (length, count and bound keywords), `multipleOf`,
   * `format`, `pattern`, `type`. Absent for other keywords.
   */
  params?: IssueParams;
}

/** An issue's parameters (see {@link Issue.params}); one member per issue. */
export interface IssueParams {
  missingProperty?: string;
  limit?: number;
  multipleOf?: number;
  format?: string;
  pattern?: string;
  type?: string | string[];
}

/**
 * A business rule, checked once the schema stage passes: when the response
 * matches `if` (or always, without one) it must match `then`.
 */
export interface Rule {
  /** Unique among the rules; reported as the issue's `rule`. */
  name: string;
  if?: JsonSchema;
  then: JsonSchema;
  /** For people, logs and repair feedback. */
  message: string;
}

export interface CompileOptions {
  /** "assert" (default) rejects format violations; "annotate" ignores them. */
  formats?: "assert" | "annotate";
  /** Default: from $schema, else 2020-12. */
  draft?: Draft;
  /** Treat object schemas that say nothing about extra properties as closed. */
  rejectUnknownFields?: boolean;
  /** "ignore" (default): an unknown format name is an annotation; "error": a SchemaError. */
  unknownFormats?: "ignore" | "error";
  /** Schemas that `$ref` may name by URI. Nothing else is ever fetched. */
  resources?: Record<string, JsonSchema>;
  /** Extra formats, each a regular expression source (Rust regex syntax). */
  customFormats?: Record<string, string>;
  /**
   * How the schema is written: "json-schema" (JSON Schema, with OpenAPI's
   * `nullable: true` read as ajv reads it) or "gemini" (Gemini's `Schema`:
   * `Type.OBJECT`, counts as strings, `format: "enum"`, `propertyOrdering`).
   * Default: told by the schema's shape (a capitalised type, or a count
   * written as a string, is Gemini's), else "json-schema".
   */
  dialect?: SchemaDialect;
  /**
   * The initial base URI (the URI the schema was retrieved from), an absolute
   * URI: relative `$ref`s resolve against it where no `$id` sets a base. A
   * schema in `resources` has its key as its base.
   */
  baseUri?: string;
}

export type SchemaDialect = "json-schema" | "gemini";

export interface ValidateOptions {
  /** Caps the issue list and the work spent building it. Default 5. */
  maxErrors?: number;
}

export interface ValidationResult {
  valid: boolean;
  errors: Issue[];
  moreErrors: boolean;
}

/**
 * A compiled schema, from compileSchema(). `T` is the type the schema
 * describes, as the caller declares it: `isValid` narrows to it, and
 * checkOutput with this validator returns a `Verdict<T>`.
 */
export declare class Validator<T = unknown> {
  private constructor();
  /**
   * The instance is read once, each member exactly once, into the JSON
   * value that is checked. A value that is not JSON (a number that is not
   * finite, a BigInt, a Date, Map, Set, Promise or other class instance,
   * an object with toJSON, an array item JSON would write as null, a
   * cycle, a getter or Proxy that throws, nesting past 127 levels) is a
   * TypeError with code "invalid_argument" saying what and where.
   */
  validate(instance: unknown, options?: ValidateOptions): ValidationResult;
  /** As `validate` reads the instance (and refuses one that is not JSON). */
  isValid(instance: unknown): instance is T;
  /** A stable hash of the schema content (key order does not matter) and of its dialect. */
  readonly schemaHash: string;
  /** The dialect the schema was read in (the option, or the one its shape tells). */
  readonly dialect: SchemaDialect;
  /** What of the schema the guard cannot enforce in its dialect (Gemini's `propertyOrdering`, formats such as `int32`); frozen. */
  readonly unenforced: ReadonlyArray<Readonly<UnenforcedConstraint>>;
  /** Releases the compiled schema's wasm memory now rather than at garbage collection. */
  free(): void;
  /** The Validator as a Standard Schema (and Standard JSON Schema), for the frameworks that take one. */
  readonly "~standard": StandardSchemaProps<T>;
}

/** Standard Schema v1 with Standard JSON Schema (https://standardschema.dev), as a Validator implements it. */
export interface StandardSchemaProps<T> {
  readonly version: 1;
  readonly vendor: "structured-output-guard";
  /**
   * Synchronous. `value` is the copy that was checked (read once, as
   * `Validator.validate` reads it), not the object given; a value that is
   * not JSON is one issue at its path.
   */
  readonly validate: (value: unknown) => { readonly value: T; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };
  /** Targets "draft-2020-12" and "draft-07"; any other throws a TypeError with code "invalid_argument". */
  readonly jsonSchema: {
    readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  };
  /** Types only: carries `T` for inference in the frameworks; absent at runtime. */
  readonly types?: { readonly input: T; readonly output: T };
}

export interface StandardJsonSchemaOptions {
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  readonly libraryOptions?: Record<string, unknown>;
}

export interface StandardIssue {
  readonly message: string;
  /** Keys from the root; array indices as numbers. */
  readonly path: ReadonlyArray<string | number>;
}

export type JsonSchema = Record<string, unknown> | boolean;

/** A response-format wrapper as executors store it. */
export interface ResponseFormatWrapper {
  name?: string;
  description?: string;
  schema: Record<string, unknown>;
  strict?: boolean;
}

/**
 * A schema as the functions take it: a JSON Schema (an object or a boolean),
 * its JSON text, a Validator, or a response-format wrapper (`{ name?, schema,
 * strict? }`, OpenAI Chat's `response_format`, the Responses API's
 * `text.format`). Any object type fits, so a schema or wrapper typed by an
 * SDK's interface is taken as it is; what it holds is checked when it
 * compiles. A schema object or wrapper is read once, on its first use: do
 * not mutate it afterwards.
 */
export type SchemaInput = JsonSchema | string | Validator | ResponseFormatWrapper | object;

export interface CheckOptions extends CompileOptions, ValidateOptions {
  /** Require the response to be a JSON object. Default true. */
  requireObject?: boolean;
  /**
   * A schema that cannot be compiled: "degrade" (the default, the same for
   * every function that takes this option) runs only the parse-level checks
   * and says so (`degraded: true`); "throw" throws the SchemaError.
   */
  onInvalidSchema?: "degrade" | "throw";
  /** Business rules; a broken one is a "rule" failure. */
  rules?: Rule[];
  /**
   * The output comes as a call of this tool (a forced tool call): its
   * arguments are checked instead of the text content. In a stream check
   * and guardedStream, the first call of this tool that the provider's
   * stream events carry is the output, its arguments checked as they stream.
   */
  toolName?: string;
}

export interface OkVerdict<T = unknown> {
  ok: true;
  value: T;
  rescue: Rescue;
  schemaHash: string | null;
  /** True when the schema could not be compiled: only the parse-level checks ran. */
  degraded: boolean;
  finishReason: string | null;
  /**
   * A guarded call's verdicts only: the provider's `strict` flag of the
   * schema (the request's, as `response_format.json_schema.strict`, or a
   * response-format wrapper's), where it has one. `false`: the provider was
   * not held to the schema, only the guard was.
   */
  providerStrict?: boolean;
}

export interface FailedVerdict {
  ok: false;
  failure: FailureClass;
  message: string;
  errors: Issue[];
  moreErrors: boolean;
  /** Equal for verdicts with the same failure class and set of (path, code) pairs. */
  errorHash: string;
  schemaHash: string | null;
  degraded: boolean;
  rescue: Rescue;
  finishReason: string | null;
  /** See OkVerdict. */
  providerStrict?: boolean;
  /**
   * A stream check's `end` after a push reported its rejection: the first
   * `atByte` UTF-8 bytes already showed it (the verdict is that rejection).
   */
  atByte?: number;
}

export type Verdict<T = unknown> = OkVerdict<T> | FailedVerdict;

/**
 * A model's output as checkOutput takes it: the content string,
 * `{ content, finishReason? }`, or a provider's response object as its SDK
 * returns it (an OpenAI `ChatCompletion` or `Response`, an Anthropic
 * `Message`, a Gemini `GenerateContentResponse`, an AI SDK result, ...).
 * `finishReason` is a string, or the AI SDK's `{ unified, raw }`. Any
 * object fits; anything else is a TypeError with code "invalid_argument".
 */
export type ModelOutput = string | object | null | undefined;

export interface Truncation {
  truncated: boolean;
  finishReason: string | null;
}

export interface Tokens {
  input?: number;
  output?: number;
  total?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
  [field: string]: unknown;
}

export interface Cost {
  input?: number;
  output?: number;
  total?: number;
  [field: string]: unknown;
}

export interface Timing {
  startTime?: number | string;
  endTime?: number | string;
  duration?: number;
  timeSegments?: unknown[];
  [field: string]: unknown;
}

export interface Usage {
  tokens?: Tokens;
  cost?: Cost;
  timing?: Timing;
  [field: string]: unknown;
}

export declare function detectTruncation(source: unknown): Truncation;
export declare function rescueJson(text: string): { text: string; rescue: Rescue };
/**
 * A response-format wrapper compiles to the schema it wraps, as checkOutput reads it.
 * A schema object is read once, on its first use, and found again by identity:
 * do not mutate it afterwards (the change is not seen; pass a new object or call clearSchemaCache()).
 */
export declare function compileSchema<T = unknown>(schema: JsonSchema | string | ResponseFormatWrapper | object, options?: CompileOptions): Validator<T>;
/** With a `Validator<T>`, the verdict's value is a `T`. */
export declare function checkOutput<T>(output: ModelOutput, schema: Validator<T>, options?: CheckOptions): Verdict<T>;
/**
 * A schema object or wrapper is compiled on its first use and found again by
 * identity (JSON text by the text), as ajv does: do not mutate a schema
 * object after its first use. A schema that cannot compile is remembered too.
 */
export declare function checkOutput<T = unknown>(output: ModelOutput, schema?: SchemaInput | null, options?: CheckOptions): Verdict<T>;
/**
 * What a stream check knows so far, narrowed by `status`. The objects are
 * frozen (their issues too), hence read-only; a rejected one is returned
 * again by every later `push`.
 */
export type StreamState = PendingStreamState | RejectedStreamState;

export interface PendingStreamState {
  readonly status: "pending";
}

export interface RejectedStreamState {
  readonly status: "rejected";
  /** The failure the whole response will have (given no member name repeats; see createStreamCheck). */
  readonly failure: "unparseable" | "not_object" | "schema" | "rule";
  readonly message: string;
  readonly errors: ReadonlyArray<Readonly<Issue>>;
  readonly moreErrors: boolean;
  /** Hashed as a verdict's errorHash is. */
  readonly errorHash: string;
  /** The first `atByte` UTF-8 bytes already showed that the response cannot be accepted. */
  readonly atByte: number;
}

/** `T` with every member optional, at every depth: what a partial value may hold of it. */
export type DeepPartial<T> = T extends ReadonlyArray<infer Item>
  ? Array<DeepPartial<Item>>
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * The value of the text pushed so far (`partial: true`), for a preview:
 * its open frontier closed (an open string as its prefix, an open object
 * with its complete members, an open array with its complete items; a
 * member whose value has not begun, a number or `true`/`false`/`null`
 * still being typed left out), and the JSON Pointers of the complete
 * members and items that fail the subschemas that apply to them on their
 * own (and, inside such a value, of its members and items that fail).
 */
export interface StreamPartial<T = unknown> {
  /**
   * Undefined before the JSON begins (and while a root number is typed).
   * While the root is open, one object grown in place from reading to
   * reading (copy it to keep a snapshot); once complete, the value parsed whole.
   */
  readonly value: DeepPartial<T> | undefined;
  readonly invalid: ReadonlyArray<string>;
}

/**
 * A state of a check made with `partial: true`. `partial` is worked out
 * when first read, for the text pushed up to then (read it before the
 * next push to see that push's text), and not after the check ends.
 */
export type PartialStreamState<T = unknown> = (PendingStreamState | RejectedStreamState) & {
  readonly partial: StreamPartial<T>;
};

/** The options of createStreamCheck: checkOutput's, and `partial`. */
export interface StreamCheckOptions extends CheckOptions {
  /** Every state also carries `partial` (see PartialStreamState). Default false. */
  partial?: boolean;
}

/** A response checked as it streams in, from createStreamCheck(). */
export interface StreamCheck<T = unknown> {
  /**
   * The next piece of the response's text. Pieces are gathered and
   * checked together, in batches of 64 characters that grow with the text
   * to a sixteenth of it, at most 16,384: a rejection is reported within 64
   * characters of the byte that decided it (`atByte`) in the first
   * kilobyte, and never more than 16,384 characters after it. After a
   * rejection the text is only kept, for `end`.
   */
  push(chunk: string): StreamState;
  /**
   * The verdict on the whole text pushed: exactly
   * `checkOutput({ content: wholeText, finishReason }, schema, options)`;
   * after a push returned a rejection, that rejection (its `failure`,
   * `message`, `errors`, `errorHash` and `atByte`), whatever was pushed
   * after it. Ends the check (push and end throw afterwards).
   */
  end(finishReason?: string | null): Verdict<T>;
  /**
   * Releases the check and the text it holds now, without a verdict (a
   * stream abandoned); push and end throw afterwards. Does nothing once
   * the check has ended.
   */
  free(): void;
  /** UTF-8 bytes pushed so far. */
  readonly bytes: number;
}

/**
 * A check of a response that arrives in pieces (a model's stream): each
 * `push` reads only the new text, and reports a rejection as soon as no
 * continuation could make the response valid, so a doomed stream can be
 * stopped. Schema and options as checkOutput takes them. Which keywords
 * reject early, and which wait for the end, is listed in docs/streaming.md.
 */
/**
 * A stream check of a forced tool call's arguments (`toolName`): `push`
 * takes a provider's stream event too (as guardedStream reads them), whose
 * piece of the named tool's argument text is pushed, and whose finish
 * reason `end` uses when given none; a string is argument text itself.
 */
export interface ToolStreamCheck<T = unknown> extends Omit<StreamCheck<T>, "push"> {
  push(chunk: string | object): StreamState;
}

/** A stream check whose states carry the partial value (`partial: true`). */
export interface PartialStreamCheck<T = unknown> extends Omit<StreamCheck<T>, "push"> {
  push(chunk: string): PartialStreamState<T>;
}

/** A forced tool call's stream check (`toolName`) whose states carry the partial value. */
export interface PartialToolStreamCheck<T = unknown> extends Omit<StreamCheck<T>, "push"> {
  push(chunk: string | object): PartialStreamState<T>;
}

export declare function createStreamCheck<T>(schema: Validator<T>, options: StreamCheckOptions & { toolName: string; partial: true }): PartialToolStreamCheck<T>;
export declare function createStreamCheck<T = unknown>(schema: SchemaInput | null | undefined, options: StreamCheckOptions & { toolName: string; partial: true }): PartialToolStreamCheck<T>;
export declare function createStreamCheck<T>(schema: Validator<T>, options: StreamCheckOptions & { partial: true }): PartialStreamCheck<T>;
export declare function createStreamCheck<T = unknown>(schema: SchemaInput | null | undefined, options: StreamCheckOptions & { partial: true }): PartialStreamCheck<T>;
export declare function createStreamCheck<T>(schema: Validator<T>, options: StreamCheckOptions & { toolName: string }): ToolStreamCheck<T>;
export declare function createStreamCheck<T = unknown>(schema: SchemaInput | null | undefined, options: StreamCheckOptions & { toolName: string }): ToolStreamCheck<T>;
export declare function createStreamCheck<T>(schema: Validator<T>, options?: StreamCheckOptions): StreamCheck<T>;
export declare function createStreamCheck<T = unknown>(schema?: SchemaInput | null, options?: StreamCheckOptions): StreamCheck<T>;
export declare function normalizeUsage(usageOrResponse: unknown): Usage;
export declare function mergeUsage(...usages: unknown[]): Usage;
/** Drops every cached compiled validator, and forgets the schema objects and texts found by identity. */
export declare function clearSchemaCache(): void;
/**
 * Bounds the cache of compiled validators: by the memory they hold,
 * `{ maxBytes }` (by default 32 MiB, each weighed by the heap its
 * compilation kept), or by their number, `n` (at least 1). It bounds the
 * schemas found by identity too.
 */
export declare function setSchemaCacheCapacity(capacity: number | { maxBytes: number }): void;
/** How many compiled validators are cached now. */
export declare function schemaCacheSize(): number;
/** Bytes of linear memory the wasm instance holds now (it grows, never shrinks). */
export declare function wasmMemoryBytes(): number;
/** Resolves once the module is loaded: immediately in Node and Bun; browsers must await it first. */
export declare function ready(): Promise<void>;

/** A provider's native structured-output mode (OpenAI strict, Anthropic, Gemini responseJsonSchema, Ollama). */
export type ProviderName = "openai" | "anthropic" | "gemini" | "ollama";

/** A constraint of the original schema that the provider's mode will not enforce: validate for it afterwards. */
export interface UnenforcedConstraint {
  /** JSON Pointer into the original schema, to the subschema holding `keyword`, e.g. "/properties/email". */
  path: string;
  /** The JSON Schema keyword, e.g. "format", "minLength", "oneOf". */
  keyword: string;
}

/**
 * Where the sent schema lets the model answer differently from the original.
 * "optional_nullable": an optional property (at `path`) is now required and
 * may be null, which stands for "absent": drop it before validating against
 * the original. "closed_object": an object (at `path`) that allowed other
 * properties now forbids them. "nullable_keyword": OpenAPI's `nullable: true`
 * (at `path`) is sent as a `null` type (`type: [T, "null"]`, or an `anyOf`
 * branch for Anthropic), as no native mode takes the keyword.
 */
export interface ProviderSchemaChange {
  path: string;
  change: "optional_nullable" | "closed_object" | "nullable_keyword";
}

export interface ProviderSchemaResult {
  /** The schema to send in the provider's structured-output mode. */
  schema: Record<string, unknown>;
  /** Sorted by path, then keyword. */
  unenforced: UnenforcedConstraint[];
  /** Sorted by path, then change. */
  changes: ProviderSchemaChange[];
}

/**
 * The schema to send in `provider`'s structured-output mode and the
 * constraints it leaves unenforced. Never modifies `schema`. Throws a
 * TypeError (code "invalid_argument") for an unknown provider or a schema
 * that is not an object or text, and SchemaError when the schema does not
 * compile or cannot be expressed in the mode (OpenAI strict mode needs an
 * object at the root).
 */
export declare function toProviderSchema(
  schema: Record<string, unknown> | string | ResponseFormatWrapper | Validator | object,
  provider: ProviderName,
): ProviderSchemaResult;

export interface AttemptEvent {
  attempt: number;
  verdict: Verdict;
  usage: Usage;
  action: "accept" | "resample" | "repair" | "reject" | "return_with_warning";
  stoppedBy: StopReason | null;
}

export type StopReason = "accepted" | "lenient" | "tools" | "aborted" | "deadline" | "repeated_error" | "budget";

/**
 * Retries allowed after failures of each class, and in total (0 to 10
 * each). Default: `{ total: 1 }`. Without `total`, it is the largest class
 * budget given. Whatever the budgets, the same errorHash twice in a row
 * stops at once, and a request with tools is never retried.
 */
export interface Budgets {
  truncated?: number;
  empty?: number;
  unparseable?: number;
  not_object?: number;
  schema?: number;
  rule?: number;
  total?: number;
}

/** What guardedCall passes to callModel besides the request. */
export interface CallContext {
  /** Aborts when the caller's signal does or the deadline passes: pass it to the provider's SDK. */
  signal: AbortSignal;
  /** 1 for the first call. */
  attempt: number;
}

/** One attempt as the audit record keeps it. */
export interface AuditAttempt {
  failure: FailureClass | null;
  errorHash: string | null;
  rescue: Rescue;
}

export interface Audit {
  attempts: AuditAttempt[];
  schemaHash: string | null;
  /** e.g. "structured-output-guard/0.1.0 jsonschema/0.61.2". */
  validatorVersion: string;
  stoppedBy: StopReason;
  /** The schema could not be applied: every attempt was checked at the parse level only. */
  degraded: boolean;
}

/** A collector for `options.stats`. */
export interface GuardStats {
  snapshot(): GuardStatsSnapshot;
  reset(): void;
}

export interface TokenCounts {
  input: number;
  output: number;
  total: number;
}

export interface GuardStatsSnapshot {
  calls: number;
  accepted: number;
  acceptedFirstTry: number;
  rejected: number;
  /** Calls on the lenient (`strict: false`) path. */
  lenient: number;
  /** Calls that ended with callModel throwing or an abort. */
  errors: number;
  /** Calls whose schema could not be applied (`onInvalidSchema: "degrade"`, the default). */
  degraded: number;
  /** Attempts made in all calls. */
  attempts: number;
  /** Retries made by calls that ended accepted, per accepted call. */
  retriesPerAccept: number;
  retriesBeforeAccept: number;
  /** Failed attempts by failure class. */
  failures: Record<FailureClass, number>;
  stoppedBy: Partial<Record<StopReason, number>>;
  repeatedErrorStops: number;
  /** Tokens and cost spent on attempts that failed the check. */
  failedAttemptTokens: TokenCounts;
  failedAttemptCost: number;
  tokens: TokenCounts;
  cost: number;
  /**
   * checkToolCalls verdicts given this collector as `options.stats`: the
   * checks, their calls, the calls refused, and the calls checked for parse
   * and shape only because their tool's schema could not be compiled.
   */
  toolCalls: { checks: number; calls: number; refused: number; degraded: number };
}

export declare function createGuardStats(): GuardStats;

/**
 * The repair message for a failed verdict: each failing path, its code and
 * the constraint the schema sets there. Never quotes the model's output;
 * anything that looks like a credential is redacted.
 */
export declare function repairFeedback(verdict: FailedVerdict, schema?: SchemaInput | null): string;
/** For a refused checkToolCalls verdict: one paragraph per refused call, constraints read from `tools`. */
export declare function repairFeedback(verdict: RefusedToolCalls, tools: object): string;

/**
 * Given to an appender instead of a text: the response whose tool calls were
 * refused, its checkToolCalls verdict and the declarations. The appender adds
 * the response's turn and one tool result per call, in the provider's shape:
 * a refused call's result is its repair feedback; a call that passed is
 * answered with its result when it is listed in `ran`, and otherwise as not
 * run (so the model calls it again with the corrected one).
 */
export interface ToolRejection {
  response: object;
  /** The response's checkToolCalls verdict, refused (one whose every call passed has nothing to tell). */
  toolCalls: RefusedToolCalls;
  tools: object;
  /**
   * The calls of the response that passed and ran, with what each returned:
   * they are answered with their results and not asked for again. A call is
   * named by its `id`; calls without one (Gemini may give none) are matched
   * in order among the accepted calls without one. A `result` that is a
   * string is sent as it is, anything else as its JSON text (for Gemini, a
   * plain object is the function response itself, anything else
   * `{ output: result }`).
   */
  ran?: ReadonlyArray<ToolCallRun>;
}

/** A call that passed checkToolCalls and ran, and its result (see {@link ToolRejection.ran}). */
export interface ToolCallRun {
  id: string | null;
  result: unknown;
}

/**
 * Adds feedback to a request as one user message and returns the request
 * to send; never mutates `request`.
 */
export type FeedbackAppender<Req = unknown> = (request: Req, text: string) => Req;
export declare function appendOpenAIChatFeedback<Req extends { messages: unknown[] }>(request: Req, feedback: string | ToolRejection): Req;
export declare function appendAnthropicFeedback<Req extends { messages: unknown[] }>(request: Req, feedback: string | ToolRejection): Req;
export declare function appendGeminiFeedback<Req extends { contents: unknown }>(request: Req, feedback: string | ToolRejection): Req;
export declare function appendOpenAIResponsesFeedback<Req extends { input: string | unknown[] }>(request: Req, feedback: string | ToolRejection): Req;

/**
 * guardedCall's options. `R` is the type of the response callModel returns,
 * `Req` the request's; both are inferred from the call.
 */
export interface GuardOptions<R = unknown, Req = unknown> extends CheckOptions {
  /**
   * Default: the schema the request gives its provider (`response_format`,
   * `text.format`, a forced tool's, Gemini's `responseSchema` /
   * `responseJsonSchema`, Ollama's `format`; docs/api.md lists them).
   */
  schema?: SchemaInput;
  /** Default: the wrapper's `strict` when `schema` is a response-format wrapper, else true. */
  strict?: boolean;
  /**
   * Declare that the request carries tools where the built-in list of tool
   * members (docs/providers.md, "Requests that carry tools") does not see them; false
   * never overrides tools the request declares.
   */
  hasTools?: boolean;
  /** The caller's signal: aborting it stops the call (the signal passed to callModel aborts too). */
  signal?: AbortSignal;
  read?: (response: R) => { content: unknown; finishReason?: string | null };
  usage?: (response: R) => Usage;
  onAttempt?: (event: AttemptEvent) => void;
  /**
   * How a failed attempt is retried: "identical" (default; also spelled
   * "resample") sends the identical request again, "repair" the request
   * with feedback added.
   */
  retry?: "identical" | "resample" | "repair";
  /** For retry "repair": adds the feedback to the original request. Default: by the request's shape. */
  appendFeedback?: FeedbackAppender<Req>;
  budgets?: Budgets;
  /** Wall-clock bound across all attempts, in milliseconds. */
  deadlineMs?: number;
  stats?: GuardStats;
  /**
   * OpenTelemetry spans (one for the call, a child per attempt) and metrics
   * (mirroring createGuardStats()): `true` for the global tracer and meter
   * providers (imports the optional peer dependency @opentelemetry/api),
   * or the tracer, the meter or both (docs/telemetry.md).
   */
  telemetry?: true | GuardTelemetry;
}

/**
 * The OpenTelemetry tracer and meter of a guarded call; at least one. Typed
 * by the methods the guard calls, so that these declarations need no
 * @opentelemetry/api; a `Tracer` from `trace.getTracer()` and a `Meter`
 * from `metrics.getMeter()` are both.
 */
export type GuardTelemetry = { tracer: TelemetryTracer; meter?: TelemetryMeter } | { tracer?: TelemetryTracer; meter: TelemetryMeter };

/** The part of an OpenTelemetry `Span` the guard calls. */
export interface TelemetrySpan {
  setAttribute(key: string, value: string | number | boolean | string[]): unknown;
  setAttributes(attributes: Record<string, string | number | boolean | string[]>): unknown;
  setStatus(status: { code: 0 | 1 | 2; message?: string }): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` the guard calls. */
export interface TelemetryTracer {
  startActiveSpan<F extends (span: TelemetrySpan) => unknown>(name: string, options: { kind?: 0; attributes?: Record<string, string | number | boolean | string[]> }, fn: F): ReturnType<F>;
}

/** The part of an OpenTelemetry `Meter` the guard calls. */
export interface TelemetryMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): { add(value: number, attributes?: Record<string, string | number | boolean>): void };
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): { record(value: number, attributes?: Record<string, string | number | boolean>): void };
}

/**
 * What guardedCall rejects with when `read`, `usage`, `onAttempt` or
 * `appendFeedback` throws (or `appendFeedback` returns nothing) after an
 * attempt was paid for: the callback's error is the `cause`, and every
 * attempt's usage is kept.
 */
export interface GuardCallbackError extends Error {
  name: "GuardCallbackError";
  code: "callback_failed";
  callback: "read" | "usage" | "onAttempt" | "appendFeedback" | "onText";
  attempts: number;
  usage: Usage;
  response: unknown;
  verdicts: Verdict<unknown>[];
  cause: unknown;
}

export interface GuardResult<T, R = unknown> {
  value: T;
  response: R;
  attempts: number;
  /** Every attempt's usage merged, failed attempts included. */
  usage: Usage;
  rescue: Rescue;
  verdicts: Verdict<T>[];
  /** The schema could not be applied: only the parse-level checks ran. */
  degraded: boolean;
  audit: Audit;
}

export interface LenientGuardResult<T, R = unknown> {
  /** The parsed object, or null when the output was not a JSON object. */
  value: T | null;
  response: R;
  attempts: 1;
  usage: Usage;
  /** Set when the check failed: the failure class and message. */
  warning?: string;
  verdicts: Verdict<T>[];
  degraded: boolean;
  audit: Audit;
}

/** A guarded call's schema; a `Validator<T>` lets guardedCall infer `T`. */
export type GuardSchema<T> = SchemaInput | Validator<T>;

/**
 * A value of a request as guardedCall and guardedStream take it: JSON-like
 * values, and any object (an SDK's model object, a tool with its
 * `execute`). Spelled out, rather than `unknown`, so that a request written
 * inline keeps its literal types, as the SDKs' request types ask:
 * `role: "user"`, `stream: true`, and arrays that stay mutable (from
 * TypeScript 5.3 on; 5.2 infers them read-only).
 */
export type RequestValue =
  | string
  | number
  | boolean
  | bigint
  | null
  | undefined
  | RequestValue[]
  | { [key: string]: RequestValue }
  | object;

/** The model call: the request (the original, or a repaired one) and the call's signal and attempt. */
export type CallModel<Req, R> = (request: Req, context: CallContext) => PromiseLike<R> | R;

/**
 * The options of a lenient call: `strict: false`, or a response-format
 * wrapper declaring `strict: false` without `strict` given.
 */
export type LenientOptions<O, T> =
  | (O & { strict: false; schema: GuardSchema<T> })
  | (O & { strict?: undefined; schema: ResponseFormatWrapper & { strict: false } });

/**
 * guardedCall's options when `T` is given explicitly (`guardedCall<Invoice>(...)`).
 * TypeScript then infers no other type argument (it has no partial
 * inference), so the request reaches callModel and appendFeedback typed
 * `never`: it can be passed on to the SDK as it is, but not read without
 * annotating the parameter; the response is `unknown`. Pass a
 * `compileSchema<Invoice>(schema)` Validator instead of writing
 * `<Invoice>` to keep the request's and the response's types too.
 */
export interface ExplicitGuardOptions extends Omit<GuardOptions, "appendFeedback"> {
  appendFeedback?: (request: never, text: string) => unknown;
}

/**
 * `O` when `T` was written out (`guardedCall<Invoice>(...)`), else `never`:
 * a call that gives no type argument is then always checked with its
 * request's and response's types (the signatures that infer them). `T`
 * written as `unknown` or `any` counts as not written.
 */
export type WhenExplicit<T, O> = unknown extends T ? never : O;

/** `guardedCall<T>(...)` on the lenient path: see {@link ExplicitGuardOptions}. */
export declare function guardedCall<T>(
  request: RequestValue,
  callModel: CallModel<never, unknown>,
  options: WhenExplicit<T, LenientOptions<ExplicitGuardOptions, T>>,
): Promise<LenientGuardResult<T, unknown>>;
/**
 * `guardedCall<T>(...)`: `value` is a `T`. The request reaches callModel
 * typed `never`, and the response is `unknown` (see {@link ExplicitGuardOptions}).
 */
export declare function guardedCall<T>(
  request: RequestValue,
  callModel: CallModel<never, unknown>,
  options: WhenExplicit<T, ExplicitGuardOptions & { strict?: true }>,
): Promise<GuardResult<T, unknown>>;
/**
 * `guardedCall<T>(request, callModel)`: no options, so the schema is the
 * one the request gives its provider (see {@link GuardOptions.schema}).
 */
export declare function guardedCall<T>(
  request: RequestValue,
  callModel: CallModel<never, unknown>,
  ...noOptions: WhenExplicit<T, []>
): Promise<GuardResult<T, unknown>>;
/** `guardedCall<T>(...)` with `strict` known only at run time. */
export declare function guardedCall<T>(
  request: RequestValue,
  callModel: CallModel<never, unknown>,
  options: WhenExplicit<T, ExplicitGuardOptions>,
): Promise<GuardResult<T, unknown> | LenientGuardResult<T, unknown>>;
/**
 * `strict: false` (or a response-format wrapper declaring it): the lenient
 * legacy path, one call, never throws for validation; `value` may be null.
 */
export declare function guardedCall<T, const Req extends RequestValue, R>(
  request: Req,
  callModel: CallModel<Req, R>,
  options: LenientOptions<GuardOptions<R, Req>, T>,
): Promise<LenientGuardResult<T, R>>;
/**
 * Calls the model, checks the response and retries within the budgets
 * (at most once by default; never when the request carries tools, after an
 * abort or past the deadline). Resolves with the checked value or rejects
 * with StructuredOutputError. A request written inline keeps its literal
 * types, so `callModel` can pass it to the SDK as it is; `T` is inferred
 * from a `Validator<T>` schema. A wrapper whose `strict` is only known at
 * run time to be false still takes the lenient path: pass `strict`
 * explicitly to pin the result type.
 */
export declare function guardedCall<T, const Req extends RequestValue, R>(
  request: Req,
  callModel: CallModel<Req, R>,
  options: GuardOptions<R, Req> & { strict?: true; schema: GuardSchema<T> },
): Promise<GuardResult<T, R>>;
/**
 * `strict` known only at run time (a `boolean`): either result, so the
 * value may be null until narrowed.
 */
export declare function guardedCall<T, const Req extends RequestValue, R>(
  request: Req,
  callModel: CallModel<Req, R>,
  options: GuardOptions<R, Req> & { schema: GuardSchema<T> },
): Promise<GuardResult<T, R> | LenientGuardResult<T, R>>;
/** Without `schema`: checked against the schema the request gives its provider (a TypeError when it gives none). */
export declare function guardedCall<const Req extends RequestValue, R>(
  request: Req,
  callModel: CallModel<Req, R>,
  options?: GuardOptions<R, Req> & { strict?: true; schema?: undefined },
): Promise<GuardResult<unknown, R>>;

/** One streamed attempt as the audit record keeps it. */
export interface StreamAuditAttempt extends AuditAttempt {
  /** UTF-8 bytes of text received before the stream ended or was stopped. */
  bytes: number;
  /** The stream was stopped at its first definite rejection. */
  stoppedEarly: boolean;
  /** Some event reported usage; when false the attempt's usage is empty, never estimated. */
  usageReported: boolean;
}

export interface StreamAudit extends Omit<Audit, "attempts"> {
  attempts: StreamAuditAttempt[];
}

/** What `options.read` finds in one stream chunk. */
export interface StreamChunkRead {
  /** The answer's text this chunk adds. */
  text?: string | null;
  finishReason?: string | null;
  /** The attempt's usage so far, as providers report it in streams (a later report's members replace an earlier one's). */
  usage?: object | null;
}

export interface StreamAttemptEvent extends AttemptEvent {
  bytes: number;
  stoppedEarly: boolean;
  usageReported: boolean;
}

/**
 * guardedStream's options: guardedCall's, with `read` and `usage` taking one
 * stream chunk, plus `onText`. `C` is the type of the chunks streamModel's
 * stream yields, `Req` the request's; both are inferred from the call.
 */
export interface GuardStreamOptions<C = unknown, Req = unknown> extends Omit<GuardOptions<unknown, Req>, "read" | "usage" | "onAttempt"> {
  /** Reads a chunk instead of the built-in readers (strings, OpenAI, Anthropic, Gemini, AI SDK events). */
  read?: (chunk: C) => StreamChunkRead;
  /** The usage a chunk reports (the attempt's so far: a later report's members replace an earlier one's), instead of the built-in readers'. */
  usage?: (chunk: C) => object | null | undefined;
  /** Each piece of text the check has not rejected, as it arrives (a resample starts again at a new `attempt`). */
  onText?: (text: string, context: { attempt: number }) => void;
  /**
   * Each tool call of the stream, checked against the request's declaration
   * of its tool as its arguments stream: reported rejected the moment they
   * can no longer be valid, accepted as they end (see createToolCallStreamCheck).
   */
  onToolCall?: (event: ToolCallEvent) => void;
  onAttempt?: (event: StreamAttemptEvent) => void;
}

export interface StreamGuardResult<T> {
  value: T;
  attempts: number;
  /** Every attempt's reported usage merged, stopped attempts included. */
  usage: Usage;
  rescue: Rescue;
  verdicts: Verdict<T>[];
  degraded: boolean;
  audit: StreamAudit;
}

export interface LenientStreamGuardResult<T> {
  /** The parsed object (even when the check failed; then `warning` says why), or null when the output was not a JSON object. */
  value: T | null;
  attempts: 1;
  usage: Usage;
  warning?: string;
  verdicts: Verdict<T>[];
  degraded: boolean;
  audit: StreamAudit;
}

/** A chunk of a model's stream: text, or a provider's or SDK's stream event. */
export type StreamChunk = string | object;

/** What streamModel returns: an async iterable (or iterable) of chunks, or a promise of one. */
export type ChunkSource<C> = AsyncIterable<C> | Iterable<C> | PromiseLike<AsyncIterable<C> | Iterable<C>>;

/** The model call of a streamed answer: the request and the attempt's signal, which stops the stream. */
export type StreamModel<Req, C> = (request: Req, context: CallContext) => ChunkSource<C>;

/**
 * guardedStream's options when `T` is given explicitly
 * (`guardedStream<Rows>(...)`): as {@link ExplicitGuardOptions}, the request
 * reaches streamModel and appendFeedback typed `never` and the chunks are
 * `unknown`. An SDK method whose overloads pick the stream by the request
 * (OpenAI's `create` with `stream: true`) needs the parameter annotated
 * then; a `compileSchema<Rows>(schema)` Validator keeps every type.
 */
export interface ExplicitGuardStreamOptions extends Omit<GuardStreamOptions, "appendFeedback"> {
  appendFeedback?: (request: never, text: string) => unknown;
}

/** `guardedStream<T>(...)` on the lenient path: see {@link ExplicitGuardStreamOptions}. */
export declare function guardedStream<T>(
  request: RequestValue,
  streamModel: StreamModel<never, unknown>,
  options: WhenExplicit<T, LenientOptions<ExplicitGuardStreamOptions, T>>,
): Promise<LenientStreamGuardResult<T>>;
/** `guardedStream<T>(...)`: `value` is a `T` (see {@link ExplicitGuardStreamOptions}). */
export declare function guardedStream<T>(
  request: RequestValue,
  streamModel: StreamModel<never, unknown>,
  options: WhenExplicit<T, ExplicitGuardStreamOptions & { strict?: true }>,
): Promise<StreamGuardResult<T>>;
/** `guardedStream<T>(request, streamModel)`: no options, so the schema is the one the request gives its provider. */
export declare function guardedStream<T>(
  request: RequestValue,
  streamModel: StreamModel<never, unknown>,
  ...noOptions: WhenExplicit<T, []>
): Promise<StreamGuardResult<T>>;
/** `guardedStream<T>(...)` with `strict` known only at run time. */
export declare function guardedStream<T>(
  request: RequestValue,
  streamModel: StreamModel<never, unknown>,
  options: WhenExplicit<T, ExplicitGuardStreamOptions>,
): Promise<StreamGuardResult<T> | LenientStreamGuardResult<T>>;
/** `strict: false` (or a wrapper declaring it): one attempt, never stopped early, never throws for validation. */
export declare function guardedStream<T, const Req extends RequestValue, C>(
  request: Req,
  streamModel: StreamModel<Req, C>,
  options: LenientOptions<GuardStreamOptions<C, Req>, T>,
): Promise<LenientStreamGuardResult<T>>;
/**
 * Streams the model's answer through a stream check and stops the stream
 * (aborting `context.signal`) at the first definite rejection; then decides
 * as guardedCall does (at most one resample by default, never with tools or
 * after the caller's abort). Rejects with StructuredOutputError. A request
 * written inline keeps its literal types (`stream: true` included), so
 * `streamModel` can pass it to the SDK as it is; `T` is inferred from a
 * `Validator<T>` schema.
 */
export declare function guardedStream<T, const Req extends RequestValue, C>(
  request: Req,
  streamModel: StreamModel<Req, C>,
  options: GuardStreamOptions<C, Req> & { strict?: true; schema: GuardSchema<T> },
): Promise<StreamGuardResult<T>>;
/** `strict` known only at run time: either result. */
export declare function guardedStream<T, const Req extends RequestValue, C>(
  request: Req,
  streamModel: StreamModel<Req, C>,
  options: GuardStreamOptions<C, Req> & { schema: GuardSchema<T> },
): Promise<StreamGuardResult<T> | LenientStreamGuardResult<T>>;
/** Without `schema`: checked against the schema the request gives its provider (a TypeError when it gives none). */
export declare function guardedStream<const Req extends RequestValue, C>(
  request: Req,
  streamModel: StreamModel<Req, C>,
  options?: GuardStreamOptions<C, Req> & { strict?: true; schema?: undefined },
): Promise<StreamGuardResult<unknown>>;

/** A schema that cannot be compiled. */
export declare class SchemaError extends Error {
  name: "SchemaError";
  code: "invalid_schema";
}

/** A guarded call whose every allowed attempt failed the check. */
export declare class StructuredOutputError<R = unknown> extends Error {
  name: "StructuredOutputError";
  code: "structured_output_rejected";
  /** "deadline" when no attempt finished before `deadlineMs`. */
  failure: FailureClass | "deadline";
  errors: Issue[];
  attempts: number;
  audit: Audit;
  /** Every attempt's usage merged. */
  usage: Usage;
  /** The last response. */
  response: R;
  verdicts: FailedVerdict[];
  stoppedBy: StopReason;
  /** The schema could not be applied: only the parse-level checks ran. */
  degraded: boolean;
}

/** Why a tool call was refused before it ran. */
export type ToolCallFailure = "unknown_tool" | "truncated" | "unparseable" | "not_object" | "schema";

/** One tool call's check, from checkToolCalls: accepted or refused, narrowed by `ok`. */
export type ToolCallCheck = AcceptedToolCall | RefusedToolCall;

/** What every tool call's check says, accepted or refused. */
export interface ToolCallCheckBase {
  /** The provider's id of the call; null when it gives none (Gemini may not). */
  id: string | null;
  /** The tool the call names. */
  name: string;
  /**
   * True when the tool's schema could not be compiled and the call was
   * checked for parse and shape only (`onInvalidSchema: "degrade"`, the
   * default; `"throw"` throws the SchemaError instead): its `message` says
   * the schema was not applied.
   */
  degraded: boolean;
  message: string;
}

/** A call that may run with `value`: its arguments match its tool's schema (or, `degraded`, parse as an object). */
export interface AcceptedToolCall extends ToolCallCheckBase {
  ok: true;
  /** The parsed arguments. */
  value: unknown;
  /** Empty. */
  errors: Issue[];
  moreErrors: false;
  errorHash: null;
}

/** A call refused before it ran: `failure` says why, `errors` where. */
export interface RefusedToolCall extends ToolCallCheckBase {
  ok: false;
  failure: ToolCallFailure;
  errors: Issue[];
  moreErrors: boolean;
  /** Hashed as a verdict's errorHash is. */
  errorHash: string;
}

/** checkToolCalls' verdict on a response's calls, narrowed by `ok`. */
export type ToolCallsVerdict = AcceptedToolCalls | RefusedToolCalls;

/** Every call passes (also for a response that makes none). */
export interface AcceptedToolCalls {
  ok: true;
  /** True when any call's is: a call was not checked against its tool's schema. */
  degraded: boolean;
  message: string;
  calls: AcceptedToolCall[];
}

/** At least one call was refused. */
export interface RefusedToolCalls {
  ok: false;
  /** True when any call's is: a call was not checked against its tool's schema. */
  degraded: boolean;
  /** The first refused call's failure. */
  failure: ToolCallFailure;
  message: string;
  calls: ToolCallCheck[];
}

/**
 * `text` with every character a terminal or a log viewer would act on
 * instead of showing it (the C0 controls U+0000–U+001F, DEL, the C1
 * controls U+0080–U+009F, the bidirectional overrides and isolates
 * U+202A–U+202E and U+2066–U+2069) written as `\uXXXX`, JSON's own escape;
 * everything else as it is. Every message the package makes passes
 * through it; use it for anything from a verdict you print yourself (an
 * issue's `path` names the output's own keys, which the model wrote).
 */
export declare function escapeForDisplay(text: string): string;

/**
 * Every tool call in `response` checked against the input schema of the
 * tool it names, before it runs. `tools`: the request's tool declarations in
 * any provider's or SDK's shape, or the whole request.
 * `options.stats`, a createGuardStats() collector, counts the verdict's
 * calls (`snapshot().toolCalls`).
 */
export declare function checkToolCalls(response: object, tools: object, options?: Omit<CheckOptions, "toolName" | "rules"> & { stats?: GuardStats }): ToolCallsVerdict;

/** A streamed tool call, decided (once per call), narrowed by `status`. */
export type ToolCallEvent = AcceptedToolCallEvent | RejectedToolCallEvent;

interface ToolCallEventBase {
  /** The provider's id of the call; null when it gives none. */
  id: string | null;
  /** The call's place among the stream's calls, in the order they began. */
  index: number;
  /** The tool the call names; null before a name arrived. */
  name: string | null;
  /** The tool's schema could not be compiled: the call was checked for parse and shape only (its `message` says so). */
  degraded: boolean;
  message: string;
}

/** A call whose arguments ended valid: it may run with `value` while the others stream. */
export interface AcceptedToolCallEvent extends ToolCallEventBase {
  status: "accepted";
  value: unknown;
  errors: Issue[];
  moreErrors: false;
  errorHash: null;
}

/** A call refused the moment its arguments can no longer be valid (an unknown tool: as its name arrives). */
export interface RejectedToolCallEvent extends ToolCallEventBase {
  status: "rejected";
  failure: ToolCallFailure;
  errors: Issue[];
  moreErrors: boolean;
  errorHash: string;
  /** The first `atByte` UTF-8 bytes of the call's arguments showed it (absent for an unknown tool, or a call decided as it ended). */
  atByte?: number;
}

/** Every tool call of a streamed response, checked as its arguments stream; from createToolCallStreamCheck(). */
export interface ToolCallStreamCheck {
  /** The next provider stream event; the calls it decides. */
  push(event: object): ToolCallEvent[];
  /** checkToolCalls' verdict on the calls as the stream assembled them; ends the check. */
  end(): ToolCallsVerdict;
  /** Releases the check without a verdict. */
  free(): void;
}

/**
 * A check of every tool call a response streams, each against its own
 * tool's schema (`tools` in any form checkToolCalls takes): `push` each
 * provider stream event (the kinds guardedStream reads) and run a call as
 * soon as it is accepted, never one rejected. A call that was accepted
 * whose response then stops at the token limit is `truncated` in `end`'s
 * verdict, as in checkToolCalls.
 */
export declare function createToolCallStreamCheck(tools: object, options?: Omit<CheckOptions, "toolName" | "rules">): ToolCallStreamCheck;
