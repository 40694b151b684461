// Typed usage of checkToolCalls and toolName. Every line must type-check;
// each expected error marks a mistake the types must keep rejecting.
import {
  checkOutput,
  checkToolCalls,
  repairFeedback,
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
