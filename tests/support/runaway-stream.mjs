// One guarded stream whose model stream misbehaves, run in a process of
// its own (tests/js/streams/guarded-stream.test.mjs spawns it): a stream that never
// yields to the event loop also starves the test runner's own timers, so
// only a process the test can kill turns a hang into a failure. Prints one
// line of JSON: how the call settled and after how many milliseconds.
//   node tests/support/runaway-stream.mjs <scenario>     (also: bun)
import * as guard from "../../pkg/node.mjs";

const schema = { type: "object", properties: { a: { type: "string" } } };

/** Anthropic's first stream event, which reports the input tokens. */
const messageStart = {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "claude-test", content: [], stop_reason: null, usage: { input_tokens: 1200, output_tokens: 1 } },
};
const textDelta = (text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });

/**
 * Each scenario: the model stream, and the options beside the schema. None
 * of the streams ever ends, and none yields to the event loop on its own.
 */
const scenarios = {
  // The reproduction, exactly.
  "never yields, deadline": () => [
    async function* () {
      yield '{"a":"';
      for (;;) yield "x";
    },
    { deadlineMs: 200 },
  ],
  "never yields, caller's abort": () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("the caller gave up")), 200);
    return [
      async function* () {
        yield '{"a":"';
        for (;;) yield "x";
      },
      { signal: controller.signal },
    ];
  },
  "never yields, usage reported first": () => [
    async function* () {
      yield messageStart;
      yield { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } };
      yield textDelta('{"a":"');
      for (;;) yield textDelta("x");
    },
    { deadlineMs: 200 },
  ],
  "a plain iterable without end": () => [
    () => ({
      *[Symbol.iterator]() {
        yield '{"a":"';
        for (;;) yield "x";
      },
    }),
    { deadlineMs: 200 },
  ],
  "nothing but values that are not events": () => [
    async function* () {
      for (let i = 0; ; i++) yield i % 2 ? 42 : null;
    },
    { deadlineMs: 200 },
  ],
  "empty text, forever": () => [
    async function* () {
      for (;;) yield "";
    },
    { deadlineMs: 200 },
  ],
};

const name = process.argv[2];
const [streamModel, options] = scenarios[name]();
const started = performance.now();
let outcome;
try {
  const result = await guard.guardedStream({ model: "m", messages: [] }, streamModel, { schema, ...options });
  outcome = { settled: "resolved", value: result.value };
} catch (error) {
  outcome = {
    settled: "rejected",
    name: error?.name,
    message: error?.message,
    failure: error?.failure,
    stoppedBy: error?.stoppedBy,
    usage: error?.usage,
  };
}
outcome.ms = Math.round(performance.now() - started);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
// Nothing may be left running: the process ends on its own.
