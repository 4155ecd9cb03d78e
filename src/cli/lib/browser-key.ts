// `notula login --browser`: the member approves, in the web app, an API key for this
// computer; the browser brings a one-time code back to a loopback port, and the code
// with its PKCE verifier buys the key. Any member can sign in the CLI this way.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { CliError, EXIT } from "../exit.js";
import { info } from "./output.js";
import { openBrowser } from "./web-login.js";

const LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

export async function browserKeyLogin(server: string): Promise<string> {
  let arrive!: (v: { code?: string; state?: string }) => void;
  const arrived = new Promise<{ code?: string; state?: string }>((r) => (arrive = r));
  const callback = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    if (u.pathname !== "/callback") return void res.writeHead(404).end();
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end("<!doctype html><p>notula: the CLI is signed in. You can close this tab.</p>");
    arrive({ code: u.searchParams.get("code") ?? undefined, state: u.searchParams.get("state") ?? undefined });
  });
  await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
  try {
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(16).toString("base64url");
    const url = new URL("/cli/authorize", server);
    url.search = new URLSearchParams({
      redirect_uri: `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`,
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      name: `CLI on ${os.hostname()}`.slice(0, 80),
    }).toString();
    info(`Opening the browser to approve this computer. If it does not open, visit:\n${url}`);
    await openBrowser(url.toString());
    const timer = setTimeout(() => arrive({}), LOGIN_TIMEOUT_MS);
    const result = await arrived;
    clearTimeout(timer);
    if (!result.code) throw new CliError("No approval within 5 minutes.", EXIT.auth);
    if (result.state !== state)
      throw new CliError("The browser returned an unexpected answer (state mismatch); try again.", EXIT.auth);
    const res = await fetch(new URL("/cli/token", server), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: result.code, code_verifier: verifier }),
    });
    const body = (await res.json().catch(() => ({}))) as { key?: string; error?: { message?: string } };
    if (!res.ok || !body.key)
      throw new CliError(`The server refused the sign-in: ${body.error?.message ?? res.status}`, EXIT.auth);
    return body.key;
  } finally {
    callback.close();
  }
}
