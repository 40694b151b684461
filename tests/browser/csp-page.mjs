// The browser build on a page whose Content Security Policy allows
// WebAssembly ('wasm-unsafe-eval') and nothing like eval: every check a
// page makes, over and over (the shapes the package meets repeatedly are
// where it could write functions of its own), with every policy violation
// the page reports collected.
const violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push(`${event.violatedDirective}: ${event.blockedURI} (${event.sample})`);
});

const guard = await import("/pkg/browser.mjs");
await guard.ready();
const schema = { type: "object", required: ["d"], properties: { d: { type: "string", format: "date" } } };
const good = '{"d":"2024-02-29"}';
const bad = '{"d":"2026-02-30"}';
const chat = (content) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o-mini",
  choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop" }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
});
const anthropic = (text) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-test",
  content: [{ type: "text", text }],
  stop_reason: "end_turn",
  usage: { input_tokens: 20, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0 }, output_tokens: 7 },
});
const report = { verdicts: [], guarded: [] };
for (let round = 0; round < 8; round++) {
  report.verdicts.push(guard.checkOutput(chat(round % 2 ? bad : good), schema).ok);
  report.verdicts.push(guard.checkOutput(anthropic(good), schema).ok);
  const calls = [];
  const result = await guard.guardedCall({ model: "m", messages: [] }, async () => {
    calls.push(1);
    return calls.length === 1 ? chat(bad) : anthropic(good);
  }, { schema });
  report.guarded.push([result.attempts, result.usage.tokens.input]);
}
const tools = [{ type: "function", function: { name: "f", parameters: schema } }];
const toolResponse = { choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: good } }] } }] };
report.toolCalls = [guard.checkToolCalls(toolResponse, tools).ok, guard.checkToolCalls(toolResponse, { model: "m", tools }).ok];
// Violations are reported as events a moment later.
await new Promise((resolve) => setTimeout(resolve, 200));
report.violations = violations;
window.__report = report;
