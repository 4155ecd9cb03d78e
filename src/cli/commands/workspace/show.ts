// notula workspace
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";

export const define = (program: Command) =>
  program.command("workspace").description("The workspace: name, settings, allowed domains");

export const run = (_input: object, { api }: Deps) => api.call("getWorkspace");

export const render = ({ workspace: w }: ApiResponse<"getWorkspace">) =>
  process.stdout.write(
    `${w.name} (${w.id})\nlanguage           ${w.settings.defaultLanguage}\nnote permission    ${w.settings.meetingDefaultPermission}\nallowed domains    ${w.allowedEmailDomains.join(", ") || "-"}\n`,
  );
