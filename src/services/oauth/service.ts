// The OAuth 2.0 authorization server of /mcp: dynamic client registration,
// authorization code with PKCE (S256 only), refresh tokens rotated at every use with
// reuse detection. Lifetimes: codes 10 minutes, access tokens 1 hour, refresh 30 days.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Repositories } from "../../db/repos/index.js";
import type { OAuthClientRow } from "../../db/repos/oauth.js";
import type { Clock } from "../../core/clock.js";
import {
  invalidClient,
  invalidGrant,
  invalidRequest,
  invalidScope,
  OAuthError,
  unsupportedGrantType,
} from "./errors.js";
import { ACCESS_TOKEN_TTL_SEC, type TokenSigner } from "./tokens.js";
import { clientMetadata, redirectMatches } from "./client-metadata.js";

export const SCOPES_SUPPORTED = ["read", "write", "offline_access", "openid", "profile", "email"];
export const CODE_TTL_MS = 10 * 60 * 1000;
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;
const REQUEST_TTL_MS = 30 * 60 * 1000;

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const token = (bytes = 32) => randomBytes(bytes).toString("base64url");
const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The grant (every token) an authorization code starts: named by the code, so a replay can find it. */
const grantOfCode = (codeHash: string) => `code-${codeHash.slice(0, 32)}`;

export interface OAuthDeps {
  repos: Repositories;
  signer: TokenSigner;
  now: Clock;
  /** The MCP resource (token audience): <public url>/mcp. */
  resource: string;
}

