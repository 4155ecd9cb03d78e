// Encrypts secrets that must be recovered later (webhook signing secrets) with a
// key kept in the data dir, so that a copy of the database alone does not leak them.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** HMAC-SHA256 (base64url) with a key derived for signing, never the encryption key itself. */
  sign(data: string): string;
  /** Constant-time check of a signature made by `sign`. */
  verify(data: string, signature: string): boolean;
  /** A key derived for one purpose (HKDF), never the master key itself. */
  derive(info: string): Buffer;
}

/**
 * The key comes from `configured` (NOTULA_SECRET_KEY: replicas on several machines
 * must share one) or else from <data dir>/secret.key, made at first start.
 */
export function loadSecretBox(dataDir: string, configured?: string): SecretBox {
  const file = configured ? "NOTULA_SECRET_KEY" : path.join(dataDir, "secret.key");
  let key: Buffer;
  if (configured) key = Buffer.from(configured.trim(), "base64");
  else
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
  if (key.length !== 32)
    throw new Error(`${file} is damaged: it must hold a 32-byte base64 key (make one with: openssl rand -base64 32).`);
  const signingKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "notula url signing", 32));
  const sign = (data: string) => createHmac("sha256", signingKey).update(data).digest("base64url");
  return {
    sign,
    derive: (info) => Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), info, 32)),
    verify(data, signature) {
      const expected = Buffer.from(sign(data));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [
        "v1",
        iv.toString("base64url"),
        cipher.getAuthTag().toString("base64url"),
        body.toString("base64url"),
      ].join(".");
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
