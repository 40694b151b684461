// What a user writes with the OpenAI SDK (Chat Completions and Responses),
// type-checked against the installed package with the SDK's own types.
// Every line must type-check; each @ts-expect-error marks a mistake the
// types must keep rejecting (so a type loosened to `any` fails the check).
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import {
  StructuredOutputError,
  appendOpenAIChatFeedback,
  appendOpenAIResponsesFeedback,
  checkOutput,
  checkToolCalls,
  compileSchema,
  guardedCall,
  guardedStream,
  repairFeedback,
  type ToolCallRun,
  type Verdict,
} from "structured-output-guard";

interface Invoice {
  number: string;
  total: number;
  currency: "EUR" | "USD";
}

const openai = new OpenAI({ apiKey: "sk-test" });
const invoiceSchema = {
  type: "object",
  required: ["number", "total", "currency"],
  properties: {
    number: { type: "string", minLength: 1 },
    total: { type: "number", minimum: 0 },
    currency: { enum: ["EUR", "USD"] },
  },
  additionalProperties: false,
};
const invoice = compileSchema<Invoice>(invoiceSchema);

export async function chatCompletions(text: string, signal: AbortSignal): Promise<void> {
  // checkOutput takes the SDK's ChatCompletion as it comes.
  const completion: ChatCompletion = await openai.chat.completions.create({ model: "gpt-4.1-mini", messages: [{ role: "user", content: text }] });
  const verdict = checkOutput(completion, invoice);
  if (verdict.ok) {
    const total: number = verdict.value.total;
    void total;
  } else {
    const failure: "truncated" | "empty" | "unparseable" | "not_object" | "schema" | "rule" = verdict.failure;
    void failure;
    // @ts-expect-error a failed verdict has no value
    void verdict.value;
  }
  // @ts-expect-error a number is no schema
  checkOutput(completion, 42);
  // @ts-expect-error a number is no model output
  checkOutput(42, invoice);

  // The request inline, the signal passed as the SDK takes it: the request
  // keeps its literal types, so the SDK picks its non-streaming overload.
  const { value, response } = await guardedCall(
    {
      model: "gpt-4.1-mini",
      messages: [
        { role: "system", content: "Extract the invoice." },
        { role: "user", content: text },
      ],
      response_format: { type: "json_schema", json_schema: { name: "invoice", strict: true, schema: invoiceSchema } },
    },
    (req, { signal }) => openai.chat.completions.create(req, { signal }),
    { schema: invoice, signal },
  );
  const currency: "EUR" | "USD" = value.currency;
  const model: string = response.model;
  const choice: ChatCompletion.Choice | undefined = response.choices[0];
  void [currency, model, choice];
  // @ts-expect-error the value is an Invoice
  const wrongTotal: string = value.total;
  void wrongTotal;

  // The value's type as a type argument.
  const typed = await guardedCall<Invoice>(
    { model: "gpt-4.1-mini", messages: [{ role: "user", content: text }] },
    (req, { signal }) => openai.chat.completions.create(req, { signal }),
    { schema: invoiceSchema, retry: "repair" },
  );
  const number: string = typed.value.number;
  void number;
  // @ts-expect-error an Invoice has no amount
  void typed.value.amount;

  // Without a type, the value is unknown until checked.
  const plain = await guardedCall(
    { model: "gpt-4.1-mini", messages: [{ role: "user", content: text }] },
    (req, { signal }) => openai.chat.completions.create(req, { signal }),
    { schema: invoiceSchema },
  );
  // @ts-expect-error the value is unknown
  void plain.value.total;

  // A request typed by the SDK, a custom appender and reader.
  const request: ChatCompletionCreateParamsNonStreaming = { model: "gpt-4.1-mini", messages: [{ role: "user", content: text }] };
  await guardedCall(request, (req, { signal }) => openai.chat.completions.create(req, { signal }), {
    schema: invoice,
    retry: "repair",
    appendFeedback: (req, feedback) => ({ ...req, messages: [...req.messages, { role: "user", content: feedback }] }),
    read: (r) => ({ content: r.choices[0]?.message.content, finishReason: r.choices[0]?.finish_reason }),
  });
  await guardedCall(request, (req) => openai.chat.completions.create(req), { schema: invoice, retry: "repair", appendFeedback: appendOpenAIChatFeedback });

  // @ts-expect-error a misspelled option
  await guardedCall(request, (req) => openai.chat.completions.create(req), { schema: invoice, retires: 2 });
  // @ts-expect-error a misspelled request member reaches the SDK's types
  await guardedCall({ model: "gpt-4.1-mini", mesages: [] }, (req) => openai.chat.completions.create(req), { schema: invoice });
  // @ts-expect-error a role the SDK does not know
  await guardedCall({ model: "gpt-4.1-mini", messages: [{ role: "human", content: text }] }, (req) => openai.chat.completions.create(req), { schema: invoice });
  // @ts-expect-error read takes the response callModel returns
  await guardedCall(request, (req) => openai.chat.completions.create(req), { schema: invoice, read: (r: string) => ({ content: r }) });
  // @ts-expect-error an appender returns the request to send
  await guardedCall(request, (req) => openai.chat.completions.create(req), { schema: invoice, retry: "repair", appendFeedback: (req, feedback: string) => feedback });

  try {
    await guardedCall(request, (req, { signal }) => openai.chat.completions.create(req, { signal }), { schema: invoice });
  } catch (error) {
    if (error instanceof StructuredOutputError) {
      const failed: Verdict[] = error.verdicts;
      void failed;
    }
  }
}

