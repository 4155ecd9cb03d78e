// `notula admin …`: non-interactive administration of a data dir, for scripts and
// CI. Works while the server runs (SQLite in WAL mode with a busy timeout).
import type { Command } from "commander";
import { registerMigrateData } from "./migrate-data.js";
import { registerBackup } from "./backup.js";
import { CliError, EXIT } from "./exit.js";

interface DataDirFlags {
  dataDir?: string;
  json?: boolean;
}

async function withRuntime<T>(
  flags: DataDirFlags,
  fn: (rt: import("../runtime.js").Runtime, publicUrl: string) => T | Promise<T>,
): Promise<T> {
  const { loadConfig, ConfigError } = await import("../config/load.js");
  const { resolvePublicUrl } = await import("../config/resolve.js");
  const { openRuntime } = await import("../runtime.js");
  const { AppError } = await import("../core/errors.js");
  const { exitCodeFor } = await import("./exit.js");
  let config;
  try {
    config = loadConfig({ dataDir: flags.dataDir });
  } catch (err) {
    throw err instanceof ConfigError ? new CliError(err.message, EXIT.usage) : err;
  }
  // Links the services write (invites) point where the server is reached.
  const publicUrl = resolvePublicUrl(config);
  let rt;
  try {
    rt = await openRuntime(config.dataDir, {
      publicUrl,
      storage: config.storage,
      database: config.database,
      secretKey: config.secretKey,
      vectorIndexAt: config.embeddings.indexAt,
    });
  } catch (err) {
    throw err instanceof ConfigError ? new CliError(err.message, EXIT.usage) : err;
  }
  try {
    return await fn(rt, publicUrl);
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message, exitCodeFor(err.status));
    throw err;
  } finally {
    await rt.close();
  }
}

/** Commander hands an action its arguments, its options and the command; this gives
 * it the options merged with the global ones (--json) first, then the arguments. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withFlags(fn: (flags: any, ...args: any[]) => unknown) {
  return async (...all: unknown[]): Promise<void> => {
    const cmd = all[all.length - 1] as Command;
    await fn(cmd.optsWithGlobals(), ...all.slice(0, -2));
  };
}

/** Where the admin commands write and read: the terminal, unless a caller (the test suite) runs them in-process. */
export interface AdminIo {
  write(text: string): void;
  /** Standard input, whole, or null when it is a terminal. */
  readInput(): Promise<string | null>;
}

