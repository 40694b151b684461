// Typed usage of checkToolCalls, toolName and the schema cache. Every line must type-check;
// each expected error marks a mistake the types must keep rejecting.
import {
  checkOutput,
  checkToolCalls,
  createGuardStats,
  repairFeedback,
  setSchemaCacheCapacity,
  type AcceptedToolCall,
  type RefusedToolCall,
  type ToolCallFailure,
  type ToolCallsVerdict,
} from "structured-output-guard";

const response = { choices: [{ message: { content: null, tool_calls: [] }, finish_reason: "tool_calls" }] };
const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];

const verdict: ToolCallsVerdict = checkToolCalls(response, tools, { maxErrors: 3 });
for (const call of verdict.calls) {
  const id: string | null = call.id;
  void id;
  const unchecked: boolean = call.degraded;
  void unchecked;
  // A call narrows on `ok`: an accepted one has its value, a refused one its failure.
  if (call.ok) {
    const accepted: AcceptedToolCall = call;
    const args: unknown = call.value;
    const none: null = call.errorHash;
    void [accepted, args, none];
  } else {
    const refused: RefusedToolCall = call;
    const failure: ToolCallFailure = call.failure;
    const hash: string = call.errorHash;
    void [refused, failure, hash];
  }
  // @ts-expect-error only a refused call has a failure
  void call.failure;
  // @ts-expect-error only an accepted call has a value
  void call.value;
}
const anyUnchecked: boolean = verdict.degraded;
void anyUnchecked;
if (verdict.ok) {
  // Every call of an accepted verdict passed.
  const values: unknown[] = verdict.calls.map((call) => call.value);
  void values;
} else {
  const first: ToolCallFailure = verdict.failure;
  const feedback: string = repairFeedback(verdict, tools);
  void [first, feedback];
}
// @ts-expect-error a verdict whose every call passed has nothing to repair: narrow on ok first
repairFeedback(verdict, tools);
// @ts-expect-error only a refused verdict names a failure
void verdict.failure;
// @ts-expect-error toolName does not apply: each call has its own tool
checkToolCalls(response, tools, { toolName: "f" });
// @ts-expect-error the tools are required
checkToolCalls(response);

checkOutput(response, { type: "object" }, { toolName: "f" });
// @ts-expect-error toolName is a string
checkOutput(response, { type: "object" }, { toolName: 1 });

// Tool calls checked as they stream.
import { createToolCallStreamCheck, guardedStream, type ToolCallEvent } from "structured-output-guard";

const streaming = createToolCallStreamCheck(tools, { maxErrors: 2 });
for (const event of streaming.push({ type: "tool-input-start", id: "c1", toolName: "f" })) {
  const where: number = event.index;
  const degraded: boolean = event.degraded;
  void [where, degraded];
  if (event.status === "accepted") {
    const args: unknown = event.value;
    void args;
    // @ts-expect-error an accepted call has no failure
    void event.failure;
  } else {
    const failure: ToolCallFailure = event.failure;
    const at: number | undefined = event.atByte;
    void [failure, at];
  }
}
const streamed: ToolCallsVerdict = streaming.end();
void streamed;
// @ts-expect-error a stream check of tool calls takes no toolName
createToolCallStreamCheck(tools, { toolName: "f" });

async function onEachCall() {
  const seen: ToolCallEvent[] = [];
  await guardedStream({ tools }, () => [], { schema: { type: "object" }, onToolCall: (event) => seen.push(event) });
  // @ts-expect-error onToolCall takes the event
  await guardedStream({ tools }, () => [], { schema: { type: "object" }, onToolCall: (n: number) => n });
}
void onEachCall;
// The schema cache of an agent with thousands of tools: bounded by memory, or by a count.
setSchemaCacheCapacity({ maxBytes: 64 * 1024 * 1024 });
setSchemaCacheCapacity(4096);

// A stats collector counts the verdicts' calls.
const toolStats = createGuardStats();
checkToolCalls(response, tools, { stats: toolStats, maxErrors: 3 });
const degradedCalls: number = toolStats.snapshot().toolCalls.degraded;
void degradedCalls;
// @ts-expect-error stats is a collector from createGuardStats()
checkToolCalls(response, tools, { stats: {} });
// @ts-expect-error the memory bound is maxBytes
setSchemaCacheCapacity({ bytes: 1024 });
