// docs/api.md, from the OpenAPI document the server serves: every operation with its
// scope-bearing path, what it does, and whether it extends the interface.
import { GENERATED, cell } from "./markdown.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function renderApi(doc: Json): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries<Json>(doc.paths ?? {}))
    for (const [method, op] of Object.entries<Json>(ops)) {
      const tag = op.tags?.[0] ?? "Other";
      const ext = op["x-notula-extension"] ? " *(extension)*" : "";
      const security = (op.security ?? doc.security ?? []) as Json[];
      const needs = !security.length
        ? "none (the signed URL)"
        : [security[0].bearer?.[0] ?? "any key", op["x-notula-plan"] && `${op["x-notula-plan"]} plan`]
            .filter(Boolean)
            .join(", ");
      byTag.set(tag, [
        ...(byTag.get(tag) ?? []),
        `| \`${method.toUpperCase()} ${path}\` | ${cell(op.summary ?? "")}${ext} | ${needs} | ${op.operationId ? `\`${op.operationId}\`` : ""} |`,
      ]);
    }
  const sections = [...byTag.entries()].map(
    ([tag, rows]) =>
      `## ${tag}\n\n| Operation | What it does | Needs | Name |\n|---|---|---|---|\n${rows.join("\n")}\n`,
  );
  return `${GENERATED("the OpenAPI document (GET /v1/openapi.json)")}
# The REST API

Every operation of ${doc.info?.title ?? "the API"} under \`/v1\`, as the OpenAPI ${doc.openapi} document at
\`/v1/openapi.json\` declares it; a running server renders the same document, with every
field, at \`/docs\`. *Needs* is the API key's scope (and the plan, where one is needed). The *name* is the operation's \`operationId\`, which the CLI's API
client calls it by. Errors are \`{ "error": { "code", "message" } }\`; a request body
with a field the operation does not take is refused with 400 naming it.

${sections.join("\n")}`;
}
