// The sign-in, workspace and consent pages: server-rendered HTML, no script.
export const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${esc(title)} · notula</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#f3f4f6;color:#111827;display:flex;justify-content:center;padding:3rem 1rem}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002;padding:2rem;max-width:26rem;width:100%}h1{font-size:1.3rem;margin:0 0 1rem}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}input[type=email],input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #d1d5db;border-radius:6px;font:inherit}
button{margin-top:1.2rem;padding:.6rem 1.1rem;border:0;border-radius:6px;background:#4f46e5;color:#fff;font:inherit;cursor:pointer}button.secondary{background:#e5e7eb;color:#111827;margin-left:.5rem}
.error{background:#fef2f2;color:#991b1b;padding:.6rem;border-radius:6px}.warning{background:#fffbeb;color:#92400e;padding:.6rem;border-radius:6px}.muted{color:#6b7280;font-size:.9rem}ul{padding-left:1.2rem}
@media (prefers-color-scheme:dark){body{background:#0f1115;color:#e5e7eb}main{background:#1a1d24;box-shadow:0 1px 3px #0008}input[type=email],input[type=password],input[type=text]{background:#0f1115;color:#e5e7eb;border-color:#3a3f4b}button.secondary{background:#2a2f3a;color:#e5e7eb}.error{background:#3b1114;color:#fecaca}.warning{background:#3a2a0b;color:#fde68a}.muted{color:#9ca3af}a{color:#93b4ff}}</style></head>
<body><main>${body}</main></body></html>`;
}

export function signInPage(o: {
  requestId: string;
  csrf: string;
  clientName: string;
  error?: string;
  email?: string;
  upstreamName?: string;
}) {
  return page(
    "Sign in",
    `<h1>Sign in to notula</h1><p class="muted">An application calling itself “${esc(o.clientName)}” (a name notula has not verified) asks to read your meeting notes.</p>
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ""}
<form method="post" action="/oauth/sign-in"><input type="hidden" name="request" value="${esc(o.requestId)}"><input type="hidden" name="csrf" value="${esc(o.csrf)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
${o.upstreamName ? `<p><a id="upstream" href="/oauth/upstream/start?request=${esc(o.requestId)}">Continue with ${esc(o.upstreamName)}</a></p>` : ""}`,
  );
}

export function workspacePage(o: { requestId: string; csrf: string; workspaces: { id: string; name: string }[] }) {
  return page(
    "Choose a workspace",
    `<h1>Choose a workspace</h1><form method="post" action="/oauth/workspace"><input type="hidden" name="request" value="${esc(o.requestId)}"><input type="hidden" name="csrf" value="${esc(o.csrf)}">
${o.workspaces.map((w, i) => `<label><input type="radio" name="workspace" value="${esc(w.id)}"${i === 0 ? " checked" : ""}> ${esc(w.name)}</label>`).join("\n")}
<button type="submit">Continue</button></form>`,
  );
}

export function consentPage(o: {
  requestId: string;
  csrf: string;
  clientName: string;
  redirectHost: string;
  workspaceName: string;
  scope: string;
}) {
  return page(
    "Allow access",
    `<h1>Allow an application to read ${esc(o.workspaceName)}?</h1>
<p>An application calling itself <strong>“${esc(o.clientName)}”</strong> will be able to read the meeting notes, knowledge base, members and settings of <strong>${esc(o.workspaceName)}</strong> that you can see. It cannot change anything.</p>
<p class="warning" id="unverified">notula has not verified this name: any application can register under any name. Allow it only if you started this sign-in yourself and trust where it sends you back.</p>
<p>After you decide, you go back to <strong id="redirect-host">${esc(o.redirectHost)}</strong>. <span class="muted">Scope: ${esc(o.scope)}.</span></p>
<form method="post" action="/oauth/consent"><input type="hidden" name="request" value="${esc(o.requestId)}"><input type="hidden" name="csrf" value="${esc(o.csrf)}">
<button type="submit" name="decision" value="allow">Allow</button><button class="secondary" type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

export function errorPage(message: string) {
  return page(
    "Cannot continue",
    `<h1>Cannot continue</h1><p class="error" role="alert">${esc(message)}</p><p class="muted">Start the sign-in again from your application.</p>`,
  );
}
