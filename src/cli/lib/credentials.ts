// Where the CLI keeps API keys: NOTULA_API_KEY first (CI), then the system keychain
// (keytar, optional, loaded lazily with a short timeout so a box without a secret
// service never hangs), then a 0600 file with a visible notice.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { environment } from "../../config/environment.js";

const SERVICE = "notula";
const KEYCHAIN_TIMEOUT_MS = 1500;

export function configDir(): string {
  const base = environment().configHome || path.join(os.homedir(), ".config");
  return path.join(base, "notula");
}

const fileStore = () => path.join(configDir(), "credentials.json");

type Keytar = {
  getPassword(s: string, a: string): Promise<string | null>;
  setPassword(s: string, a: string, p: string): Promise<void>;
  deletePassword(s: string, a: string): Promise<boolean>;
};

async function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>(
        (_, reject) => (timer = setTimeout(() => reject(new Error("keychain timed out")), KEYCHAIN_TIMEOUT_MS)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function keychain(): Promise<Keytar | null> {
  if (environment().noKeychain) return null;
  try {
    const mod = (await import("keytar")) as unknown as Keytar & { default?: Keytar };
    return mod.default ?? mod;
  } catch {
    return null;
  }
}

function readFile(): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(fileStore(), "utf8"));
  } catch {
    return {};
  }
}

function writeFile(all: Record<string, string>) {
  fs.mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const file = fileStore();
  fs.writeFileSync(file, JSON.stringify(all, null, 2) + "\n", { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

export type Stored = "keychain" | "file";

export async function saveKey(server: string, key: string): Promise<{ where: Stored; file?: string }> {
  const kc = await keychain();
  if (kc) {
    try {
      await withTimeout(kc.setPassword(SERVICE, server, key));
      return { where: "keychain" };
    } catch {
      /* no secret service running: fall back to the file */
    }
  }
  writeFile({ ...readFile(), [server]: key });
  return { where: "file", file: fileStore() };
}

export async function loadKey(
  server: string,
  opts: { ignoreEnv?: boolean } = {},
): Promise<{ key: string; from: "env" | Stored } | null> {
  const fromEnv = environment().apiKey;
  if (fromEnv && !opts.ignoreEnv) return { key: fromEnv, from: "env" };
  const kc = await keychain();
  if (kc) {
    try {
      const key = await withTimeout(kc.getPassword(SERVICE, server));
      if (key) return { key, from: "keychain" };
    } catch {
      /* fall through to the file */
    }
  }
  const key = readFile()[server];
  return key ? { key, from: "file" } : null;
}

export async function deleteKey(server: string): Promise<boolean> {
  let removed = false;
  const kc = await keychain();
  if (kc) {
    try {
      removed = await withTimeout(kc.deletePassword(SERVICE, server));
    } catch {
      /* ignore */
    }
  }
  const all = readFile();
  if (server in all) {
    delete all[server];
    writeFile(all);
    removed = true;
  }
  return removed;
}

export const credentialsFile = fileStore;
