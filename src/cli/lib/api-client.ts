// The REST client of the CLI, errors as ApiError carrying the server's code and
// message. On node:http rather than fetch: loading fetch's HTTP stack costs more
// start-up time than most commands take to run.
import type { IncomingMessage } from "node:http";
import { endpoints, type EndpointName } from "../../shared/api/endpoints.js";
import { CliError, EXIT, exitCodeFor } from "../exit.js";
import type { ApiRequest, ApiResponse } from "./api-types.js";
import { createParser } from "eventsource-parser";
import { RETRY, withBackOff, type RetryPolicy } from "./back-off.js";

export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
    /** On a 409, the note the request conflicts with (error.noteId). */
    readonly noteId?: string,
  ) {
    super(`${apiCode}: ${message}`, exitCodeFor(status));
  }
}

export interface ApiClient {
  baseUrl: string;
  /** Calls an endpoint by name, typed by its route definition on the server. */
  call<N extends EndpointName>(name: N, input?: ApiRequest<N>): Promise<ApiResponse<N>>;
  /** Any request by its path and query (`notula api`): the answer's JSON; an error answer throws as `call` does. */
  request(method: string, pathAndQuery: string, body?: unknown): Promise<unknown>;
  /**
   * Sends raw bytes to an endpoint that takes them (a recording's pieces) and returns
   * the status and the parsed answer as they are; rejects only when the server cannot be reached.
   */
  sendBytes(
    name: EndpointName,
    input: { params?: Record<string, string>; query?: Record<string, QueryValue>; body: Buffer; contentType: string },
  ): Promise<{ status: number; json: unknown }>;
  /**
   * Calls an endpoint that answers with server-sent events, giving each event to
   * `onEvent` as it arrives; an error answer (before any event) throws as `call` does.
   */
  events<N extends EndpointName>(
    name: N,
    input: ApiRequest<N>,
    onEvent: (event: string, data: unknown) => void,
  ): Promise<void>;
  /**
   * Streams an endpoint's answer into `sink` (a file), at the pace the sink takes it;
   * an error answer throws as `call` does. The limit is on silence, not on the whole.
   */
  download(name: EndpointName, input: { params?: Record<string, string> }, sink: NodeJS.WritableStream): Promise<void>;
}

export type QueryValue = string | number | boolean | string[] | undefined | null;

/** The endpoint's path with its parameters filled in, and the query (lists comma-joined, unset values left out). */
export function endpointUrl(
  name: EndpointName,
  params: Record<string, string> = {},
  query: Record<string, QueryValue> = {},
): string {
  const path = endpoints[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (params[key] === undefined) throw new Error(`${name}: missing path parameter ${key}`);
    return encodeURIComponent(params[key]);
  });
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    q.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A request the server left unanswered past the time limit. */
const TIMED_OUT = "NOTULA_TIMED_OUT";

interface Answer {
  status: number;
  statusText: string;
  text: string;
  /** The Retry-After header of a 429 or 503. */
  retryAfter?: string;
}

async function send(
  method: string,
  url: string,
  key: string | null,
  body: unknown,
  timeoutMs: number,
  raw?: { bytes: Buffer; contentType: string },
  /** A streamed answer: its bytes as they arrive (the text still resolves, whole, at the end). */
  stream?: { accept: string; onData(chunk: Buffer): void },
  extraHeaders: Record<string, string | undefined> = {},
) {
  const { request } = (await import(
    url.startsWith("https:") ? "node:https" : "node:http"
  )) as typeof import("node:http");
  const payload = raw ? raw.bytes : body !== undefined ? JSON.stringify(body) : undefined;
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(payload !== undefined
            ? {
                "content-type": raw?.contentType ?? "application/json",
                "content-length": Buffer.byteLength(payload),
              }
            : {}),
          "user-agent": "notula-cli",
          ...(stream ? { accept: stream.accept } : {}),
          ...Object.fromEntries(Object.entries(extraHeaders).filter(([, v]) => v !== undefined)),
        },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          if (stream && (res.statusCode ?? 0) < 300) stream.onData(c);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? "",
            text: Buffer.concat(chunks).toString("utf8"),
            retryAfter: res.headers["retry-after"],
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    // No answer (nor any byte of one) for this long: the server is gone or stuck.
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("timed out"), { code: TIMED_OUT })));
    req.end(payload);
  });
}

