// A workspace with the people the access policy tells apart, each with every way in:
// an admin, a member inside a private folder (its owner), a member outside it, that
// member's key without the scopes, their OAuth token (read only), their browser
// session, and the admin of another workspace.
import { createHash, randomBytes } from "node:crypto";
import type { Actor, Role } from "../../src/core/access.js";
import { approveInBrowser } from "./browser-flow.js";
import { client, type Client } from "./http.js";
import { connectMcp } from "./mcp.js";
import { admin, type TestServer } from "./server.js";

export const PASSWORD = "a long enough password";

export type Who = "admin" | "inside" | "outside" | "noscope" | "oauth" | "stranger";
export const EVERYONE: Who[] = ["admin", "inside", "outside", "noscope", "oauth", "stranger"];

export interface Person {
  who: Who;
  userId: string;
  email: string;
  role: Role;
  workspaceId: string;
  /** REST credential (an OAuth token for "oauth": REST refuses it). */
  bearer: string;
  api: Client;
  /** The browser session cookie (people with a password only). */
  cookie?: string;
}

export interface World {
  workspaceId: string;
  people: Record<Who, Person>;
  /** The private folder (owned by "inside") and a shared one (owned by the admin). */
  privateFolder: string;
  sharedFolder: string;
  mcp: Record<Who, Awaited<ReturnType<typeof connectMcp>>["client"]>;
  close(): Promise<void>;
}

/** The policy's view of a person: role and the private folders they are outside of. */
export function actorOf(w: World, who: Who): Actor {
  const p = w.people[who];
  const outside = who === "admin" || who === "outside" || who === "noscope" || who === "oauth";
  return {
    workspaceId: p.workspaceId,
    userId: p.userId,
    role: p.role,
    hiddenFolderIds: new Set(outside ? [w.privateFolder] : []),
  };
}

export async function webSession(url: string, email: string): Promise<string> {
  const page = await fetch(`${url}/sign-in`);
  const form = /notula_form=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
  const res = await fetch(`${url}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `notula_form=${form}` },
    body: new URLSearchParams({ email, password: PASSWORD, csrf, next: "/notes" }),
  });
  const session = /notula_session=([^;]+)/.exec(res.headers.get("set-cookie") ?? "");
  if (!session) throw new Error(`sign-in as ${email} failed: ${res.status}`);
  return `notula_session=${session[1]}`;
}

async function oauthToken(url: string, email: string): Promise<string> {
  const redirect = "http://127.0.0.1:50000/cb";
  const reg = await fetch(`${url}/mcp/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Matrix",
      redirect_uris: [redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  const c = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const u = new URL(`${url}/mcp/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: c.client_id,
    redirect_uri: redirect,
    state: "s",
    scope: "read",
    code_challenge: challenge,
    code_challenge_method: "S256",
  }))
    u.searchParams.set(k, v);
  const back = await approveInBrowser(u.toString(), { email, password: PASSWORD });
  const tok = await fetch(`${url}/mcp/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: redirect,
      client_id: c.client_id,
      code_verifier: verifier,
    }),
  });
  return ((await tok.json()) as { access_token: string }).access_token;
}

export async function buildWorld(server: TestServer): Promise<World> {
  const adminApi = client(server.url, server.key);
  const me = (await adminApi("GET", "/v1/me")).body;
  const ws = me.workspace.id as string;
  await admin(server.dataDir, ["users", "set-password", "--email", me.user.email], PASSWORD);

  const member = async (name: string) => {
    const email = `${name}@example.com`;
    const made = await admin(
      server.dataDir,
      ["users", "create", "--workspace", ws, "--email", email, "--name", name, "--password-stdin", "--role", "member"],
      PASSWORD,
    );
    return { userId: made.user.id as string, email };
  };
  const keyFor = async (userId: string, scopes: string, workspace = ws) =>
    (
      await admin(server.dataDir, [
        "keys",
        "create",
        "--name",
        "matrix",
        "--scopes",
        scopes,
        "--workspace",
        workspace,
        "--user",
        userId,
      ])
    ).key as string;

  const inside = await member("inside");
  const outside = await member("outside");
  const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Elsewhere"]);

  const person = (
    who: Who,
    p: { userId: string; email: string },
    role: Role,
    bearer: string,
    workspaceId = ws,
  ): Person => ({
    who,
    ...p,
    role,
    workspaceId,
    bearer,
    api: client(server.url, bearer),
  });
  const people: Record<Who, Person> = {
    admin: person("admin", { userId: me.user.id, email: me.user.email }, "admin", server.key),
    // Members' keys carry every scope, `users` included: the policy, not the scope, must hold them.
    inside: person("inside", inside, "member", await keyFor(inside.userId, "notes,folders,users,templates")),
    outside: person("outside", outside, "member", await keyFor(outside.userId, "notes,folders,users,templates")),
    noscope: person("noscope", outside, "member", await keyFor(outside.userId, "templates")),
    oauth: person("oauth", outside, "member", await oauthToken(server.url, outside.email)),
    stranger: person(
      "stranger",
      { userId: other.user.id, email: other.user.email },
      "admin",
      other.key,
      other.workspace.id,
    ),
  };
  people.admin.cookie = await webSession(server.url, me.user.email);
  people.inside.cookie = await webSession(server.url, inside.email);
  people.outside.cookie = await webSession(server.url, outside.email);

  const sharedFolder = (await adminApi("POST", "/v1/folders", { name: "Team room", ownerUserId: me.user.id })).body
    .folder.id;
  const privateFolder = (
    await people.inside.api("POST", "/v1/folders", {
      name: "Board secrets",
      ownerUserId: inside.userId,
      isPrivate: true,
    })
  ).body.folder.id;

  const mcp = {} as World["mcp"];
  for (const who of EVERYONE) mcp[who] = (await connectMcp(server.url, people[who].bearer, `matrix-${who}`)).client;
  return {
    workspaceId: ws,
    people,
    privateFolder,
    sharedFolder,
    mcp,
    async close() {
      for (const c of Object.values(mcp)) await c.close().catch(() => {});
    },
  };
}
