// Stopping "your note is ready" mail from the mail itself: the link opens a page with
// one button, and a mail client's one-click unsubscribe (RFC 8058) POSTs to the same
// address. The signed token is the only credential: it can turn that mail off, nothing else.
import { Hono } from "hono";
import { AppError } from "../../core/errors.js";
import type { Services } from "../../services/index.js";
import type { WebEnv } from "../context.js";
import { Layout } from "../components/layout.js";
import { render } from "../render.js";

export function unsubscribePages(services: Services) {
  const app = new Hono<WebEnv>();
  const page = (c: Parameters<typeof render>[0], body: "ask" | "done" | "invalid", status: 200 | 400 = 200) =>
    render(
      c,
      <Layout title="Note mail" viewer={null} narrow>
        <h1>{body === "done" ? "Unsubscribed" : body === "invalid" ? "This link does not work" : "Stop note mail?"}</h1>
        {body === "ask" ? (
          <form method="post">
            <p>You will no longer be mailed when a note of yours is ready. You can turn it on again in your account.</p>
            <button type="submit">Stop these mails</button>
          </form>
        ) : body === "done" ? (
          <p>You will no longer be mailed when a note of yours is ready.</p>
        ) : (
          <p>The link is damaged or was not made by this server. Turn the mail off in your account's settings.</p>
        )}
      </Layout>,
      status,
    );
  app.get("/unsubscribe/:token", (c) => page(c, "ask"));
  app.post("/unsubscribe/:token", async (c) => {
    try {
      await services.notifications.unsubscribe(c.req.param("token"));
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return page(c, "invalid", 400);
      throw err;
    }
    return page(c, "done");
  });
  return app;
}
