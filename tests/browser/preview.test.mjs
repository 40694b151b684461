// Drives the preview page (examples/preview/) in headless Chromium (Debian's,
// never a downloaded one), served by the page's own examples/preview/serve.mjs:
// an invalid output shows its failing paths, the fixed output is accepted,
// truncation and schema errors are shown as such. Screenshots go to
// test-results/; PREVIEW_DOCS_SCREENSHOT=1 also refreshes docs/preview.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { previewUrl, startServer } from "../../examples/preview/serve.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const results = `${root}test-results`;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const schema = {
  type: "object",
  required: ["items"],
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        required: ["kind", "title"],
        properties: {
          kind: { enum: ["task", "note"] },
          title: { type: "string", minLength: 1 },
          due: { type: "string", format: "date" },
        },
      },
    },
  },
};
const invalidOutput = '{"items": [{"kind": "rumour", "title": "Call the bank"}, {"kind": "task", "due": "2026-02-30"}]}';
const validOutput = '{"items": [{"kind": "task", "title": "Call the bank", "due": "2024-02-29"}]}';

async function launchChromium() {
  const { chromium: driver } = await import("playwright-core");
  return driver.launch({
    executablePath: chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

/** What the page shows now: verdict state, title, issues, and the flagged spans of the output view. */
function pageState(page) {
  return page.evaluate(() => {
    const verdict = document.getElementById("verdict");
    return {
      verdict: verdict.dataset.verdict,
      failure: verdict.dataset.failure,
      title: document.getElementById("verdict-title").textContent,
      message: document.getElementById("verdict-message").textContent,
      issues: [...document.querySelectorAll("#issues li.issue")].map((li) => ({
        path: li.dataset.path,
        code: li.dataset.code,
        text: li.textContent,
      })),
      flagged: [...document.querySelectorAll("#rendered .flagged")].map((el) => ({
        path: el.dataset.member ?? el.dataset.path,
        text: el.textContent,
      })),
      wholeOutputFlagged: document.getElementById("rendered").classList.contains("flagged-all"),
    };
  });
}

test("the preview shows failing paths live, then accepts the fixed output", async () => {
  assert.ok(existsSync(chromium), `no Chromium at ${chromium}: scripts/setup.sh installs Debian's package`);
  await mkdir(results, { recursive: true });
  const server = await startServer({ port: 0 });
  const browser = await launchChromium();
  const requests = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(previewUrl(server));
    await page.waitForSelector('body[data-state="ready"]');

    // Invalid: typed into the output box after the schema is pasted.
    await page.selectOption("#finish-reason", "");
    await page.fill("#schema", JSON.stringify(schema, null, 2));
    await page.fill("#output", "");
    await page.locator("#output").pressSequentially(invalidOutput);
    await page.waitForSelector('#issues li[data-path="/items/1/due"]');
    const rejected = await pageState(page);
    assert.equal(rejected.verdict, "rejected");
    assert.equal(rejected.failure, "schema");
    assert.match(rejected.title, /Rejected: schema/);
    assert.deepEqual(
      rejected.issues.map(({ path, code }) => [path, code]),
      [
        ["/items/0/kind", "enum"],
        ["/items/1", "required"],
        ["/items/1/due", "format"],
      ],
    );
    for (const issue of rejected.issues) assert.ok(issue.text.includes(issue.path) && issue.text.length > issue.path.length + issue.code.length);
    const flaggedKind = rejected.flagged.find((f) => f.path === "/items/0/kind");
    assert.ok(flaggedKind, "the span of /items/0/kind is highlighted in the output view");
    assert.equal(flaggedKind.text.replace(/\s+/g, " "), '"kind": "rumour"');
    assert.ok(rejected.flagged.some((f) => f.path === "/items/1" && f.text.includes('"due": "2026-02-30"')));
    assert.ok(!rejected.flagged.some((f) => f.path === "/items/0/title"), "a valid member is not highlighted");
    assert.equal(rejected.wholeOutputFlagged, false);
    await page.hover('#issues li[data-path="/items/0/kind"]');
    assert.equal(await page.locator('#rendered [data-member="/items/0/kind"]').evaluate((el) => el.classList.contains("focused")), true);
    await page.screenshot({ path: `${results}/preview-rejected.png`, fullPage: true });

    // Fixed: the same box, now valid.
    await page.fill("#output", validOutput);
    await page.waitForSelector('#verdict[data-verdict="accepted"]');
    const accepted = await pageState(page);
    assert.equal(accepted.title, "Accepted");
    assert.deepEqual(accepted.issues, []);
    assert.deepEqual(accepted.flagged, []);
    await page.screenshot({ path: `${results}/preview-accepted.png`, fullPage: true });

    // The finish reason select: the same JSON cut off at the token limit.
    await page.selectOption("#finish-reason", "length");
    await page.waitForSelector('#verdict[data-failure="truncated"]');
    const truncated = await pageState(page);
    assert.match(truncated.title, /Rejected: truncated/);
    assert.equal(truncated.wholeOutputFlagged, true);
    await page.selectOption("#finish-reason", "");
    await page.waitForSelector('#verdict[data-verdict="accepted"]');

    // A schema that cannot compile is a schema error, not a rejected output.
    await page.fill("#schema", '{"type": "object", "properties": {"items": {"type": "arary"}}}');
    await page.waitForSelector('#verdict[data-verdict="schema-error"]');
    const schemaError = await pageState(page);
    assert.equal(schemaError.title, "Schema error");
    assert.match(schemaError.message, /\/properties\/items\/type/);
    assert.deepEqual(schemaError.issues, []);
    await page.screenshot({ path: `${results}/preview-schema-error.png`, fullPage: true });

    assert.deepEqual(problems, []);
    const origin = new URL(previewUrl(server)).origin;
    assert.deepEqual(requests.filter((url) => !url.startsWith(origin)), [], "the page loads nothing from elsewhere");

    if (process.env.PREVIEW_DOCS_SCREENSHOT === "1") {
      await mkdir(`${root}docs`, { recursive: true });
      await copyFile(`${results}/preview-rejected.png`, `${root}docs/preview.png`);
    }
  } finally {
    await browser.close();
    server.close();
  }
});

test("each example in the page's menu gives the verdict its name promises", async () => {
  assert.ok(existsSync(chromium), `no Chromium at ${chromium}`);
  const server = await startServer({ port: 0 });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(previewUrl(server));
    await page.waitForSelector('body[data-state="ready"]');
    const expected = {
      "Observations: accepted": ["accepted", ""],
      "Wrapped in a Markdown fence": ["accepted", ""],
      "Cut off at the token limit": ["rejected", "truncated"],
      "Parses, but stopped at the token limit": ["rejected", "truncated"],
      "Prose around the JSON": ["rejected", "unparseable"],
      "Response-format wrapper as the schema": ["rejected", "schema"],
      "A schema with a typo": ["schema-error", ""],
      "Observations: two issues": ["rejected", "schema"],
    };
    const names = await page.$$eval("#sample option", (options) => options.map((o) => o.textContent).filter((t) => t !== "(choose one)"));
    assert.deepEqual([...names].sort(), Object.keys(expected).sort());
    for (const [name, [verdict, failure]] of Object.entries(expected)) {
      await page.selectOption("#sample", { label: name });
      const state = await pageState(page);
      assert.deepEqual([state.verdict, state.failure], [verdict, failure], name);
    }
    await page.selectOption("#sample", { label: "Wrapped in a Markdown fence" });
    assert.match(await page.textContent("#rendered-note"), /code fence/);
  } finally {
    await browser.close();
    server.close();
  }
});
