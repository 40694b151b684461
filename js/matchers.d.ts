// Types of structured-output-guard/matchers. The runner augmentations below
// are type-only: a project without Vitest, Bun's types or Jest's types gets
// no error from them, and one with any of them gets the matchers on its
// `expect(...)` and as asymmetric matchers.
//
// Vitest's types are reached two ways. `declare module "vitest"` names the
// Vitest that this file's own location resolves, which is the project's
// when the package is installed in its node_modules, but not when it is
// linked (npm link, a workspace): the linked package's real path resolves
// its own copy of Vitest, or none. So the matchers are also declared on the
// globals Vitest's types extend, which every copy shares: `jest.Matchers`
// (Vitest's `expect(...)`) and `Chai.ExpectStatic` (Vitest's `expect`, for
// `expect.toSatisfySchema(...)`).
import type { CheckOptions, CompileOptions, Issue, SchemaInput, ValidateOptions } from "structured-output-guard";

/** compileSchema's options plus the issue cap. */
export type SatisfySchemaOptions = CompileOptions & ValidateOptions;

/**
 * checkOutput's options. `onInvalidSchema` defaults to "throw" here, so a
 * broken schema fails the test instead of degrading to parse-level checks.
 */
export type AcceptedOutputOptions = CheckOptions;

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** The matchers as `expect.extend` takes them (a type alias, so it fits runners' index-signature types). */
export type GuardMatcherFunctions = {
  toSatisfySchema(received: unknown, schema: SchemaInput, options?: SatisfySchemaOptions): MatcherResult;
  toBeAcceptedOutput(received: unknown, schema?: SchemaInput | null, options?: AcceptedOutputOptions): MatcherResult;
};

export declare const matchers: GuardMatcherFunctions;
export declare const toSatisfySchema: GuardMatcherFunctions["toSatisfySchema"];
export declare const toBeAcceptedOutput: GuardMatcherFunctions["toBeAcceptedOutput"];

/** One issue per line: path ("(root)" for ""), code, message. */
export declare function formatIssues(errors: readonly Issue[], moreErrors?: boolean): string;

/**
 * Registers the matchers with the given `expect`, else the runner's global
 * one (Jest; Vitest with `globals: true`), else Bun's. Throws a TypeError
 * when there is none. Returns the `expect` it extended.
 */
export declare function installMatchers<E extends { extend(matchers: GuardMatcherFunctions): unknown }>(expect?: E): E;

/** What the matchers add to `expect(received)`; `R` is the runner's return type. */
export type GuardMatchers<R = unknown> = StructuredOutputGuardMatchers<R>;

declare global {
  /**
   * The matchers on `expect(...)`. Global so that the import (.d.ts) and
   * require (.d.cts) declarations merge into one type when a program sees
   * both, instead of two that the runners' interfaces cannot both extend.
   */
  interface StructuredOutputGuardMatchers<R = unknown> {
    /** The value satisfies the schema (a JSON Schema, a Validator or a response-format wrapper). */
    toSatisfySchema(schema: SchemaInput, options?: SatisfySchemaOptions): R;
    /** checkOutput accepts the model output (a string, `{ content, finishReason }` or a provider response). */
    toBeAcceptedOutput(schema?: SchemaInput | null, options?: AcceptedOutputOptions): R;
  }

  namespace jest {
    interface Matchers<R, T = {}> extends StructuredOutputGuardMatchers<R> {}
    interface Expect extends StructuredOutputGuardMatchers<any> {}
    interface InverseAsymmetricMatchers extends StructuredOutputGuardMatchers<any> {}
  }

  namespace Chai {
    interface ExpectStatic extends StructuredOutputGuardMatchers<any> {}
  }
}

declare module "vitest" {
  interface Assertion<T = any> extends StructuredOutputGuardMatchers<T> {}
  interface AsymmetricMatchersContaining extends StructuredOutputGuardMatchers<any> {}
}

declare module "bun:test" {
  interface Matchers<T = unknown> extends StructuredOutputGuardMatchers<void> {}
  interface AsymmetricMatchers extends StructuredOutputGuardMatchers<any> {}
}
