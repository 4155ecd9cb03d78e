// Long output at a terminal goes through a pager ($NOTULA_PAGER, else $PAGER, else
// `less -RFX`, which quits at once when the text fits the screen); piped output is
// written as it is.
import { spawn } from "node:child_process";
import { childEnvironment, environment } from "../../config/environment.js";

export async function page(text: string, opts: { pager?: boolean } = {}): Promise<void> {
  const rows = process.stdout.rows ?? 0;
  const fits = text.split("\n").length < rows;
  const env = environment();
  // NOTULA_PAGER, set, wins over PAGER; set empty or to cat, it turns paging off.
  const chosen = env.has("notulaPager") ? (env.notulaPager?.trim() ?? "") : env.pager?.trim() || "less -RFX";
  const off = env.has("notulaPager") && (chosen === "" || chosen === "cat");
  if (opts.pager === false || off || !process.stdout.isTTY || !process.stdin.isTTY || fits || env.ci) {
    process.stdout.write(text);
    return;
  }
  const command = chosen;
  const shown = await new Promise<boolean>((resolve) => {
    const child = spawn(command, {
      shell: true,
      stdio: ["pipe", "inherit", "inherit"],
      env: childEnvironment({ LESS: "RFX" }),
    });
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code !== 127));
    child.stdin.on("error", () => {}); // the reader quit early (q): nothing more to write
    child.stdin.end(text);
  });
  if (!shown) process.stdout.write(text);
}
