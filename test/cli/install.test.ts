// The new user's path, word for word: pack the project, install the tarball globally
// (into a temporary prefix), then with the installed `notula` alone: serve, make a
// member, sign the CLI in as them, upload a recording, and find a spoken word.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speak } from "../helpers/audio.js";
import { ROOT, tempDir } from "../helpers/server.js";
import { startPrebuiltHost } from "../helpers/prebuilt-host.js";

const execFileP = promisify(execFile);
const work = tempDir("notula-install-");
const prefix = path.join(work, "prefix");
const notula = path.join(prefix, "bin", "notula");
let server: ChildProcess | undefined;
let packed: string[] = [];

async function sh(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string } = {},
) {
  const p = execFileP(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, maxBuffer: 64 * 1024 * 1024 });
  if (opts.input !== undefined) p.child.stdin!.end(opts.input);
  return p;
}

beforeAll(async () => {
  // --ignore-scripts: the build is there already (the test command builds before the
  // suite), and rebuilding dist/ here would pull it from under tests running the binary.
  const { stdout } = await sh("npm", ["pack", "--ignore-scripts", "--pack-destination", work, "--silent"], {
    cwd: ROOT,
  });
  const tarball = path.join(work, stdout.trim().split("\n").pop()!);
  packed = (await sh("tar", ["-tzf", tarball])).stdout.trim().split("\n");
  // --prefer-offline: the packages are in npm's cache from the project's own install;
  // asking the registry again for each would tie the test to the network's speed.
  // The native modules come prebuilt, as a user's install fetches them, from a local host
  // of the ones this project's install built (compiling SQLite took minutes of the suite).
  const prebuilt = await startPrebuiltHost([
    { name: "better-sqlite3", module: "better_sqlite3.node" },
    { name: "keytar", module: "keytar.node" },
  ]);
  const install = (freshness: string) =>
    sh("npm", ["install", "--global", "--prefix", prefix, tarball, "--no-audit", "--no-fund", freshness], {
      env: prebuilt.env,
    });
  try {
    await install("--prefer-offline");
  } catch (err) {
    // A package's metadata in the cache can predate the version a fresh resolution asks
    // for (ETARGET); then the registry is asked.
    if (!/ETARGET|notarget/.test(String((err as { stderr?: string }).stderr ?? err))) throw err;
    await install("--prefer-online");
  } finally {
    await prebuilt.close();
  }
}, 900_000);
afterAll(() => {
  server?.kill();
});

describe("install from a packed tarball", () => {
  it("gives a working notula on the PATH that serves, signs a member in, uploads and finds a spoken word", async () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
    // Only what runs: no source maps, no migration snapshots (the journal and the SQL are what migrate).
    expect(packed.filter((f) => /\.map$|_snapshot\.json$/.test(f))).toEqual([]);
    expect(packed).toEqual(expect.arrayContaining(["package/drizzle/meta/_journal.json", "package/dist/cli.js"]));
    expect((await sh(notula, ["--version"])).stdout.trim()).toBe(version);

    // notula serve, from the installed package.
    const dataDir = path.join(work, "data");
    server = spawn(notula, ["serve", "--port", "0", "--data-dir", dataDir, "--stt-engine", "sphinx"], {
      env: { ...process.env, NOTULA_EMBEDDINGS: "none" },
    });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      server!.stdout!.on("data", (d) => {
        out += d;
        const m = /notula listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      server!.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // A member, and the CLI signed in as them with a key of their own.
    const ws = JSON.parse((await sh(notula, ["admin", "workspaces", "list", "--data-dir", dataDir, "--json"])).stdout)
      .items[0].id;
    const member = JSON.parse(
      (
        await sh(
          notula,
          [
            "admin",
            "users",
            "create",
            "--data-dir",
            dataDir,
            "--workspace",
            ws,
            "--email",
            "mia@example.com",
            "--name",
            "Mia",
            "--password-stdin",
            "--json",
          ],
          { input: "a long password 1" },
        )
      ).stdout,
    );
    const key = JSON.parse(
      (
        await sh(notula, [
          "admin",
          "keys",
          "create",
          "--data-dir",
          dataDir,
          "--name",
          "laptop",
          "--scopes",
          "notes",
          "--user",
          member.user.id,
          "--json",
        ])
      ).stdout,
    ).key;
    const env = {
      XDG_CONFIG_HOME: path.join(work, "config"),
      NOTULA_NO_KEYCHAIN: "1",
      NOTULA_URL: "",
      NOTULA_API_KEY: "",
    };
    await sh(notula, ["login", url, "--with-token"], { env, input: key });
    expect(JSON.parse((await sh(notula, ["me", "--json"], { env })).stdout).user.email).toBe("mia@example.com");

    // Upload a recording, follow it, and find what was said.
    const speech = speak(work, "Please schedule a meeting with the design team for Tuesday afternoon.");
    const file = path.join(work, "Design sync.wav");
    fs.copyFileSync(speech, file);
    const uploaded = await sh(notula, ["upload", file, "--wait", "--title", "Design sync"], { env });
    const id = uploaded.stdout.trim();
    expect(id).toMatch(/^note_/);
    const found = JSON.parse((await sh(notula, ["notes", "search", "design team", "--json"], { env })).stdout);
    const hit = found.items.find((r: { note: { id: string } }) => r.note.id === id);
    expect(hit.note.title).toBe("Design sync");
    expect(hit.matches[0].startTimestamp).toMatch(/^\d{2}:\d{2}$/);

    // The assistant configuration and the service unit point at the installed program.
    const config = JSON.parse((await sh(notula, ["mcp", "--print-config", "claude"])).stdout);
    expect(config.mcpServers.notula.command).toBe(process.execPath);
    expect(config.mcpServers.notula.args[0]).toBe(
      fs.realpathSync(path.join(prefix, "lib", "node_modules", "notula", "bin", "notula.js")),
    );
    const unit = (await sh(notula, ["admin", "systemd", "--data-dir", dataDir])).stdout;
    expect(unit).toContain(`ExecStart=${process.execPath} ${config.mcpServers.notula.args[0]} serve`);
    expect(unit).toContain(`Environment=NOTULA_DATA_DIR=${dataDir}`);
  }, 300_000);
});
