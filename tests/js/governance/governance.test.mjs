// Governance beyond one resample: business rules, targeted repair feedback,
// budgets that cannot loop, a deadline across attempts, audit records and
// the stats collector.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import {
  HEX32,
  anthropicMessage,
  assertArgumentError,
  geminiResponse,
  openaiChat,
  rejected,
  scripted,
  thrown,
} from "../../support/fixtures.mjs";

/** A review verdict, as an evaluator model returns it. */
const REVIEW_SCHEMA = {
  type: "object",
  required: ["verdict", "confidence", "reasoning", "reviewers"],
  additionalProperties: false,
  properties: {
    verdict: { enum: ["pass", "fail", "unsure"] },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    reasoning: { type: "string", minLength: 1 },
    reviewers: {
      type: "array",
      items: {
        type: "object",
        required: ["role"],
        properties: { role: { enum: ["general", "risk", "boundary"] }, note: { type: "string" } },
      },
    },
  },
};

const role = (name) => ({
  contains: { properties: { role: { const: name } }, required: ["role"] },
  minContains: 1,
  maxContains: 1,
});

/** The three rules from docs/governance.md. */
const RULES = [
  {
    name: "fail-needs-low-confidence",
    if: { properties: { verdict: { const: "fail" } }, required: ["verdict"] },
    then: { properties: { confidence: { maximum: 0.5 } } },
    message: 'when the verdict is "fail", confidence must be at most 0.5',
  },
  {
    name: "reasoning-length",
    then: { properties: { reasoning: { minLength: 20 } } },
    message: "reasoning must be at least 20 characters",
  },
  {
    name: "reviewer-roles",
    then: {
      properties: { reviewers: { minItems: 3, maxItems: 3, allOf: [role("general"), role("risk"), role("boundary")] } },
    },
    message: "reviewers must be exactly one general, one risk and one boundary reviewer",
  },
];

const REVIEWERS = [{ role: "general" }, { role: "risk" }, { role: "boundary" }];
const GOOD_REVIEW = {
  verdict: "fail",
  confidence: 0.3,
  reasoning: "The refund exceeds the policy limit by 40%.",
  reviewers: REVIEWERS,
};

const review = (changes) => JSON.stringify({ ...GOOD_REVIEW, ...changes });

function chatRequest(extra = {}) {
  return {
    model: "gpt-4.1-mini",
    messages: [
      { role: "system", content: "You review refund decisions. Answer with JSON only." },
      { role: "user", content: "Review refund #4411." },
    ],
    ...extra,
  };
}

