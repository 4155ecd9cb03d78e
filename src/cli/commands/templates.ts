// notula templates list | get | create | update | delete
import type { Command } from "commander";
import { apiAction, confirm, readInput } from "../lib/context.js";
import { info, printTable, truncate } from "../lib/output.js";
import { parseTemplateFile, templateToMarkdown } from "../lib/template-file.js";

const FILE_HELP = `
A template file is Markdown: front matter, the model's context, then one "## " heading per section
with the section's instructions under it (JSON with the API's fields works too):

  ---
  name: Design review
  description: For design crits
  language: en
  ---
  We build a mobile banking app.

  ## Designs shown
  Which screens were shown.

  ## Feedback
  What people liked and disliked.`;

export function registerTemplates(program: Command) {
  const templates = program
    .command("templates")
    .description("Meeting templates: the sections an enhanced note is written in");

  templates
    .command("list")
    .description("List the built-in templates and the workspace's own")
    .action(
      apiAction(
        (ctx) => ctx.api.call("listTemplates"),
        ({ templates: list }) =>
          printTable(
            ["ID", "NAME", "SECTIONS", "LANGUAGE", ""],
            list.map((t) => [
              t.id,
              truncate(t.name, 32),
              truncate(t.sections.map((s) => s.title).join(", "), 60),
              t.language ?? "",
              [t.isDefault ? "default" : "", t.builtIn ? "built-in" : ""].filter(Boolean).join(", "),
            ]),
          ),
      ),
    );

  templates
    .command("get")
    .description("Print a template as Markdown, ready to edit and create from")
    .argument("<id>", "template id")
    .addHelpText("after", "\nExample:\n  notula templates get tpl_builtin_stand-up > standup.md")
    .action(
      apiAction(
        (ctx, id: string) => ctx.api.call("getTemplate", { params: { id } }),
        ({ template }) => process.stdout.write(templateToMarkdown(template)),
      ),
    );

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
    )
    .action(
      apiAction(
        async (ctx, file: string | undefined, f: { copyFrom?: string; name?: string; default?: boolean }) => {
          const fields = file ? parseTemplateFile(await readInput(file), file) : {};
          return ctx.api.call("createTemplate", {
            body: {
              ...fields,
              ...(f.name ? { name: f.name } : {}),
              ...(f.copyFrom ? { copyFrom: f.copyFrom } : {}),
              ...(f.default ? { isDefault: true } : {}),
            },
          });
        },
        ({ template }) => {
          process.stdout.write(`${template.id}\n`);
          info(
            `Created "${template.name}" with ${template.sections.length} section${template.sections.length === 1 ? "" : "s"}.`,
          );
        },
      ),
    );

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
    )
    .action(
      apiAction(
        async (ctx, id: string, file: string | undefined, f: { name?: string; default?: boolean }) => {
          const fields = file ? parseTemplateFile(await readInput(file), file) : {};
          return ctx.api.call("updateTemplate", {
            params: { id },
            body: { ...fields, ...(f.name ? { name: f.name } : {}), ...(f.default ? { isDefault: true } : {}) },
          });
        },
        ({ template }) => info(`Updated "${template.name}"${template.isDefault ? " (the workspace default)" : ""}.`),
      ),
    );

  templates
    .command("delete")
    .description("Delete one of the workspace's templates")
    .argument("<id>", "template id")
    .option("-y, --yes", "do not ask")
    .action(
      apiAction(
        async (ctx, id: string, f: { yes?: boolean }) => {
          const { template } = await ctx.api.call("getTemplate", { params: { id } });
          await confirm(
            `Delete the template "${template.name}"? Folders that use it go back to the workspace default.`,
            f.yes,
          );
          return ctx.api.call("deleteTemplate", { params: { id } });
        },
        (_r, _ctx, id) => info(`Deleted ${id}.`),
      ),
    );
}
