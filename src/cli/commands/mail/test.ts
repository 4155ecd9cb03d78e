// notula mail test
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { CliError, EXIT } from "../../exit.js";

export const define = (mail: Command) =>
  mail
    .command("test")
    .description("Send a test mail to yourself now, and say what the SMTP server answered")
    .addHelpText("after", "\nExample:\n  notula mail test");

/** A test that did not go is a failure (exit 1), with what the SMTP server said. */
export async function run(_f: object, { api }: Deps) {
  const r = await api.call("testMailConfig");
  if (!r.delivered) throw new CliError(`The test mail to ${r.to} could not be sent: ${r.error}`, EXIT.error);
  return r;
}

export function render(r: Awaited<ReturnType<typeof run>>) {
  process.stdout.write(`A test mail went to ${r.to}: the SMTP server took it.\n`);
}
