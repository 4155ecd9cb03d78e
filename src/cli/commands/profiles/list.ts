// notula profiles list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { printTable } from "../../lib/output.js";
import { profileStore } from "../../lib/profiles.js";

export const define = (profiles: Command) =>
  examples(profiles.command("list").description("List profiles; * marks the active one"), "notula profiles list");

export async function run() {
  const store = await profileStore();
  const active = store.get("active");
  return {
    items: Object.entries(store.get("profiles")).map(([name, p]) => ({
      name,
      server: p.server,
      active: name === active,
    })),
  };
}

export const render = ({ items: profiles }: Awaited<ReturnType<typeof run>>) =>
  printTable(
    ["", "NAME", "SERVER"],
    profiles.map((r) => [r.active ? "*" : "", r.name, r.server]),
  );
