// `notula __complete [--describe] WORDS…`, what the completion scripts ask at each Tab:
// answered from the command tree written at build (dist/command-tree.json) without
// loading commander or any command's module, so that a Tab costs little more than
// Node's own start. bin/notula.js loads this alone.
import fs from "node:fs";
import type { CommandNode } from "./lib/command-tree.js";
import { completions, DESCRIBE } from "./lib/complete.js";

const words = process.argv.slice(3);
const describe = words[0] === DESCRIBE;
const tree = JSON.parse(fs.readFileSync(new URL("./command-tree.json", import.meta.url), "utf8")) as CommandNode;
const out = await completions(tree, describe ? words.slice(1) : words, describe);
if (out.length) process.stdout.write(out.join("\n") + "\n");
