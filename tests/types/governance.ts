// Typed usage of rules, repair, budgets, deadlines, audit and stats.
// Every line must type-check (see types.test.mjs); the expected errors
// prove the types also reject misuse.
import {
  StructuredOutputError,
  appendAnthropicFeedback,
  appendGeminiFeedback,
  appendOpenAIChatFeedback,
  checkOutput,
  compileSchema,
  createGuardStats,
  guardedCall,
  guardedStream,
  repairFeedback,
  type Audit,
  type GuardStatsSnapshot,
  type Rule,
  type StopReason,
} from "structured-output-guard";

interface Review {
  verdict: "pass" | "fail";
  confidence: number;
}

const schema = { type: "object", required: ["verdict", "confidence"] };
const rules: Rule[] = [
  {
    name: "fail-needs-low-confidence",
    if: { properties: { verdict: { const: "fail" } } },
    then: { properties: { confidence: { maximum: 0.5 } } },
    message: "when the verdict is fail, confidence must be at most 0.5",
  },
];

export async function governance(): Promise<void> {
  const verdict = checkOutput('{"verdict":"fail","confidence":0.9}', schema, { rules });
  if (!verdict.ok) {
    const text: string = repairFeedback(verdict, schema);
    const ruleName: string | undefined = verdict.errors[0]?.rule;
    void text;
    void ruleName;
    // @ts-expect-error an accepted verdict has nothing to repair
    repairFeedback({ ok: true, value: 1, rescue: "none", schemaHash: null, degraded: false, finishReason: null }, schema);
  }

  const stats = createGuardStats();
  const request = { model: "gpt-4.1-mini", messages: [{ role: "user", content: "Review." }] };
  const result = await guardedCall<Review>(
    request,
    async (r, { signal, attempt }) => {
      void signal.aborted;
      void attempt;
      return { content: JSON.stringify(r) };
    },
    {
      schema,
      rules,
      retry: "repair",
      appendFeedback: appendOpenAIChatFeedback,
      budgets: { schema: 2, truncated: 0, total: 3 },
      deadlineMs: 30_000,
      stats,
    },
  );
  const confidence: number = result.value.confidence;
  const audit: Audit = result.audit;
  const stop: StopReason = audit.stoppedBy;
  void confidence;
  void stop;

  try {
    await guardedCall(request, () => "{}", { schema, budgets: { total: 1 } });
  } catch (error) {
    if (error instanceof StructuredOutputError) {
      const failure: string = error.failure;
      const attempts = error.audit.attempts.map((a) => a.failure);
      void failure;
      void attempts;
    }
  }

  const snap: GuardStatsSnapshot = stats.snapshot();
  const failedTokens: number = snap.failedAttemptTokens.total;
  const schemaFailures: number = snap.failures.schema;
  void failedTokens;
  void schemaFailures;

  const anthropic = appendAnthropicFeedback({ model: "claude-sonnet-4-5", messages: [] as unknown[] }, "fix");
  const gemini = appendGeminiFeedback({ contents: [] as unknown[] }, "fix");
  void anthropic;
  void gemini;

  // @ts-expect-error retry is "resample" or "repair"
  await guardedCall(request, () => "{}", { schema, retry: "again" });
  // @ts-expect-error budgets are numbers
  await guardedCall(request, () => "{}", { schema, budgets: { total: "2" } });
  // @ts-expect-error a rule needs a message
  checkOutput("{}", schema, { rules: [{ name: "x", then: {} }] });
  // @ts-expect-error Gemini requests carry contents
  appendGeminiFeedback({ messages: [] }, "fix");
}

// Dialects, the request's own schema, and degraded calls.
export async function dialectsAndRequestSchemas(): Promise<void> {
  const gemini = compileSchema({ type: "OBJECT", properties: { n: { type: "INTEGER" } } }, { dialect: "gemini" });
  const dialect: "json-schema" | "gemini" = gemini.dialect;
  const first: string | undefined = gemini.unenforced[0]?.keyword;
  void dialect;
  void first;
  const request = { model: "gpt-4.1-mini", messages: [], response_format: { type: "json_schema", json_schema: { name: "n", schema: { type: "object" }, strict: false } } };
  const result = await guardedCall<{ n: number }>(request, async () => ({ choices: [] }));
  const degraded: boolean = result.degraded && result.audit.degraded;
  const strict: boolean | undefined = result.verdicts[0]?.providerStrict;
  void degraded;
  void strict;
  const streamed = await guardedStream(request, async function* () {
    yield "{}";
  });
  const count: number = createGuardStats().snapshot().degraded + (streamed.degraded ? 1 : 0);
  void count;
}
