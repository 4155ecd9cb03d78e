// Settings → webhooks (admins): registrations, the delivery log, redelivery.
import { viewerOf } from "../../context.js";
import { WebhooksPage } from "../../pages/workspace.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import { workspacePolicy } from "../../../core/access.js";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, param, requireAllowed, type Page, type SettingsKit } from "./kit.js";

export function webhookSettings(app: Hono<WebEnv>, services: Services, { form, flash }: SettingsKit) {
  const webhooksPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAllowed(c);
    const deliveries = (await services.webhooks.deliveries(viewer.principal, 50, 0)).items;
    return render(
      c,
      <WebhooksPage
        viewer={viewer}
        webhooks={await services.webhooks.list(viewer.principal)}
        deliveries={deliveries}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/webhooks", async (c) => webhooksPage(c, await flash.take(c)));
  app.post(
    "/settings/webhooks",
    form(
      webhooksPage,
      async (c, f) => {
        const registered = await services.webhooks.register(viewerOf(c).principal, text(f, "hookUrl"));
        return flash.redirect(c, "/settings/webhooks", {
          secret: { url: text(f, "hookUrl"), value: registered.secret },
        });
      },
      { allowed: workspacePolicy.manage, labels: { hookUrl: "URL" } },
    ),
  );
  app.post(
    "/settings/webhooks/remove",
    form(
      webhooksPage,
      async (c, f) => {
        await services.webhooks.remove(viewerOf(c).principal, text(f, "hookUrl"));
        return c.redirect("/settings/webhooks", 303);
      },
      { allowed: workspacePolicy.manage },
    ),
  );

  app.post(
    "/settings/webhooks/deliveries/:id/redeliver",
    form(
      webhooksPage,
      async (c) => {
        await services.webhooks.redeliver(viewerOf(c).principal, param(c, "id"));
        return flash.redirect(c, "/settings/webhooks", {
          notice: "Queued for delivery; reload to see how it went.",
        });
      },
      { allowed: workspacePolicy.manage },
    ),
  );
}
