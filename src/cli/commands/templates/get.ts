// notula templates get <id>
import type { Command } from "commander";
import type { Template } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { templateToMarkdown } from "../../lib/template-file.js";

export const define = (templates: Command) =>
  templates
    .command("get")
    .description("Print a template as Markdown, ready to edit and create from")
    .argument("<id>", "template id")
    .addHelpText("after", "\nExample:\n  notula templates get tpl_builtin_stand-up > standup.md");

export const run = async (f: { id: string }, { api }: Deps) =>
  (await api.call("getTemplate", { params: { id: f.id } })).template;

export const render = (template: Template) => process.stdout.write(templateToMarkdown(template));
