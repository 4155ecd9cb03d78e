// A browser's session on the web app without a browser, for an admin or a new member:
// the cookie, the form token, and the speech settings' setup status.
import { client } from "./http.js";
import { admin, type TestServer } from "./server.js";
import { PASSWORD, webSession } from "./world.js";

export type SetupState = import("../../src/services/speech-setup.js").SpeechSetupState;

/** A browser session (cookie and the form token) for the server's admin, or for a new member. */
export async function adminBrowser(server: TestServer, role: "admin" | "member") {
  const api = client(server.url, server.key);
  const me = (await api("GET", "/v1/me")).body;
  let email = me.user.email as string;
  if (role === "admin") await admin(server.dataDir, ["users", "set-password", "--email", email], PASSWORD);
  else {
    email = `member-${Date.now()}@example.com`;
    await admin(
      server.dataDir,
      ["users", "create", "--workspace", me.workspace.id, "--email", email, "--name", "M", "--password-stdin"],
      PASSWORD,
    );
  }
  const cookie = await webSession(server.url, email);
  const page = async (p: string) => {
    const res = await fetch(server.url + p, { headers: { cookie }, redirect: "manual" });
    return { status: res.status, html: await res.text() };
  };
  const csrf = /name="csrf" value="([^"]+)"/.exec((await page("/notes/new")).html)![1];
  const post = (p: string, fields: Record<string, string>) =>
    fetch(server.url + p, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, ...fields }),
    });
  /** A setup's progress: the local engine's, or (with its path) the speaker models'. */
  const status = async (at = "/settings/speech/status"): Promise<SetupState> =>
    (await (
      await fetch(`${server.url}${at}`, { headers: { cookie, accept: "application/json" } })
    ).json()) as SetupState;
  return { api, page, post, status, workspaceId: me.workspace.id as string };
}
