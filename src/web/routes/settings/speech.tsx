// Settings → speech-to-text (admins): the engine, setting up the local one, an OpenAI-compatible server.
import { BadRequestError } from "../../../core/errors.js";
import { viewerOf } from "../../context.js";
import { render } from "../../render.js";
import { SpeechSettingsPage } from "../../pages/speech.js";
import { DEFAULT_MODEL, MODELS } from "../../../ai/models.js";
import type { Hono } from "hono";
import { workspacePolicy } from "../../../core/access.js";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { openAiServerChange, text, requireAllowed, type Page, type SettingsKit } from "./kit.js";

export function speechSettings(app: Hono<WebEnv>, services: Services, { form }: SettingsKit) {
  const speechPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAllowed(c, workspacePolicy.configureAi);
    const ws = viewer.principal.workspaceId;
    return render(
      c,
      <SpeechSettingsPage
        viewer={viewer}
        config={await services.aiConfig.get(viewer.principal)}
        problem={await services.aiConfig.transcriptionProblem(ws)}
        setup={services.speechSetup.status(viewer.principal)}
        speakerSetup={services.speakerSetup.status(viewer.principal)}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/speech", async (c) => speechPage(c, c.req.query("saved") ? { notice: "Saved." } : {}));
  // For the page's progress bar.
  app.get("/settings/speech/status", (c) =>
    c.json(services.speechSetup.status(requireAllowed(c, workspacePolicy.configureAi).principal)),
  );
  app.post(
    "/settings/speech/setup",
    form(
      speechPage,
      async (c, f) => {
        const model = text(f, "model") || DEFAULT_MODEL;
        if (!MODELS.some((m) => m.name === model))
          throw new BadRequestError(`There is no model "${model}"; choose one from the list.`);
        services.speechSetup.start(viewerOf(c).principal, model);
        return c.redirect("/settings/speech", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.get("/settings/speech/speakers/status", (c) =>
    c.json(services.speakerSetup.status(requireAllowed(c, workspacePolicy.configureAi).principal)),
  );
  // Downloads the speaker models and switches them on; with the models already here, switches them on.
  app.post(
    "/settings/speech/speakers/setup",
    form(
      speechPage,
      async (c) => {
        const p = viewerOf(c).principal;
        if (!(await services.aiConfig.get(p)).speakerSeparation.ready) {
          services.speakerSetup.start(p);
          return c.redirect("/settings/speech", 303);
        }
        await services.aiConfig.useLocalSpeakers(p);
        return c.redirect("/settings/speech?saved=1", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.post(
    "/settings/speech/speakers/off",
    form(
      speechPage,
      async (c) => {
        await services.aiConfig.update(viewerOf(c).principal, { speakerSeparation: "off" }, services.templates);
        return c.redirect("/settings/speech?saved=1", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  // The names and terms the engine is told, typed; and those offered by corrections, taken or set aside.
  app.post(
    "/settings/speech/vocabulary",
    form(
      speechPage,
      async (c, f) => {
        const vocabulary = [
          ...new Set(
            text(f, "vocabulary")
              .split(/\r?\n/)
              .map((t) => t.trim())
              .filter(Boolean),
          ),
        ];
        await services.aiConfig.update(viewerOf(c).principal, { transcription: { vocabulary } }, services.templates);
        return c.redirect("/settings/speech?saved=1#vocabulary", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.post(
    "/settings/speech/vocabulary/offers",
    form(
      speechPage,
      async (c, f) => {
        const p = viewerOf(c).principal;
        const { vocabulary, vocabularyOffered } = (await services.aiConfig.get(p)).transcription;
        const ticked = f.take === undefined ? [] : Array.isArray(f.take) ? f.take : [f.take];
        const taken = text(f, "do") === "take" ? ticked.filter((t): t is string => typeof t === "string") : [];
        await services.aiConfig.update(
          p,
          {
            transcription: {
              vocabulary: [...vocabulary, ...taken.filter((t) => vocabularyOffered.includes(t))],
              vocabularyOffered: [],
            },
          },
          services.templates,
        );
        return c.redirect("/settings/speech?saved=1#vocabulary", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
  app.post(
    "/settings/speech/server",
    form(
      speechPage,
      async (c, f) => {
        await services.aiConfig.update(
          viewerOf(c).principal,
          openAiServerChange(f, "transcription"),
          services.templates,
        );
        return c.redirect("/settings/speech?saved=1", 303);
      },
      { allowed: workspacePolicy.configureAi },
    ),
  );
}
