// notula mail remove
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { renderMail } from "./show.js";

export const define = (mail: Command) =>
  mail
    .command("remove")
    .description("Forget the workspace's own SMTP server and its password (the server's is used, if any)")
    .option("-y, --yes", "do not ask")
    .addHelpText("after", "\nExample:\n  notula mail remove --yes");

export async function run(f: { yes?: boolean }, { api }: Deps) {
  await confirm("Remove the workspace's SMTP server and its password?", f.yes);
  return (await api.call("updateMailConfig", { body: { smtp: null } })).mail;
}

export const render = renderMail;
