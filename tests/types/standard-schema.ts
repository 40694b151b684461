// A Validator<T> is a Standard Schema whose type flows into the frameworks:
// the AI SDK infers its output as T. Every line must type-check (see
// types.test.mjs); the expected errors prove the types reject misuse.
import { generateText, Output } from "ai";
import { compileSchema } from "structured-output-guard";

interface Contact {
  name: string;
  email: string;
}

declare const model: Parameters<typeof generateText>[0]["model"];
const validator = compileSchema<Contact>({ type: "object", required: ["name", "email"] });

export async function run(): Promise<string> {
  const result = await generateText({ model, output: Output.object({ schema: validator }), prompt: "extract" });
  const email: string = result.output.email;
  // @ts-expect-error the output is a Contact
  const age: number = result.output.age;
  void age;
  const checked = validator["~standard"].validate({});
  if (checked.issues === undefined) {
    const name: string = checked.value.name;
    void name;
  }
  validator["~standard"].jsonSchema.input({ target: "draft-07" });
  // @ts-expect-error a target is required
  validator["~standard"].jsonSchema.input({});
  return email;
}
