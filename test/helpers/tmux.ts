// Drives a program in a real terminal: tmux runs it, send-keys types, capture-pane reads.
import { execFileSync } from "node:child_process";

export interface Terminal {
  type(keys: string): void;
  press(key: string): void;
  screen(): string;
  waitFor(text: RegExp | string, timeoutMs?: number): Promise<string>;
  exitCode(): Promise<number>;
  close(): void;
}

let counter = 0;
// A tmux server of this test process's own: on the shared default server, one file
// closing its last session shuts the server down under another file starting one.
const SOCKET = `notula-test-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", SOCKET, ...args]);

// A server with no session left exits, and one test closing its terminal just before the
// next opens one leaves that one talking to a server on its way out ("server exited
// unexpectedly"). A session that lives as long as this process keeps the server up
// between terminals; it ends by itself once this process is gone.
let keeper = false;
function keepServer() {
  if (keeper) return;
  tmux("new-session", "-d", "-s", `${SOCKET}-keeper`, `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done`);
  keeper = true;
}

export function openTerminal(command: string, env: Record<string, string>): Terminal {
  const name = `notula-test-${process.pid}-${counter++}`;
  // A terminal stands for a person: CI (set by CI runners, and inherited by the tmux
  // server from this process) would turn prompts and the pager off.
  const exports = Object.entries({ CI: "", ...env })
    .map(([k, v]) => `export ${k}='${v.replace(/'/g, "'\\''")}';`)
    .join(" ");
  // The exit code is kept in the pane after the program ends, so it can be read.
  const script = `${exports} ${command}; echo "EXIT=$?"; sleep 60`;
  keepServer();
  tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "30", "bash", "-c", script);
  const screen = () => tmux("capture-pane", "-p", "-t", name).toString();
  const waitFor = async (text: RegExp | string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = screen();
      if (typeof text === "string" ? s.includes(text) : text.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${text}; it shows:\n${s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    type: (keys) => tmux("send-keys", "-t", name, "-l", keys),
    press: (key) => tmux("send-keys", "-t", name, key),
    screen,
    waitFor,
    async exitCode() {
      const s = await waitFor(/EXIT=\d+/);
      return Number(/EXIT=(\d+)/.exec(s)![1]);
    },
    close: () => {
      try {
        tmux("kill-session", "-t", name);
      } catch {
        /* already gone */
      }
    },
  };
}
