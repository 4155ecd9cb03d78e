// notula templates create [file]
import type { Command } from "commander";
import type { Template } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { readInput } from "../../lib/context.js";
import { info } from "../../lib/output.js";
import { parseTemplateFile } from "../../lib/template-file.js";
import { FILE_HELP } from "./file-help.js";

export const define = (templates: Command) =>
  templates
    .command("create")
    .description("Create a template from a Markdown or JSON file (- for standard input)")
    .argument("[file]", "the template file")
    .option("--copy-from <id>", "start from this template (a built-in one too); the file's fields replace its")
    .option("--name <name>", "the template's name (over the file's)")
    .option("--default", "make it the workspace default")
    .addHelpText(
      "after",
      `${FILE_HELP}\n\nExamples:\n  notula templates create design-review.md --default\n  notula templates create --copy-from tpl_builtin_sales-call --name "Enterprise sales"`,
    );

export interface Input {
  file?: string;
  copyFrom?: string;
  name?: string;
  default?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  const fields = f.file ? parseTemplateFile(await readInput(f.file), f.file) : {};
  const { template } = await api.call("createTemplate", {
    body: {
      ...fields,
      ...(f.name ? { name: f.name } : {}),
      ...(f.copyFrom ? { copyFrom: f.copyFrom } : {}),
      ...(f.default ? { isDefault: true } : {}),
    },
  });
  return template;
}

export function render(template: Template) {
  process.stdout.write(`${template.id}\n`);
  const n = template.sections.length;
  info(`Created "${template.name}" with ${n} section${n === 1 ? "" : "s"}.`);
}
