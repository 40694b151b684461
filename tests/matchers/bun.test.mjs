// The matchers under bun:test, installed the portable way, then the
// register entry against Bun's own expect.
import { describe, expect, test } from "bun:test";
import { installMatchers, matchers } from "../../pkg/matchers.mjs";
import { defineMatcherSuite } from "./suite.mjs";

expect.extend(matchers);
defineMatcherSuite({ describe, test, expect });

describe("installMatchers under Bun", () => {
  test("finds Bun's expect without a global one", () => {
    expect(globalThis.expect).toBeUndefined();
    expect(installMatchers()).toBe(expect);
  });

  test("the register entry extends Bun's expect when imported", async () => {
    const extend = expect.extend;
    const registered = [];
    expect.extend = (given) => {
      registered.push(...Object.keys(given));
      return extend.call(expect, given);
    };
    try {
      await import("../../pkg/matchers-register.mjs");
    } finally {
      expect.extend = extend;
    }
    expect(registered).toEqual(["toSatisfySchema", "toBeAcceptedOutput"]);
    expect("{}").toBeAcceptedOutput({ type: "object" });
  });
});
