// Sign-in over HTTP, as a script would try it: one message for every failure, limits
// per account and per address, and passwords set from the terminal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
});
afterAll(() => server?.stop());

/** Opens the sign-in form, then posts it: the status and the alert's text. */
async function attempt(email: string, password: string) {
  const form = await fetch(`${server.url}/sign-in`);
  const cookie = form.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1];
  const res = await fetch(`${server.url}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, email, password, next: "/notes" }).toString(),
  });
  const html = await res.text();
  return { status: res.status, alert: /role="alert">([^<]*)</.exec(html)?.[1] ?? null, session: res.headers.getSetCookie().some((c) => c.startsWith("notula_session=")) };
}

describe("sign-in", () => {
  it("a password set with `notula admin users set-password` signs in; the form refuses a missing token", async () => {
    const set = await run(["admin", "users", "set-password", "--email", "admin@notula.local", "--data-dir", server.dataDir], { input: "terminal password 1" });
    expect(set.code, set.stderr).toBe(0);
    const ok = await attempt("admin@notula.local", "terminal password 1");
    expect(ok).toMatchObject({ status: 303, session: true });
    const short = await run(["admin", "users", "set-password", "--email", "admin@notula.local", "--data-dir", server.dataDir], { input: "short" });
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
    const forged = await fetch(`${server.url}/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=admin%40notula.local&password=terminal+password+1",
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie().some((c) => c.startsWith("notula_session="))).toBe(false);
  });

  it("ten failures lock the account for a while, with the same words for unknown emails; the right password then waits too", async () => {
    for (let i = 0; i < 10; i++) expect(await attempt("admin@notula.local", `wrong ${i}`)).toMatchObject({ status: 401, alert: "Wrong email or password." });
    expect(await attempt("nobody@example.com", "wrong")).toMatchObject({ status: 401, alert: "Wrong email or password." });
    const locked = await attempt("admin@notula.local", "terminal password 1");
    expect(locked.status).toBe(429);
    expect(locked.session).toBe(false);
    expect(locked.alert).toMatch(/Too many sign-in attempts\. Try again in \d+ minutes\./);
  });
});
