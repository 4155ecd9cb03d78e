// Settings → Email (admins): the workspace's own SMTP server, through the same service
// and schema as PATCH /v1/mail-config; a test mail to oneself; back to the server's.
import type { Hono } from "hono";
import { BadRequestError } from "../../../core/errors.js";
import { workspacePolicy } from "../../../core/access.js";
import { viewerOf } from "../../context.js";
import type { WebEnv } from "../../context.js";
import { EmailSettingsPage } from "../../pages/email-settings.js";
import { render } from "../../render.js";
import type { Services } from "../../../services/index.js";
import { MailConfigUpdateBody } from "../../../shared/schemas/mail-config.js";
import { requireAllowed, text, type Page, type SettingsKit } from "./kit.js";

export function emailSettings(app: Hono<WebEnv>, services: Services, { form, flash }: SettingsKit) {
  const allowed = workspacePolicy.configureMail;
  const emailPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAllowed(c, allowed);
    return render(
      c,
      <EmailSettingsPage
        viewer={viewer}
        mail={await services.mail.get(viewer.principal)}
        to={viewer.email}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/email", async (c) => emailPage(c, await flash.take(c)));
  app.post(
    "/settings/email",
    form(
      emailPage,
      async (c, f) => {
        const password = text(f, "password");
        const parsed = MailConfigUpdateBody.safeParse({
          smtp: {
            host: text(f, "host"),
            port: Number(text(f, "port")),
            security: text(f, "security") === "tls" ? "tls" : "starttls",
            username: text(f, "username").trim() || null,
            // An empty field keeps the stored password (where the service allows it).
            ...(password ? { password } : {}),
          },
          from: text(f, "from").trim() || null,
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new BadRequestError(`${issue.path.filter((p) => typeof p === "string").join(".")}: ${issue.message}`);
        }
        await services.mail.update(viewerOf(c).principal, parsed.data);
        return flash.redirect(c, "/settings/email", { notice: "Saved. Send a test mail to check it." });
      },
      { allowed },
    ),
  );
  app.post(
    "/settings/email/test",
    form(
      emailPage,
      async (c) => {
        const r = await services.mail.test(viewerOf(c).principal);
        return flash.redirect(
          c,
          "/settings/email",
          r.delivered
            ? { notice: `A test mail went to ${r.to}: the SMTP server took it.` }
            : { error: `The test mail could not be sent: ${r.error}` },
        );
      },
      { allowed },
    ),
  );
  app.post(
    "/settings/email/remove",
    form(
      emailPage,
      async (c) => {
        await services.mail.update(viewerOf(c).principal, { smtp: null });
        return flash.redirect(c, "/settings/email", { notice: "Removed." });
      },
      { allowed },
    ),
  );
}
