// Repair feedback with @google/genai requests, whose `contents` may be a
// plain string, a part or a list of parts, driven with the real client
// against a local server in Gemini's wire format.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { GoogleGenAI } from "@google/genai";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, geminiResponse } from "../../support/fixtures.mjs";
import { withWireServer } from "../../support/wire-server.mjs";

const BAD = '{"city":"","population":-1}';
const GOOD = '{"city":"Oslo","population":709000}';

describe("@google/genai: retry \"repair\"", { timeout: 20000 }, () => {
  for (const [label, contents, userTurns] of [
    ["a string prompt", "Which city, and how many people?", 1],
    ["a single part", { text: "Which city?" }, 1],
    ["a list of parts and strings", ["Which city?", { text: "Answer in JSON." }], 1],
    ["a list of contents", [{ role: "user", parts: [{ text: "Which city?" }] }], 1],
  ]) {
    test(`${label}: the second request is the first plus one user turn with the feedback`, async () => {
      await withWireServer([geminiResponse(BAD), geminiResponse(GOOD)], async (server) => {
        const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: server.url } });
        const request = { model: "gemini-2.5-flash", contents, config: { temperature: 0 } };
        const before = structuredClone(request);
        const result = await guard.guardedCall(request, (r) => ai.models.generateContent(r), { schema: CITY_SCHEMA, retry: "repair" });
        assert.deepEqual(result.value, JSON.parse(GOOD));
        assert.equal(server.requests.length, 2);
        const [first, second] = server.requests.map((r) => r.body.contents);
        assert.equal(first.length, userTurns);
        assert.deepEqual(second.slice(0, userTurns), first, "the original turns are sent unchanged");
        assert.equal(second.length, userTurns + 1);
        const feedback = second.at(-1);
        assert.equal(feedback.role, "user");
        assert.match(feedback.parts[0].text, /\/city/);
        assert.match(feedback.parts[0].text, /\/population/);
        assert.deepEqual(request, before, "the caller's request is not changed");
      });
    });
  }
});
