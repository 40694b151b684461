// The main job: guards a scripted model over the sample responses in
// samples.json and prints, per scenario, each attempt's verdict, what the
// guard decided, and the usage merged over every attempt.
import { readFileSync } from "node:fs";
import { StructuredOutputError, checkOutput, guardedCall } from "../pkg/node.mjs";

const samples = JSON.parse(readFileSync(new URL("./samples.json", import.meta.url), "utf8"));
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const green = (t) => paint(32, t);
const red = (t) => paint(31, t);
const dim = (t) => paint(2, t);

function scriptedModel(responses) {
  let next = 0;
  const seen = [];
  const call = async (request) => {
    seen.push(request);
    if (next >= responses.length) throw new Error("the scripted model has no more responses");
    return responses[next++];
  };
  return { call, seen };
}

function describeVerdict(verdict) {
  if (verdict.ok) {
    return `${green("accepted")}${verdict.rescue === "code_fence" ? " (rescued from a code fence)" : ""}`;
  }
  const lines = [`${red(verdict.failure)}: ${verdict.message}`];
  for (const issue of verdict.errors) lines.push(`      ${issue.path || "(root)"}  ${issue.code}  ${dim(issue.message)}`);
  if (verdict.moreErrors) lines.push(dim("      ... more problems not listed"));
  return lines.join("\n");
}

function describeUsage(usage) {
  const t = usage.tokens ?? {};
  const parts = ["input", "output", "total", "cacheRead"].filter((k) => t[k] !== undefined).map((k) => `${k} ${t[k]}`);
  return parts.join(", ") || "none reported";
}

let accepted = 0;
let rejected = 0;
for (const [index, scenario] of samples.scenarios.entries()) {
  console.log(`\n${index + 1}. ${scenario.title}`);
  const model = scriptedModel(scenario.responses);
  try {
    const result = await guardedCall(scenario.request, model.call, {
      schema: samples.schema,
      onAttempt: ({ attempt, verdict, action, stoppedBy }) => {
        console.log(`   attempt ${attempt}: ${describeVerdict(verdict)}`);
        const decision = action === "resample" ? "resample once with the identical request" : `${action}${stoppedBy && stoppedBy !== "accepted" ? ` (stopped by: ${stoppedBy})` : ""}`;
        console.log(`   decision: ${decision}`);
      },
    });
    accepted += 1;
    console.log(`   ${green("result")}: ${JSON.stringify(result.value)}`);
    console.log(`   model calls: ${model.seen.length}, same request object every time: ${model.seen.every((r) => r === scenario.request)}`);
    console.log(`   usage over all attempts: ${describeUsage(result.usage)}`);
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    rejected += 1;
    console.log(`   ${red("rejected")}: ${error.failure} after ${error.attempts} attempt(s), stopped by ${error.stoppedBy}`);
    console.log(`   model calls: ${model.seen.length}`);
    console.log(`   usage over all attempts: ${describeUsage(error.usage)}`);
  }
}

// The same check without the wrapper, as an executor would run it inline.
const inline = checkOutput('Sure! Here is the JSON: {"observations": []}', samples.schema);
console.log(`\ninline checkOutput on prose around JSON: ${inline.ok ? "accepted" : inline.failure}`);
console.log(`\n${samples.scenarios.length} scenarios: ${accepted} accepted, ${rejected} rejected`);
