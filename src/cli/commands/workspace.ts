// notula folders | tags | groups | members | invites | me | workspace
import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import type { ApiRequest } from "../lib/api-types.js";
import { apiAction, collect, confirm, required } from "../lib/context.js";
import { info, printTable, shortDate } from "../lib/output.js";

const names = (xs: { name: string }[]) => xs.map((x) => x.name).join(", ");
const pageOptions = (cmd: Command) => cmd.option("--limit <n>", "per page (default 20)").option("--offset <n>", "skip");

function registerFolders(program: Command) {
  const folders = program.command("folders").description("Folders");
  folders
    .command("list")
    .description("List folders")
    .action(
      apiAction(
        (ctx) => ctx.api.call("listFolders"),
        (r) =>
          printTable(
            ["ID", "NAME", "PARENT", "MEMBERS", "ACCESS", "TEMPLATE", "CREATED"],
            r.folders.map((f) => [
              f.id,
              f.name,
              f.parentFolderId ?? "",
              String(f.memberCount),
              f.isPrivate ? "private" : "shared",
              f.templateId ?? "",
              shortDate(f.createdAt),
            ]),
          ),
      ),
    );
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
    .action(
      apiAction(
        async (ctx, f) => {
          const name = await required(f.name, "--name", "Folder name");
          const owner = f.owner ?? (await ctx.api.call("getMe")).user.id;
          return ctx.api.call("createFolder", {
            body: {
              name,
              ownerUserId: owner,
              parentFolderId: f.parent,
              icon: f.icon,
              color: f.color,
              isPrivate: f.private ?? undefined,
            },
          });
        },
        (r) => process.stdout.write(`${r.folder.id}\n`),
      ),
    );
  folders
    .command("update")
    .description("Rename, move or share a folder, or set its template")
    .argument("<id>", "folder id")
    .option("--name <name>", "new name")
    .option("--parent <folderId>", "new parent folder")
    .option("--root", "move it to the top level")
    .option("--icon <icon>", "icon")
    .option("--color <hex>", "colour")
    .option("--private", "visible to its members only")
    .option("--shared", "visible to the whole workspace")
    .option("--template <id>", "the template notes filed here are enhanced with (none: the workspace default)")
    .addHelpText(
      "after",
      "\nExamples:\n  notula folders update fld_… --private\n  notula folders update fld_… --template tpl_builtin_stand-up",
    )
    .action(
      apiAction(
        (ctx, id: string, f) => {
          if (f.private && f.shared) throw new CliError("Give --private or --shared, not both.", EXIT.usage);
          const body: ApiRequest<"updateFolder">["body"] = { name: f.name, icon: f.icon, color: f.color };
          if (f.parent) body.parentFolderId = f.parent;
          if (f.root) body.parentFolderId = null;
          if (f.private) body.isPrivate = true;
          if (f.shared) body.isPrivate = false;
          if (f.template !== undefined) body.templateId = f.template === "none" ? null : f.template;
          if (Object.values(body).every((v) => v === undefined))
            throw new CliError(
              "Nothing to change: give --name, --parent, --root, --icon, --color, --private, --shared or --template.",
              EXIT.usage,
            );
          return ctx.api.call("updateFolder", { params: { id }, body });
        },
        (r) => info(`Updated ${r.folder.id}.`),
      ),
    );
  folders
    .command("delete")
    .description("Delete a folder (its notes stay, unfiled)")
    .argument("<id>", "folder id")
    .option("-y, --yes", "do not ask")
    .action(
      apiAction(
        async (ctx, id: string, f) => {
          await confirm(`Delete folder ${id}? Its notes stay, unfiled.`, f.yes);
          return ctx.api.call("deleteFolder", { params: { id } });
        },
        (_r, _ctx, id) => info(`Deleted ${id}.`),
      ),
    );
}

