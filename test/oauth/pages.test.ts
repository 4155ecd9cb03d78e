// The sign-in, workspace and consent pages in headless Chromium: a person signs in,
// picks a workspace, reads who asks, and approves. Screenshots go to test-artifacts/.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Browser } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../helpers/http.js";
import { admin, ROOT, startServer, type TestServer } from "../helpers/server.js";

const ARTIFACTS = path.join(ROOT, "test-artifacts");
let server: TestServer;
let browser: Browser;
let callback: http.Server;
let callbackUrl: string;
let lastCallback: URL | null = null;
let onCallback: ((u: URL) => void) | null = null;
/** Resolves with the next request the client's redirect URI receives. */
const nextCallback = () => new Promise<URL>((resolve) => (onCallback = resolve));

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer({ args: ["--no-rate-limit"] });
  const ws = (await httpClient(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
  const second = await admin(server.dataDir, ["workspaces", "create", "--name", "Second <b>Team</b>"]);
  for (const w of [ws, second.workspace.id])
    await admin(
      server.dataDir,
      ["users", "create", "--workspace", w, "--email", "page@example.com", "--name", "Page", "--password-stdin"],
      "page password 123",
    );
  callback = http.createServer((req, res) => {
    lastCallback = new URL(req.url!, callbackUrl);
    onCallback?.(lastCallback);
    res.end("<html><body>Back in the app</body></html>");
  });
  await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/cb`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await server?.stop();
});

describe("sign-in pages in Chromium", () => {
  it("sign in, pick a workspace, see the client's name escaped, approve", async () => {
    const reg = (await (
      await fetch(`${server.url}/mcp/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "Evil <script>alert(1)</script> Bot",
          redirect_uris: [callbackUrl],
          token_endpoint_auth_method: "none",
        }),
      })
    ).json()) as any;
    const auth = new URL(`${server.url}/mcp/oauth/authorize`);
    auth.search = new URLSearchParams({
      response_type: "code",
      client_id: reg.client_id,
      redirect_uri: callbackUrl,
      state: "s1",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }).toString();

    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(auth.toString());
    expect(await page.textContent("h1")).toBe("Sign in to notula");
    await page.screenshot({ path: path.join(ARTIFACTS, "oauth-1-sign-in.png") });

    await page.fill("#email", "page@example.com");
    await page.fill("#password", "wrong password");
    await page.click("button[type=submit]");
    expect(await page.textContent(".error")).toBe("Wrong email or password.");
    await page.screenshot({ path: path.join(ARTIFACTS, "oauth-2-wrong-password.png") });

    await page.fill("#password", "page password 123");
    await page.click("button[type=submit]");
    expect(await page.textContent("h1")).toBe("Choose a workspace");
    expect(await page.content()).toContain("Second &lt;b&gt;Team&lt;/b&gt;");
    await page.screenshot({ path: path.join(ARTIFACTS, "oauth-3-workspace.png") });
    await page.check("input[type=radio] >> nth=1");
    await page.click("button[type=submit]");

    expect(await page.textContent("h1")).toBe("Allow an application to read Second <b>Team</b>?");
    // The name is the client's own claim, shown as such, beside where the browser goes back to.
    expect(await page.textContent("main")).toContain(
      "An application calling itself “Evil <script>alert(1)</script> Bot”",
    );
    expect(await page.textContent("#unverified")).toContain("notula has not verified this name");
    expect(await page.textContent("#redirect-host")).toBe(new URL(callbackUrl).host);
    await page.screenshot({ path: path.join(ARTIFACTS, "oauth-4-consent.png") });
    const arrived = nextCallback();
    await page.click("button[value=allow]");
    lastCallback = await arrived;
    expect(dialogs).toEqual([]);
    expect(lastCallback?.searchParams.get("state")).toBe("s1");
    expect(lastCallback?.searchParams.get("code")).toBeTruthy();
    await page.close();
  });

  it("deny sends access_denied back", async () => {
    const reg = (await (
      await fetch(`${server.url}/mcp/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "Denied",
          redirect_uris: [callbackUrl],
          token_endpoint_auth_method: "none",
        }),
      })
    ).json()) as any;
    const auth = new URL(`${server.url}/mcp/oauth/authorize`);
    auth.search = new URLSearchParams({
      response_type: "code",
      client_id: reg.client_id,
      redirect_uri: callbackUrl,
      state: "s2",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }).toString();
    const page = await browser.newPage();
    await page.goto(auth.toString());
    await page.fill("#email", "page@example.com");
    await page.fill("#password", "page password 123");
    await page.click("button[type=submit]");
    await page.click("button[type=submit]");
    const arrived = nextCallback();
    await page.click("button[value=deny]");
    lastCallback = await arrived;
    expect(lastCallback?.searchParams.get("error")).toBe("access_denied");
    await page.close();
  });
});
