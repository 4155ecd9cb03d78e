// The browser half of `notula login --browser`: approve a key for the CLI, then hand
// the CLI a one-time code on its loopback address.
import { Hono } from "hono";
import { scopesForRole as scopesFor } from "../../core/access.js";
import { loopbackRedirect } from "../../services/cli-grants.js";
import type { Services } from "../../services/index.js";
import { Csrf, Layout } from "../components/layout.js";
import { csrfOk, requireViewer, viewerOf, type WebEnv } from "../context.js";
import { MessagePage } from "../pages/sign-in.js";
import { render } from "../render.js";

export function cliLoginPages(services: Services) {
  const app = new Hono<WebEnv>();
  app.use("/cli/authorize", requireViewer);

  const request = (q: Record<string, string | undefined>) => ({
    redirect: loopbackRedirect(q.redirect_uri ?? ""),
    state: (q.state ?? "").slice(0, 200),
    challenge: q.code_challenge ?? "",
    name: (q.name ?? "notula CLI").slice(0, 80),
  });

  app.get("/cli/authorize", async (c) => {
    const viewer = viewerOf(c);
    const r = request(c.req.query());
    if (!r.redirect)
      return render(
        c,
        <MessagePage
          title="Cannot continue"
          message="This sign-in link did not come from the notula CLI on this computer."
          viewer={viewer}
        />,
        400,
      );
    return render(
      c,
      <Layout title="Sign in the CLI" viewer={viewer} narrow>
        <h1>Sign in the notula CLI?</h1>
        <p>
          A new API key named <strong>{r.name}</strong> will let the notula command line on this computer act as you in{" "}
          {viewer.workspace.name}, with the scopes {scopesFor(viewer.role).join(", ")}. You can revoke it under API
          keys.
        </p>
        <form method="post" action="/cli/authorize" class="actions">
          <Csrf viewer={viewer} />
          <input type="hidden" name="redirect_uri" value={r.redirect.toString()} />
          <input type="hidden" name="state" value={r.state} />
          <input type="hidden" name="code_challenge" value={r.challenge} />
          <input type="hidden" name="name" value={r.name} />
          <button type="submit">Create the key</button>
          <a class="button secondary" href="/notes">
            Cancel
          </a>
        </form>
      </Layout>,
    );
  });

  app.post("/cli/authorize", async (c) => {
    const f = await c.req.parseBody();
    const viewer = viewerOf(c);
    const r = request(
      Object.fromEntries(Object.entries(f).map(([k, v]) => [k, typeof v === "string" ? v : undefined])),
    );
    if (!(await csrfOk(c, f)) || !r.redirect)
      return render(
        c,
        <MessagePage title="Cannot continue" message="The form had expired; run the login again." viewer={viewer} />,
        403,
      );
    const code = await services.cliGrants.approve(viewer.principal, viewer.role, {
      name: r.name,
      challenge: r.challenge,
    });
    r.redirect.searchParams.set("code", code);
    r.redirect.searchParams.set("state", r.state);
    return c.redirect(r.redirect.toString(), 303);
  });

  // The CLI's exchange: JSON, no session; the code and its verifier are the credential.
  app.post("/cli/token", async (c) => {
    c.header("Cache-Control", "no-store");
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const created =
      typeof body.code === "string" && typeof body.code_verifier === "string"
        ? await services.cliGrants.exchange(body.code, body.code_verifier)
        : null;
    if (!created)
      return c.json(
        {
          error: {
            code: "bad_request",
            message: "The code is unknown, used or expired, or the verifier does not match.",
          },
        },
        400,
      );
    return c.json({ key: created.key, id: created.id, scopes: created.scopes });
  });

  return app;
}
