// A Validator as an OpenAI Agents SDK outputType (@openai/agents-core, the
// SDK's runtime), driven by a fake Model: the SDK sends the model our JSON
// Schema and accepts or refuses the final output with our check.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ModelBehaviorError, Usage, run, setTracingDisabled } from "@openai/agents-core";
import * as guard from "../../../pkg/node.mjs";

setTracingDisabled(true);

const SCHEMA = { type: "object", required: ["email"], additionalProperties: false, properties: { email: { type: "string", format: "email" } } };

/** A Model that answers every request with `text`, recording the requests. */
function fakeModel(text) {
  const requests = [];
  return {
    requests,
    async getResponse(request) {
      requests.push(request);
      return {
        output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }],
        usage: new Usage({ requests: 1, inputTokens: 5, outputTokens: 3, totalTokens: 8 }),
        responseId: `resp_${requests.length}`,
      };
    },
    async *getStreamedResponse() {
      throw new Error("this fake model does not stream");
    },
  };
}

describe("a Validator as the Agents SDK's outputType", () => {
  const validator = guard.compileSchema(SCHEMA);

  test("a conforming final output is returned, and the model is sent our schema", async () => {
    const model = fakeModel('{"email":"ada@example.com"}');
    const result = await run(new Agent({ name: "extractor", instructions: "extract", outputType: validator, model }), "hi");
    assert.deepEqual(result.finalOutput, { email: "ada@example.com" });
    const sent = model.requests[0].outputType;
    assert.equal(sent.type, "json_schema");
    assert.equal(sent.schema.properties.email.format, "email");
  });

  test("a format violation is refused as the SDK refuses any invalid final output", async () => {
    const model = fakeModel('{"email":"not an address"}');
    await assert.rejects(run(new Agent({ name: "extractor", instructions: "extract", outputType: validator, model }), "hi"), ModelBehaviorError);
  });
});
