// A proxy in front of a test server that refuses some requests "for now" (429 or 503
// with Retry-After), as a rate limit or a busy server does, and passes the rest on as
// they are: for the clients' back-off, whose waits a real limit would make a minute long.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RefusingProxy {
  url: string;
  /** Requests seen, and how many were refused. */
  seen: number;
  refused: number;
  close(): Promise<void>;
}

export async function refusingProxy(
  target: string,
  /** Whether the n-th request (from 0) is refused, and how. */
  refuse: (n: number, req: http.IncomingMessage) => { status: 429 | 503; retryAfter: string } | null,
): Promise<RefusingProxy> {
  const to = new URL(target);
  const state = { seen: 0, refused: 0 };
  const server = http.createServer((req, res) => {
    const verdict = refuse(state.seen++, req);
    if (verdict) {
      state.refused++;
      req.resume();
      const code = verdict.status === 429 ? "rate_limit_exceeded" : "service_unavailable";
      res.writeHead(verdict.status, { "content-type": "application/json", "retry-after": verdict.retryAfter });
      res.end(JSON.stringify({ error: { code, message: `Refused for now; retry in ${verdict.retryAfter} s.` } }));
      return;
    }
    const out = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get seen() {
      return state.seen;
    },
    get refused() {
      return state.refused;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