/** The server's error answer as the CLI says it: its code and message, and what to do about it. */
/** Where the key sent came from, for what a refused one should make the person do. */
export type KeyFrom = "flag" | "env" | "profile";

const REFUSED_KEY: Record<KeyFrom, string> = {
  flag: " The key given with --api-key was refused: check it, or leave the flag out to use your profile's.",
  env: " The key in NOTULA_API_KEY was refused: check it, or unset it to use your profile's sign-in.",
  profile: " Your profile's key was refused (revoked or expired?): sign in again with `notula login`.",
};

function failure(status: number, statusText: string, json: unknown, keyFrom: KeyFrom | undefined): ApiError {
  const error = (json as { error?: { code?: string; message?: string; noteId?: string } } | null)?.error;
  const code = error?.code ?? `http_${status}`;
  let message = error?.message ?? statusText;
  if (status === 401) message += keyFrom ? REFUSED_KEY[keyFrom] : " Run `notula login` or set NOTULA_API_KEY.";
  // What to do about a plan or a scope, not only what went wrong.
  else if (status === 403 && /plan/i.test(message))
    message +=
      " On a self-hosted server, an admin changes the plan with `notula admin workspaces set-plan --workspace <id> --plan enterprise`.";
  else if (status === 403 && /scope/i.test(message))
    message += " Ask for a key with that scope (web app: API keys), then `notula login` with it.";
  return new ApiError(status, code, message, error?.noteId);
}

