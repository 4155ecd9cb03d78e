// notula templates update <id> [file]
import type { Command } from "commander";
import type { Template } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { readInput } from "../../lib/context.js";
import { info } from "../../lib/output.js";
import { parseTemplateFile } from "../../lib/template-file.js";

export const define = (templates: Command) =>
  templates
    .command("update")
    .description("Change a template from a Markdown or JSON file: the fields the file has replace the template's")
    .argument("<id>", "template id")
    .argument("[file]", "the template file (- for standard input)")
    .option("--name <name>", "rename it")
    .option("--default", "make it the workspace default")
    .addHelpText(
      "after",
      "\nExamples:\n  notula templates get tpl_… > t.md && $EDITOR t.md && notula templates update tpl_… t.md\n  notula templates update tpl_builtin_one-to-one --default",
    );

export interface Input {
  id: string;
  file?: string;
  name?: string;
  default?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  const fields = f.file ? parseTemplateFile(await readInput(f.file), f.file) : {};
  const { template } = await api.call("updateTemplate", {
    params: { id: f.id },
    body: { ...fields, ...(f.name ? { name: f.name } : {}), ...(f.default ? { isDefault: true } : {}) },
  });
  return template;
}

export const render = (template: Template) =>
  info(`Updated "${template.name}"${template.isDefault ? " (the workspace default)" : ""}.`);
