// Encrypts secrets that must be recovered later (webhook signing secrets) with a
// key kept in the data dir, so that a copy of the database alone does not leak them.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function loadSecretBox(dataDir: string): SecretBox {
  const file = path.join(dataDir, "secret.key");
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    key = randomBytes(32);
    try {
      // wx: if another process created it first, use theirs.
      fs.writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    } catch {
      key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
    }
  }
  if (key.length !== 32) throw new Error(`${file} is damaged: it must hold a 32-byte base64 key.`);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    },
    open(sealed) {
      const [v, iv, tag, body] = sealed.split(".");
      if (v !== "v1") throw new Error("Unknown secret format.");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
