// The person in the browser, done over HTTP: follow the authorization URL, sign in,
// pick a workspace, approve. Returns where the server finally redirects.
export interface FlowOptions {
  email: string;
  password: string;
  workspace?: string;
  decision?: "allow" | "deny";
  /** Changes the consent form before it is sent (tampering tests). */
  tamperConsent?: (form: URLSearchParams) => void;
}

function field(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no ${name} field in:\n${html.slice(0, 500)}`);
  return m[1];
}

export async function approveInBrowser(authorizeUrl: string, o: FlowOptions): Promise<URL> {
  let cookie = "";
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    return res;
  };
  const origin = new URL(authorizeUrl).origin;
  let res = await go(authorizeUrl);
  for (let hops = 0; hops < 10; hops++) {
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get("location")!, origin);
      if (next.origin !== origin) return next; // back to the client
      res = await go(next.toString());
      continue;
    }
    const html = await res.text();
    if (res.status >= 400)
      throw new Error(
        `page answered ${res.status}: ${html
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .slice(0, 300)}`,
      );
    const form = new URLSearchParams({ request: field(html, "request"), csrf: field(html, "csrf") });
    let action: string;
    if (html.includes('name="password"')) {
      action = "/oauth/sign-in";
      form.set("email", o.email);
      form.set("password", o.password);
    } else if (html.includes('name="workspace"')) {
      action = "/oauth/workspace";
      form.set("workspace", o.workspace ?? field(html, "workspace"));
    } else {
      action = "/oauth/consent";
      form.set("decision", o.decision ?? "allow");
      o.tamperConsent?.(form);
    }
    res = await go(origin + action, {
      method: "POST",
      body: form,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }
  throw new Error("too many steps");
}
