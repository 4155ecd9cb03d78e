// Turns a run's durations (test/helpers/durations-reporter.ts) into test/durations.json,
// which orders the next runs longest first, and the table of docs/testing.md, which says
// where the suite's time goes. `npm run test:times` runs the suite and then this.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const [report = path.join(root, "test-artifacts", "durations.json")] = process.argv.slice(2);
const { wallSeconds, files } = JSON.parse(fs.readFileSync(report, "utf8")) as {
  wallSeconds: number;
  files: Record<string, { seconds: number; tests: number; passed: boolean }>;
};
const rows = Object.entries(files).sort((a, b) => b[1].seconds - a[1].seconds);
const failed = rows.filter(([, r]) => !r.passed).map(([k]) => k);
if (failed.length) {
  console.error(`Not recorded: a run with failures (${failed.join(", ")}) says little of how long the files take.`);
  process.exit(1);
}

fs.writeFileSync(
  path.join(root, "test", "durations.json"),
  JSON.stringify(Object.fromEntries(rows.map(([k, r]) => [k, r.seconds])), null, 2) + "\n",
);

const total = rows.reduce((a, [, r]) => a + r.seconds, 0);
const byProject = new Map<string, number>();
for (const [k, r] of rows) byProject.set(k.split(" ")[0], (byProject.get(k.split(" ")[0]) ?? 0) + r.seconds);
const lines = [
  `The latest measured run: ${Math.round(wallSeconds / 60)} min ${wallSeconds % 60} s of wall time for ${rows.length} files, whose own times add up to ${Math.round(total)} s (${[...byProject].map(([p, s]) => `${p} ${Math.round(s)} s`).join(", ")}): the forks run about ${(total / wallSeconds).toFixed(1)} files at a time. The 25 longest:`,
  "",
  "| project | file | tests | seconds | share of the files' time |",
  "|---|---|---:|---:|---:|",
  ...rows
    .slice(0, 25)
    .map(
      ([k, r]) =>
        `| ${k.split(" ")[0]} | \`${k.split(" ")[1]}\` | ${r.tests} | ${r.seconds.toFixed(0)} | ${((100 * r.seconds) / total).toFixed(1)}% |`,
    ),
];
const doc = path.join(root, "docs", "testing.md");
const text = fs.readFileSync(doc, "utf8");
const begin = "<!-- test-times:begin -->";
const end = "<!-- test-times:end -->";
const at = text.indexOf(begin);
const to = text.indexOf(end);
if (at < 0 || to < at) throw new Error(`${doc} has no ${begin} … ${end} section`);
fs.writeFileSync(doc, `${text.slice(0, at + begin.length)}\n${lines.join("\n")}\n${text.slice(to)}`);
console.log(`wrote test/durations.json and the table in docs/testing.md (${rows.length} files, ${wallSeconds} s)`);
