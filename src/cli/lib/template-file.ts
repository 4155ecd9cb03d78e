// A meeting template as a file a person writes: Markdown with a small front matter
// (name, description, language; flat "key: value" lines), the text before the first
// section as the model's context, and one "## " heading per section, its text the
// section's instructions. JSON with the API's fields works too.
import type { TemplateDto } from "../../shared/schemas/templates.js";
import { CliError, EXIT } from "../exit.js";

export interface TemplateFields {
  name?: string;
  description?: string;
  language?: string | null;
  context?: string;
  sections?: { title: string; instructions: string }[];
}

const FRONT_KEYS = ["name", "description", "language"] as const;

export function parseTemplateFile(text: string, file: string): TemplateFields {
  const trimmed = text.trim();
  if (file.endsWith(".json") || trimmed.startsWith("{")) {
    try {
      return JSON.parse(trimmed) as TemplateFields;
    } catch (err) {
      throw new CliError(`${file}: not valid JSON (${(err as Error).message}).`, EXIT.usage);
    }
  }
  const out: TemplateFields = {};
  let body = text.replace(/\r\n/g, "\n");
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(body);
  if (front) {
    body = body.slice(front[0].length);
    for (const [i, line] of front[1].split("\n").entries()) {
      if (!line.trim() || line.trim().startsWith("#")) continue;
      const m = /^([A-Za-z]+):\s*(.*)$/.exec(line);
      if (!m) throw new CliError(`${file}: front matter line ${i + 2} must read "key: value".`, EXIT.usage);
      const key = m[1] as (typeof FRONT_KEYS)[number];
      if (!FRONT_KEYS.includes(key))
        throw new CliError(
          `${file}: unknown front matter key "${m[1]}" (known: ${FRONT_KEYS.join(", ")}).`,
          EXIT.usage,
        );
      const value = m[2].trim().replace(/^(["'])(.*)\1$/, "$2");
      if (key === "language") out.language = value === "" || value === "null" ? null : value;
      else out[key] = value;
    }
  }
  const parts = body.split(/^## +/m);
  const context = parts.shift()!.trim();
  if (context) out.context = context;
  if (parts.length)
    out.sections = parts.map((p) => {
      const [title, ...rest] = p.split("\n");
      return { title: title.trim(), instructions: rest.join("\n").trim() };
    });
  return out;
}

/** The file `parseTemplateFile` reads back: what `templates get` prints, ready to edit. */
export function templateToMarkdown(
  t: Pick<TemplateDto, "name" | "description" | "language" | "context" | "sections">,
): string {
  const lines = ["---", `name: ${t.name}`];
  if (t.description) lines.push(`description: ${t.description.replace(/\n/g, " ")}`);
  if (t.language) lines.push(`language: ${t.language}`);
  lines.push("---", "");
  if (t.context) lines.push(t.context, "");
  for (const s of t.sections) lines.push(`## ${s.title}`, ...(s.instructions ? [s.instructions] : []), "");
  return lines.join("\n");
}
