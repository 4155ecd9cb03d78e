// A person added to a workspace the way an operator adds one (`notula admin users
// create`, then `keys create`), with a password for the web app and a key of their own.
import { client } from "./http.js";
import { admin, type TestServer } from "./server.js";
import { PASSWORD } from "./world.js";

export interface AddedMember {
  userId: string;
  email: string;
  key: string;
}

export async function addMember(
  server: TestServer,
  o: { name: string; email?: string; role?: "admin" | "member"; scopes?: string; workspaceId?: string },
): Promise<AddedMember> {
  const ws = o.workspaceId ?? (await client(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
  const email = o.email ?? `${o.name}@example.com`;
  const made = await admin(
    server.dataDir,
    [
      "users",
      "create",
      "--workspace",
      ws,
      "--email",
      email,
      "--name",
      o.name,
      "--password-stdin",
      ...(o.role ? ["--role", o.role] : []),
    ],
    PASSWORD,
  );
  const key = (
    await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      o.name,
      "--scopes",
      o.scopes ?? "notes,folders",
      "--workspace",
      ws,
      "--user",
      made.user.id,
    ])
  ).key as string;
  return { userId: made.user.id as string, email, key };
}
