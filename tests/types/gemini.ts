// What a user writes with @google/genai, type-checked against the installed
// package with the SDK's own types. Every line must type-check; each
// expected error marks a mistake the types must keep rejecting.
import { GoogleGenAI, type GenerateContentResponse, type GenerateContentParameters } from "@google/genai";
import {
  appendGeminiFeedback,
  checkOutput,
  checkToolCalls,
  compileSchema,
  guardedCall,
  guardedStream,
  type ToolCallRun,
} from "structured-output-guard";

interface Recipe {
  title: string;
  minutes: number;
  steps: string[];
}

const ai = new GoogleGenAI({ apiKey: "test" });
const recipeSchema = {
  type: "object",
  required: ["title", "minutes", "steps"],
  properties: { title: { type: "string" }, minutes: { type: "integer", minimum: 1 }, steps: { type: "array", items: { type: "string" }, minItems: 1 } },
};
const recipe = compileSchema<Recipe>(recipeSchema);

export async function generate(prompt: string): Promise<void> {
  // A class with getters (`text`), taken as it comes.
  const response: GenerateContentResponse = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: prompt });
  const verdict = checkOutput(response, recipe);
  if (verdict.ok) {
    const steps: string[] = verdict.value.steps;
    void steps;
  }

  // The schema where Gemini takes it (config.responseJsonSchema), the
  // signal where it takes it (config.abortSignal).
  const { value, response: last } = await guardedCall(
    {
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: prompt }] }],
      config: { responseMimeType: "application/json", responseJsonSchema: recipeSchema },
    },
    (req, { signal }) => ai.models.generateContent({ ...req, config: { ...req.config, abortSignal: signal } }),
    { schema: recipe },
  );
  const minutes: number = value.minutes;
  const text: string | undefined = last.text;
  void [minutes, text];
  // @ts-expect-error the value is a Recipe
  const wrong: string = value.minutes;
  void wrong;

  const typed = await guardedCall<Recipe>(
    { model: "gemini-2.5-flash", contents: prompt, config: { responseMimeType: "application/json", responseJsonSchema: recipeSchema } },
    (req: GenerateContentParameters, { signal }) => ai.models.generateContent({ ...req, config: { ...req.config, abortSignal: signal } }),
    { schema: recipeSchema },
  );
  const title: string = typed.value.title;
  void title;
  // @ts-expect-error with `T` written out the request is not known: it can be passed on, not read
  await guardedCall<Recipe>({ model: "gemini-2.5-flash", contents: prompt }, (req) => ai.models.generateContent({ ...req, model: req.model }), { schema: recipeSchema });
  // @ts-expect-error contents is required by the SDK
  await guardedCall({ model: "gemini-2.5-flash", config: {} }, (req) => ai.models.generateContent(req), { schema: recipe });
  // @ts-expect-error a misspelled config member
  await guardedCall({ model: "gemini-2.5-flash", contents: prompt, config: { responseMimeTyp: "application/json" } }, (req) => ai.models.generateContent(req), { schema: recipe });
}

export async function stream(prompt: string): Promise<void> {
  const { value, usage } = await guardedStream(
    { model: "gemini-2.5-flash", contents: prompt, config: { responseMimeType: "application/json", responseJsonSchema: recipeSchema } },
    (req, { signal }) => ai.models.generateContentStream({ ...req, config: { ...req.config, abortSignal: signal } }),
    { schema: recipe, read: (chunk) => ({ text: chunk.text, finishReason: chunk.candidates?.[0]?.finishReason }) },
  );
  const steps: number = value.steps.length;
  const input: number | undefined = usage.tokens?.input;
  void [steps, input];
  // @ts-expect-error a chunk is a GenerateContentResponse, with no delta
  await guardedStream({ model: "gemini-2.5-flash", contents: prompt }, (req) => ai.models.generateContentStream(req), { schema: recipe, read: (chunk) => ({ text: chunk.delta }) });
}

export async function toolCalls(prompt: string): Promise<void> {
  const request = {
    model: "gemini-2.5-flash",
    contents: prompt,
    config: {
      tools: [{ functionDeclarations: [{ name: "set_timer", parametersJsonSchema: { type: "object", required: ["minutes"], properties: { minutes: { type: "integer" } } } }] }],
    },
  };
  const response = await ai.models.generateContent(request);
  const verdict = checkToolCalls(response, request);
  const ran: ToolCallRun[] = [];
  for (const call of verdict.calls) {
    if (call.ok) ran.push({ id: call.id, result: { started: true } });
    // @ts-expect-error only a refused call has a failure: narrow on ok first
    void call.failure;
  }
  if (!verdict.ok) {
    const next = appendGeminiFeedback(request, { response, toolCalls: verdict, tools: request, ran });
    await ai.models.generateContent(next);
  }
  // @ts-expect-error Gemini requests carry contents
  appendGeminiFeedback({ messages: [] }, "fix");
}
