// Typed usage of guardedStream. Every line must type-check (see
// types.test.mjs); the expected errors prove the types also reject misuse.
import {
  compileSchema,
  guardedStream,
  type StreamAuditAttempt,
  type StreamGuardResult,
} from "structured-output-guard";

interface Rows {
  rows: { id: number; status: "open" | "closed" }[];
}

async function* strings(): AsyncGenerator<string> {
  yield '{"rows":[]}';
}

interface Event {
  kind: string;
  piece?: string;
}

async function main(): Promise<void> {
  const validator = compileSchema<Rows>({ type: "object" });
  const result: StreamGuardResult<Rows> = await guardedStream({ messages: [] }, (_request, { signal, attempt }) => {
    signal.throwIfAborted();
    void attempt;
    return strings();
  }, {
    schema: validator,
    onText: (text: string, { attempt }) => void [text, attempt],
    onAttempt: ({ bytes, stoppedEarly, usageReported }) => void [bytes, stoppedEarly, usageReported],
  });
  const rows: Rows["rows"] = result.value.rows;
  const first: StreamAuditAttempt | undefined = result.audit.attempts[0];
  const stopped: boolean | undefined = first?.stoppedEarly;
  void [rows, stopped];

  // A chunk shape of the caller's own, read by `read`.
  const events: Event[] = [{ kind: "text", piece: "{}" }];
  await guardedStream({}, () => events, {
    schema: { type: "object" },
    read: (chunk) => ({ text: chunk.piece, finishReason: chunk.kind === "end" ? "stop" : null }),
  });

  const lenient = await guardedStream({}, () => strings(), { schema: validator, strict: false });
  // @ts-expect-error the lenient path's value may be null
  const notNull: Rows = lenient.value;
  void notNull;

  // @ts-expect-error onText takes text
  await guardedStream({}, () => strings(), { schema: validator, onText: (n: number) => n });
  // @ts-expect-error toolName is guardedCall's only
  await guardedStream({}, () => strings(), { schema: validator, toolName: "answer" });
  // @ts-expect-error streamModel returns chunks to iterate
  await guardedStream({}, () => 42, { schema: validator });
}

void main;
