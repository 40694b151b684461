// Public type contract of structured-output-guard. Checked against a typed
// usage file (tests/types/usage.ts) with `tsc --noEmit --strict`.

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
}

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
  /** A stable hash of the schema content (key order does not matter). */
  readonly schemaHash: string;
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

/** A schema object or wrapper is read once, on its first use: do not mutate it afterwards. */
export type SchemaInput = JsonSchema | string | Validator | ResponseFormatWrapper;

export interface CheckOptions extends CompileOptions, ValidateOptions {
  /** Require the response to be a JSON object. Default true. */
  requireObject?: boolean;
  /** What to do when the schema cannot be compiled. Default "degrade". */
  onInvalidSchema?: "degrade" | "throw";
  /** Business rules; a broken one is a "rule" failure. */
  rules?: Rule[];
  /**
   * The output comes as a call of this tool (a forced tool call): its
   * arguments are checked instead of the text content.
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
}

export type Verdict<T = unknown> = OkVerdict<T> | FailedVerdict;

/** The content string, `{ content, finishReason? }`, or a provider response object. */
export type ModelOutput =
  | string
  | { content: unknown; finishReason?: string | { unified?: string; raw?: string } | null }
  | Record<string, unknown>
  | null
  | undefined;

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
export declare function compileSchema<T = unknown>(schema: JsonSchema | string | ResponseFormatWrapper, options?: CompileOptions): Validator<T>;
/** With a `Validator<T>`, the verdict's value is a `T`. */
export declare function checkOutput<T>(output: ModelOutput, schema: Validator<T>, options?: CheckOptions): Verdict<T>;
/**
 * A schema object or wrapper is compiled on its first use and found again by
 * identity (JSON text by the text), as ajv does: do not mutate a schema
 * object after its first use. A schema that cannot compile is remembered too.
 */
export declare function checkOutput<T = unknown>(output: ModelOutput, schema?: SchemaInput | null, options?: CheckOptions): Verdict<T>;
/** What a stream check knows so far. The objects are frozen; a rejected one is returned again by every later `push`. */
export type StreamState =
  | { status: "pending" }
  | {
      status: "rejected";
      /** The failure the whole response will have (given no member name repeats; see createStreamCheck). */
      failure: "unparseable" | "not_object" | "schema" | "rule";
      message: string;
      errors: Issue[];
      moreErrors: boolean;
      /** Hashed as a verdict's errorHash is. */
      errorHash: string;
      /** The first `atByte` UTF-8 bytes already showed that the response cannot be accepted. */
      atByte: number;
    };

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
   * `checkOutput({ content: wholeText, finishReason }, schema, options)`.
   * Ends the check (push and end throw afterwards).
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
 * reject early, and which wait for the end, is listed in the README
 * ("Checking a stream as it arrives").
 */
export declare function createStreamCheck<T>(schema: Validator<T>, options?: CheckOptions): StreamCheck<T>;
export declare function createStreamCheck<T = unknown>(schema?: SchemaInput | null, options?: CheckOptions): StreamCheck<T>;
export declare function normalizeUsage(usageOrResponse: unknown): Usage;
export declare function mergeUsage(...usages: unknown[]): Usage;
/** Drops every cached compiled validator, and forgets the schema objects and texts found by identity. */
export declare function clearSchemaCache(): void;
/** Sets how many compiled validators the cache keeps (default 128, at least 1); it bounds the schemas found by identity too. */
export declare function setSchemaCacheCapacity(capacity: number): void;
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
 * properties now forbids them.
 */
export interface ProviderSchemaChange {
  path: string;
  change: "optional_nullable" | "closed_object";
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
  schema: Record<string, unknown> | string | ResponseFormatWrapper | Validator,
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
}

export declare function createGuardStats(): GuardStats;

/**
 * The repair message for a failed verdict: each failing path, its code and
 * the constraint the schema sets there. Never quotes the model's output;
 * anything that looks like a credential is redacted.
 */
export declare function repairFeedback(verdict: FailedVerdict, schema?: SchemaInput | null): string;
/** For a checkToolCalls verdict: one paragraph per refused call, constraints read from `tools`. */
export declare function repairFeedback(verdict: ToolCallsVerdict, tools: object): string;

/**
 * Given to an appender instead of a text: the response whose tool calls were
 * refused, its checkToolCalls verdict and the declarations. The appender adds
 * the response's turn and one tool result per call, in the provider's shape.
 */
export interface ToolRejection {
  response: object;
  toolCalls: ToolCallsVerdict;
  tools: object;
}

/** Adds feedback to a request as one user message; never mutates `request`. */
export type FeedbackAppender<Req = any> = (request: Req, text: string) => Req;
export declare function appendOpenAIChatFeedback<Req extends { messages: unknown[] }>(request: Req, feedback: string | ToolRejection): Req;
export declare function appendAnthropicFeedback<Req extends { messages: unknown[] }>(request: Req, feedback: string | ToolRejection): Req;
export declare function appendGeminiFeedback<Req extends { contents: unknown }>(request: Req, feedback: string | ToolRejection): Req;
export declare function appendOpenAIResponsesFeedback<Req extends { input: string | unknown[] }>(request: Req, feedback: string | ToolRejection): Req;

export interface GuardOptions<R = unknown> extends CheckOptions {
  schema: SchemaInput;
  /** Default: the wrapper's `strict` when `schema` is a response-format wrapper, else true. */
  strict?: boolean;
  /**
   * Declare that the request carries tools where the built-in list of tool
   * members (README, "Requests that carry tools") does not see them; false
   * never overrides tools the request declares.
   */
  hasTools?: boolean;
  signal?: AbortSignal;
  read?: (response: R) => { content: unknown; finishReason?: string | null };
  usage?: (response: R) => Usage;
  onAttempt?: (event: AttemptEvent) => void;
  /** How a failed attempt is retried. Default "resample" (the identical request). */
  /** "identical" (also spelled "resample"): resample the identical request; "repair": add feedback. */
  retry?: "identical" | "resample" | "repair";
  /** For retry "repair": adds the feedback to the original request. Default: by the request's shape. */
  appendFeedback?: FeedbackAppender;
  budgets?: Budgets;
  /** Wall-clock bound across all attempts, in milliseconds. */
  deadlineMs?: number;
  stats?: GuardStats;
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
  audit: Audit;
}

/** A guarded call's schema; a `Validator<T>` lets guardedCall infer `T`. */
export type GuardSchema<T> = SchemaInput | Validator<T>;

/** `strict: false`: the lenient legacy path, one call, never throws for validation. */
export declare function guardedCall<T = unknown, Req = unknown, R = unknown>(
  request: Req,
  callModel: (request: Req, context: CallContext) => Promise<R> | R,
  options: GuardOptions<R> & { strict: false; schema: GuardSchema<T> },
): Promise<LenientGuardResult<T, R>>;
/** A response-format wrapper declaring `strict: false` makes the call lenient too. */
export declare function guardedCall<T = unknown, Req = unknown, R = unknown>(
  request: Req,
  callModel: (request: Req, context: CallContext) => Promise<R> | R,
  options: GuardOptions<R> & { strict?: undefined; schema: ResponseFormatWrapper & { strict: false } },
): Promise<LenientGuardResult<T, R>>;
/**
 * Checks the response and resamples at most once (never when the request
 * carries tools or the signal is aborted). Resolves with the checked value or
 * rejects with StructuredOutputError. A wrapper whose `strict` is only known
 * at run time to be false still takes the lenient path: pass `strict`
 * explicitly to pin the result type.
 */
export declare function guardedCall<T = unknown, Req = unknown, R = unknown>(
  request: Req,
  callModel: (request: Req, context: CallContext) => Promise<R> | R,
  options: GuardOptions<R> & { strict?: true; schema: GuardSchema<T> },
): Promise<GuardResult<T, R>>;
/**
 * `strict` known only at run time (a `boolean`): either result, so the
 * value may be null until narrowed.
 */
export declare function guardedCall<T = unknown, Req = unknown, R = unknown>(
  request: Req,
  callModel: (request: Req, context: CallContext) => Promise<R> | R,
  options: GuardOptions<R> & { schema: GuardSchema<T> },
): Promise<GuardResult<T, R> | LenientGuardResult<T, R>>;

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
 * stream chunk, plus `onText`.
 */
export interface GuardStreamOptions<C = unknown> extends Omit<GuardOptions, "read" | "usage" | "onAttempt" | "toolName"> {
  /** Reads a chunk instead of the built-in readers (strings, OpenAI, Anthropic, Gemini, AI SDK events). */
  read?: (chunk: C) => StreamChunkRead;
  /** The usage a chunk reports (the attempt's so far: a later report's members replace an earlier one's), instead of the built-in readers'. */
  usage?: (chunk: C) => object | null | undefined;
  /** Each piece of text the check has not rejected, as it arrives (a resample starts again at a new `attempt`). */
  onText?: (text: string, context: { attempt: number }) => void;
  onAttempt?: (event: StreamAttemptEvent) => void;
}

export interface StreamGuardResult<T> {
  value: T;
  attempts: number;
  /** Every attempt's reported usage merged, stopped attempts included. */
  usage: Usage;
  rescue: Rescue;
  verdicts: Verdict<T>[];
  audit: StreamAudit;
}

export interface LenientStreamGuardResult<T> {
  /** The parsed object (even when the check failed; then `warning` says why), or null when the output was not a JSON object. */
  value: T | null;
  attempts: 1;
  usage: Usage;
  warning?: string;
  verdicts: Verdict<T>[];
  audit: StreamAudit;
}

/** A chunk of a model's stream: text, or a provider's or SDK's stream event. */
export type StreamChunk = string | object;

/**
 * Streams the model's answer through a stream check and stops the stream
 * (aborting `context.signal`) at the first definite rejection; then decides
 * as guardedCall does (at most one resample by default, never with tools or
 * after the caller's abort). Rejects with StructuredOutputError.
 */
export declare function guardedStream<T = unknown, Req = unknown, C = StreamChunk>(
  request: Req,
  streamModel: (request: Req, context: CallContext) => AsyncIterable<C> | Iterable<C> | Promise<AsyncIterable<C> | Iterable<C>>,
  options: GuardStreamOptions<C> & { strict: false; schema: GuardSchema<T> },
): Promise<LenientStreamGuardResult<T>>;
export declare function guardedStream<T = unknown, Req = unknown, C = StreamChunk>(
  request: Req,
  streamModel: (request: Req, context: CallContext) => AsyncIterable<C> | Iterable<C> | Promise<AsyncIterable<C> | Iterable<C>>,
  options: GuardStreamOptions<C> & { strict?: true; schema: GuardSchema<T> },
): Promise<StreamGuardResult<T>>;
export declare function guardedStream<T = unknown, Req = unknown, C = StreamChunk>(
  request: Req,
  streamModel: (request: Req, context: CallContext) => AsyncIterable<C> | Iterable<C> | Promise<AsyncIterable<C> | Iterable<C>>,
  options: GuardStreamOptions<C> & { schema: GuardSchema<T> },
): Promise<StreamGuardResult<T> | LenientStreamGuardResult<T>>;

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
}

