// Settings → API keys: a member's own keys for the CLI, scripts and CI, within their role's scopes.
import type { ScopeName } from "../../../core/principal.js";
import { scopesForRole as scopesFor } from "../../../core/access.js";
import { viewerOf } from "../../context.js";
import { KeysPage } from "../../pages/settings.js";
import { textFields } from "../../form-fields.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, param, type Page, type SettingsKit } from "./kit.js";

export function keysSettings(app: Hono<WebEnv>, services: Services, { form, flash }: SettingsKit) {
  const keysPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <KeysPage
        viewer={viewer}
        keys={await services.apiKeys.listOwn(viewer.principal)}
        allowed={scopesFor(viewer.role)}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/keys", async (c) => keysPage(c, await flash.take(c)));
  app.post(
    "/settings/keys",
    form(keysPage, async (c, f) => {
      const viewer = viewerOf(c);
      const created = await services.apiKeys.createOwn(viewer.principal, viewer.role, {
        name: text(f, "name"),
        scopes: textFields(f, "scopes") as ScopeName[],
      });
      return flash.redirect(c, "/settings/keys", { created: { key: created.key, name: created.name } });
    }),
  );
  app.post(
    "/settings/keys/:id/revoke",
    form(keysPage, async (c) => {
      await services.apiKeys.revokeOwn(viewerOf(c).principal, param(c, "id"));
      return flash.redirect(c, "/settings/keys", { notice: "The key is revoked." });
    }),
  );
}