const terminalIo: AdminIo = {
  write: (text) => void process.stdout.write(text),
  async readInput() {
    if (process.stdin.isTTY) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

const PLANS = ["free", "pro", "enterprise"];
function plan(value: string) {
  if (!PLANS.includes(value)) throw new CliError(`--plan must be one of ${PLANS.join(", ")}.`, EXIT.usage);
  return value as "free" | "pro" | "enterprise";
}

export function registerAdmin(program: Command, io: AdminIo = terminalIo) {
  const print = (flags: DataDirFlags, json: unknown, text: string) =>
    io.write(flags.json ? JSON.stringify(json, null, 2) + "\n" : text + "\n");
  const readStdin = async () => {
    const input = await io.readInput();
    if (input === null) throw new CliError("--password-stdin expects the password on standard input.", EXIT.usage);
    return input.replace(/\r?\n$/, "");
  };

  const admin = program.command("admin").description("Administer a data dir directly (no server or key needed)");
  const dataDir = (cmd: Command) => cmd.option("--data-dir <dir>", "data dir (NOTULA_DATA_DIR)");

  registerMigrateData(admin, io.write);
  registerBackup(admin, io.write);

  const keys = admin.command("keys").description("API keys");
  dataDir(
    keys
      .command("create")
      .description("Create an API key (printed once)")
      .requiredOption("--name <name>", "a name to tell the key apart")
      .option("--scopes <list>", "comma-separated: notes,folders,users,templates", "notes,folders,users,templates")
      .option("--workspace <id>", "workspace (default: the first one)")
      .option("--user <id>", "user the key acts as (default: the workspace's first admin)"),
  )
    .addHelpText("after", "\nExample:\n  notula admin keys create --name ci --scopes notes,folders --json")
    .action(
      withFlags((flags) =>
        withRuntime(flags, async (rt) => {
          const { parseScopes } = await import("../services/api-keys.js");
          const { AppError } = await import("../core/errors.js");
          const workspaceId = flags.workspace ?? (await rt.services.workspaces.list())[0]?.id;
          if (!workspaceId)
            throw new CliError(
              "The data dir has no workspace yet; run `notula serve` once or `notula admin workspaces create`.",
              EXIT.notFound,
            );
          const userId = flags.user ?? (await rt.services.workspaces.defaultUser(workspaceId));
          let scopes;
          try {
            scopes = parseScopes(flags.scopes);
          } catch (err) {
            // The flag's value is checked before anything is written: a usage error.
            throw err instanceof AppError ? new CliError(`--scopes: ${err.message}`, EXIT.usage) : err;
          }
          const created = await rt.services.apiKeys.create({ workspaceId, userId, name: flags.name, scopes });
          print(flags, { key: created.key, id: created.id, scopes: created.scopes, workspaceId, userId }, created.key);
        }),
      ),
    );
  dataDir(
    keys
      .command("list")
      .description("List a workspace's API keys (never the keys themselves)")
      .option("--workspace <id>", "workspace"),
  ).action(
    withFlags((flags) =>
      withRuntime(flags, async (rt) => {
        const workspaceId = flags.workspace ?? (await rt.services.workspaces.list())[0]?.id;
        const list = workspaceId ? await rt.services.apiKeys.list(workspaceId) : [];
        print(
          flags,
          { keys: list },
          list
            .map((k) => `${k.id}  ${k.prefix}…  ${k.name}  ${k.scopes.join(",")}${k.revoked ? "  (revoked)" : ""}`)
            .join("\n") || "No keys.",
        );
      }),
    ),
  );
  dataDir(keys.command("revoke").description("Revoke an API key").argument("<id>", "key id (key_…)")).action(
    withFlags((flags, id) =>
      withRuntime(flags, async (rt) => {
        if (!(await rt.services.apiKeys.revoke(id))) throw new CliError(`No live key ${id}.`, EXIT.notFound);
        print(flags, { id, revoked: true }, `Revoked ${id}.`);
      }),
    ),
  );

  const workspaces = admin.command("workspaces").description("Workspaces");
  dataDir(
    workspaces
      .command("create")
      .description("Create an isolated workspace with its own admin and all-scope key")
      .requiredOption("--name <name>", "workspace name")
      .option("--plan <plan>", "free | pro | enterprise", "enterprise")
      .option("--admin-email <email>", "the admin user's email"),
  )
    .addHelpText("after", "\nExample:\n  notula admin workspaces create --name Acme --plan pro --json")
    .action(
      withFlags((flags) =>
        withRuntime(flags, async (rt) => {
          const created = await rt.services.workspaces.create({
            name: flags.name,
            plan: plan(flags.plan),
            adminEmail: flags.adminEmail,
          });
          print(
            flags,
            { workspace: created.workspace, user: created.user, key: created.key },
            `Workspace ${created.workspace.id} created; admin ${created.user.email}; key (shown once): ${created.key}`,
          );
        }),
      ),
    );
  dataDir(workspaces.command("list").description("List workspaces")).action(
    withFlags((flags) =>
      withRuntime(flags, async (rt) => {
        const list = await rt.services.workspaces.list();
        print(
          flags,
          { workspaces: list },
          list.map((w) => `${w.id}  ${w.plan.padEnd(10)}  ${w.name}`).join("\n") || "No workspaces.",
        );
      }),
    ),
  );
  dataDir(
    workspaces
      .command("set-plan")
      .description("Change a workspace's plan")
      .requiredOption("--workspace <id>", "workspace")
      .requiredOption("--plan <plan>", "free | pro | enterprise"),
  ).action(
    withFlags((flags) =>
      withRuntime(flags, async (rt) => {
        await rt.services.workspaces.setPlan(flags.workspace, plan(flags.plan));
        print(
          flags,
          { workspace: { id: flags.workspace, plan: flags.plan } },
          `Workspace ${flags.workspace} is now on ${flags.plan}.`,
        );
      }),
    ),
  );

  const users = admin.command("users").description("Users");
  dataDir(
    users
      .command("create")
      .description("Create a user and add them to a workspace")
      .requiredOption("--workspace <id>", "workspace")
      .requiredOption("--email <email>", "email (their sign-in name)")
      .requiredOption("--name <name>", "display name")
      .option("--password-stdin", "read the password from standard input")
      .option("--role <role>", "admin | member", "member"),
  )
    .addHelpText(
      "after",
      "\nExample:\n  printf '%s' \"$PASSWORD\" | notula admin users create --workspace ws_… --email ana@example.com --name Ana --password-stdin",
    )
    .action(
      withFlags(async (flags) => {
        if (!["admin", "member"].includes(flags.role))
          throw new CliError("--role must be admin or member.", EXIT.usage);
        const password = flags.passwordStdin ? await readStdin() : undefined;
        if (password !== undefined && password.length < 8)
          throw new CliError("The password must have at least 8 characters.", EXIT.usage);
        await withRuntime(flags, async (rt) => {
          const created = await rt.services.workspaces.addUser({
            workspaceId: flags.workspace,
            email: flags.email,
            name: flags.name,
            password,
            role: flags.role,
          });
          print(flags, created, `User ${created.user.id} (${created.user.email}) added as ${created.member.role}.`);
        });
      }),
    );

  dataDir(
    users
      .command("set-password")
      .description("Set a user's password from standard input; their browser sessions end")
      .requiredOption("--email <email>", "the user's email"),
  )
    .addHelpText(
      "after",
      "\nExample:\n  printf '%s' \"$PASSWORD\" | notula admin users set-password --email ana@example.com",
    )
    .action(
      withFlags(async (flags) => {
        const password = await readStdin();
        await withRuntime(flags, async (rt) => {
          const userId = await rt.services.workspaces.userIdByEmail(flags.email);
          await rt.services.accounts.setPassword(await userId, password);
          print(flags, { userId, passwordSet: true }, `Password set for ${flags.email}.`);
        });
      }),
    );

  dataDir(
    users
      .command("password-link")
      .description("Print a one-time link (24 hours) where the user chooses a new password")
      .requiredOption("--email <email>", "the user's email"),
  )
    .addHelpText("after", "\nExample:\n  notula admin users password-link --email admin@notula.local")
    .action(
      withFlags((flags) =>
        withRuntime(flags, async (rt, publicUrl) => {
          const userId = await rt.services.workspaces.userIdByEmail(flags.email);
          const url = `${publicUrl}/account/password/${await rt.services.accounts.issueLink(userId, "reset")}`;
          print(flags, { userId, url }, url);
        }),
      ),
    );

  dataDir(
    admin
      .command("reindex")
      .description("Rebuild the meaning-based search index: embed every note and article again, with a progress bar")
      .option("--missing", "only what has no passages from the configured embedding model (after changing the model)")
      .option("--cells-only", "skip embedding; only build the vector cells of workspaces that are due them"),
  )
    .addHelpText(
      "after",
      "\nRuns beside a running server: each note is replaced in its own short transaction, so requests go on.\n" +
        "Then builds the vector cells of every workspace with enough passages (SQLite; the server also does it in the\n" +
        "background as notes are indexed), a page at a time, with a progress bar.\n\n" +
        "Examples:\n  notula admin reindex --data-dir ./notula-data --missing\n  notula admin reindex --data-dir ./notula-data --cells-only",
    )
    .action(
      withFlags((flags) =>
        withRuntime(flags, async (rt) => {
          const { loadConfig } = await import("../config/load.js");
          const { selectEmbedder } = await import("../ai/select.js");
          const { indexPassagesInBatches } = await import("../pipeline/index-passages.js");
          const { renderCount } = await import("./progress.js");
          const { buildVectorIndex } = await import("../pipeline/vector-index.js");
          const embedder = selectEmbedder(loadConfig({ dataDir: flags.dataDir }).embeddings);
          if (!embedder)
            throw new CliError(
              "Meaning-based search is off (NOTULA_EMBEDDINGS=none): there is no index to build.",
              EXIT.usage,
            );
          const buildCells = async () => {
            const built: { workspaceId: string; dims: number; passages: number; cells: number }[] = [];
            for (const target of await rt.repos.passageIndex.buildsDue()) {
              const passages = await rt.repos.passageIndex.passageCount(target);
              const bar = renderCount(
                `Building vector cells for ${target.workspaceId} (${passages.toLocaleString("en")} passages)`,
                100,
              );
              let ran: boolean;
              try {
                ran = await buildVectorIndex(rt.repos, rt.now, target, (p) => bar.update(Math.floor(p.fraction * 100)));
              } finally {
                bar.done();
              }
              if (!ran)
                process.stderr.write(
                  `The vector cells of ${target.workspaceId} are being built by the server already.\n`,
                );
              const status = (await rt.repos.passageIndex.indexStatus()).find(
                (s) => s.workspaceId === target.workspaceId && s.dims === target.dims,
              );
              if (ran && status)
                built.push({
                  workspaceId: target.workspaceId,
                  dims: target.dims,
                  passages: status.passages,
                  cells: status.cells,
                });
            }
            return built;
          };
          if (flags.cellsOnly) {
            const cells = await buildCells();
            print(
              flags,
              { indexed: 0, skipped: 0, model: embedder.name, cells },
              cells.length
                ? cells
                    .map((c) => `Built ${c.cells} vector cells over ${c.passages} passages of ${c.workspaceId}.`)
                    .join("\n")
                : "No workspace is due new vector cells.",
            );
            return;
          }
          const work: ["note" | "article", string][] = [];
          for (let after = 0; ;) {
            const page = await rt.repos.notes.idsAfter(after, 1000);
            if (!page.length) break;
            for (const n of page) work.push(["note", n.id]);
            after = page[page.length - 1].seq;
          }
          for (const id of await rt.repos.knowledge.allIds()) work.push(["article", id]);
          const progress = renderCount(`Indexing with ${embedder.name}`, work.length);
          let skipped = 0;
          const todo: typeof work = [];
          for (const item of work) {
            if (flags.missing && (await rt.repos.passages.modelOf(...item)) === embedder.name) skipped++;
            else todo.push(item);
          }
          const indexed = todo.length;
          try {
            progress.update(skipped);
            // Written in batches: a transaction per 25 notes, not per note.
            await indexPassagesInBatches(rt.repos, embedder, todo, (done) => progress.update(skipped + done));
          } finally {
            progress.done();
          }
          const cells = await buildCells();
          print(
            flags,
            { indexed, skipped, model: embedder.name, cells },
            [
              `Indexed ${indexed} notes and articles with ${embedder.name}${skipped ? `; ${skipped} were up to date` : ""}.`,
              ...cells.map((c) => `Built ${c.cells} vector cells over ${c.passages} passages of ${c.workspaceId}.`),
            ].join("\n"),
          );
        }),
      ),
    );

  dataDir(
    admin
      .command("systemd")
      .description(
        "Print a systemd unit that runs `notula serve` as a service, with this installation's absolute paths",
      )
      .option("--user <name>", "the system user it runs as", "notula")
      .option("--host <host>", "the address to listen on", "127.0.0.1")
      .option("--port <port>", "the port", "8787")
      .option("--public-url <url>", "the URL people reach it at (behind a reverse proxy)"),
  )
    .addHelpText(
      "after",
      "\nExample:\n  notula admin systemd --data-dir /var/lib/notula | sudo tee /etc/systemd/system/notula.service",
    )
    .action(
      withFlags(async (flags) => {
        const { loadConfig } = await import("../config/load.js");
        const { systemdUnit } = await import("./install-config.js");
        const port = Number(flags.port);
        if (!Number.isInteger(port) || port < 1 || port > 65535)
          throw new CliError("--port must be a port number from 1 to 65535.", EXIT.usage);
        const dir = loadConfig({ dataDir: flags.dataDir }).dataDir;
        io.write(systemdUnit({ dataDir: dir, user: flags.user, host: flags.host, port, publicUrl: flags.publicUrl }));
      }),
    );
}
