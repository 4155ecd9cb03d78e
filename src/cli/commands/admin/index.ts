// notula admin …: non-interactive administration of a data dir, for scripts and CI.
// Works while the server runs (SQLite in WAL mode with a busy timeout).
import type { Command } from "commander";
import { under } from "../../lib/command.js";
import * as backup from "./backup.js";
import { adminDeps, jsonTo, terminalIo, type AdminIo } from "./deps.js";
import * as keysCreate from "./keys/create.js";
import * as keysList from "./keys/list.js";
import * as keysRevoke from "./keys/revoke.js";
import * as migrateData from "./migrate-data.js";
import * as reindex from "./reindex.js";
import * as restore from "./restore.js";
import * as systemd from "./systemd.js";
import * as usersCreate from "./users/create.js";
import * as usersPasswordLink from "./users/password-link.js";
import * as usersSetPassword from "./users/set-password.js";
import * as workspacesCreate from "./workspaces/create.js";
import * as workspacesList from "./workspaces/list.js";
import * as workspacesSetPlan from "./workspaces/set-plan.js";

export type { AdminIo } from "./deps.js";

/** `io`: the terminal, or a caller's (the test suite runs admin commands in-process). */
export function registerAdmin(program: Command, io: AdminIo = terminalIo) {
  const deps = adminDeps(io);
  const json = jsonTo(io);
  const admin = program.command("admin").description("Administer a data dir directly (no server or key needed)");
  under(admin, deps, [migrateData, backup, restore], json);
  under(admin.command("keys").description("API keys"), deps, [keysCreate, keysList, keysRevoke], json);
  under(
    admin.command("workspaces").description("Workspaces"),
    deps,
    [workspacesCreate, workspacesList, workspacesSetPlan],
    json,
  );
  under(admin.command("users").description("Users"), deps, [usersCreate, usersSetPassword, usersPasswordLink], json);
  under(admin, deps, [reindex, systemd], json);
}
