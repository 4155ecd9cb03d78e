// notula folders | tags | groups | members | invites | me | workspace
import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import type { ApiRequest } from "../lib/api-types.js";
import { collect, confirm, connect, required } from "../lib/context.js";
import { info, printJson, printTable, shortDate } from "../lib/output.js";

const names = (xs: { name: string }[]) => xs.map((x) => x.name).join(", ");

export function registerWorkspace(program: Command) {
  const folders = program.command("folders").description("Folders");
  folders
    .command("list")
    .description("List folders")
    .action(async (_f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("listFolders");
      if (ctx.json) return printJson(r);
      printTable(["ID", "NAME", "PARENT", "MEMBERS", "CREATED"], r.folders.map((f) => [f.id, f.name, f.parentFolderId ?? "", String(f.memberCount), shortDate(f.createdAt)]));
    });
  folders
    .command("create")
    .description("Create a folder (owned by you unless --owner)")
    .option("--name <name>", "name")
    .option("--owner <userId>", "owner's user id")
    .option("--parent <folderId>", "parent folder")
    .option("--icon <icon>", "icon")
    .option("--color <hex>", "colour, e.g. #4F46E5")
    .option("--private", "visible to its members only")
    .addHelpText("after", "\nExample:\n  notula folders create --name Customers --color '#0EA5E9'")
    .action(async (f, cmd: Command) => {
      const ctx = await connect(cmd);
      const name = await required(f.name, "--name", "Folder name");
      const owner = f.owner ?? (await ctx.api.call("getMe")).user.id;
      const body = { name, ownerUserId: owner, parentFolderId: f.parent, icon: f.icon, color: f.color, isPrivate: f.private ?? undefined };
      const r = await ctx.api.call("createFolder", { body });
      if (ctx.json) printJson(r);
      else process.stdout.write(`${r.folder.id}\n`);
    });
  folders
    .command("update")
    .description("Rename or move a folder")
    .argument("<id>", "folder id")
    .option("--name <name>", "new name")
    .option("--parent <folderId>", "new parent folder")
    .option("--root", "move it to the top level")
    .option("--icon <icon>", "icon")
    .option("--color <hex>", "colour")
    .action(async (id: string, f, cmd: Command) => {
      const ctx = await connect(cmd);
      const body: ApiRequest<"updateFolder">["body"] = { name: f.name, icon: f.icon, color: f.color };
      if (f.parent) body.parentFolderId = f.parent;
      if (f.root) body.parentFolderId = null;
      if (Object.values(body).every((v) => v === undefined)) throw new CliError("Nothing to change: give --name, --parent, --root, --icon or --color.", EXIT.usage);
      const r = await ctx.api.call("updateFolder", { params: { id }, body });
      if (ctx.json) printJson(r);
      else info(`Updated ${r.folder.id}.`);
    });
  folders
    .command("delete")
    .description("Delete a folder (its notes stay, unfiled)")
    .argument("<id>", "folder id")
    .option("-y, --yes", "do not ask")
    .action(async (id: string, f, cmd: Command) => {
      const ctx = await connect(cmd);
      await confirm(`Delete folder ${id}? Its notes stay, unfiled.`, f.yes);
      const r = await ctx.api.call("deleteFolder", { params: { id } });
      if (ctx.json) printJson(r);
      else info(`Deleted ${id}.`);
    });

  program
    .command("tags")
    .description("Workspace tags")
    .command("list")
    .description("List workspace tags")
    .action(async (_f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("listTags");
      if (ctx.json) return printJson(r);
      printTable(["ID", "NAME", "COLOR"], r.tags.map((t) => [t.id, t.name, t.color]));
    });

  program
    .command("groups")
    .description("User groups")
    .command("list")
    .description("List user groups")
    .action(async (_f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("listGroups");
      if (ctx.json) return printJson(r);
      printTable(["ID", "NAME", "MEMBERS"], r.userGroups.map((g) => [g.id, g.name, String(g.memberCount)]));
    });

  const members = program.command("members").description("Workspace members");
  members
    .command("list")
    .description("List members")
    .option("--search <text>", "part of a name or email")
    .option("--limit <n>", "per page (default 20)")
    .option("--offset <n>", "skip")
    .action(async (f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("listMembers", { query: { search: f.search, limit: f.limit, offset: f.offset } });
      if (ctx.json) return printJson(r);
      printTable(["ID", "NAME", "EMAIL", "ROLE", "GROUPS"], r.items.map((m) => [m.id, m.name, m.email, m.role, names(m.groups)]));
    });
  members
    .command("get")
    .description("Show a member")
    .argument("<id>", "member id")
    .action(async (id: string, _f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("getMember", { params: { id } });
      if (ctx.json) return printJson(r);
      const m = r.member;
      process.stdout.write(`${m.name} <${m.email}>\nid       ${m.id}\nuser     ${m.userId}\nrole     ${m.role}\ngroups   ${names(m.groups) || "-"}\nfolders  ${names(m.folders) || "-"}\n`);
    });
  members
    .command("set-groups")
    .description("Set a member's user groups (replaces them)")
    .argument("<id>", "member id")
    .option("--group <id>", "group id (repeatable; none clears)", collect, [])
    .action(async (id: string, f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("updateMember", { params: { id }, body: { groupIds: f.group } });
      if (ctx.json) printJson(r);
      else info(`${r.member.name} is now in: ${names(r.member.groups) || "no group"}.`);
    });

  const invites = program.command("invites").description("Workspace invites");
  invites
    .command("list")
    .description("List pending invites")
    .option("--legacy", "use the older /v1/workspace/invites endpoint (shows groups)")
    .option("--limit <n>", "per page (default 20)")
    .option("--offset <n>", "skip")
    .action(async (f, cmd: Command) => {
      const ctx = await connect(cmd);
      const query = { limit: f.limit, offset: f.offset };
      const link = (code: string) => `${ctx.server}/invite/${code}`;
      const head = ["ID", "EMAIL", "ROLE", "EXPIRES", f.legacy ? "GROUPS" : "FOLDERS", "LINK"];
      if (f.legacy) {
        const r = await ctx.api.call("listWorkspaceInvites", { query });
        if (ctx.json) return printJson(r);
        printTable(head, r.items.map((i) => [i.id, i.email ?? "(link)", i.role, shortDate(i.expiresAt), names(i.groups), link(i.code)]));
      } else {
        const r = await ctx.api.call("listInvites", { query });
        if (ctx.json) return printJson(r);
        printTable(head, r.items.map((i) => [i.id, i.email ?? "(link)", i.role, shortDate(i.expiresAt), names(i.folders), link(i.code)]));
      }
    });
  invites
    .command("create")
    .description("Invite someone by email, or make an invite link")
    .option("--email <email>", "who to invite")
    .option("--link", "a URL invite anyone with the link can use")
    .option("--role <role>", "admin | member", "member")
    .option("--folder <id>", "folders to give access to (repeatable)", collect)
    .option("--group <id>", "with --legacy: groups to join (repeatable)", collect)
    .option("--legacy", "use the older /v1/workspace/invites endpoint")
    .addHelpText("after", "\nExamples:\n  notula invites create --email ana@example.com --role admin\n  notula invites create --link")
    .action(async (f, cmd: Command) => {
      const ctx = await connect(cmd);
      if (!f.email && !f.link) throw new CliError("Give --email, or --link for a URL invite.", EXIT.usage);
      const r = f.legacy
        ? await ctx.api.call("createWorkspaceInvite", { body: { email: f.email, role: f.role, isUrlInvite: Boolean(f.link), groupIds: f.group } })
        : await ctx.api.call("createInvite", { body: { email: f.email ?? null, role: f.role, isUrlInvite: Boolean(f.link), folderIds: f.folder } });
      if (ctx.json) return printJson(r);
      process.stdout.write(`${ctx.server}/invite/${r.invite.code}\n`);
      info(`Invite ${r.invite.id} for ${r.invite.email ?? "anyone with the link"} expires ${shortDate(r.invite.expiresAt)}.`);
    });
  invites
    .command("delete")
    .description("Delete an invite")
    .argument("<id>", "invite id")
    .option("--legacy", "use the older endpoint")
    .option("-y, --yes", "do not ask")
    .action(async (id: string, f, cmd: Command) => {
      const ctx = await connect(cmd);
      await confirm(`Delete invite ${id}?`, f.yes);
      const r = await ctx.api.call(f.legacy ? "deleteWorkspaceInvite" : "deleteInvite", { params: { id } });
      if (ctx.json) printJson(r);
      else info(r.message);
    });

  program
    .command("me")
    .description("Who the key belongs to")
    .action(async (_f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("getMe");
      if (ctx.json) return printJson(r);
      process.stdout.write(`${r.user.name} <${r.user.email}>\nworkspace  ${r.workspace.name} (${r.workspace.id}, ${r.workspace.plan})\nscopes     ${r.scopes.join(", ")}\nserver     ${ctx.server}\n`);
    });

  program
    .command("workspace")
    .description("The workspace: name, settings, allowed domains")
    .action(async (_f, cmd: Command) => {
      const ctx = await connect(cmd);
      const r = await ctx.api.call("getWorkspace");
      if (ctx.json) return printJson(r);
      const w = r.workspace;
      process.stdout.write(`${w.name} (${w.id})\nlanguage           ${w.settings.defaultLanguage}\nnote permission    ${w.settings.meetingDefaultPermission}\nallowed domains    ${w.allowedEmailDomains.join(", ") || "-"}\n`);
    });
}
