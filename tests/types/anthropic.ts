// What a user writes with the Anthropic SDK (text output, a forced tool,
// streams, tool calls), type-checked against the installed package with the
// SDK's own types. Every line must type-check; each expected error marks a
// mistake the types must keep rejecting.
import Anthropic from "@anthropic-ai/sdk";
import {
  appendAnthropicFeedback,
  checkOutput,
  checkToolCalls,
  compileSchema,
  guardedCall,
  guardedStream,
  type ToolCallRun,
} from "structured-output-guard";

interface City {
  name: string;
  country: string;
  population: number;
}

const anthropic = new Anthropic({ apiKey: "sk-ant-test" });
const citySchema = {
  type: "object",
  required: ["name", "country", "population"],
  properties: { name: { type: "string" }, country: { type: "string", minLength: 2 }, population: { type: "integer", minimum: 0 } },
};
const city = compileSchema<City>(citySchema);

export async function text(prompt: string): Promise<void> {
  const message: Anthropic.Message = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: prompt }] });
  const verdict = checkOutput(message, city);
  if (verdict.ok) {
    const population: number = verdict.value.population;
    void population;
  }
  // @ts-expect-error a failed verdict has no value
  void (!verdict.ok && verdict.value);

  const { value, response } = await guardedCall(
    { model: "claude-sonnet-4-5", max_tokens: 1024, system: "Answer with JSON only.", messages: [{ role: "user", content: prompt }] },
    (req, { signal }) => anthropic.messages.create(req, { signal }),
    { schema: city, retry: "repair" },
  );
  const name: string = value.name;
  const stop: Anthropic.StopReason | null = response.stop_reason;
  void [name, stop];
  // @ts-expect-error a Message has no choices
  void response.choices;

  const typed = await guardedCall<City>(
    { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: prompt }] },
    (req, { signal }) => anthropic.messages.create(req, { signal }),
    { schema: citySchema },
  );
  const country: string = typed.value.country;
  void country;
  // @ts-expect-error max_tokens is required by the SDK
  await guardedCall({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: prompt }] }, (req) => anthropic.messages.create(req), { schema: city });
  // @ts-expect-error a lenient call's value may be null
  const sure: City = (await guardedCall({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [] }, (req) => anthropic.messages.create(req), { schema: city, strict: false })).value;
  void sure;
}

export async function forcedTool(prompt: string): Promise<void> {
  // The output as a forced tool call: the tool's input schema is the output schema.
  const { value, response } = await guardedCall(
    {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: prompt }],
      tools: [{ name: "record_city", description: "Record the city.", input_schema: { type: "object", required: ["name", "country"], properties: citySchema.properties } }],
      tool_choice: { type: "tool", name: "record_city" },
    },
    (req, { signal }) => anthropic.messages.create(req, { signal }),
    { schema: city, toolName: "record_city" },
  );
  const population: number = value.population;
  const blocks: Anthropic.ContentBlock[] = response.content;
  void [population, blocks];
  // @ts-expect-error toolName is a string
  await guardedCall({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [] }, (req) => anthropic.messages.create(req), { schema: city, toolName: true });
  // @ts-expect-error tool_choice's type is "auto", "any", "tool" or "none"
  await guardedCall({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [], tool_choice: { type: "forced", name: "record_city" } }, (req) => anthropic.messages.create(req), { schema: city });
}

export async function streams(prompt: string): Promise<void> {
  // stream: true inline: the SDK's streaming overload, events typed.
  const streamed = await guardedStream(
    { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: prompt }], stream: true },
    (req, { signal }) => anthropic.messages.create(req, { signal }),
    { schema: city, read: (event) => ({ text: event.type === "content_block_delta" && event.delta.type === "text_delta" ? event.delta.text : null }) },
  );
  const name: string = streamed.value.name;
  void name;

  // The SDK's MessageStream helper.
  const helper = await guardedStream(
    { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: prompt }] },
    (req, { signal }) => anthropic.messages.stream(req, { signal }),
    { schema: city, onText: (piece) => void piece },
  );
  const bytes: number | undefined = helper.audit.attempts[0]?.bytes;
  void bytes;

  // With `T` written out, a method without overloads needs nothing more.
  const typed = await guardedStream<City>(
    { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: prompt }] },
    (req, { signal }) => anthropic.messages.stream(req, { signal }),
    { schema: citySchema },
  );
  const country: string = typed.value.country;
  void country;
  // @ts-expect-error onText receives text
  await guardedStream({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [] }, (req) => anthropic.messages.stream(req), { schema: city, onText: (piece: number) => piece });
}

export async function toolCalls(prompt: string): Promise<void> {
  const request = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user" as const, content: prompt }],
    tools: [{ name: "book_table", input_schema: { type: "object" as const, required: ["guests"], properties: { guests: { type: "integer", minimum: 1 } } } }],
  };
  const response = await anthropic.messages.create(request);
  const verdict = checkToolCalls(response, request);
  const ran: ToolCallRun[] = [];
  for (const call of verdict.calls) {
    if (call.ok) ran.push({ id: call.id, result: await book(call.value) });
  }
  if (!verdict.ok) {
    const next = appendAnthropicFeedback(request, { response, toolCalls: verdict, tools: request, ran });
    await anthropic.messages.create(next);
    // @ts-expect-error a refused verdict names its first failure, never a value
    void verdict.value;
  }
  // @ts-expect-error toolName does not apply to checkToolCalls: each call has its own tool
  checkToolCalls(response, request, { toolName: "book_table" });
  // @ts-expect-error an Anthropic request carries messages
  appendAnthropicFeedback({ contents: [] }, "fix");
}

declare function book(args: unknown): Promise<{ confirmed: boolean }>;
