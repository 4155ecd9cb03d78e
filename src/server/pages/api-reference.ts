// A self-contained API reference page rendered on the server from the OpenAPI
// document: no script, no CDN, so it works on an offline self-hosted box.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  if (schema?.$ref) return doc.components?.schemas?.[schema.$ref.split("/").pop()];
  return schema;
}

/** A compact TypeScript-like rendering of a schema, following $refs a few levels deep. */
function shape(doc: Json, schema: Json | undefined, depth = 0): string {
  if (!schema) return "unknown";
  const name = schema.$ref ? schema.$ref.split("/").pop() : undefined;
  const s = resolve(doc, schema);
  if (!s) return name ?? "unknown";
  if (depth > 3 && name) return name;
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf).map((x: Json) => shape(doc, x, depth)).join(" | ");
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  const nullable = Array.isArray(s.type) && s.type.includes("null") ? " | null" : "";
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  if (type === "array") return `${shape(doc, s.items, depth + 1)}[]${nullable}`;
  if (type === "object" || s.properties) {
    const req = new Set<string>(s.required ?? []);
    const pad = "  ".repeat(depth + 1);
    const fields = Object.entries(s.properties ?? {}).map(
      ([k, v]) => `${pad}${k}${req.has(k) ? "" : "?"}: ${shape(doc, v as Json, depth + 1)}`,
    );
    return fields.length ? `{\n${fields.join("\n")}\n${"  ".repeat(depth)}}${nullable}` : `object${nullable}`;
  }
  return `${type ?? "unknown"}${nullable}`;
}

export function renderApiReference(document: object): string {
  const doc = document as Json;
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(ops)) {
      const params = (op.parameters ?? []) as Json[];
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const ok = op.responses?.["200"]?.content?.["application/json"]?.schema;
      const errs = Object.entries<Json>(op.responses ?? {})
        .filter(([code]) => code !== "200")
        .map(([code, r]) => `<li><code>${esc(code)}</code> ${esc(r.description)}</li>`)
        .join("");
      const html = `<section class="op" id="${esc(op.operationId ?? method + path)}">
<h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code>${op["x-notula-extension"] ? ' <span class="ext">extension</span>' : ""}</h3>
<p>${esc(op.summary)}</p>${op.description ? `<p class="d">${esc(op.description)}</p>` : ""}
${params.length ? `<table><tr><th>parameter</th><th>in</th><th>type</th><th>notes</th></tr>${params.map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? " *" : ""}</td><td>${esc(p.in)}</td><td>${esc(shape(doc, p.schema))}</td><td>${esc(p.description ?? p.schema?.description ?? "")}</td></tr>`).join("")}</table>` : ""}
${body ? `<h4>Body</h4><pre>${esc(shape(doc, body))}</pre>` : ""}
${ok ? `<h4>200</h4><pre>${esc(shape(doc, ok))}</pre>` : ""}
${errs ? `<h4>Errors</h4><ul>${errs}</ul>` : ""}
</section>`;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join(" · ");
  const sections = [...byTag.entries()]
    .map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>${ops.join("\n")}`)
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info?.title)} API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
code,pre{font:13px ui-monospace,monospace}pre{background:#f3f4f6;padding:.75rem;overflow:auto;border-radius:6px}
.op{border-top:1px solid #e5e7eb;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-size:12px;padding:2px 6px;border-radius:4px;color:#fff;background:#6b7280;text-align:center}
.get{background:#2563eb}.post{background:#059669}.patch{background:#d97706}.delete{background:#dc2626}.put{background:#7c3aed}
.ext{font-size:12px;color:#7c3aed;border:1px solid #7c3aed;border-radius:4px;padding:0 4px}table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}h3 code,td code,p{overflow-wrap:anywhere}td,th{border:1px solid #e5e7eb;padding:2px 8px;text-align:left;vertical-align:top}.d{color:#4b5563}</style></head>
<body><h1>${esc(doc.info?.title)} <small>${esc(doc.info?.version)}</small></h1><p>${esc(doc.info?.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${esc(doc.openapi)}).</p><nav>${nav}</nav>${sections}</body></html>`;
}