describe("business rules", () => {
  test("an accepted review passes every rule", () => {
    const verdict = guard.checkOutput(review({}), REVIEW_SCHEMA, { rules: RULES });
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, GOOD_REVIEW);
  });

  test('if verdict is "fail" then confidence <= 0.5', () => {
    const verdict = guard.checkOutput(review({ confidence: 0.9 }), REVIEW_SCHEMA, { rules: RULES });
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, "rule");
    assert.deepEqual(verdict.errors, [
      {
        path: "/confidence",
        schemaPath: "/rules/0/then/properties/confidence/maximum",
        code: "rule",
        message: RULES[0].message,
        rule: "fail-needs-low-confidence",
      },
    ]);
    assert.match(verdict.errorHash, HEX32);
    assert.match(verdict.message, /fail-needs-low-confidence/);
    // The condition does not hold: the same confidence is fine for a pass.
    assert.equal(guard.checkOutput(review({ verdict: "pass", confidence: 0.9 }), REVIEW_SCHEMA, { rules: RULES }).ok, true);
  });

  test("reasoning at least 20 characters", () => {
    const verdict = guard.checkOutput(review({ reasoning: "Too high." }), REVIEW_SCHEMA, { rules: RULES });
    assert.equal(verdict.failure, "rule");
    assert.deepEqual(
      verdict.errors.map((e) => [e.rule, e.path]),
      [["reasoning-length", "/reasoning"]],
    );
  });

  test("reviewers hold exactly general, risk and boundary, each once", () => {
    for (const reviewers of [
      [{ role: "general" }, { role: "risk" }],
      [{ role: "general" }, { role: "risk" }, { role: "risk" }],
      [{ role: "general" }, { role: "risk" }, { role: "boundary" }, { role: "boundary" }],
    ]) {
      const verdict = guard.checkOutput(review({ reviewers }), REVIEW_SCHEMA, { rules: RULES });
      assert.equal(verdict.failure, "rule", JSON.stringify(reviewers));
      assert.deepEqual(verdict.errors.map((e) => [e.rule, e.path]), [["reviewer-roles", "/reviewers"]]);
    }
    const shuffled = [{ role: "boundary" }, { role: "general" }, { role: "risk" }];
    assert.equal(guard.checkOutput(review({ reviewers: shuffled }), REVIEW_SCHEMA, { rules: RULES }).ok, true);
  });

  test("rules run only after the schema stage passes", () => {
    const verdict = guard.checkOutput(review({ verdict: "maybe", confidence: 0.9 }), REVIEW_SCHEMA, { rules: RULES });
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => e.code), ["enum"]);
  });

  test("several broken rules are listed in rule order and capped by maxErrors", () => {
    const bad = review({ confidence: 0.9, reasoning: "No.", reviewers: [] });
    const all = guard.checkOutput(bad, REVIEW_SCHEMA, { rules: RULES });
    assert.deepEqual(all.errors.map((e) => e.rule), RULES.map((r) => r.name));
    assert.equal(all.moreErrors, false);
    const capped = guard.checkOutput(bad, REVIEW_SCHEMA, { rules: RULES, maxErrors: 1 });
    assert.deepEqual(capped.errors.map((e) => e.rule), [RULES[0].name]);
    assert.equal(capped.moreErrors, true);
  });

  test("two different broken rules have different error hashes", () => {
    const a = guard.checkOutput(review({ confidence: 0.9 }), REVIEW_SCHEMA, { rules: RULES });
    const b = guard.checkOutput(review({ reasoning: "Short." }), REVIEW_SCHEMA, { rules: RULES });
    const a2 = guard.checkOutput(review({ confidence: 0.75 }), REVIEW_SCHEMA, { rules: RULES });
    assert.notEqual(a.errorHash, b.errorHash);
    assert.equal(a.errorHash, a2.errorHash);
  });

  test("rules work with a compiled Validator too", () => {
    const validator = guard.compileSchema(REVIEW_SCHEMA);
    assert.equal(guard.checkOutput(review({ confidence: 0.9 }), validator, { rules: RULES }).failure, "rule");
    assert.equal(guard.checkOutput(review({}), validator, { rules: RULES }).ok, true);
  });

  test("a malformed rule is a typed error naming it", () => {
    assertArgumentError(thrown(() => guard.checkOutput("{}", REVIEW_SCHEMA, { rules: {} })), /options\.rules must be an array/);
    assertArgumentError(
      thrown(() => guard.checkOutput("{}", REVIEW_SCHEMA, { rules: [{ name: "x", then: {} }] })),
      /options\.rules\[0\] needs a "message"/,
    );
    const error = thrown(() => guard.checkOutput("{}", REVIEW_SCHEMA, { rules: [{ name: "typo", then: { type: "strin" }, message: "m" }] }));
    assert.ok(error instanceof guard.SchemaError, error.message);
    assert.match(error.message, /rule "typo" \(then\) is not a valid schema/);
  });

  test("guardedCall applies rules and resamples a broken one", async () => {
    const { calls, callModel } = scripted(openaiChat(review({ confidence: 0.95 })), openaiChat(review({})));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, rules: RULES });
    assert.equal(calls.length, 2);
    assert.deepEqual(result.value, GOOD_REVIEW);
    assert.deepEqual(result.audit.attempts.map((a) => a.failure), ["rule", null]);
  });

  test("guardedCall rejects a malformed rule before calling the model", async () => {
    const { calls, callModel } = scripted(openaiChat(review({})));
    const error = await rejected(
      guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, rules: [{ name: "x", then: { minimum: "zero" }, message: "m" }] }),
    );
    assert.ok(error instanceof guard.SchemaError, error.message);
    assert.equal(calls.length, 0);
  });
});

