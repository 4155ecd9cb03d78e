// notula workspace
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";

export const define = (program: Command) =>
  examples(
    program.command("workspace").description("The workspace: name, settings, allowed domains"),
    "notula workspace",
    "notula workspace --json allowedEmailDomains",
  );

export const run = async (_input: object, { api }: Deps) => (await api.call("getWorkspace")).workspace;

export const render = (w: Awaited<ReturnType<typeof run>>) =>
  process.stdout.write(
    `${w.name} (${w.id})\nlanguage           ${w.settings.defaultLanguage}\nnote permission    ${w.settings.meetingDefaultPermission}\nallowed domains    ${w.allowedEmailDomains.join(", ") || "-"}\n`,
  );
