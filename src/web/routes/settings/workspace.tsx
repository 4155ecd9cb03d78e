// Settings → workspace (admins): name, single sign-on domains, who sees a new note.
import { BadRequestError } from "../../../core/errors.js";
import { viewerOf } from "../../context.js";
import { WorkspaceSettingsPage } from "../../pages/workspace.js";
import { WorkspaceUpdateBody } from "../../../shared/schemas/workspace.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import { workspacePolicy } from "../../../core/access.js";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, requireAllowed, type Page, type SettingsKit } from "./kit.js";

export function workspaceSettings(app: Hono<WebEnv>, services: Services, { form, ssoName }: SettingsKit) {
  const workspacePage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAllowed(c);
    return render(
      c,
      <WorkspaceSettingsPage
        viewer={viewer}
        workspace={await services.workspaces.get(viewer.principal.workspaceId)}
        sso={ssoName}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/workspace", async (c) => workspacePage(c, c.req.query("saved") ? { notice: "Saved." } : {}));
  app.post(
    "/settings/workspace",
    form(
      workspacePage,
      async (c, f) => {
        // The same schema as PATCH /v1/workspace: one set of rules for both.
        const parsed = WorkspaceUpdateBody.safeParse({
          name: text(f, "name"),
          allowedEmailDomains: text(f, "allowedEmailDomains")
            .split(/[\s,;]+/)
            .filter(Boolean),
          settings: {
            defaultLanguage: text(f, "defaultLanguage"),
            meetingDefaultPermission: text(f, "meetingDefaultPermission"),
          },
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new BadRequestError(
            `${issue.path.filter((p) => typeof p === "string").join(" ") || "form"}: ${issue.message}`,
          );
        }
        await services.workspaces.update(viewerOf(c).principal, parsed.data);
        // A new page, so that the top bar shows a new name too.
        return c.redirect("/settings/workspace?saved=1", 303);
      },
      { allowed: workspacePolicy.manage },
    ),
  );
}
