// What a user writes with the AWS SDK's Bedrock Runtime client (Converse,
// a forced tool, ConverseStream's event stream, tool calls), type-checked
// against the installed package with the SDK's own types. Every line must
// type-check; each expected error marks a mistake the types must keep
// rejecting.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseCommandInput,
  type ConverseCommandOutput,
  type ConverseStreamCommandInput,
  type ConverseStreamOutput,
  type StopReason,
} from "@aws-sdk/client-bedrock-runtime";
import {
  checkOutput,
  checkToolCalls,
  compileSchema,
  createStreamCheck,
  createToolCallStreamCheck,
  guardedCall,
  guardedStream,
  normalizeUsage,
} from "structured-output-guard";

interface City {
  name: string;
  population: number;
}

const bedrock = new BedrockRuntimeClient({ region: "us-east-1" });
const citySchema = {
  type: "object",
  required: ["name", "population"],
  properties: { name: { type: "string" }, population: { type: "integer", minimum: 0 } },
};
const city = compileSchema<City>(citySchema);
const modelId = "anthropic.claude-sonnet-4-5-v1:0";

export async function converse(prompt: string): Promise<void> {
  const response: ConverseCommandOutput = await bedrock.send(new ConverseCommand({ modelId, messages: [{ role: "user", content: [{ text: prompt }] }] }));
  const verdict = checkOutput(response, city);
  if (verdict.ok) {
    const population: number = verdict.value.population;
    void population;
  }
  const input: number | undefined = normalizeUsage(response).tokens?.input;
  void input;

  const request: ConverseCommandInput = {
    modelId,
    messages: [{ role: "user", content: [{ text: prompt }] }],
    toolConfig: { tools: [{ toolSpec: { name: "record_city", inputSchema: { json: citySchema } } }], toolChoice: { tool: { name: "record_city" } } },
  };
  const { value, response: last } = await guardedCall(request, (req, { signal }) => bedrock.send(new ConverseCommand(req), { abortSignal: signal }), {
    schema: city,
    toolName: "record_city",
  });
  const name: string = value.name;
  const stop: StopReason | undefined = last.stopReason;
  void [name, stop, checkToolCalls(last, request).ok];
  // @ts-expect-error a Converse output has no choices
  void last.choices;
}

export async function converseStream(request: ConverseStreamCommandInput, controller: AbortController): Promise<void> {
  // The command resolves with `{ $metadata, stream }`: the events are its stream.
  const { value, usage } = await guardedStream(
    request,
    async (req, { signal }) => (await bedrock.send(new ConverseStreamCommand(req), { abortSignal: signal })).stream ?? [],
    { schema: city, toolName: "record_city", onToolCall: (event) => void event.status },
  );
  const population: number = value.population;
  void [population, usage.tokens];

  const { stream } = await bedrock.send(new ConverseStreamCommand(request), { abortSignal: controller.signal });
  const check = createStreamCheck(city, { toolName: "record_city" });
  const calls = createToolCallStreamCheck(request);
  for await (const event of stream ?? []) {
    const e: ConverseStreamOutput = event;
    for (const call of calls.push(e)) void call.name;
    if (check.push(e).status === "rejected") {
      controller.abort();
      break;
    }
  }
  const verdict = check.end();
  void [verdict.ok, calls.end().ok];
  // @ts-expect-error a stream check without toolName takes text, not events
  createStreamCheck(city).push({ messageStop: { stopReason: "end_turn" } } as ConverseStreamOutput);
}
