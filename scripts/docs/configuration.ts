// docs/configuration.md, from the settings table (src/config/settings.ts) and the
// command line's environment (src/config/environment.ts).
import { choices, defaultText, entries, valueKind } from "../../src/config/setting.js";
import { SETTINGS } from "../../src/config/settings.js";
import { CLI_ENVIRONMENT } from "../../src/config/environment.js";
import { cell, GENERATED } from "./markdown.js";

export function renderConfiguration(): string {
  const rows = entries(SETTINGS).map(({ path, setting }) => {
    const names = [
      setting.notInFile ? "" : `\`${path.join(".")}\``,
      ...(setting.env ?? []).map((e) => `\`${e}\``),
      setting.flag ? `\`${setting.flag.split(" ")[0]}\`` : "",
    ].filter(Boolean);
    const options = choices(setting);
    const kind = options
      ? `one of ${options.map((o) => `\`${o}\``).join(", ")}`
      : { number: "number", boolean: "on/off", numbers: "numbers, comma-separated", string: "text" }[
          valueKind(setting)
        ];
    const def = defaultText(setting);
    return `| ${names.join("<br>")} | ${kind} | ${def ? `\`${cell(def)}\`` : ""} | ${cell(setting.doc)} |`;
  });
  const cli = Object.values(CLI_ENVIRONMENT).map(({ name, doc }) => `| \`${name}\` | ${cell(doc)} |`);
  return `${GENERATED("src/config/settings.ts and src/config/environment.ts")}
# Configuration

\`notula serve\` reads each setting from, in order of precedence: its flag, its
environment variable, the JSON config file (\`--config\`, else \`<data-dir>/config.json\`
when it exists; nested keys as in the first column, e.g.
\`{"transcription": {"language": "de"}}\`), and its default. A config file with a key
not listed here is refused, naming the keys it could have meant; a bad value names the
variable or flag it came from. Credentials have no flag: a flag shows in the process
list.

| Setting (file key, environment, flag) | Type | Default | What it does |
|---|---|---|---|
${rows.join("\n")}

## The command line's environment

| Variable | What it does |
|---|---|
${cli.join("\n")}
`;
}
