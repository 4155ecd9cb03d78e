#!/usr/bin/env node
// `notula --version` answers before the command-line program loads: scripts and package
// managers call it most, and it needs nothing but package.json. So does a Tab: the
// completion scripts' `notula __complete` reads the command tree written at build.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const { readFileSync } = await import("node:fs");
  process.stdout.write(`${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version}\n`);
} else if (args[0] === "__complete") {
  await import("../dist/complete.js");
} else {
  await import("../dist/cli.js");
}
