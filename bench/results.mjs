// Where `npm run bench` writes what it measured: docs/benchmarks.md, one section per
// benchmark (between markers, replaced by the next run of that benchmark), each with
// the date, the machine and the commit it was measured on, so figures are never
// edited in by hand and always say where they came from.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "docs", "benchmarks.md");
const HEADING = "## Latest results";

function commit() {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    return dirty ? `${sha} with uncommitted changes` : sha;
  } catch {
    return "unknown (not a git checkout)";
  }
}

export function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model?.trim() ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node.js ${process.version}`;
}

/** Runs `fn`, passing its output through, and records what it printed as the benchmark's latest result. */
export async function recorded(name, fn) {
  const printed = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    printed.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return write(chunk, ...rest);
  };
  const started = new Date();
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  const output = printed
    .join("")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .replace(/^\n+/, "")
    .trimEnd();
  const section = [
    `<!-- bench:${name} -->`,
    `### ${name}`,
    "",
    `Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()}, at commit ${commit()}.`,
    "",
    "```text",
    output || "(no output)",
    "```",
    `<!-- /bench:${name} -->`,
  ].join("\n");
  let doc = fs.readFileSync(FILE, "utf8");
  const start = doc.indexOf(`<!-- bench:${name} -->`);
  const end = doc.indexOf(`<!-- /bench:${name} -->`);
  if (start >= 0 && end > start)
    doc = doc.slice(0, start) + section + doc.slice(end + `<!-- /bench:${name} -->`.length);
  else {
    if (!doc.includes(HEADING))
      doc = `${doc.trimEnd()}\n\n${HEADING}\n\nWritten by \`npm run bench\`: each benchmark's last run, as it printed it.\n`;
    doc = `${doc.trimEnd()}\n\n${section}\n`;
  }
  fs.writeFileSync(FILE, doc);
  process.stderr.write(`recorded ${name} in docs/benchmarks.md\n`);
}
