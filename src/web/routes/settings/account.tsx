// Settings → account: your name, password and sessions.
import { BadRequestError } from "../../../core/errors.js";
import { viewerOf } from "../../context.js";
import { AccountPage } from "../../pages/settings.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, param, type Page, type SettingsKit } from "./kit.js";

export function accountSettings(app: Hono<WebEnv>, services: Services, { form, flash }: SettingsKit) {
  const accountPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <AccountPage
        viewer={viewer}
        sessions={await services.accounts.sessions(viewer.session)}
        mail={{
          noteReady: (await services.notifications.get(viewer.principal)).noteReady,
          configured: await services.notifications.mailConfigured(viewer.principal),
        }}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/account", async (c) => accountPage(c, await flash.take(c)));
  app.post(
    "/settings/account/name",
    form(accountPage, async (c, f) => {
      await services.accounts.rename(viewerOf(c).session, text(f, "name"));
      return c.redirect("/settings/account", 303);
    }),
  );
  app.post(
    "/settings/account/time-zone",
    form(accountPage, async (c, f) => {
      await services.accounts.setTimeZone(viewerOf(c).session, text(f, "timeZone"));
      return flash.redirect(c, "/settings/account", { notice: "Times are now shown in your chosen time zone." });
    }),
  );
  app.post(
    "/settings/account/password",
    form(accountPage, async (c, f) => {
      if (text(f, "password") !== text(f, "confirm")) throw new BadRequestError("The two new passwords differ.");
      await services.accounts.changePassword(viewerOf(c).session, text(f, "current"), text(f, "password"));
      return flash.redirect(c, "/settings/account", {
        notice: "Password changed; your other sessions are signed out.",
      });
    }),
  );
  app.post(
    "/settings/account/notifications",
    form(accountPage, async (c, f) => {
      const on = text(f, "noteReady") === "1";
      await services.notifications.set(viewerOf(c).principal, { noteReady: on });
      return flash.redirect(c, "/settings/account", {
        notice: on ? "You will be mailed when a note of yours is ready." : "No more mail when a note is ready.",
      });
    }),
  );
  app.post(
    "/settings/account/sessions/revoke-others",
    form(accountPage, async (c) => {
      const n = await services.accounts.signOutOthers(viewerOf(c).session);
      return flash.redirect(c, "/settings/account", { notice: `Signed out ${n} other session${n === 1 ? "" : "s"}.` });
    }),
  );
  app.post(
    "/settings/account/sessions/:handle/revoke",
    form(accountPage, async (c) => {
      await services.accounts.revokeSession(viewerOf(c).session, param(c, "handle"));
      return flash.redirect(c, "/settings/account", { notice: "That session is signed out." });
    }),
  );
}