export function createOAuthService(d: OAuthDeps) {
  const { repos, now } = d;

  async function authenticateClient(
    clientId: string | undefined,
    secret: string | undefined,
    basic: { id: string; secret: string } | null,
  ): Promise<OAuthClientRow> {
    const id = basic?.id ?? clientId;
    if (!id) throw invalidClient("client_id is required.");
    const client = await repos.oauth.client(id);
    if (!client) throw invalidClient("Unknown client.");
    if (client.authMethod === "none") return client;
    const given = client.authMethod === "client_secret_basic" ? (basic?.secret ?? secret) : (secret ?? basic?.secret);
    if (!given || !client.secretHash || !safeEqual(sha(given), client.secretHash))
      throw invalidClient("Client authentication failed.");
    return client;
  }

  function parseScope(scope: string | undefined, fallback = "read"): string {
    const list = (scope ?? fallback).split(/\s+/).filter(Boolean);
    const unknown = list.filter((s) => !SCOPES_SUPPORTED.includes(s));
    if (unknown.length) throw invalidScope(`Unsupported scope: ${unknown.join(" ")}.`);
    return [...new Set(list.length ? list : ["read"])].join(" ");
  }

  /**
   * Ends a grant: its refresh tokens are revoked, and its access tokens (JWTs, which
   * live an hour) are refused from now on by `principalOf`, which checks the grant.
   */
  async function revokeGrant(familyId: string) {
    await repos.transaction(async () => {
      await repos.oauth.revokeFamily(familyId, now());
      // Kept as long as any token of the grant could live: a refresh racing this revocation
      // may still write one more token of the grant, and the mark refuses it when it is used.
      await repos.sharedState.markRevokedGrant(
        sha(familyId),
        now() + Math.max(REFRESH_TTL_MS, ACCESS_TOKEN_TTL_SEC * 1000) + 60_000,
      );
    });
  }

  async function issueTokens(g: {
    clientId: string;
    userId: string;
    workspaceId: string;
    scope: string;
    resource: string;
    familyId: string;
    withRefresh: boolean;
  }) {
    const access = await d.signer.sign(
      { sub: g.userId, client_id: g.clientId, scope: g.scope, ws: g.workspaceId, grant: g.familyId },
      g.resource,
    );
    const out: Record<string, unknown> = {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_TTL_SEC,
      scope: g.scope,
    };
    if (g.withRefresh) {
      const refresh = token();
      await repos.oauth.insertRefresh({
        tokenHash: sha(refresh),
        familyId: g.familyId,
        clientId: g.clientId,
        userId: g.userId,
        workspaceId: g.workspaceId,
        scope: g.scope,
        resource: g.resource,
        expiresAt: now() + REFRESH_TTL_MS,
        rotatedAt: null,
        revokedAt: null,
        createdAt: now(),
      });
      out.refresh_token = refresh;
    }
    return out;
  }

  return {
    async register(body: Record<string, unknown>) {
      const { uris, name, method, grants, responseTypes } = clientMetadata(body);
      // Every read scope is granted: the MCP tools only read.
      const scope = parseScope(typeof body.scope === "string" ? body.scope : undefined, "read offline_access");
      const granted = [...new Set([...scope.split(" "), "read", "offline_access"])].join(" ");
      const id = `mcp_${token(16)}`;
      const secret = method === "none" ? null : `mcps_${token()}`;
      await repos.oauth.insertClient({
        id,
        secretHash: secret ? sha(secret) : null,
        name,
        redirectUris: uris as string[],
        grantTypes: grants,
        authMethod: method,
        scope: granted,
        createdAt: now(),
      });
      return {
        client_id: id,
        ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
        client_id_issued_at: Math.floor(now() / 1000),
        client_name: name,
        redirect_uris: uris,
        grant_types: grants,
        response_types: responseTypes,
        token_endpoint_auth_method: method,
        scope: granted,
      };
    },

    /**
     * Checks an authorization request. Errors that make the redirect URI untrustworthy
     * are thrown (shown on a page); the rest are returned for a redirect to the client.
     */
    async authorize(q: Record<string, string | undefined>): Promise<{ requestId: string } | { redirect: string }> {
      const client = q.client_id ? await repos.oauth.client(q.client_id) : null;
      if (!client) throw invalidClient("Unknown client_id.", 400);
      const redirectUri = q.redirect_uri;
      if (!redirectUri || !client.redirectUris.some((r) => redirectMatches(r, redirectUri)))
        throw invalidRequest("redirect_uri does not match a registered redirect URI.");
      const back = (error: string, description: string) => {
        const u = new URL(redirectUri);
        u.searchParams.set("error", error);
        u.searchParams.set("error_description", description);
        if (q.state) u.searchParams.set("state", q.state);
        return { redirect: u.toString() };
      };
      if (q.response_type !== "code") return back("unsupported_response_type", "response_type must be code.");
      if (!q.code_challenge) return back("invalid_request", "code_challenge is required (PKCE).");
      if ((q.code_challenge_method ?? "plain") !== "S256")
        return back("invalid_request", "code_challenge_method must be S256.");
      if (!/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
        return back("invalid_request", "code_challenge must be a base64url SHA-256.");
      let scope: string;
      try {
        scope = parseScope(q.scope);
      } catch (e) {
        return back("invalid_scope", (e as OAuthError).description);
      }
      const allowed = client.scope.split(" ");
      if (scope.split(" ").some((s) => !allowed.includes(s)))
        return back("invalid_scope", "The scope is wider than the client may ask for.");
      const resource = q.resource ?? d.resource;
      if (resource !== d.resource) return back("invalid_target", `resource must be ${d.resource}.`);
      const id = token(24);
      await repos.oauth.insertRequest({
        id,
        clientId: client.id,
        redirectUri,
        state: q.state ?? null,
        codeChallenge: q.code_challenge,
        scope,
        resource,
        csrf: token(24),
        userId: null,
        workspaceId: null,
        expiresAt: now() + REQUEST_TTL_MS,
      });
      return { requestId: id };
    },

    /** The principal behind an access token for this server's /mcp, or null. */
    async principalOf(accessToken: string) {
      const claims = await d.signer.verify(accessToken, d.resource);
      if (!claims) return null;
      // A grant ended (revoked, or its code replayed) takes its access tokens with it.
      if (claims.grant && (await repos.sharedState.isRevokedGrant(sha(claims.grant), now()))) return null;
      const workspace = await repos.workspaces.get(claims.ws);
      const member = workspace ? await repos.members.getByUser(claims.ws, claims.sub) : null;
      if (!workspace || !member) return null;
      const scopes = claims.scope.split(" ");
      // OAuth "read" opens every read-only tool: notes, knowledge, members, workspace.
      const granted = new Set<"notes" | "users">(scopes.includes("read") ? ["notes", "users"] : []);
      return {
        workspaceId: claims.ws,
        userId: claims.sub,
        keyId: `oauth:${claims.client_id}:${claims.sub}:${claims.ws}`,
        scopes: granted,
        plan: workspace.plan,
        role: member.role,
      };
    },

    async pending(id: string | undefined) {
      const r = id ? await repos.oauth.request(id) : null;
      if (!r || r.expiresAt < now()) return null;
      return { request: r, client: (await repos.oauth.client(r.clientId))! };
    },

    /** Constant-time check of a form's CSRF token against the one kept with the request. */
    csrfMatches(requestCsrf: string, given: unknown): boolean {
      return typeof given === "string" && given.length > 0 && safeEqual(requestCsrf, given);
    },

    async workspacesOf(userId: string) {
      return await repos.workspaces.ofUser(userId);
    },

    /** The signed-in user picked the workspace the client will read (one of theirs). */
    async chooseWorkspace(requestId: string, userId: string, workspaceId: string): Promise<boolean> {
      if (!(await repos.workspaces.ofUser(userId)).some((w) => w.id === workspaceId)) return false;
      await repos.oauth.updateRequest(requestId, { userId, workspaceId });
      return true;
    },

    async workspaceName(workspaceId: string): Promise<string | null> {
      return (await repos.workspaces.get(workspaceId))?.name ?? null;
    },

    /** The user approved: a single-use code, bound to client, redirect URI, PKCE challenge and resource. */
    async approve(requestId: string, userId: string, workspaceId: string): Promise<string> {
      const r = await repos.oauth.request(requestId);
      if (!r || r.expiresAt < now()) throw invalidRequest("The authorization request has expired; start again.");
      if (!(await repos.members.getByUser(workspaceId, userId)))
        throw invalidRequest("You are not a member of that workspace.");
      const code = token();
      await repos.transaction(async () => {
        await repos.oauth.insertCode({
          codeHash: sha(code),
          clientId: r.clientId,
          userId,
          workspaceId,
          redirectUri: r.redirectUri,
          codeChallenge: r.codeChallenge,
          scope: r.scope,
          resource: r.resource,
          expiresAt: now() + CODE_TTL_MS,
          usedAt: null,
        });
        await repos.oauth.deleteRequest(requestId);
      });
      const u = new URL(r.redirectUri);
      u.searchParams.set("code", code);
      if (r.state) u.searchParams.set("state", r.state);
      return u.toString();
    },

    async deny(requestId: string): Promise<string> {
      const r = await repos.oauth.request(requestId);
      if (!r) throw invalidRequest("The authorization request has expired.");
      await repos.oauth.deleteRequest(requestId);
      const u = new URL(r.redirectUri);
      u.searchParams.set("error", "access_denied");
      if (r.state) u.searchParams.set("state", r.state);
      return u.toString();
    },

    /**
     * RFC 7009 revocation. A refresh token ends its whole sign-in (every rotation of it);
     * access tokens are short-lived JWTs and simply run out. An unknown token is not an
     * error: the caller's goal, that it no longer works, is met.
     */
    async revoke(
      form: Record<string, string | undefined>,
      basic: { id: string; secret: string } | null,
    ): Promise<void> {
      const client = await authenticateClient(form.client_id, form.client_secret, basic);
      if (!form.token) throw invalidRequest("token is required.");
      const row = await repos.oauth.refresh(sha(form.token));
      if (row && row.clientId === client.id) return revokeGrant(row.familyId);
      // An access token ends its whole grant too: the client is done with this sign-in.
      const claims = await d.signer.verify(form.token, d.resource);
      if (claims?.grant && claims.client_id === client.id) await revokeGrant(claims.grant);
    },

    async token(form: Record<string, string | undefined>, basic: { id: string; secret: string } | null) {
      const client = await authenticateClient(form.client_id, form.client_secret, basic);
      if (form.grant_type === "authorization_code") {
        if (!client.grantTypes.includes("authorization_code"))
          throw new OAuthError("unauthorized_client", "This client may not use authorization_code.");
        if (!form.code || !form.redirect_uri || !form.code_verifier)
          throw invalidRequest("code, redirect_uri and code_verifier are required.");
        const used = await repos.oauth.useCode(sha(form.code), now());
        if (!used || used.row.clientId !== client.id) throw invalidGrant("The code is not valid for this client.");
        if (!used.fresh) {
          // RFC 6749 §4.1.2: a code used twice was stolen by one of the two; what it gave is revoked.
          await revokeGrant(grantOfCode(used.row.codeHash));
          throw invalidGrant("The code has been used already; the tokens issued for it are revoked.");
        }
        const row = used.row;
        if (row.expiresAt < now()) throw invalidGrant("The code has expired.");
        if (row.redirectUri !== form.redirect_uri)
          throw invalidGrant("redirect_uri differs from the one in the authorization request.");
        const challenge = createHash("sha256").update(form.code_verifier).digest("base64url");
        if (!safeEqual(challenge, row.codeChallenge)) throw invalidGrant("PKCE verification failed.");
        if (form.resource && form.resource !== row.resource)
          throw new OAuthError("invalid_target", "resource differs from the authorization request.");
        return issueTokens({
          clientId: client.id,
          userId: row.userId,
          workspaceId: row.workspaceId,
          scope: row.scope,
          resource: row.resource,
          familyId: grantOfCode(row.codeHash),
          withRefresh: client.grantTypes.includes("refresh_token"),
        });
      }
      if (form.grant_type === "refresh_token") {
        if (!client.grantTypes.includes("refresh_token"))
          throw new OAuthError("unauthorized_client", "This client may not use refresh_token.");
        if (!form.refresh_token) throw invalidRequest("refresh_token is required.");
        const row = await repos.oauth.refresh(sha(form.refresh_token));
        if (!row || row.clientId !== client.id) throw invalidGrant("The refresh token is not valid for this client.");
        if (row.revokedAt !== null || (await repos.sharedState.isRevokedGrant(sha(row.familyId), now())))
          throw invalidGrant("The refresh token has been revoked.");
        if (row.expiresAt < now()) throw invalidGrant("The refresh token has expired.");
        if (!(await repos.oauth.rotate(row.tokenHash, now()))) {
          // Used before (RFC 9700 §4.14): one of the two holders is not the client. No grace
          // window: a second use would mint a second live token. The whole grant ends.
          await revokeGrant(row.familyId);
          throw invalidGrant("The refresh token was used already; every token of this sign-in is now revoked.");
        }
        const scope = form.scope ? parseScope(form.scope) : row.scope;
        if (scope.split(" ").some((s) => !row.scope.split(" ").includes(s)))
          throw invalidScope("A refresh cannot widen the scope.");
        return issueTokens({
          clientId: client.id,
          userId: row.userId,
          workspaceId: row.workspaceId,
          scope,
          resource: row.resource,
          familyId: row.familyId,
          withRefresh: true,
        });
      }
      throw unsupportedGrantType("grant_type must be authorization_code or refresh_token.");
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
