// Shell completion as a person meets it: bash, zsh and fish in a real terminal (tmux),
// each with the script `notula completion SHELL` prints, pressing Tab after a partial
// flag and after a partial file name. And what the scripts ask, `notula __complete`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { run, tempDir } from "../helpers/server.js";
import { openTerminal, type Terminal } from "../helpers/tmux.js";
import { createProgram } from "../../src/cli/program.js";
import { commandTree } from "../../src/cli/lib/command-tree.js";

// Many runs of the CLI, a process each: minutes on a busy machine, not the default 30 s.
vi.setConfig({ testTimeout: 180_000 });

const BIN = path.resolve("bin/notula.js");
const work = tempDir("notula-completion-");
// `notula` on PATH, as an installed CLI would be.
const binDir = path.join(work, "bin");
fs.mkdirSync(binDir);
fs.writeFileSync(path.join(binDir, "notula"), `#!/bin/sh\nexec node ${BIN} "$@"\n`, { mode: 0o755 });
const here = path.join(work, "here");
fs.mkdirSync(here);
fs.writeFileSync(path.join(here, "standup-recording.wav"), "");
const env = { PATH: `${binDir}:${process.env.PATH}`, HOME: work, TERM: "xterm", XDG_CONFIG_HOME: work };

const open: Terminal[] = [];
afterAll(() => open.forEach((t) => t.close()));

const complete = async (...words: string[]) => (await run(["__complete", ...words])).stdout.split("\n").filter(Boolean);

