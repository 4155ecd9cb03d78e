// A small JSON client for tests: every call returns status, headers and parsed body.
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type Client = <T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Reply<T>>;

/** Something requests can go to: a server's base URL, or an app called in process (helpers/app.ts). */
export type Target = string | { url: string; fetch(input: string, init?: RequestInit): Promise<Response> };

export function client(target: Target, key?: string): Client {
  const baseUrl = typeof target === "string" ? target : target.url;
  const send = typeof target === "string" ? (url: string, init: RequestInit) => fetch(url, init) : target.fetch;
  return async (method, path, body, headers = {}) => {
    const h: Record<string, string> = { ...headers };
    if (key && !("authorization" in h) && !("x-api-key" in h)) h.authorization = `Bearer ${key}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      h["content-type"] ??= "application/json";
    }
    const res = await send(baseUrl + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: any = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

/** Asserts the documented error shape and returns the code. */
export function errorCode(reply: Reply): string {
  const e = reply.body?.error;
  if (
    !e ||
    typeof e.code !== "string" ||
    typeof e.message !== "string" ||
    Object.keys(reply.body).some((k) => !["error", "retry_after"].includes(k))
  )
    throw new Error(`not an error body (${reply.status}): ${reply.text}`);
  if (/\n\s+at /.test(e.message)) throw new Error(`stack trace in error body: ${e.message}`);
  return e.code;
}
