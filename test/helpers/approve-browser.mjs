#!/usr/bin/env node
// A stand-in for a person at a browser, for programs that open one (xdg-open runs
// $BROWSER): follows the authorization URL through notula's sign-in, workspace and
// consent pages with NOTULA_TEST_EMAIL / NOTULA_TEST_PASSWORD, then visits the
// client's redirect URI with the code, as a browser would.
const [url] = process.argv.slice(2);
const email = process.env.NOTULA_TEST_EMAIL;
const password = process.env.NOTULA_TEST_PASSWORD;
let cookie = "";
const origin = new URL(url).origin;
const go = async (u, init = {}) => {
  const res = await fetch(u, {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers ?? {}), ...(cookie ? { cookie } : {}) },
  });
  const set = res.headers.get("set-cookie");
  if (set) cookie = set.split(";")[0];
  return res;
};
const field = (html, name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
let res = await go(url);
for (let hops = 0; hops < 10; hops++) {
  if (res.status >= 300 && res.status < 400) {
    const next = new URL(res.headers.get("location"), origin);
    if (next.origin !== origin) {
      await fetch(next); // the client's loopback redirect
      process.exit(0);
    }
    res = await go(next.toString());
    continue;
  }
  const html = await res.text();
  const form = new URLSearchParams({ request: field(html, "request"), csrf: field(html, "csrf") });
  let action = "/oauth/consent";
  if (html.includes('name="password"')) {
    action = "/oauth/sign-in";
    form.set("email", email);
    form.set("password", password);
  } else if (html.includes('name="workspace"')) {
    action = "/oauth/workspace";
    form.set("workspace", field(html, "workspace"));
  } else form.set("decision", "allow");
  res = await go(origin + action, {
    method: "POST",
    body: form,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}
process.exit(1);