export function createApiClient(
  baseUrl: string,
  key: string | null,
  timeoutMs = 30_000,
  opts: { retry?: RetryPolicy; keyFrom?: KeyFrom } = {},
): ApiClient {
  const { retry = RETRY, keyFrom } = opts;
  const base = baseUrl.replace(/\/+$/, "");
  const backOff = <A extends Answer>(what: string, attempt: () => Promise<A>) => withBackOff(what, attempt, retry);
  /** One request and its JSON answer, backed off on 429 and 503; an error answer throws, said as the CLI says it. */
  async function request(
    method: string,
    path: string,
    body: unknown,
    headers?: Record<string, string | undefined>,
  ): Promise<unknown> {
    let res: Answer;
    try {
      res = await backOff(`${method} ${path.split("?")[0]}`, () =>
        send(method, base + path, key, body, timeoutMs, undefined, undefined, headers),
      );
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.code === TIMED_OUT)
        throw new CliError(
          `${base} did not answer ${method} ${path.split("?")[0]} within ${timeoutMs / 1000} s; raise the limit with --timeout or NOTULA_TIMEOUT if it is busy.`,
          EXIT.timeout,
        );
      throw new CliError(
        `Cannot reach ${base} (${e.code ?? e.message}). Is the server running? Start one with \`notula serve\` or pass --server.`,
      );
    }
    const text = res.text;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new CliError(
        `${base} answered ${res.status} with something that is not JSON: it is not a notula server; check --server.`,
        EXIT.notServer,
      );
    }
    // notula's every error names its code: a 404 without one is another server's page.
    if (res.status === 404 && !(json as { error?: { code?: string } } | null)?.error?.code)
      throw new CliError(
        `${base} answered 404 to ${method} ${path.split("?")[0]} without notula's error: it is not a notula server (or not at this path); check --server.`,
        EXIT.notServer,
      );
    if (res.status < 200 || res.status >= 300) throw failure(res.status, res.statusText, json, keyFrom);
    return json;
  }

  return {
    baseUrl: base,
    async call(name, input) {
      const { params, query, body, headers } = (input ?? {}) as {
        params?: Record<string, string>;
        query?: Record<string, QueryValue>;
        body?: unknown;
        headers?: Record<string, string | undefined>;
      };
      return (await request(
        endpoints[name].method.toUpperCase(),
        endpointUrl(name, params, query),
        body,
        headers,
      )) as ApiResponse<typeof name>;
    },
    request: (method, pathAndQuery, body) => request(method.toUpperCase(), pathAndQuery, body),
    async events(name, input, onEvent) {
      const { params, body } = (input ?? {}) as { params?: Record<string, string>; body?: unknown };
      const method = endpoints[name].method.toUpperCase();
      const decoder = new TextDecoder();
      const parser = createParser({ onEvent: (m) => onEvent(m.event ?? "message", JSON.parse(m.data)) });
      const onData = (chunk: Buffer) => parser.feed(decoder.decode(chunk, { stream: true }));
      let res;
      try {
        res = await backOff(`${method} ${endpoints[name].path}`, () =>
          send(method, base + endpointUrl(name, params), key, body, timeoutMs, undefined, {
            accept: "text/event-stream",
            onData,
          }),
        );
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === TIMED_OUT)
          throw new CliError(
            `${base} sent nothing for ${timeoutMs / 1000} s; raise the limit with --timeout or NOTULA_TIMEOUT.`,
            EXIT.timeout,
          );
        throw new CliError(
          `Cannot reach ${base} (${e.code ?? e.message}). Is the server running? Start one with \`notula serve\` or pass --server.`,
        );
      }
      if (res.status < 200 || res.status >= 300) {
        let json: unknown = null;
        try {
          json = JSON.parse(res.text);
        } catch {
          json = null;
        }
        throw failure(res.status, res.statusText, json, keyFrom);
      }
    },
    async download(name, input, sink) {
      const url = base + endpointUrl(name, input.params);
      const { request } = (await import(
        url.startsWith("https:") ? "node:https" : "node:http"
      )) as typeof import("node:http");
      const { pipeline } = await import("node:stream/promises");
      const open = () =>
        new Promise<IncomingMessage>((resolve, reject) => {
          const req = request(
            url,
            { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "user-agent": "notula-cli" } },
            resolve,
          );
          req.on("error", (e: NodeJS.ErrnoException) =>
            reject(
              e.code === TIMED_OUT
                ? new CliError(
                    `${base} sent nothing for ${timeoutMs / 1000} s; raise the limit with --timeout or NOTULA_TIMEOUT.`,
                    EXIT.timeout,
                  )
                : new CliError(
                    `Cannot reach ${base} (${e.code ?? e.message}). Is the server running? Start one with \`notula serve\` or pass --server.`,
                  ),
            ),
          );
          req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("timed out"), { code: TIMED_OUT })));
          req.end();
        });
      let refused: IncomingMessage | undefined;
      const { res } = await backOff(`GET ${endpoints[name].path}`, async () => {
        // Trying again: the refusal's body is not wanted.
        refused?.resume();
        const res = (refused = await open());
        const retryAfter = res.headers["retry-after"] as string | undefined;
        return { status: res.statusCode ?? 0, retryAfter, statusText: "", text: "", res };
      });
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        let text = "";
        for await (const chunk of res) text += chunk;
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
        throw failure(status, res.statusMessage ?? "", json, keyFrom);
      }
      await pipeline(res, sink).catch((e: NodeJS.ErrnoException) => {
        throw e.code === TIMED_OUT || res.errored
          ? new CliError(`${base} stopped sending for ${timeoutMs / 1000} s; the download is incomplete.`, EXIT.timeout)
          : e;
      });
    },
    async sendBytes(name, input) {
      const method = endpoints[name].method.toUpperCase();
      const res = await backOff(`${method} ${endpoints[name].path}`, () =>
        send(method, base + endpointUrl(name, input.params, input.query), key, undefined, timeoutMs, {
          bytes: input.body,
          contentType: input.contentType,
        }),
      );
      let json: unknown = null;
      try {
        json = res.text ? JSON.parse(res.text) : null;
      } catch {
        json = null;
      }
      return { status: res.status, json };
    },
  };
}
