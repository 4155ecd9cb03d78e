// Habits from gh: `auth switch`, `notes view --web` and `browse`, --quiet (and
// NOTULA_QUIET) for CI logs, against a real server through the built CLI.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cliEnv, run, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
});
afterAll(async () => {
  await server?.stop();
});

/** A stand-in browser (NOTULA_BROWSER) that writes the address it was given to a file. */
function recordingBrowser() {
  const dir = tempDir("notula-browser-");
  const script = path.join(dir, "browser.sh");
  const opened = path.join(dir, "opened.txt");
  fs.writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  return { script, opened: () => (fs.existsSync(opened) ? fs.readFileSync(opened, "utf8").trim().split("\n") : []) };
}

describe("gh's habits", () => {
  it("opens a note's page, or the app, in the browser, after checking the note is there", async () => {
    const env = cliEnv(server);
    const id = (await run(["notes", "create", "--title", "Seen in the browser"], { env })).stdout.trim();
    const browser = recordingBrowser();
    const viewed = await run(["notes", "view", id, "--web"], { env: { ...env, NOTULA_BROWSER: browser.script } });
    expect(viewed.code, viewed.stderr).toBe(0);
    expect(viewed.stdout).toBe("");
    expect(viewed.stderr).toContain(`Opening ${server.url}/notes/${id} in your browser.`);
    await until("the browser to be given the note", () => browser.opened().length === 1, 10_000);
    expect(browser.opened()).toEqual([`${server.url}/notes/${id}`]);
    // A note that is not there is said here, and nothing is opened.
    const missing = await run(["notes", "view", "note_nope", "--web"], {
      env: { ...env, NOTULA_BROWSER: browser.script },
    });
    expect(missing.code).toBe(3);
    expect((await run(["browse", "--no-browser"], { env })).stdout).toBe(`${server.url}/\n`);
    expect((await run(["browse", id, "-n"], { env })).stdout).toBe(`${server.url}/notes/${id}\n`);
    expect(browser.opened()).toHaveLength(1);
  });

  it("switches the active profile: the one named, or the other of two", async () => {
    const env = { ...cliEnv(server), NOTULA_API_KEY: "", NOTULA_URL: "" };
    for (const profile of ["default", "work"])
      expect(
        (await run(["login", server.url, "--with-token", "--profile", profile], { env, input: `${server.key}\n` }))
          .code,
      ).toBe(0);
    const active = async () =>
      (
        JSON.parse((await run(["profiles", "list", "--json"], { env })).stdout).items as {
          name: string;
          active: boolean;
        }[]
      )
        .filter((p) => p.active)
        .map((p) => p.name);
    expect(await active()).toEqual(["work"]);
    const other = await run(["auth", "switch"], { env });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(/Profile "default" \(http:\/\/127\.0\.0\.1:\d+\) is active\./);
    expect(await active()).toEqual(["default"]);
    expect((await run(["auth", "switch", "work"], { env })).code).toBe(0);
    expect(await active()).toEqual(["work"]);
    expect((await run(["auth", "switch", "nope"], { env })).code).toBe(3);
  });

  it("keeps status lines out of the log under --quiet or NOTULA_QUIET, and the result where it was", async () => {
    const env = cliEnv(server);
    const id = (await run(["notes", "create", "--title", "Quiet"], { env })).stdout.trim();
    const loud = await run(["notes", "update", id, "--title", "Loud"], { env });
    expect(loud.stderr).toContain(`Updated ${id}.`);
    for (const [args, extra] of [
      [["--quiet"], {}],
      [["-q"], {}],
      [[], { NOTULA_QUIET: "1" }],
    ] as [string[], Record<string, string>][]) {
      const quiet = await run([...args, "notes", "update", id, "--title", "Quiet again"], {
        env: { ...env, ...extra },
      });
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stderr).toBe("");
    }
    // Errors are still said.
    const failed = await run(["--quiet", "notes", "update", "note_nope", "--title", "x"], { env });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/^notula: /);
    // NOTULA_QUIET=0 is not quiet.
    expect(
      (await run(["notes", "update", id, "--title", "Loud"], { env: { ...env, NOTULA_QUIET: "0" } })).stderr,
    ).toContain("Updated");
  });
});

describe("notula api", () => {
  it("calls any endpoint with the credential: fields as the query of a GET or the body of a write, pages followed, --jq", async () => {
    const env = cliEnv(server);
    const made = await run(["api", "notes", "-f", "title=From the API", "-F", "userWrittenNote=@-"], {
      env,
      input: "- typed notes",
    });
    expect(made.code, made.stderr).toBe(0);
    const note = JSON.parse(made.stdout).note;
    expect(note).toMatchObject({ title: "From the API", userWrittenNote: "- typed notes" });
    const renamed = await run(["api", "-X", "PATCH", `notes/${note.id}`, "-f", "title=Renamed"], { env });
    expect(JSON.parse(renamed.stdout).note.title).toBe("Renamed");
    for (let i = 0; i < 4; i++) await run(["api", "notes", "-f", `title=Paged ${i}`], { env });
    // Two a page, every note once.
    const all = await run(["api", "/v1/notes", "-F", "limit=2", "--paginate"], { env });
    const titles = JSON.parse(all.stdout).items.map((n: { title: string }) => n.title);
    expect(titles).toEqual(expect.arrayContaining(["Renamed", "Paged 0", "Paged 3"]));
    expect(new Set(titles).size).toBe(titles.length);
    const jq = await run(["api", "me", "--jq", ".workspace.name"], { env });
    expect(jq.stdout.trim()).toMatch(/^"?.+"?$/);
    // An error answer exits as any command's: not found is 3, a bad field a usage error.
    expect((await run(["api", "notes/nt_nosuch"], { env })).code).toBe(3);
    expect((await run(["api", "notes", "-f", "novalue"], { env })).code).toBe(2);
    expect((await run(["api", "-X", "BREW", "notes"], { env })).code).toBe(2);
  });
});

describe("--output-template", () => {
  it("writes any command's result out with --output-template, as gh's --template does: each list item, fields by name, nothing escaped", async () => {
    const env = cliEnv(server);
    for (const title of ["Template <one>", "Template & two"]) await run(["notes", "create", "--title", title], { env });
    const r = await run(
      ["notes", "list", "--search", "Template", "--output-template", "{{#items}}{{id}}\\t{{title}}\\n{{/items}}"],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.map((l) => l.split("\t")[1]).sort()).toEqual(["Template & two", "Template <one>"]);
    for (const l of lines) expect(l).toMatch(/^note_\S+\t/);
    // One resource as itself.
    const me = await run(["auth", "status", "--output-template", "{{using.server}}"], { env });
    expect(me.stdout).toBe(server.url);
    // A template that is not one is a usage error before anything is asked.
    const bad = await run(["notes", "list", "--output-template", "{{#items}}{{id}}"], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^notula: --output-template: Unclosed section "items"/m);
  });
});
