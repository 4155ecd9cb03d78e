// Settings → AI (admins): the language model's address, key and model, a Test button,
// and going back to the server's (or to extracts).
import type { Hono } from "hono";
import { BadRequestError } from "../../../core/errors.js";
import { workspacePolicy } from "../../../core/access.js";
import type { Services } from "../../../services/index.js";
import { viewerOf, type WebEnv } from "../../context.js";
import { render } from "../../render.js";
import { AiSettingsPage } from "../../pages/ai-settings.js";
import { DEFAULT_LLM_MODEL, LLM_MODELS } from "../../../ai/llm/local-models.js";
import { openAiServerChange, requireAllowed, text, type Page, type SettingsKit } from "./kit.js";

export function aiSettings(app: Hono<WebEnv>, services: Services, { form }: SettingsKit) {
  const page: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAllowed(c, workspacePolicy.configureAi);
    return render(
      c,
      <AiSettingsPage
        viewer={viewer}
        config={await services.aiConfig.get(viewer.principal)}
        setup={services.llmSetup.status(viewer.principal)}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/ai", (c) => page(c, c.req.query("saved") ? { notice: "Saved." } : {}));
  app.post(
    "/settings/ai",
    form(
      page,
      async (c, f) => {
        await services.aiConfig.update(viewerOf(c).principal, openAiServerChange(f, "llm"), services.templates);
        return c.redirect("/settings/ai?saved=1", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.post(
    "/settings/ai/test",
    form(
      page,
      async (c) => {
        const r = await services.aiConfig.testLlm(viewerOf(c).principal);
        return page(c, { notice: `${r.model} answered: “${r.reply}”` });
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  // For the page's progress bar.
  app.get("/settings/ai/local/status", (c) =>
    c.json(services.llmSetup.status(requireAllowed(c, workspacePolicy.configureAi).principal)),
  );
  app.post(
    "/settings/ai/local/setup",
    form(
      page,
      async (c, f) => {
        const model = text(f, "model") || DEFAULT_LLM_MODEL;
        if (!LLM_MODELS.some((m) => m.name === model))
          throw new BadRequestError(`There is no model "${model}"; choose one from the list.`);
        services.llmSetup.start(viewerOf(c).principal, model);
        return c.redirect("/settings/ai", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.post(
    "/settings/ai/local/use",
    form(
      page,
      async (c) => {
        await services.aiConfig.update(viewerOf(c).principal, { llm: { engine: "local" } }, services.templates);
        return c.redirect("/settings/ai?saved=1", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.post(
    "/settings/ai/remove",
    form(
      page,
      async (c) => {
        const p = viewerOf(c).principal;
        // The local model would be taken again by "auto" while it is on this server: stopping it means extracts.
        const local = (await services.aiConfig.get(p)).effective.summary.startsWith("local:");
        await services.aiConfig.update(
          p,
          { llm: { engine: local ? "extractive" : null, url: null, model: null, apiKey: null } },
          services.templates,
        );
        return c.redirect("/settings/ai?saved=1", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
}
