// The matchers under Vitest (without globals), installed the portable way.
import { describe, expect, test } from "vitest";
import { installMatchers, matchers } from "../../pkg/matchers.mjs";
import { defineMatcherSuite } from "./suite.mjs";

expect.extend(matchers);
defineMatcherSuite({ describe, test, expect });

describe("installMatchers under Vitest", () => {
  test("without globals there is no expect to find: the error names the explicit set-up", () => {
    expect(globalThis.expect).toBeUndefined();
    expect(() => installMatchers()).toThrow(/expect\.extend\(matchers\)/);
  });

  test("extends the expect it is given", () => {
    expect(installMatchers(expect)).toBe(expect);
    expect({ a: 1 }).toSatisfySchema({ type: "object" });
  });
});
