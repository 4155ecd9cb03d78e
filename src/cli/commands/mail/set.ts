// notula mail set --host H [--port P] [--security tls|starttls] [--username U --password-stdin] [--from F]
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { CliError, EXIT } from "../../exit.js";
import { canPrompt, readInput } from "../../lib/context.js";
import { info } from "../../lib/output.js";
import { renderMail } from "./show.js";

export const define = (mail: Command) =>
  mail
    .command("set")
    .description("Send the workspace's mail through its own SMTP server (the password is read, never an argument)")
    .requiredOption("--host <host>", "the SMTP server")
    .option("--port <port>", "587 for starttls, 465 for tls (the default follows --security)")
    .option("--security <tls|starttls>", "TLS from the start, or upgraded with STARTTLS", "starttls")
    .option("--username <name>", "the user to sign in as")
    .option("--password-stdin", "read the password from standard input (else it is asked at a terminal)")
    .option("--keep-password", "keep the stored password (same host and user only)")
    .option("--from <sender>", "the sender: an address or 'Name <address>'")
    .addHelpText(
      "after",
      "\nExamples:\n  printf '%s' \"$SMTP_PASSWORD\" | notula mail set --host smtp.example.com --username notes@example.com --password-stdin --from 'Acme notes <notes@example.com>'\n  notula mail set --host relay.example.com --port 25 --security starttls",
    );

export interface Input {
  host: string;
  port?: string;
  security: string;
  username?: string;
  passwordStdin?: boolean;
  keepPassword?: boolean;
  from?: string;
}

async function password(f: Input): Promise<string | null | undefined> {
  if (!f.username || f.keepPassword) return undefined;
  if (f.passwordStdin) return (await readInput("-")).replace(/\r?\n$/, "") || null;
  if (!canPrompt())
    throw new CliError("A user name needs its password: pass --password-stdin (or --keep-password).", EXIT.usage);
  const p = await import("@clack/prompts");
  const answer = await p.password({ message: `Password for ${f.username}` });
  if (p.isCancel(answer)) throw new CliError("Cancelled.", EXIT.usage);
  return String(answer) || null;
}

export async function run(f: Input, { api }: Deps) {
  if (f.security !== "tls" && f.security !== "starttls")
    throw new CliError(`--security takes tls or starttls, not "${f.security}".`, EXIT.usage);
  if (!f.username && (f.passwordStdin || f.keepPassword))
    throw new CliError("--password-stdin and --keep-password go with --username.", EXIT.usage);
  const port = f.port === undefined ? (f.security === "tls" ? 465 : 587) : Number(f.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new CliError(`--port takes a port number, not "${f.port}".`, EXIT.usage);
  const pass = await password(f);
  const body = {
    smtp: {
      host: f.host,
      port,
      security: f.security as "tls" | "starttls",
      username: f.username ?? null,
      ...(pass !== undefined ? { password: pass } : {}),
    },
    ...(f.from !== undefined ? { from: f.from || null } : {}),
  };
  return (await api.call("updateMailConfig", { body })).mail;
}

export function render(m: Awaited<ReturnType<typeof run>>) {
  renderMail(m);
  info("Saved. Check it with: notula mail test");
}
