// Public type contract of structured-output-guard. Checked against a typed
// usage file (tests/types/usage.ts) with `tsc --noEmit --strict`.

export type Rescue = "none" | "code_fence";
export type FailureClass = "truncated" | "empty" | "unparseable" | "not_object" | "schema";
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

/** A compiled schema, from compileSchema(). */
export declare class Validator {
  private constructor();
  validate(instance: unknown, options?: ValidateOptions): ValidationResult;
  isValid(instance: unknown): boolean;
  /** A stable hash of the schema content (key order does not matter). */
  readonly schemaHash: string;
  /** Releases the compiled schema's wasm memory now rather than at garbage collection. */
  free(): void;
}

export type JsonSchema = Record<string, unknown> | boolean;

/** A response-format wrapper as executors store it. */
export interface ResponseFormatWrapper {
  name?: string;
  description?: string;
  schema: Record<string, unknown>;
  strict?: boolean;
}

export type SchemaInput = JsonSchema | string | Validator | ResponseFormatWrapper;

export interface CheckOptions extends CompileOptions, ValidateOptions {
  /** Require the response to be a JSON object. Default true. */
  requireObject?: boolean;
  /** What to do when the schema cannot be compiled. Default "degrade". */
  onInvalidSchema?: "degrade" | "throw";
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
export declare function compileSchema(schema: JsonSchema | string, options?: CompileOptions): Validator;
export declare function checkOutput<T = unknown>(output: ModelOutput, schema?: SchemaInput | null, options?: CheckOptions): Verdict<T>;
export declare function normalizeUsage(usageOrResponse: unknown): Usage;
export declare function mergeUsage(...usages: unknown[]): Usage;
/** Drops every cached compiled validator. */
export declare function clearSchemaCache(): void;
/** Sets how many compiled validators the cache keeps (default 128, at least 1). */
export declare function setSchemaCacheCapacity(capacity: number): void;
/** How many compiled validators are cached now. */
export declare function schemaCacheSize(): number;
/** Bytes of linear memory the wasm instance holds now (it grows, never shrinks). */
export declare function wasmMemoryBytes(): number;
/** Resolves once the module is loaded: immediately in Node and Bun; browsers must await it first. */
export declare function ready(): Promise<void>;

export interface AttemptEvent {
  attempt: number;
  verdict: Verdict;
  usage: Usage;
  action: "accept" | "resample" | "reject" | "return_with_warning";
  stoppedBy: StopReason | null;
}

export type StopReason = "accepted" | "tools" | "aborted" | "budget" | "lenient";

export interface GuardOptions<R = unknown> extends CheckOptions {
  schema: SchemaInput;
  /** Default: the wrapper's `strict` when `schema` is a response-format wrapper, else true. */
  strict?: boolean;
  /** Declare that the request carries tools even where they are not in `tools`/`functions`. */
  hasTools?: boolean;
  signal?: AbortSignal;
  read?: (response: R) => { content: unknown; finishReason?: string | null };
  usage?: (response: R) => Usage;
  onAttempt?: (event: AttemptEvent) => void;
}

export interface GuardResult<T, R = unknown> {
  value: T;
  response: R;
  attempts: number;
  /** Every attempt's usage merged, failed attempts included. */
  usage: Usage;
  rescue: Rescue;
  verdicts: Verdict[];
}

export interface LenientGuardResult<T, R = unknown> {
  /** The parsed object, or null when the output was not a JSON object. */
  value: T | null;
  response: R;
  attempts: 1;
  usage: Usage;
  /** Set when the check failed: the failure class and message. */
  warning?: string;
  verdicts: Verdict[];
}

/** `strict: false`: the lenient legacy path, one call, never throws for validation. */
export declare function guardedCall<T = unknown, Req = unknown, R = unknown>(
  request: Req,
  callModel: (request: Req) => Promise<R> | R,
  options: GuardOptions<R> & { strict: false },
): Promise<LenientGuardResult<T, R>>;
/** A response-format wrapper declaring `strict: false` makes the call lenient too. */
export declare function guardedCall<T = unknown, Req = unknown, R = unknown>(
  request: Req,
  callModel: (request: Req) => Promise<R> | R,
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
  callModel: (request: Req) => Promise<R> | R,
  options: GuardOptions<R>,
): Promise<GuardResult<T, R>>;

/** A schema that cannot be compiled. */
export declare class SchemaError extends Error {
  name: "SchemaError";
  code: "invalid_schema";
}

/** A guarded call whose every allowed attempt failed the check. */
export declare class StructuredOutputError<R = unknown> extends Error {
  name: "StructuredOutputError";
  code: "structured_output_rejected";
  failure: FailureClass;
  errors: Issue[];
  attempts: number;
  /** Every attempt's usage merged. */
  usage: Usage;
  /** The last response. */
  response: R;
  verdicts: FailedVerdict[];
  stoppedBy: StopReason;
}