describe("repairFeedback", () => {
  const PLANTED = [
    "sk-proj-Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  ];

  test("names each failing path, code and constraint from the schema", () => {
    const verdict = guard.checkOutput(review({ verdict: "maybe", confidence: 3 }), REVIEW_SCHEMA);
    const text = guard.repairFeedback(verdict, REVIEW_SCHEMA);
    assert.match(text, /^Your previous response did not match the required JSON schema\./);
    assert.ok(text.includes("/verdict (enum): must be one of: pass, fail, unsure"), text);
    assert.ok(text.includes("/confidence (maximum): must be at most 1"), text);
  });

  test("never contains a value from the output", () => {
    const values = ["verdict-kumquat-1187", "note-papaya-5521", "role-quince-0042"];
    const output = JSON.stringify({
      verdict: values[0],
      confidence: 77.125,
      reasoning: "",
      reviewers: [{ role: values[2], note: 42 }, { role: "risk", note: values[1] }],
      extra: values[1],
    });
    const verdict = guard.checkOutput(output, REVIEW_SCHEMA, { maxErrors: 50 });
    assert.ok(verdict.errors.length >= 5, JSON.stringify(verdict.errors));
    const text = guard.repairFeedback(verdict, REVIEW_SCHEMA);
    for (const v of [...values, "77.125", "extra"]) assert.ok(!text.includes(v), `${v} leaked: ${text}`);
  });

  test("redacts planted secrets from paths and from the schema it quotes", () => {
    for (const secret of PLANTED) {
      const schema = {
        title: `Settings (key ${secret})`,
        type: "object",
        properties: { mode: { enum: ["fast", secret] } },
        additionalProperties: { type: "integer" },
      };
      const output = JSON.stringify({ [secret]: "not a number", mode: "slow", note: secret });
      const verdict = guard.checkOutput(output, schema, { maxErrors: 10 });
      const text = guard.repairFeedback(verdict, schema);
      for (const shown of [text, verdict.message, ...verdict.errors.map((e) => e.message)]) {
        assert.ok(!shown.includes(secret), `${secret} leaked: ${shown}`);
      }
      assert.ok(text.includes("[redacted]"), text);
    }
  });

  test("takes a Validator or a response-format wrapper as the schema", () => {
    const verdict = guard.checkOutput(review({ verdict: "maybe" }), REVIEW_SCHEMA);
    const expected = guard.repairFeedback(verdict, REVIEW_SCHEMA);
    assert.equal(guard.repairFeedback(verdict, guard.compileSchema(REVIEW_SCHEMA)), expected);
    assert.equal(guard.repairFeedback(verdict, { name: "review", strict: true, schema: REVIEW_SCHEMA }), expected);
  });

  test("rule failures quote the rule's message", () => {
    const verdict = guard.checkOutput(review({ confidence: 0.8 }), REVIEW_SCHEMA, { rules: RULES });
    const text = guard.repairFeedback(verdict, REVIEW_SCHEMA);
    assert.ok(text.includes(`/confidence (rule "fail-needs-low-confidence"): ${RULES[0].message}`), text);
  });

  test("misuse is a typed error", () => {
    assertArgumentError(thrown(() => guard.repairFeedback(null, REVIEW_SCHEMA)), /needs a verdict/);
    assertArgumentError(thrown(() => guard.repairFeedback(guard.checkOutput(review({}), REVIEW_SCHEMA), REVIEW_SCHEMA)), /accepted/);
    assert.ok(thrown(() => guard.repairFeedback({ ok: false, failure: "schema", errors: [] }, "{not json")) instanceof guard.SchemaError);
  });
});

describe("guardedCall: repair", () => {
  test("the retry sends the original request plus one feedback message, leaving the original untouched", async () => {
    const request = chatRequest();
    const snapshot = structuredClone(request);
    const { calls, callModel } = scripted(openaiChat(review({ verdict: "maybe" })), openaiChat(review({})));
    const result = await guard.guardedCall(request, callModel, { schema: REVIEW_SCHEMA, retry: "repair" });
    assert.deepEqual(result.value, GOOD_REVIEW);
    assert.deepEqual(request, snapshot);
    assert.equal(calls[0], request);
    assert.deepEqual(calls[1].messages.slice(0, -1), request.messages);
    const added = calls[1].messages.at(-1);
    assert.equal(added.role, "user");
    assert.ok(added.content.includes("/verdict (enum): must be one of: pass, fail, unsure"), added.content);
    assert.ok(!added.content.includes("maybe"));
  });

  test("each repair is built from the original request and the latest verdict", async () => {
    const { calls, callModel } = scripted(
      openaiChat(review({ verdict: "maybe" })),
      openaiChat(review({ confidence: 7 })),
      openaiChat(review({})),
    );
    await guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, retry: "repair", budgets: { total: 2 } });
    assert.equal(calls.length, 3);
    assert.equal(calls[2].messages.length, chatRequest().messages.length + 1);
    assert.match(calls[2].messages.at(-1).content, /\/confidence \(maximum\)/);
    assert.doesNotMatch(calls[2].messages.at(-1).content, /\/verdict/);
  });

  test("built-in appenders for Anthropic and Gemini requests", async () => {
    const anthropicRequest = { model: "claude-sonnet-4-5", max_tokens: 1024, system: "JSON only.", messages: [{ role: "user", content: "Review." }] };
    const a = scripted(anthropicMessage(review({ verdict: "maybe" })), anthropicMessage(review({})));
    await guard.guardedCall(anthropicRequest, a.callModel, { schema: REVIEW_SCHEMA, retry: "repair" });
    assert.deepEqual(a.calls[1].messages.at(-1).role, "user");
    assert.match(a.calls[1].messages.at(-1).content[0].text, /\/verdict \(enum\)/);

    const geminiRequest = { contents: [{ role: "user", parts: [{ text: "Review." }] }] };
    const g = scripted(geminiResponse(review({ verdict: "maybe" })), geminiResponse(review({})));
    await guard.guardedCall(geminiRequest, g.callModel, { schema: REVIEW_SCHEMA, retry: "repair" });
    assert.equal(g.calls[1].contents.length, 2);
    assert.match(g.calls[1].contents[1].parts[0].text, /\/verdict \(enum\)/);
  });

  test("a custom appendFeedback is used, and an unknown request shape without one is refused up front", async () => {
    const seen = [];
    const { calls, callModel } = scripted(openaiChat(review({ verdict: "maybe" })), openaiChat(review({})));
    await guard.guardedCall({ prompt: "Review." }, callModel, {
      schema: REVIEW_SCHEMA,
      retry: "repair",
      appendFeedback: (request, text) => {
        seen.push(text);
        return { prompt: `${request.prompt}\n\n${text}` };
      },
    });
    assert.equal(seen.length, 1);
    assert.ok(calls[1].prompt.endsWith(seen[0]));

    const none = scripted(openaiChat(review({})));
    const error = await rejected(guard.guardedCall({ prompt: "Review." }, none.callModel, { schema: REVIEW_SCHEMA, retry: "repair" }));
    assertArgumentError(error, /appendFeedback/);
    assert.equal(none.calls.length, 0);
    assertArgumentError(await rejected(guard.guardedCall(chatRequest(), none.callModel, { schema: REVIEW_SCHEMA, retry: "again" })), /options\.retry/);
  });

  test("the appender helpers never mutate and refuse the wrong shape", () => {
    const request = chatRequest();
    const next = guard.appendOpenAIChatFeedback(request, "fix it");
    assert.equal(request.messages.length, 2);
    assert.equal(next.messages.length, 3);
    assertArgumentError(thrown(() => guard.appendGeminiFeedback(request, "fix it")), /contents/);
    assertArgumentError(thrown(() => guard.appendOpenAIChatFeedback(request, "")), /non-empty/);
    const responses = guard.appendOpenAIResponsesFeedback({ model: "gpt-4.1", input: "Review." }, "fix it");
    assert.deepEqual(responses.input, [{ role: "user", content: "Review." }, { role: "user", content: "fix it" }]);
  });

  test("a request with tools is never repaired either", async () => {
    const { calls, callModel } = scripted(openaiChat(review({ verdict: "maybe" })));
    const error = await rejected(
      guard.guardedCall(chatRequest({ tools: [{ type: "function", function: { name: "refund" } }] }), callModel, {
        schema: REVIEW_SCHEMA,
        retry: "repair",
        budgets: { total: 5 },
      }),
    );
    assert.equal(calls.length, 1);
    assert.equal(error.stoppedBy, "tools");
  });
});

