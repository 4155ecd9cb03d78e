// notula me
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";

export const define = (program: Command) =>
  examples(
    program.command("me").description("Who the key belongs to"),
    "notula me",
    "notula me --json --jq .user.email",
  );

export const run = (_input: object, { api }: Deps) => api.call("getMe");

export const render = (r: ApiResponse<"getMe">, _input: object, { server }: Deps) =>
  process.stdout.write(
    `${r.user.name} <${r.user.email}>\nworkspace  ${r.workspace.name} (${r.workspace.id}, ${r.workspace.plan})\nscopes     ${r.scopes.join(", ")}\nserver     ${server}\n`,
  );
