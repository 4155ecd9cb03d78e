// The REST client of the CLI: one function per call shape, errors as ApiError
// carrying the server's code and message. Uses the global fetch (no extra load).
import { CliError, EXIT } from "../exit.js";

export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
  ) {
    super(`${apiCode}: ${message}`, status === 401 ? EXIT.auth : status === 404 ? EXIT.notFound : EXIT.error);
  }
}

export interface ApiClient {
  baseUrl: string;
  request<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

export function createApiClient(baseUrl: string, key: string | null): ApiClient {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    baseUrl: base,
    async request(method, path, body) {
      let res: Response;
      try {
        res = await fetch(base + path, {
          method,
          headers: {
            ...(key ? { authorization: `Bearer ${key}` } : {}),
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
            "user-agent": "notula-cli",
          },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
      } catch (err) {
        const cause = (err as Error & { cause?: Error }).cause;
        throw new CliError(`Cannot reach ${base} (${cause?.message ?? (err as Error).message}). Is the server running? Start one with \`notula serve\` or pass --server.`);
      }
      const text = await res.text();
      let json: any;
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        throw new CliError(`${base} answered ${res.status} with something that is not JSON; is it a notula server?`);
      }
      if (!res.ok) {
        const code = json?.error?.code ?? `http_${res.status}`;
        let message = json?.error?.message ?? res.statusText;
        if (res.status === 401) message += " Run `notula login` or set NOTULA_API_KEY.";
        throw new ApiError(res.status, code, message);
      }
      return json;
    },
  };
}
