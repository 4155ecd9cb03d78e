// Help as the reference promises it: every leaf command has an example, every help
// lists the global flags it inherits, and `notula help <cmd> <sub>` is that command's help.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { run } from "../helpers/server.js";

/** The help text commander prints for a command, with what addHelpText adds. */
function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  command.outputHelp();
  return text;
}

const pathOf = (c: Command): string => (c.parent?.parent ? `${pathOf(c.parent)} ` : "") + c.name();

async function leaves(): Promise<Command[]> {
  const found: Command[] = [];
  const walk = (c: Command) => (c.commands.length ? c.commands.forEach(walk) : found.push(c));
  (await createProgram("all")).commands.forEach(walk);
  return found;
}

describe("help", () => {
  it("every leaf command shows an example and the global flags it inherits", async () => {
    const all = await leaves();
    expect(all.length).toBeGreaterThan(60);
    const withoutExample = all.filter((c) => !/\nExamples?:\n {2}.*\bnotula /.test(helpOf(c))).map(pathOf);
    expect(withoutExample).toEqual([]);
    const withoutGlobals = all.filter((c) => {
      const globals = helpOf(c).split("Global Options:")[1] ?? "";
      return !["--server", "--profile", "--json", "--jq", "--timeout"].every((flag) => globals.includes(flag));
    });
    expect(withoutGlobals.map(pathOf)).toEqual([]);
  });

  it("every example names its own command", async () => {
    for (const c of await leaves()) {
      const lines = helpOf(c)
        .split(/\nExamples?:\n/)[1]
        .split("\n")
        .filter((l) => /^ {2}.*\bnotula /.test(l));
      expect(lines.length, pathOf(c)).toBeGreaterThan(0);
      expect(
        // `auth login` and `auth logout` are also `login` and `logout`: one module, either name.
        lines.some((l) => [pathOf(c), pathOf(c).replace(/^auth /, "")].some((p) => l.includes(`notula ${p}`))),
        `${pathOf(c)}: ${lines.join(" / ")}`,
      ).toBe(true);
    }
  });

  it("`notula help notes list` is the help of notes list", async () => {
    const r = await run(["help", "notes", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: notula notes list/);
    expect(r.stdout).toContain("--search");
    expect(r.stdout).toMatch(/Global Options:[\s\S]*--json \[fields\]/);
    expect((await run(["help", "notes"])).stdout).toMatch(/^Usage: notula notes /);
  });
});
