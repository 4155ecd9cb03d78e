// Summarises a V8 CPU profile (.cpuprofile, as `node --cpu-prof` writes): the functions
// that took the most time themselves, and the time by package or file, so a profile taken
// under a benchmark (BENCH_PROFILE_DIR) can be read on a terminal.
//   node bench/profile-summary.mjs <file.cpuprofile> [top=30]
import fs from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map(profile.nodes.map((n) => [n.id, 0]));
// Each sample is the node on top of the stack; timeDeltas[i] is the time before sample i.
profile.samples.forEach((id, i) => self.set(id, self.get(id) + (profile.timeDeltas[i] ?? 0)));
const totalUs = [...self.values()].reduce((a, b) => a + b, 0);

/** Where a function lives: its npm package, else its file under the project, else V8's own. */
function placeOf(url) {
  if (!url) return "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return url;
  return url.replace(/^file:\/\//, "").replace(/^.*\/(dist|src)\//, "$1/");
}

const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const byFunction = new Map();
const byPlace = new Map();
for (const [id, us] of self) {
  const { callFrame } = byId.get(id);
  const name = callFrame.functionName || "(anonymous)";
  add(byFunction, `${name}  ${placeOf(callFrame.url)}:${callFrame.lineNumber + 1}`, us);
  add(byPlace, placeOf(callFrame.url), us);
}
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)} %  ${key}`);
};
console.log(`${file}: ${(totalUs / 1e6).toFixed(1)} s sampled`);
print("By function (self time)", byFunction);
print("By package or file (self time)", byPlace);
