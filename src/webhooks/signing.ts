// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 of
// "id.timestamp.body" with the secret's bytes, sent as "v1,<base64>".
import { createHmac } from "node:crypto";

export function signPayload(secret: string, id: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSec}.${body}`).digest("base64")}`;
}