describe("guardedCall: budgets", () => {
  const bad = (n) => openaiChat(review({ confidence: 2 + n })); // same error each time
  const different = [
    openaiChat(review({ verdict: "maybe" })),
    openaiChat(review({ confidence: 3 })),
    openaiChat('{"verdict": '),
    openaiChat(review({ reasoning: 5 })),
    openaiChat("[]"),
  ];

  test("the default is one retry whatever failed", async () => {
    const { calls, callModel } = scripted(...different);
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA }));
    assert.equal(calls.length, 2);
    assert.equal(error.stoppedBy, "budget");
  });

  test("total bounds every class together", async () => {
    const { calls, callModel } = scripted(...different);
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, budgets: { total: 3 } }));
    assert.equal(calls.length, 4);
    assert.equal(error.stoppedBy, "budget");
    assert.equal(error.attempts, 4);
    assert.deepEqual(error.audit.attempts.map((a) => a.failure), ["schema", "schema", "unparseable", "schema"]);
  });

  test("a class budget of 0 stops that class at once, others still retry", async () => {
    const truncatedFirst = scripted(openaiChat('{"verdict":', { finishReason: "length" }), openaiChat(review({})));
    const error = await rejected(
      guard.guardedCall(chatRequest(), truncatedFirst.callModel, { schema: REVIEW_SCHEMA, budgets: { truncated: 0, total: 3 } }),
    );
    assert.equal(truncatedFirst.calls.length, 1);
    assert.equal(error.failure, "truncated");
    assert.equal(error.stoppedBy, "budget");

    const schemaFirst = scripted(different[0], openaiChat(review({})));
    const result = await guard.guardedCall(chatRequest(), schemaFirst.callModel, { schema: REVIEW_SCHEMA, budgets: { truncated: 0, total: 3 } });
    assert.equal(result.attempts, 2);
  });

  // Two failures of one class in a row would be a repeated error for the
  // classes whose hash is the class alone, so each run alternates the class
  // under test with a failure of another class.
  for (const [failure, sample, other] of [
    ["truncated", openaiChat('{"a":', { finishReason: "length" }), different[0]],
    ["empty", openaiChat(""), different[0]],
    ["unparseable", openaiChat('{"verdict": '), different[0]],
    ["not_object", openaiChat("[]"), different[0]],
    ["schema", different[0], openaiChat("{'verdict': 1}")],
    ["rule", openaiChat(review({ confidence: 0.9 })), different[0]],
  ]) {
    test(`budgets.${failure} allows that many retries of ${failure}`, async () => {
      const { calls, callModel } = scripted(sample, other, sample, other, sample, other);
      const error = await rejected(
        guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, rules: RULES, budgets: { [failure]: 2, total: 10 } }),
      );
      assert.equal(calls.length, 5, `${failure}: ${error.message}`);
      assert.equal(error.failure, failure);
      assert.equal(error.stoppedBy, "budget");
      assert.deepEqual(
        error.audit.attempts.map((a) => a.failure === failure),
        [true, false, true, false, true],
      );
    });
  }

  test("two failures of a class without issues in a row are a repeated error", async () => {
    const { calls, callModel } = scripted(openaiChat(""), openaiChat("  "), openaiChat(review({})));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, budgets: { empty: 5 } }));
    assert.equal(calls.length, 2);
    assert.equal(error.stoppedBy, "repeated_error");
  });

  test("the same errorHash twice in a row stops at once", async () => {
    const { calls, callModel } = scripted(bad(0), bad(1), openaiChat(review({})));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, budgets: { total: 5 } }));
    assert.equal(calls.length, 2);
    assert.equal(error.stoppedBy, "repeated_error");
    assert.equal(error.audit.attempts[0].errorHash, error.audit.attempts[1].errorHash);
    assert.match(error.message, /same error came twice/);
  });

  test("bad budgets are refused before any call", async () => {
    const { calls, callModel } = scripted(openaiChat(review({})));
    for (const budgets of [{ total: -1 }, { total: 11 }, { schemas: 1 }, [], { total: "2" }]) {
      assertArgumentError(await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, budgets })), /options\.budgets/);
    }
    assert.equal(calls.length, 0);
  });
});

