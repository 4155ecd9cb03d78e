// notula mail show
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { MailConfigDto } from "../../../shared/schemas/mail-config.js";

export const define = (mail: Command) =>
  mail
    .command("show")
    .description("Whose SMTP server sends the workspace's mail, and as whom")
    .addHelpText("after", "\nExample:\n  notula mail show --json");

export async function run(_f: object, { api }: Deps) {
  return (await api.call("getMailConfig")).mail;
}

export function renderMail(m: MailConfigDto) {
  const lines =
    m.source === "workspace" && m.smtp
      ? [
          `source    the workspace's own server`,
          `server    ${m.smtp.host}:${m.smtp.port} (${m.smtp.security})`,
          `user      ${m.smtp.username ?? "-"}${m.smtp.hasPassword ? " (password set)" : ""}`,
        ]
      : [m.source === "server" ? "source    the server's (NOTULA_SMTP_URL)" : "source    none: email is not set up"];
  process.stdout.write(`${[...lines, `sender    ${m.effectiveFrom || "-"}`].join("\n")}\n`);
}

export const render = renderMail;
