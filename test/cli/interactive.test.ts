// Prompts in a real terminal (tmux), and the system keychain (gnome-keyring on a
// private D-Bus session) versus no secret service at all.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { admin, BIN, run, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { openTerminal } from "../helpers/tmux.js";

const execFileP = promisify(execFile);
let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
});
afterAll(() => server?.stop());

const notula = `${process.execPath} ${BIN}`;

describe("prompts at a terminal", () => {
  it("login asks for the key without echoing it", async () => {
    const cfg = tempDir("notula-tty-");
    const t = openTerminal(`${notula} login ${server.url}`, { XDG_CONFIG_HOME: cfg, NOTULA_NO_KEYCHAIN: "1", CI: "" });
    try {
      await t.waitFor("API key");
      t.type(server.key);
      await new Promise((r) => setTimeout(r, 200));
      expect(t.screen()).not.toContain(server.key.slice(4, 20));
      t.press("Enter");
      expect(await t.exitCode()).toBe(0);
      expect(t.screen()).toMatch(/Signed in to .* as admin@notula\.local/);
      expect(fs.existsSync(path.join(cfg, "notula", "credentials.json"))).toBe(true);
    } finally {
      t.close();
    }
  });

  it("delete asks to confirm, naming the note, with No as the default: Enter cancels, Yes deletes", async () => {
    const env = { NOTULA_URL: server.url, NOTULA_API_KEY: server.key, NOTULA_NO_KEYCHAIN: "1", CI: "" };
    const keep = (
      await api("POST", "/v1/notes", {
        title: "Keep me",
        createdAt: "2026-03-01T09:30:00Z",
        summary: "S",
        enhancedNote: "E",
      })
    ).body.note.id;
    const t1 = openTerminal(`${notula} notes delete ${keep}`, env);
    try {
      await t1.waitFor(`Delete "Keep me" (2026-03-01 09:30)? Its summary will be lost.`);
      t1.press("Enter"); // the default, No
      expect(await t1.exitCode()).toBe(2);
      expect(t1.screen()).toContain("Cancelled.");
    } finally {
      t1.close();
    }
    expect((await api("GET", `/v1/notes/${keep}`)).status).toBe(200);

    const t2 = openTerminal(`${notula} notes delete ${keep}`, env);
    try {
      await t2.waitFor(`Delete "Keep me"`);
      t2.press("Left"); // from No to Yes
      t2.press("Enter");
      expect(await t2.exitCode()).toBe(0);
    } finally {
      t2.close();
    }
    expect((await api("GET", `/v1/notes/${keep}`)).status).toBe(404);
  });

  it("a missing title is asked for at a terminal", async () => {
    const t = openTerminal(`${notula} notes create`, { NOTULA_URL: server.url, NOTULA_API_KEY: server.key, CI: "" });
    try {
      await t.waitFor("Title of the note");
      t.type("Typed at the prompt");
      t.press("Enter");
      expect(await t.exitCode()).toBe(0);
    } finally {
      t.close();
    }
    const list = await api("GET", "/v1/notes?search=typed prompt");
    expect(list.body.items.map((n: { title: string }) => n.title)).toEqual(["Typed at the prompt"]);
  });

  it("tables on a terminal have a header and aligned columns", async () => {
    await api("POST", "/v1/notes", { title: "Aligned" });
    const t = openTerminal(`${notula} notes list --search aligned`, {
      NOTULA_URL: server.url,
      NOTULA_API_KEY: server.key,
      NO_COLOR: "1",
    });
    try {
      expect(await t.exitCode()).toBe(0);
      const lines = t.screen().split("\n");
      const header = lines.findIndex((l) => /^ID\s+TITLE\s+STATUS\s+CREATED\s+FOLDERS/.test(l));
      expect(header).toBeGreaterThanOrEqual(0);
      expect(lines[header + 1]).toMatch(/^note_\S+\s+Aligned\s+completed\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
      expect(lines[header + 1].indexOf("Aligned")).toBe(lines[header].indexOf("TITLE"));
    } finally {
      t.close();
    }
  });
});

describe("credentials in the system keychain", () => {
  it("with a secret service, login stores the key there and no file is written", async () => {
    const cfg = tempDir("notula-kc-");
    // A keyring of its own (gnome-keyring keeps them under XDG_DATA_HOME), created unlocked.
    const data = tempDir("notula-kc-data-");
    // A key of its own, given to notula: logout forgets it and leaves it valid on the server.
    const { key } = await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "keychain",
      "--scopes",
      "notes,users",
      "--json",
    ]);
    const script = [
      "set -e",
      "echo -n test | gnome-keyring-daemon --unlock --components=secrets >/dev/null",
      `echo '${key}' | ${notula} login ${server.url} --with-token`,
      `${notula} me --json`,
      `${notula} logout`,
      `${notula} me || echo "EXIT=$?"`,
    ].join("\n");
    const { stdout, stderr } = await execFileP("dbus-run-session", ["--", "bash", "-c", script], {
      env: {
        ...process.env,
        XDG_CONFIG_HOME: cfg,
        XDG_DATA_HOME: data,
        NOTULA_API_KEY: "",
        NOTULA_URL: "",
        NOTULA_NO_KEYCHAIN: "",
      },
    });
    expect(stderr).not.toMatch(/Notice: no system keychain/);
    expect(stderr).toMatch(/given to notula, not made by it, so it is only forgotten here and still works/);
    expect(JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1)).user.email).toBe(
      "admin@notula.local",
    );
    expect(fs.existsSync(path.join(cfg, "notula", "credentials.json"))).toBe(false);
    expect(stdout).toContain("EXIT=4");
    expect((await client(server.url, key)("GET", "/v1/me")).status).toBe(200);
  });

  it("without one, it falls back to the file at once, with a notice", async () => {
    const cfg = tempDir("notula-nokc-");
    const started = Date.now();
    const r = await run(["login", server.url, "--with-token"], {
      input: `${server.key}\n`,
      env: {
        XDG_CONFIG_HOME: cfg,
        NOTULA_API_KEY: "",
        NOTULA_NO_KEYCHAIN: "",
        DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent",
      },
    });
    expect(r.code).toBe(0);
    // The keychain's short timeout, not a hang.
    expect(Date.now() - started).toBeLessThan(10_000);
    const stderr = r.stderr;
    expect(stderr).toMatch(/Notice: no system keychain is available/);
    expect(fs.statSync(path.join(cfg, "notula", "credentials.json")).mode & 0o777).toBe(0o600);
  });
});