describe("guardedCall: deadline", () => {
  test("a call hanging past deadlineMs rejects with stoppedBy deadline and aborts the call's signal", async () => {
    let seenSignal;
    const callModel = (request, { signal }) => {
      seenSignal = signal;
      return new Promise(() => {}); // never settles
    };
    const started = Date.now();
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, deadlineMs: 50 }));
    assert.ok(error instanceof guard.StructuredOutputError);
    assert.equal(error.stoppedBy, "deadline");
    assert.equal(error.failure, "deadline");
    assert.equal(error.attempts, 1);
    assert.deepEqual(error.usage, {});
    assert.equal(seenSignal.aborted, true);
    assert.equal(seenSignal.reason.name, "TimeoutError");
    assert.ok(Date.now() - started < 5000);
  });

  test("the call's signal is aborted even when the deadline is already overdue by the time timers run", async () => {
    // callModel blocks the event loop past the deadline, so every timer due
    // at the deadline is overdue at once and runs in the same turn.
    let seenSignal;
    const callModel = (request, { signal }) => {
      seenSignal = signal;
      const until = Date.now() + 60;
      while (Date.now() < until);
      return new Promise(() => {});
    };
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, deadlineMs: 20 }));
    assert.equal(error.stoppedBy, "deadline");
    assert.equal(seenSignal.aborted, true);
    assert.equal(seenSignal.reason.name, "TimeoutError");
  });

  test("the deadline spans attempts: a slow failed first attempt leaves no time for a retry", async () => {
    const slowFail = () => new Promise((resolve) => setTimeout(() => resolve(openaiChat('{"verdict": ')), 80));
    const { calls, callModel } = scripted(slowFail, openaiChat(review({})));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, deadlineMs: 40, budgets: { total: 3 } }));
    assert.equal(error.stoppedBy, "deadline");
    assert.equal(error.failure, "deadline");
    assert.equal(calls.length, 1);
  });

  test("a failed attempt finished after the deadline is reported with its failure and usage", async () => {
    const { calls, callModel } = scripted(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return openaiChat('{"verdict": ', { usage: { prompt_tokens: 10, completion_tokens: 5 } });
      },
      openaiChat(review({})),
    );
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, deadlineMs: 60_000, budgets: { total: 0 } }));
    assert.equal(error.stoppedBy, "budget");
    assert.equal(calls.length, 1);
    assert.deepEqual([error.usage.tokens.input, error.usage.tokens.output, error.usage.tokens.total], [10, 5, 15]);
  });

  test("deadlineMs must be a positive number", async () => {
    const { callModel } = scripted(openaiChat(review({})));
    for (const deadlineMs of [0, -5, "100", Infinity, NaN]) {
      assertArgumentError(await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, deadlineMs })), /deadlineMs/);
    }
  });
});

