// The REST client of the CLI, errors as ApiError carrying the server's code and
// message. On node:http rather than fetch: loading fetch's HTTP stack costs more
// start-up time than most commands take to run.
import type { IncomingMessage } from "node:http";
import { CliError, exitCodeFor } from "../exit.js";

export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
  ) {
    super(`${apiCode}: ${message}`, exitCodeFor(status));
  }
}

export interface ApiClient {
  baseUrl: string;
  request<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

async function send(method: string, url: string, key: string | null, body: unknown) {
  const { request } = (await import(url.startsWith("https:") ? "node:https" : "node:http")) as typeof import("node:http");
  const payload = body !== undefined ? JSON.stringify(body) : undefined;
  return new Promise<{ status: number; statusText: string; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          "user-agent": "notula-cli",
        },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

export function createApiClient(baseUrl: string, key: string | null): ApiClient {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    baseUrl: base,
    async request(method, path, body) {
      let res: { status: number; statusText: string; text: string };
      try {
        res = await send(method, base + path, key, body);
      } catch (err) {
        const e = err as Error & { code?: string };
        throw new CliError(`Cannot reach ${base} (${e.code ?? e.message}). Is the server running? Start one with \`notula serve\` or pass --server.`);
      }
      const text = res.text;
      let json: any;
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        throw new CliError(`${base} answered ${res.status} with something that is not JSON; is it a notula server?`);
      }
      if (res.status < 200 || res.status >= 300) {
        const code = json?.error?.code ?? `http_${res.status}`;
        let message = json?.error?.message ?? res.statusText;
        if (res.status === 401) message += " Run `notula login` or set NOTULA_API_KEY.";
        throw new ApiError(res.status, code, message);
      }
      return json;
    },
  };
}
