// notula invites create --email … | --link
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { checkFlag } from "../../lib/check-flags.js";
import { Role } from "../../../shared/schemas/workspace.js";
import type { Deps } from "../../lib/command.js";
import { collect } from "../../lib/context.js";
import { info, shortDate } from "../../lib/output.js";

export const define = (invites: Command) =>
  invites
    .command("create")
    .description("Invite someone by email, or make an invite link")
    .option("--email <email>", "who to invite")
    .option("--link", "a URL invite anyone with the link can use")
    .option("--role <role>", "admin | member", "member")
    .option("--folder <id>", "folders to give access to (repeatable)", collect)
    .option("--group <id>", "with --legacy: groups to join (repeatable)", collect)
    .option("--legacy", "use the older /v1/workspace/invites endpoint")
    .addHelpText(
      "after",
      "\nExamples:\n  notula invites create --email ana@example.com --role admin\n  notula invites create --link",
    );

export interface Input {
  email?: string;
  link?: boolean;
  role: "admin" | "member";
  folder?: string[];
  group?: string[];
  legacy?: boolean;
}

export const validate = (f: Input) => checkFlag("--role", f.role, Role);

/** The invite, with the link that accepts it (the text output prints that link). */
export async function run(f: Input, { api, server }: Deps) {
  if (!f.email && !f.link) throw new CliError("Give --email, or --link for a URL invite.", EXIT.usage);
  const { invite } = await (f.legacy
    ? api.call("createWorkspaceInvite", {
        // Sent as given: the older endpoint wants an email even for a link, and says so itself.
        body: { email: f.email as string, role: f.role, isUrlInvite: Boolean(f.link), groupIds: f.group },
      })
    : api.call("createInvite", {
        body: { email: f.email ?? null, role: f.role, isUrlInvite: Boolean(f.link), folderIds: f.folder },
      }));
  return { ...invite, url: `${server}/invite/${invite.code}` };
}

export function render(invite: Awaited<ReturnType<typeof run>>) {
  process.stdout.write(`${invite.url}\n`);
  info(`Invite ${invite.id} for ${invite.email ?? "anyone with the link"} expires ${shortDate(invite.expiresAt)}.`);
}
