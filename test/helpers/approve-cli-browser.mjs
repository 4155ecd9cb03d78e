#!/usr/bin/env node
// A stand-in for a person at a browser ($NOTULA_BROWSER) for `notula login --browser`:
// signs in to the web app with NOTULA_TEST_EMAIL / NOTULA_TEST_PASSWORD, approves the
// key on /cli/authorize, and follows the redirect to the CLI's loopback address.
const [url] = process.argv.slice(2);
const origin = new URL(url).origin;
const jar = new Map();
const go = async (u, init = {}) => {
  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(u, {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers ?? {}), ...(cookie ? { cookie } : {}) },
  });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return res;
};
const fields = (html) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
      m[1],
      m[2].replace(/&amp;/g, "&"),
    ]),
  );
const post = (path, form) =>
  go(origin + path, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
let res = await go(url);
for (let hops = 0; hops < 10; hops++) {
  if (res.status >= 300 && res.status < 400) {
    const next = new URL(res.headers.get("location"), origin);
    if (next.origin !== origin) {
      await fetch(next); // the CLI's loopback
      process.exit(0);
    }
    res = await go(next.toString());
    continue;
  }
  const html = await res.text();
  if (html.includes('action="/sign-in"'))
    res = await post("/sign-in", {
      ...fields(html),
      email: process.env.NOTULA_TEST_EMAIL,
      password: process.env.NOTULA_TEST_PASSWORD,
    });
  else if (html.includes('action="/cli/authorize"')) res = await post("/cli/authorize", fields(html));
  else process.exit(1);
}
process.exit(1);