describe("notula __complete", () => {
  it("offers subcommands at every depth, flags with the global ones, and files where a file goes", async () => {
    expect(await complete("no")).toEqual(["notes", "notifications"]);
    expect(await complete("admin", "keys", "")).toEqual(["create", "list", "revoke"]);
    expect(await complete("notes", "list", "--li")).toEqual(["--limit"]);
    // Global flags are offered under a subcommand, and a flag's value is skipped over.
    expect(await complete("--server", "http://x", "notes", "get", "--js")).toEqual(["--json"]);
    expect(await complete("upload", "")).toEqual([":files"]);
    expect(await complete("notes", "export", "--out", "")).toEqual([":files"]);
    // A value that is not a file gets no file names.
    expect(await complete("notes", "list", "--limit", "")).toEqual([]);
  });

  it("offers the values a flag or an argument takes, and says what each word is when asked", async () => {
    expect(await complete("notes", "list", "--status", "rec")).toEqual(["recording", "recorded-not-summarized"]);
    expect(await complete("notes", "list", "--sort", "")).toEqual(["createdAt", "updatedAt", "title"]);
    expect(await complete("notes", "get", "x", "--format", "")).toEqual(["text", "markdown", "json"]);
    expect(await complete("completion", "")).toEqual(["bash", "zsh", "fish"]);
    // Profile names, read from the profiles file.
    const config = tempDir("notula-completion-profiles-");
    fs.mkdirSync(path.join(config, "notula"));
    fs.writeFileSync(
      path.join(config, "notula", "profiles.json"),
      JSON.stringify({
        active: "default",
        profiles: { default: { server: "http://127.0.0.1:8787" }, staging: { server: "https://staging.example" } },
      }),
    );
    const profiles = await run(["__complete", "--profile", "st"], { env: { XDG_CONFIG_HOME: config } });
    expect(profiles.stdout).toBe("staging\n");
    expect((await run(["__complete", "--profile", ""], { env: { XDG_CONFIG_HOME: config } })).stdout).toBe(
      "default\nstaging\n",
    );
    // zsh and fish show what each command and flag is: the word, a tab, its description.
    const described = (await run(["__complete", "--describe", "notes", "l"])).stdout;
    expect(described).toBe("list\tList notes (newest first)\n");
    expect((await run(["__complete", "--describe", "notes", "list", "--li"])).stdout).toMatch(
      /^--limit\tnotes per page/,
    );
  });

  it("answers from the tree written at build, without commander or any command's module", async () => {
    // The tree in dist is the program's own: a build that forgot a command would be caught here.
    const built = JSON.parse(fs.readFileSync(path.resolve("dist/command-tree.json"), "utf8"));
    expect(built).toEqual(commandTree(await createProgram("all")));
    // A copy of the install with no node_modules and no CLI bundle: a command cannot run,
    // and a Tab is still answered, at every depth and with profile names.
    const install = tempDir("notula-completion-install-");
    fs.cpSync(path.resolve("bin"), path.join(install, "bin"), { recursive: true });
    fs.cpSync(path.resolve("dist"), path.join(install, "dist"), { recursive: true });
    fs.rmSync(path.join(install, "dist", "cli.js"));
    fs.writeFileSync(path.join(install, "package.json"), JSON.stringify({ type: "module" }));
    const bare = (...words: string[]) =>
      spawnSync(process.execPath, [path.join(install, "bin", "notula.js"), ...words], {
        encoding: "utf8",
        env: { ...process.env, XDG_CONFIG_HOME: work },
      });
    expect(bare("notes", "list").status).not.toBe(0);
    expect(bare("__complete", "no").stdout).toBe("notes\nnotifications\n");
    expect(bare("__complete", "notes", "list", "--status", "transc").stdout).toBe("transcript-processing\n");
    expect(bare("__complete", "--describe", "admin", "keys", "cr").stdout).toMatch(/^create\t/);
    expect(bare("__complete", "upload", "").stdout).toBe(":files\n");
    fs.mkdirSync(path.join(work, "notula"), { recursive: true });
    fs.writeFileSync(
      path.join(work, "notula", "profiles.json"),
      JSON.stringify({ active: "ci", profiles: { ci: { server: "http://127.0.0.1:1" } } }),
    );
    expect(bare("__complete", "--profile", "").stdout).toBe("ci\n");
  });

  it("prints a script for bash, zsh and fish, and refuses another shell", async () => {
    for (const shell of ["bash", "zsh", "fish"])
      expect((await run(["completion", shell])).stdout).toContain("notula __complete");
    const other = await run(["completion", "tcsh"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("bash, zsh or fish");
  });
});

/** Each shell, started with the completion script loaded, in the directory holding a recording. */
const SHELLS: Record<string, string> = {
  bash: `cd ${here} && exec bash --norc --noprofile -i`,
  zsh: `cd ${here} && exec zsh -f -i`,
  fish: `cd ${here} && exec fish --no-config -i`,
};
const LOAD: Record<string, string> = {
  bash: "source <(notula completion bash)",
  zsh: "autoload -U compinit && compinit -u && source <(notula completion zsh)",
  fish: "notula completion fish | source",
};

describe.each(Object.keys(SHELLS))("completion in %s", (shell) => {
  it("completes a flag and a file name with Tab", async () => {
    const t = openTerminal(SHELLS[shell], env);
    open.push(t);
    t.type(`${LOAD[shell]}; echo loaded-$((1+1))`.replace("$((1+1))", shell === "fish" ? "(math 1+1)" : "$((1+1))"));
    t.press("Enter");
    await t.waitFor("loaded-2", 20_000);

    t.type("notula notes list --li");
    t.press("Tab");
    await t.waitFor("notula notes list --limit", 20_000);
    t.press("C-u");

    t.type("notula upload standup-r");
    t.press("Tab");
    await t.waitFor("notula upload standup-recording.wav", 20_000);
    t.press("C-u");

    // A flag's values: the statuses a note can have.
    t.type("notula notes list --status transc");
    t.press("Tab");
    await t.waitFor("notula notes list --status transcript-processing", 20_000);
    t.press("C-u");

    // zsh and fish list the candidates with what each one is.
    if (shell !== "bash") {
      t.type("notula no");
      t.press("Tab");
      // zsh first completes the common start ("not"), and lists on the second Tab.
      if (shell === "zsh") {
        await t.waitFor("notula not", 20_000);
        t.press("Tab");
      }
      await t.waitFor(/notes\s+(-- |\()Meeting notes/, 20_000);
      t.press("C-c");
    }
  }, 90_000);
});
