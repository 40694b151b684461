// What a user writes with the Vercel AI SDK (ai with @ai-sdk/openai),
// type-checked against the installed package with the SDK's own types.
// Every line must type-check; each expected error marks a mistake the
// types must keep rejecting.
import { openai } from "@ai-sdk/openai";
import { Output, generateObject, generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import { checkOutput, checkToolCalls, compileSchema, guardedCall, guardedStream } from "structured-output-guard";
import { guardMiddleware } from "structured-output-guard/ai-sdk";

interface Contact {
  name: string;
  email: string;
}

const model = openai("gpt-4.1-mini");
const contactSchema = {
  type: "object",
  required: ["name", "email"],
  properties: { name: { type: "string" }, email: { type: "string", format: "email" } },
  additionalProperties: false,
};
const contact = compileSchema<Contact>(contactSchema);

export async function results(prompt: string): Promise<void> {
  // The SDK's results (getters included) as checkOutput takes them.
  const result = await generateText({ model, prompt });
  const verdict = checkOutput(result, contact);
  if (verdict.ok) {
    const email: string = verdict.value.email;
    void email;
  }
  const object = await generateObject({ model, schema: jsonSchema<Contact>(contactSchema), prompt });
  checkOutput(object, contact);
  const steps = result.steps;
  checkOutput(steps[0], contact);
  // @ts-expect-error an email is a string
  const wrong: number = verdict.ok ? verdict.value.email : 0;
  void wrong;

  // A Validator is a Standard Schema: the SDK infers the output's type.
  const { output } = await generateText({ model, output: Output.object({ schema: contact }), prompt });
  const name: string = output.name;
  void name;
  const generated = await generateObject({ model, schema: contact, prompt });
  const email: string = generated.object.email;
  void email;
  // @ts-expect-error a Contact has no phone
  void output.phone;
}

export async function guarded(prompt: string): Promise<void> {
  // The AI SDK's request as guardedCall's request: model object and all.
  const { value, response } = await guardedCall(
    { model, prompt, system: "Answer with JSON only." },
    (req, { signal }) => generateText({ ...req, abortSignal: signal }),
    { schema: contact },
  );
  const email: string = value.email;
  const text: string = response.text;
  void [email, text];

  const streamed = await guardedStream(
    { model, prompt },
    (req, { signal }) => streamText({ ...req, abortSignal: signal }).fullStream,
    { schema: contact, read: (part) => ({ text: part.type === "text-delta" ? part.text : null }) },
  );
  const name: string = streamed.value.name;
  void name;
  // @ts-expect-error a stream part is one of the SDK's parts, with no choices
  await guardedStream({ model, prompt }, (req) => streamText(req).fullStream, { schema: contact, read: (part) => ({ text: part.choices }) });
  // @ts-expect-error a misspelled option
  await guardedCall({ model, prompt }, (req) => generateText(req), { schema: contact, budget: { total: 2 } });

  // Each doGenerate as a guarded call.
  const wrapped = wrapLanguageModel({ model, middleware: guardMiddleware({ schema: contact, retry: "repair" }) });
  const { text: checkedText } = await generateText({ model: wrapped, prompt });
  void checkedText;
  // @ts-expect-error the middleware needs a schema
  guardMiddleware({ retry: "repair" });
}

export async function toolCalls(prompt: string): Promise<void> {
  const tools = {
    send_mail: tool({
      description: "Send a mail.",
      inputSchema: jsonSchema<{ to: string }>({ type: "object", required: ["to"], properties: { to: { type: "string", format: "email" } } }),
    }),
  };
  const result = await generateText({ model, prompt, tools });
  const verdict = checkToolCalls(result, tools);
  for (const call of verdict.calls) {
    if (call.ok) await send(call.value);
    else console.log(call.failure, call.errors);
  }
  // @ts-expect-error a number is no set of declarations
  checkToolCalls(result, 42);
}

declare function send(args: unknown): Promise<void>;
