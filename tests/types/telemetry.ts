// Typed usage of the telemetry option with @opentelemetry/api's own types:
// its Tracer and Meter are what the option takes. Every line must
// type-check (see types.test.mjs); the expected errors prove the types
// also reject misuse.
import { metrics, trace } from "@opentelemetry/api";
import { guardedCall, guardedStream, type GuardTelemetry } from "structured-output-guard";

const tracer = trace.getTracer("agent");
const meter = metrics.getMeter("agent");
const schema = { type: "object" };

async function main(): Promise<void> {
  await guardedCall({ model: "gpt-4o-mini", messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: { tracer, meter } });
  await guardedCall({ model: "gpt-4o-mini", messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: { tracer } });
  await guardedCall({ model: "gpt-4o-mini", messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: { meter } });
  await guardedCall({ model: "gpt-4o-mini", messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: true });
  await guardedStream({ model: "gpt-4o-mini", messages: [] }, async function* () {
    yield "{}";
  }, { schema, telemetry: { tracer, meter } });
  const both: GuardTelemetry = { tracer, meter };
  void both;

  // @ts-expect-error telemetry is true or { tracer, meter }, never false
  await guardedCall({ messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: false });
  // @ts-expect-error at least a tracer or a meter
  await guardedCall({ messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: {} });
  // @ts-expect-error a tracer is an OpenTelemetry Tracer
  await guardedCall({ messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: { tracer: { name: "agent" } } });
  // @ts-expect-error a meter is an OpenTelemetry Meter
  await guardedCall({ messages: [] }, async () => ({ content: "{}" }), { schema, telemetry: { meter: tracer } });
}

void main;