function registerMembers(program: Command) {
  program
    .command("tags")
    .description("Workspace tags")
    .command("list")
    .description("List workspace tags")
    .action(
      apiAction(
        (ctx) => ctx.api.call("listTags"),
        (r) =>
          printTable(
            ["ID", "NAME", "COLOR"],
            r.tags.map((t) => [t.id, t.name, t.color]),
          ),
      ),
    );

  program
    .command("groups")
    .description("User groups")
    .command("list")
    .description("List user groups")
    .action(
      apiAction(
        (ctx) => ctx.api.call("listGroups"),
        (r) =>
          printTable(
            ["ID", "NAME", "MEMBERS"],
            r.userGroups.map((g) => [g.id, g.name, String(g.memberCount)]),
          ),
      ),
    );

  const members = program.command("members").description("Workspace members");
  pageOptions(
    members.command("list").description("List members").option("--search <text>", "part of a name or email"),
  ).action(
    apiAction(
      (ctx, f) => ctx.api.call("listMembers", { query: { search: f.search, limit: f.limit, offset: f.offset } }),
      (r) =>
        printTable(
          ["ID", "NAME", "EMAIL", "ROLE", "GROUPS"],
          r.items.map((m) => [m.id, m.name, m.email, m.role, names(m.groups)]),
        ),
    ),
  );
  members
    .command("get")
    .description("Show a member")
    .argument("<id>", "member id")
    .action(
      apiAction(
        (ctx, id: string) => ctx.api.call("getMember", { params: { id } }),
        ({ member: m }) =>
          process.stdout.write(
            `${m.name} <${m.email}>\nid       ${m.id}\nuser     ${m.userId}\nrole     ${m.role}\ngroups   ${names(m.groups) || "-"}\nfolders  ${names(m.folders) || "-"}\n`,
          ),
      ),
    );
  members
    .command("set-groups")
    .description("Set a member's user groups (replaces them)")
    .argument("<id>", "member id")
    .option("--group <id>", "group id (repeatable; none clears)", collect, [])
    .action(
      apiAction(
        (ctx, id: string, f) => ctx.api.call("updateMember", { params: { id }, body: { groupIds: f.group } }),
        (r) => info(`${r.member.name} is now in: ${names(r.member.groups) || "no group"}.`),
      ),
    );
}

function registerInvites(program: Command) {
  const invites = program.command("invites").description("Workspace invites");
  pageOptions(
    invites
      .command("list")
      .description("List pending invites")
      .option("--legacy", "use the older /v1/workspace/invites endpoint (shows groups)"),
  ).action(
    apiAction(
      (ctx, f) =>
        ctx.api.call(f.legacy ? "listWorkspaceInvites" : "listInvites", {
          query: { limit: f.limit, offset: f.offset },
        }),
      (r, ctx, f) =>
        printTable(
          ["ID", "EMAIL", "ROLE", "EXPIRES", f.legacy ? "GROUPS" : "FOLDERS", "LINK"],
          r.items.map((i) => [
            i.id,
            i.email ?? "(link)",
            i.role,
            shortDate(i.expiresAt),
            names("groups" in i ? i.groups : i.folders),
            `${ctx.server}/invite/${i.code}`,
          ]),
        ),
    ),
  );
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
    )
    .action(
      apiAction(
        (ctx, f) => {
          if (!f.email && !f.link) throw new CliError("Give --email, or --link for a URL invite.", EXIT.usage);
          return f.legacy
            ? ctx.api.call("createWorkspaceInvite", {
                body: { email: f.email, role: f.role, isUrlInvite: Boolean(f.link), groupIds: f.group },
              })
            : ctx.api.call("createInvite", {
                body: { email: f.email ?? null, role: f.role, isUrlInvite: Boolean(f.link), folderIds: f.folder },
              });
        },
        ({ invite }, ctx) => {
          process.stdout.write(`${ctx.server}/invite/${invite.code}\n`);
          info(
            `Invite ${invite.id} for ${invite.email ?? "anyone with the link"} expires ${shortDate(invite.expiresAt)}.`,
          );
        },
      ),
    );
  invites
    .command("delete")
    .description("Delete an invite")
    .argument("<id>", "invite id")
    .option("--legacy", "use the older endpoint")
    .option("-y, --yes", "do not ask")
    .action(
      apiAction(
        async (ctx, id: string, f) => {
          await confirm(`Delete invite ${id}?`, f.yes);
          return ctx.api.call(f.legacy ? "deleteWorkspaceInvite" : "deleteInvite", { params: { id } });
        },
        (r) => info(r.message),
      ),
    );
}

export function registerWorkspace(program: Command) {
  registerFolders(program);
  registerMembers(program);
  registerInvites(program);

  program
    .command("me")
    .description("Who the key belongs to")
    .action(
      apiAction(
        (ctx) => ctx.api.call("getMe"),
        (r, ctx) =>
          process.stdout.write(
            `${r.user.name} <${r.user.email}>\nworkspace  ${r.workspace.name} (${r.workspace.id}, ${r.workspace.plan})\nscopes     ${r.scopes.join(", ")}\nserver     ${ctx.server}\n`,
          ),
      ),
    );

  program
    .command("workspace")
    .description("The workspace: name, settings, allowed domains")
    .action(
      apiAction(
        (ctx) => ctx.api.call("getWorkspace"),
        ({ workspace: w }) =>
          process.stdout.write(
            `${w.name} (${w.id})\nlanguage           ${w.settings.defaultLanguage}\nnote permission    ${w.settings.meetingDefaultPermission}\nallowed domains    ${w.allowedEmailDomains.join(", ") || "-"}\n`,
          ),
      ),
    );
}
