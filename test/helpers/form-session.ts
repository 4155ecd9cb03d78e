// Submitting the web app's forms from a test without a browser.
/** A browser's forms without a browser: a cookie jar, and each form's CSRF token read off its page. */
export function formSession(base: string) {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i).trim(), pair.slice(i + 1));
    }
    return res;
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const get = async (path: string) => {
    const res = keep(await fetch(new URL(path, base), { headers: { cookie: cookie() }, redirect: "manual" }));
    return { status: res.status, html: await res.text() };
  };
  /** Opens the page at `path`, then submits its form with `fields`. */
  const submit = async (path: string, fields: Record<string, string>) => {
    const page = await get(path);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    const res = keep(
      await fetch(new URL(path, base), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, ...fields }),
      }),
    );
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  };
  return { get, submit, jar };
}
