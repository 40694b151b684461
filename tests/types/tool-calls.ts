// Typed usage of checkToolCalls and toolName. `tsc -p tests/types` must
// accept every line; the @ts-expect-error lines prove the types reject misuse.
import { checkOutput, checkToolCalls, type ToolCallFailure, type ToolCallsVerdict } from "structured-output-guard";

const response = { choices: [{ message: { content: null, tool_calls: [] }, finish_reason: "tool_calls" }] };
const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];

const verdict: ToolCallsVerdict = checkToolCalls(response, tools, { maxErrors: 3 });
for (const call of verdict.calls) {
  const id: string | null = call.id;
  const failure: ToolCallFailure | undefined = call.failure;
  const unchecked: boolean = call.degraded;
  void id;
  void failure;
  void unchecked;
}
const anyUnchecked: boolean = verdict.degraded;
void anyUnchecked;
// @ts-expect-error toolName does not apply: each call has its own tool
checkToolCalls(response, tools, { toolName: "f" });
// @ts-expect-error the tools are required
checkToolCalls(response);

checkOutput(response, { type: "object" }, { toolName: "f" });
// @ts-expect-error toolName is a string
checkOutput(response, { type: "object" }, { toolName: 1 });
