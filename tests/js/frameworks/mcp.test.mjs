// A Validator as the input schema of a Model Context Protocol tool (the
// TypeScript SDK, server and client linked in memory): the client is shown
// our JSON Schema, and arguments that break it are refused before the tool
// runs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import * as guard from "../../../pkg/node.mjs";

describe("a Validator as an MCP tool's inputSchema", () => {
  test("listed as our schema; bad arguments refused before the tool runs", async () => {
    const validator = guard.compileSchema({ type: "object", required: ["to"], properties: { to: { type: "string", format: "email" } } });
    const server = new McpServer({ name: "mail", version: "1.0.0" });
    const sent = [];
    server.registerTool("send_mail", { description: "Sends a mail.", inputSchema: validator }, async (args) => {
      sent.push(args.to);
      return { content: [{ type: "text", text: "sent" }] };
    });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools[0].inputSchema.properties.to.format, "email");
      const ok = await client.callTool({ name: "send_mail", arguments: { to: "ada@example.com" } });
      assert.equal(ok.isError, undefined);
      const refused = await client.callTool({ name: "send_mail", arguments: { to: "not an address" } });
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /\/to must be a valid email/);
      assert.deepEqual(sent, ["ada@example.com"], "the tool ran only for the valid call");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
