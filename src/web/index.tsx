// The team web app at /: server-rendered pages over the same services as the REST
// API, a few plain scripts, and every asset served from here.
import { Hono } from "hono";
import { AppError, ConflictError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { AudioStore } from "../storage/audio-store.js";
import type { UpstreamOidc } from "../services/oauth/upstream.js";
import type { Services } from "../services/index.js";
import { ASSETS, ICON_URL } from "./assets/index.js";
import { loadViewer, pageHeaders, type WebEnv } from "./context.js";
import { MessagePage } from "./pages/sign-in.js";
import { SharePage } from "./pages/share.js";
import { audioResponse } from "./routes/audio-response.js";
import { askPages } from "./routes/ask.js";
import { actionItemPages } from "./routes/action-items.js";
import { render } from "./render.js";
import { authPages } from "./routes/auth.js";
import { noteMeetingPages } from "./routes/note-meeting.js";
import { unsubscribePages } from "./routes/unsubscribe.js";
import { notePages } from "./routes/notes.js";
import { importPages } from "./routes/import.js";
import { browserAudioSteps } from "./routes/browser-audio.js";
import { transcriptSteps } from "./routes/transcript.js";
import { settingsPages } from "./routes/settings/index.js";
import { cliLoginPages } from "./routes/cli-login.js";

export interface WebDeps {
  services: Services;
  audioStore: AudioStore;
  /** The upstream OpenID Connect provider, when one is configured. */
  upstream?: UpstreamOidc;
  publicUrl: string;
  maxUploadBytes: number;
  logger: Logger;
}

/** Every path the web app answers (besides its assets). */
export const WEB_PATHS = [
  "/",
  "/sign-in",
  "/sign-in/*",
  "/sign-out",
  "/account/*",
  "/notes",
  "/notes/*",
  "/ask",
  "/ask/*",
  "/action-items",
  "/action-items/*",
  "/settings/*",
  "/s/*",
  "/cli/*",
];

export function webApp(d: WebDeps) {
  const app = new Hono<WebEnv>();

  // A section's address with a trailing slash is the section (before any sign-in check).
  for (const section of ["/notes/", "/settings/", "/account/", "/sign-in/", "/cli/"])
    app.get(section, (c) => c.redirect(section.slice(0, -1) + (new URL(c.req.url).search ?? ""), 301));

  // Browsers ask for /favicon.ico on their own; the page names the icon too.
  app.get("/favicon.ico", (c) => c.redirect(ICON_URL, 301));

  app.get("/assets/:name", (c) => {
    const asset = ASSETS[c.req.param("name")];
    if (!asset) return c.text("Not found", 404);
    return c.body(asset.body, 200, {
      "Content-Type": asset.type,
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  });

  // Only the app's own paths: this app is mounted at / beside /v1 and /mcp, which must
  // not pay for a session lookup or carry page headers.
  for (const path of WEB_PATHS) app.use(path, pageHeaders(d.publicUrl), loadViewer(d.services));

  // The one place web errors become pages: the service's message with its status
  // (a note of another workspace is simply not found); JSON for the upload's scripts.
  app.onError((err, c) => {
    const status = err instanceof AppError ? err.status : 500;
    if (!(err instanceof AppError))
      d.logger.error({ err, requestId: c.get("requestId"), route: c.req.routePath }, "unexpected error in the web app");
    const message = err instanceof AppError ? err.message : "Something went wrong; the server log has the details.";
    if (
      (c.req.header("accept") ?? "").includes("application/json") ||
      c.req.header("content-type")?.includes("application/json")
    )
      return c.json(
        {
          error: {
            code: err instanceof AppError ? err.code : "internal_server_error",
            message,
            // A line changed meanwhile: the page shows it as it is now.
            ...(err instanceof ConflictError && err.current !== undefined && { current: err.current }),
          },
        },
        status as 400,
      );
    const title =
      status === 404
        ? "Not found"
        : status === 403
          ? "Not allowed"
          : status >= 500
            ? "Something went wrong"
            : "Cannot do that";
    return render(
      c,
      <MessagePage
        title={title}
        message={message}
        viewer={c.get("viewer")}
        link={{ href: "/notes", label: "Back to the notes" }}
      />,
      status as 400,
    );
  });

  app.get("/", (c) => c.redirect(c.get("viewer") ? "/notes" : "/sign-in", 303));
  // Addresses people type from habit.
  app.get("/settings", (c) => c.redirect("/settings/account", 301));
  app.get("/login", (c) => c.redirect("/sign-in", 301));
  app.route("/", authPages(d.services, { publicUrl: d.publicUrl, upstream: d.upstream }));
  // Before the note pages: their POST /notes/:id would otherwise answer /notes/upload-url.
  app.route("/", browserAudioSteps(d.services, { maxUploadBytes: d.maxUploadBytes }));
  app.route("/", transcriptSteps(d.services));
  app.route("/", importPages(d.services));
  app.route(
    "/",
    notePages(d.services, { audioStore: d.audioStore, maxUploadBytes: d.maxUploadBytes, publicUrl: d.publicUrl }),
  );
  app.route("/", unsubscribePages(d.services));
  app.route("/", askPages(d.services));
  app.route("/", actionItemPages(d.services));
  app.route("/", noteMeetingPages(d.services, { publicUrl: d.publicUrl }));
  app.route("/", settingsPages(d.services, { publicUrl: d.publicUrl, ssoName: d.upstream?.name }));
  app.route("/", cliLoginPages(d.services));

  app.get("/s/:token", async (c) => {
    const shared = await d.services.notes.shared(c.req.param("token"));
    c.header("X-Robots-Tag", "noindex, nofollow");
    c.header("Referrer-Policy", "no-referrer");
    if (!shared)
      return render(
        c,
        <MessagePage title="Not found" message="This link does not lead to a shared note (any more)." />,
        404,
      );
    return render(
      c,
      <SharePage
        note={shared.note}
        includeTranscript={shared.includeTranscript}
        audioUrl={shared.recording ? `/s/${encodeURIComponent(c.req.param("token"))}/audio` : null}
      />,
    );
  });
  // The recording a share link plays, when its owner said so.
  app.get("/s/:token/audio", async (c) => {
    c.header("X-Robots-Tag", "noindex, nofollow");
    c.header("Referrer-Policy", "no-referrer");
    return audioResponse(c, d.audioStore, await d.services.notes.sharedRecording(c.req.param("token")));
  });

  return app;
}

/**
 * What a browser gets at an address nothing answers (a mistyped path, /settings, an old
 * bookmark): a page in the app's frame, signed in or not, never the API's JSON. A
 * trailing slash is dropped first (/notes/ → /notes).
 */
export function pageNotFound(d: Pick<WebDeps, "services" | "publicUrl">) {
  const app = new Hono<WebEnv>();
  app.use("*", pageHeaders(d.publicUrl), loadViewer(d.services));
  app.all("*", (c) => {
    const path = c.req.path;
    if ((c.req.method === "GET" || c.req.method === "HEAD") && path.length > 1 && path.endsWith("/"))
      return c.redirect(path.replace(/\/+$/, "") + (new URL(c.req.url).search ?? ""), 301);
    const viewer = c.get("viewer");
    return render(
      c,
      <MessagePage
        title="Not found"
        message={`There is no page at ${path}.`}
        viewer={viewer}
        link={viewer ? { href: "/notes", label: "Go to your notes" } : { href: "/sign-in", label: "Sign in" }}
      />,
      404,
    );
  });
  return (request: Request) => app.fetch(request);
}