export async function chatStream(text: string): Promise<void> {
  // stream: true inline: the SDK's streaming overload, chunks typed.
  const { value, audit } = await guardedStream(
    {
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: text }],
      stream: true,
      stream_options: { include_usage: true },
      response_format: { type: "json_schema", json_schema: { name: "invoice", schema: invoiceSchema } },
    },
    (req, { signal }) => openai.chat.completions.create(req, { signal }),
    {
      schema: invoice,
      onText: (piece, { attempt }) => void [piece.length, attempt],
      read: (chunk) => ({ text: chunk.choices[0]?.delta.content, finishReason: chunk.choices[0]?.finish_reason }),
    },
  );
  const total: number = value.total;
  const stopped: boolean | undefined = audit.attempts[0]?.stoppedEarly;
  void [total, stopped];
  // @ts-expect-error a chunk is a ChatCompletionChunk, with no output_text
  await guardedStream({ model: "gpt-4.1-mini", messages: [], stream: true }, (req, { signal }) => openai.chat.completions.create(req, { signal }), { schema: invoice, read: (chunk) => ({ text: chunk.output_text }) });

  // With `T` written out, OpenAI's overloaded `create` needs the request's type.
  const typed = await guardedStream<Invoice>(
    { model: "gpt-4.1-mini", messages: [{ role: "user", content: text }], stream: true },
    (req: OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal }) => openai.chat.completions.create(req, { signal }),
    { schema: invoiceSchema },
  );
  const currency: "EUR" | "USD" = typed.value.currency;
  void currency;
  // @ts-expect-error without the request's type, `create` returns a ChatCompletion, not a stream
  await guardedStream<Invoice>({ model: "gpt-4.1-mini", messages: [], stream: true }, (req, { signal }) => openai.chat.completions.create(req, { signal }), { schema: invoiceSchema });
  const chunks: ChatCompletionChunk[] = [];
  void chunks;
}

export async function responses(text: string): Promise<void> {
  const response: Response = await openai.responses.create({ model: "gpt-4.1-mini", input: text });
  const verdict = checkOutput(response, { name: "invoice", schema: invoiceSchema, strict: true });
  void verdict.ok;

  // The schema where the Responses API takes it: text.format.
  const result = await guardedCall(
    {
      model: "gpt-4.1-mini",
      input: [{ role: "user", content: text }],
      text: { format: { type: "json_schema", name: "invoice", strict: true, schema: invoiceSchema } },
    },
    (req, { signal }) => openai.responses.create(req, { signal }),
    { schema: invoice },
  );
  const outputText: string = result.response.output_text;
  const total: number = result.value.total;
  void [outputText, total];
  // @ts-expect-error a Response has no choices
  void result.response.choices;

  const streamed = await guardedStream(
    { model: "gpt-4.1-mini", input: text, stream: true, text: { format: { type: "json_schema", name: "invoice", schema: invoiceSchema } } },
    (req, { signal }) => openai.responses.create(req, { signal }),
    { schema: invoice, usage: (event: ResponseStreamEvent) => (event.type === "response.completed" ? event.response.usage : null) },
  );
  const number: string = streamed.value.number;
  void number;

  // @ts-expect-error the Responses API's format needs a name
  await guardedCall({ model: "gpt-4.1-mini", input: text, text: { format: { type: "json_schema", schema: invoiceSchema } } }, (req) => openai.responses.create(req), { schema: invoice });
}

export async function toolCalls(text: string): Promise<void> {
  const request: ChatCompletionCreateParamsNonStreaming = {
    model: "gpt-4.1-mini",
    messages: [{ role: "user", content: text }],
    tools: [
      {
        type: "function",
        function: { name: "send_invoice", parameters: { type: "object", required: ["to"], properties: { to: { type: "string", format: "email" } } } },
      },
    ],
  };
  const response = await openai.chat.completions.create(request);
  const verdict = checkToolCalls(response, request, { maxErrors: 3 });
  const ran: ToolCallRun[] = [];
  for (const call of verdict.calls) {
    if (call.ok) ran.push({ id: call.id, result: await send(call.name, call.value) });
    else console.log(call.id, call.failure, call.errors);
    // @ts-expect-error only an accepted call has a value to run
    void call.value;
  }
  if (!verdict.ok) {
    const feedback: string = repairFeedback(verdict, request);
    const next = appendOpenAIChatFeedback(request, { response, toolCalls: verdict, tools: request, ran });
    await openai.chat.completions.create(next);
    void feedback;
  } else {
    const first: unknown = verdict.calls[0]?.value;
    void first;
  }
  // @ts-expect-error checkToolCalls needs the declarations
  checkToolCalls(response);

  const responsesRequest = {
    model: "gpt-4.1-mini",
    input: text,
    tools: [{ type: "function" as const, name: "send_invoice", strict: true, parameters: { type: "object", properties: {} } }],
  };
  const answered = await openai.responses.create(responsesRequest);
  const checked = checkToolCalls(answered, responsesRequest);
  if (!checked.ok) appendOpenAIResponsesFeedback(responsesRequest, { response: answered, toolCalls: checked, tools: responsesRequest });
}

declare function send(name: string, args: unknown): Promise<string>;
