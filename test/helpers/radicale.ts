// A real CalDAV server for the calendar tests: Debian's Radicale, started on a free
// port with one user (plain htpasswd) and its data in a temporary directory.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./server.js";
import { until } from "./until.js";
import { freePort } from "./free-port.js";

export interface Radicale {
  url: string;
  user: string;
  password: string;
  /** A WebDAV request as the user. */
  dav(method: string, pathname: string, body?: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

export async function startRadicale(user = "ana", password = "calendar secret"): Promise<Radicale> {
  const dir = tempDir("notula-radicale-");
  const users = path.join(dir, "users");
  fs.writeFileSync(users, `${user}:${password}\n`);
  const port = await freePort();
  const proc: ChildProcess = spawn(
    "radicale",
    [
      "--config",
      "",
      "--server-hosts",
      `127.0.0.1:${port}`,
      "--storage-filesystem-folder",
      path.join(dir, "collections"),
      "--auth-type",
      "htpasswd",
      "--auth-htpasswd-filename",
      users,
      "--auth-htpasswd-encryption",
      "plain",
      "--logging-level",
      "warning",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  proc.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const auth = "Basic " + Buffer.from(`${user}:${password}`).toString("base64");
  await until(
    () => `Radicale to listen (${stderr})`,
    () =>
      fetch(url, { headers: { authorization: auth } })
        .then(() => true)
        .catch(() => false),
    30_000,
    100,
  );
  return {
    url,
    user,
    password,
    dav: (method, pathname, body, headers = {}) =>
      fetch(url + pathname, { method, body, headers: { authorization: auth, ...headers } }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill();
      }),
  };
}