describe("audit", () => {
  test("a result carries the attempts, schema hash, validator version and stop reason", async () => {
    const { callModel } = scripted(openaiChat("```json\n" + review({ verdict: "maybe" }) + "\n```"), openaiChat(review({})));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA });
    const { audit } = result;
    assert.deepEqual(Object.keys(audit).sort(), ["attempts", "degraded", "schemaHash", "stoppedBy", "validatorVersion"]);
    assert.equal(audit.degraded, false);
    assert.equal(audit.stoppedBy, "accepted");
    assert.equal(audit.schemaHash, guard.compileSchema(REVIEW_SCHEMA).schemaHash);
    assert.match(audit.validatorVersion, /^structured-output-guard\/\d+\.\d+\.\d+ jsonschema\/\d+\.\d+\.\d+$/);
    assert.equal(audit.attempts.length, 2);
    assert.equal(audit.attempts[0].failure, "schema");
    assert.match(audit.attempts[0].errorHash, HEX32);
    assert.equal(audit.attempts[0].rescue, "code_fence");
    assert.deepEqual(audit.attempts[1], { failure: null, errorHash: null, rescue: "none" });
  });

  test("a StructuredOutputError carries the same record", async () => {
    const { callModel } = scripted(openaiChat("nope"), openaiChat("[]"));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA }));
    assert.equal(error.audit.stoppedBy, "budget");
    assert.deepEqual(error.audit.attempts.map((a) => a.failure), ["unparseable", "not_object"]);
    assert.equal(error.audit.stoppedBy, error.stoppedBy);
  });

  test("the lenient path carries it too", async () => {
    const { callModel } = scripted(openaiChat(review({ verdict: "maybe" })));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: REVIEW_SCHEMA, strict: false });
    assert.equal(result.audit.stoppedBy, "lenient");
    assert.equal(result.audit.attempts[0].failure, "schema");
  });
});

