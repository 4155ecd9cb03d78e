// mcp-remote, the stdio-to-HTTP bridge many desktop assistants use, connects through
// the whole browser flow headlessly: xdg-open runs $BROWSER, which approves the pages.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../helpers/http.js";
import { admin, ROOT, startServer, tempDir, type TestServer } from "../helpers/server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  const api = httpClient(server.url, server.key);
  const ws = (await api("GET", "/v1/me")).body.workspace.id;
  await admin(
    server.dataDir,
    ["users", "create", "--workspace", ws, "--email", "remote@example.com", "--name", "Remote", "--password-stdin"],
    "remote password 1",
  );
  await api("POST", "/v1/notes", { title: "Seen through mcp-remote" });
});
afterAll(() => server?.stop());

describe("mcp-remote", () => {
  it("signs in through the browser flow, lists the tools and calls one", async () => {
    const home = tempDir("notula-mcp-remote-");
    const c = new Client({ name: "desktop", version: "1" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, "node_modules/mcp-remote/dist/proxy.js"), `${server.url}/mcp`],
      env: {
        ...(process.env as Record<string, string>),
        HOME: home,
        MCP_REMOTE_CONFIG_DIR: path.join(home, ".mcp-auth"),
        BROWSER: path.join(ROOT, "test/helpers/approve-browser.mjs"),
        DISPLAY: "",
        XDG_CURRENT_DESKTOP: "",
        NOTULA_TEST_EMAIL: "remote@example.com",
        NOTULA_TEST_PASSWORD: "remote password 1",
      },
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (d) => (log += d));
    try {
      await c.connect(transport);
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name)).toContain("svc_list_notes");
      const r = await c.callTool({ name: "svc_list_notes", arguments: {} });
      expect((r.structuredContent as any).notes.map((n: any) => n.title)).toContain("Seen through mcp-remote");
    } catch (err) {
      throw new Error(`${(err as Error).message}\nmcp-remote said:\n${log.slice(-3000)}`);
    } finally {
      await c.close();
    }
  }, 90_000);
});
