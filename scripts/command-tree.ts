// Writes the command tree (src/cli/lib/command-tree.ts) of the whole program to the
// file given, for completion to read at each Tab. Run by the build (tsup.config.ts).
import fs from "node:fs";
import { createProgram } from "../src/cli/program.js";
import { commandTree } from "../src/cli/lib/command-tree.js";

fs.writeFileSync(process.argv[2], JSON.stringify(commandTree(await createProgram("all"))));