describe("createGuardStats", () => {
  const usage = (input, output) => ({ prompt_tokens: input, completion_tokens: output });

  test("counts a scripted run of mixed responses", async () => {
    const stats = guard.createGuardStats();
    const options = { schema: REVIEW_SCHEMA, rules: RULES, stats, budgets: { total: 2 } };
    const runs = [
      // accepted first try
      [openaiChat(review({}), { usage: usage(100, 20) })],
      // truncated, then accepted
      [openaiChat('{"verdict":', { finishReason: "length", usage: usage(100, 4096) }), openaiChat(review({}), { usage: usage(100, 20) })],
      // schema, unparseable, accepted
      [
        openaiChat(review({ verdict: "maybe" }), { usage: usage(100, 30) }),
        openaiChat("not json", { usage: usage(100, 3) }),
        openaiChat(review({}), { usage: usage(100, 20) }),
      ],
      // the same rule broken twice: repeated-error stop
      [openaiChat(review({ confidence: 0.9 }), { usage: usage(100, 25) }), openaiChat(review({ confidence: 0.8 }), { usage: usage(100, 25) })],
      // empty, unparseable, not an object: out of budget
      [openaiChat("", { usage: usage(100, 0) }), openaiChat("{", { usage: usage(100, 1) }), openaiChat("[]", { usage: usage(100, 2) })],
      // the second response is never asked for: the first is accepted
      [openaiChat(review({}), { usage: usage(100, 20) }), openaiChat("", { usage: usage(100, 0) })],
    ];
    const expected = { accepted: 0, acceptedFirstTry: 0, rejected: 0, failures: {}, failedTokens: 0, retriesBeforeAccept: 0 };
    const served = [];
    for (const responses of runs) {
      const { calls, callModel } = scripted(...responses);
      served.push(() => responses.slice(0, calls.length));
      try {
        const result = await guard.guardedCall(chatRequest(), callModel, options);
        expected.accepted += 1;
        if (result.attempts === 1) expected.acceptedFirstTry += 1;
        expected.retriesBeforeAccept += result.attempts - 1;
      } catch (error) {
        assert.ok(error instanceof guard.StructuredOutputError, error.message);
        expected.rejected += 1;
      }
    }
    // Independently: the failed responses served and their tokens.
    for (const responsesServed of served) {
      for (const response of responsesServed()) {
        const verdict = guard.checkOutput(response, REVIEW_SCHEMA, { rules: RULES });
        if (!verdict.ok) {
          expected.failures[verdict.failure] = (expected.failures[verdict.failure] ?? 0) + 1;
          expected.failedTokens += response.usage.prompt_tokens + response.usage.completion_tokens;
        }
      }
    }
    const snap = stats.snapshot();
    assert.equal(snap.calls, runs.length);
    assert.equal(snap.accepted, expected.accepted);
    assert.equal(snap.acceptedFirstTry, expected.acceptedFirstTry);
    assert.equal(snap.rejected, expected.rejected);
    for (const [failure, count] of Object.entries(expected.failures)) assert.equal(snap.failures[failure], count, failure);
    assert.equal(Object.values(snap.failures).reduce((a, b) => a + b, 0), Object.values(expected.failures).reduce((a, b) => a + b, 0));
    assert.equal(snap.failedAttemptTokens.total, expected.failedTokens);
    assert.equal(snap.retriesPerAccept, expected.retriesBeforeAccept / expected.accepted);
    assert.equal(snap.repeatedErrorStops, 1);
    assert.equal(snap.stoppedBy.budget, 1);
    // Spot-check the script produced what the comments say.
    assert.deepEqual([snap.accepted, snap.acceptedFirstTry, snap.rejected], [4, 2, 2]);

    stats.reset();
    assert.equal(stats.snapshot().calls, 0);
  });

  test("a thrown callModel error is counted, and a non-collector is refused", async () => {
    const stats = guard.createGuardStats();
    await rejected(guard.guardedCall(chatRequest(), async () => { throw new Error("503"); }, { schema: REVIEW_SCHEMA, stats }));
    assert.equal(stats.snapshot().errors, 1);
    assertArgumentError(await rejected(guard.guardedCall(chatRequest(), async () => openaiChat("{}"), { schema: REVIEW_SCHEMA, stats: {} })), /options\.stats/);
  });

  test("snapshots are copies", () => {
    const stats = guard.createGuardStats();
    const snap = stats.snapshot();
    snap.failures.schema = 99;
    assert.equal(stats.snapshot().failures.schema, 0);
  });
});