/** Why a tool call was refused before it ran. */
export type ToolCallFailure = "unknown_tool" | "truncated" | "unparseable" | "not_object" | "schema";

export interface ToolCallCheck {
  id: string | null;
  name: string;
  ok: boolean;
  /** The parsed arguments, when they pass. */
  value?: unknown;
  failure?: ToolCallFailure;
  /**
   * True when the tool's schema could not be compiled and the call was
   * checked for parse and shape only (`onInvalidSchema: "degrade"`, the
   * default; `"throw"` throws the SchemaError instead): its `message` says
   * the schema was not applied.
   */
  degraded: boolean;
  message: string;
  errors: Issue[];
  moreErrors: boolean;
  errorHash: string | null;
}

export interface ToolCallsVerdict {
  /** True only when every call passes (also for a response that makes none). */
  ok: boolean;
  /** True when any call's is: a call was not checked against its tool's schema. */
  degraded: boolean;
  /** The first refused call's failure. */
  failure?: ToolCallFailure;
  message: string;
  calls: ToolCallCheck[];
}

/**
 * Every tool call in `response` checked against the input schema of the
 * tool it names, before it runs. `tools`: the request's tool declarations in
 * any provider's or SDK's shape, or the whole request.
 */
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

export declare function checkToolCalls(response: object, tools: object, options?: Omit<CheckOptions, "toolName" | "rules">): ToolCallsVerdict;
