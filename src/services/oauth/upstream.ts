// Sign-in through an upstream OpenID Connect provider (oauth4webapi): authorization
// code with PKCE and nonce; the verified email must belong to a notula account. The
// pending sign-in is kept in the database, sealed, so any replica may take the callback.
import { randomBytes } from "node:crypto";
import * as oauth from "oauth4webapi";
import type { PendingStates } from "../pending.js";

export interface UpstreamConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** Where a finished sign-in continues: an MCP authorization request, or a web page. */
export type UpstreamReturn = { kind: "oauth"; requestId: string } | { kind: "web"; next: string };

interface Pending {
  back: UpstreamReturn;
  verifier: string;
  nonce: string;
}

const PENDING_TTL_MS = 10 * 60 * 1000;

export function createUpstreamOidc(cfg: UpstreamConfig, publicUrl: string, pendingStates: PendingStates) {
  const issuer = new URL(cfg.issuer);
  // Plain http only for a provider on this machine (development and tests).
  const insecure = issuer.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(issuer.hostname);
  const options = { [oauth.allowInsecureRequests]: insecure };
  const client: oauth.Client = { client_id: cfg.clientId };
  const auth = oauth.ClientSecretPost(cfg.clientSecret);
  let server: Promise<oauth.AuthorizationServer> | undefined;
  const redirectUri = () => `${publicUrl}/oauth/upstream/callback`;

  function discover() {
    server ??= (async () =>
      processDiscovery(await oauth.discoveryRequest(issuer, { ...options, algorithm: "oidc" })))();
    server.catch(() => (server = undefined));
    return server;
  }
  const processDiscovery = (res: Response) => oauth.processDiscoveryResponse(issuer, res);

  return {
    name: cfg.name,

    /** Where to send the browser for the provider's sign-in. */
    async start(back: UpstreamReturn): Promise<string> {
      const as = await discover();
      const state = randomBytes(16).toString("base64url");
      const verifier = oauth.generateRandomCodeVerifier();
      const nonce = oauth.generateRandomNonce();
      await pendingStates.put("upstream-oidc", state, { back, verifier, nonce } satisfies Pending, PENDING_TTL_MS);
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: cfg.clientId,
        redirect_uri: redirectUri(),
        response_type: "code",
        scope: "openid email profile",
        state,
        nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    /** Completes the provider's redirect: where the sign-in continues and the verified email. */
    async finish(callback: URL): Promise<{ back: UpstreamReturn; email: string; name: string }> {
      const as = await discover();
      const state = callback.searchParams.get("state") ?? "";
      // Taken once, by whichever replica the provider sends the browser back to.
      const p = state ? await pendingStates.take<Pending>("upstream-oidc", state) : null;
      if (!p) throw new Error("This sign-in has expired; start again.");
      const params = oauth.validateAuthResponse(as, client, callback, state);
      const res = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        auth,
        params,
        redirectUri(),
        p.verifier,
        options,
      );
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, res, {
        expectedNonce: p.nonce,
        requireIdToken: true,
      });
      const claims = oauth.getValidatedIdTokenClaims(tokens)!;
      if (typeof claims.email !== "string" || claims.email_verified === false)
        throw new Error(`${cfg.name} did not share a verified email address.`);
      const name =
        typeof claims.name === "string" && claims.name.trim()
          ? claims.name.trim().slice(0, 200)
          : claims.email.split("@")[0];
      return { back: p.back, email: claims.email.toLowerCase(), name };
    },
  };
}

export type UpstreamOidc = ReturnType<typeof createUpstreamOidc>;
