import type { ScopeName } from "../shared/schemas/workspace.js";

/** Who is calling: resolved once per request from the API key, then passed to services. */
export interface Principal {
  workspaceId: string;
  userId: string;
  keyId: string;
  scopes: ReadonlySet<ScopeName>;
  plan: "free" | "pro" | "enterprise";
}
