// Settings: your API keys and account (name, password, sessions), folders, and for
// admins the members (invites, roles, reset links, removal), webhooks, the workspace,
// email, speech-to-text and the language model. One file per section.
import { Hono } from "hono";
import type { Services } from "../../../services/index.js";
import { requireViewer, type WebEnv } from "../../context.js";
import { createKit } from "./kit.js";
import { keysSettings } from "./keys.js";
import { accountSettings } from "./account.js";
import { folderSettings } from "./folders.js";
import { calendarSettings } from "./calendars.js";
import { webhookSettings } from "./webhooks.js";
import { memberSettings } from "./members.js";
import { workspaceSettings } from "./workspace.js";
import { speechSettings } from "./speech.js";
import { emailSettings } from "./email.js";
import { aiSettings } from "./ai.js";

export function settingsPages(services: Services, opts: { publicUrl: string; ssoName?: string }) {
  const app = new Hono<WebEnv>();
  app.use("/settings/*", requireViewer);
  const kit = createKit(services, opts);
  for (const section of [
    keysSettings,
    accountSettings,
    folderSettings,
    calendarSettings,
    webhookSettings,
    memberSettings,
    workspaceSettings,
    emailSettings,
    speechSettings,
    aiSettings,
  ])
    section(app, services, kit);
  return app;
}
