// What every settings section shares: the form handler (CSRF first, the admin check,
// a refusal shown beside the form), the flash of a result shown once, and small readers.
import { AppError, BadRequestError, ForbiddenError } from "../../../core/errors.js";
import type { Services } from "../../../services/index.js";
import { csrfOk, viewerOf, type WebContext } from "../../context.js";
import { textField } from "../../form-fields.js";
import { formExpired } from "../../form-expired.js";
import { createFlash } from "../../flash.js";
import { workspacePolicy, type Person } from "../../../core/access.js";
import { AiConfigUpdateBody, type AiConfigUpdateInput } from "../../../shared/schemas/templates.js";

export type Status = 200 | 400 | 403 | 404 | 409;
export type Extra = Record<string, unknown>;
export type Page = (c: WebContext, extra?: Extra, status?: Status) => Promise<Response>;
export type Form = Record<string, string | File | (string | File)[]>;

export const text = textField;

/** A form's labels by the API's field names, for refusals that name a field. */
export type FieldLabels = Record<string, string>;

/**
 * A service's refusal as the form's reader knows it: "url: …" names the API's field,
 * which the page calls by its label ("Address: …"). A field the form does not label
 * is spelled out ("hookUrl" as "Hook URL"), never shown as the API's name.
 */
export function inFormWords(message: string, labels: FieldLabels = {}): string {
  const named = /^([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*): (.+)$/s.exec(message);
  if (!named) return message;
  const [, field, rest] = named;
  const label =
    labels[field] ??
    field
      .split(".")
      .pop()!
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/\b(url|id|ics|smtp)\b/gi, (w) => w.toUpperCase())
      .replace(/^./, (ch) => ch.toUpperCase());
  return `${label}: ${rest}`;
}

/** What the person typed, to fill the form again after a refusal; never a password or the form's token. */
function typedIn(f: Form): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f))
    if (typeof v === "string" && k !== "csrf" && !/password|secret|key/i.test(k)) out[k] = v;
  return out;
}
export const name = (f: Form, what: string, max: number) => {
  const value = text(f, "name").trim();
  if (!value || value.length > max) throw new BadRequestError(`The ${what} needs a name of 1 to ${max} characters.`);
  return value;
};

/**
 * An OpenAI-compatible server's form (address, model, key) as the change PATCH
 * /v1/ai-config takes for `part`: the same schema, so the form refuses what the API does.
 * An empty key keeps the one set.
 */
export function openAiServerChange(f: Form, part: "transcription" | "llm"): AiConfigUpdateInput {
  const apiKey = text(f, "apiKey");
  const parsed = AiConfigUpdateBody.safeParse({
    [part]: {
      engine: "openai",
      url: text(f, "url").trim(),
      ...(text(f, "model").trim() ? { model: text(f, "model").trim() } : {}),
      ...(apiKey ? { apiKey } : {}),
    },
  });
  if (!parsed.success) throw new BadRequestError(`The server address: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** A path parameter of the route (the handlers here are typed for any path). */
export const param = (c: WebContext, key: string) => c.req.param(key) ?? "";

/** A rule of the access policy about the workspace (core/access.ts): who may manage it, configure its AI. */
export type WorkspaceRule = (a: Person) => boolean;

/** The viewer, if the access policy lets them do this; else 403. */
export function requireAllowed(c: WebContext, rule: WorkspaceRule = workspacePolicy.manage) {
  const viewer = viewerOf(c);
  if (!rule(viewer.principal)) throw new ForbiddenError("Only admins of this workspace can do that.");
  return viewer;
}

export interface SettingsKit {
  form: ReturnType<typeof createKit>["form"];
  flash: ReturnType<typeof createFlash>;
  publicUrl: string;
  ssoName?: string;
}

export function createKit(services: Services, opts: { publicUrl: string; ssoName?: string }) {
  const flash = createFlash(services, opts.publicUrl);
  /**
   * A settings form's POST: its CSRF token first (a forged form changes nothing), the
   * admin check where asked, then `run`; a refusal from a service is shown on the page
   * beside the form, not as an error page.
   */
  const form =
    (
      page: Page,
      run: (c: WebContext, f: Form) => Response | Promise<Response>,
      o: { allowed?: WorkspaceRule; labels?: FieldLabels } = {},
    ) =>
    async (c: WebContext) => {
      const f = await c.req.parseBody({ all: true });
      if (!(await csrfOk(c, f))) return formExpired(c);
      if (o.allowed) requireAllowed(c, o.allowed);
      try {
        return await run(c, f);
      } catch (err) {
        if (err instanceof AppError && err.status < 500 && err.status !== 403)
          return page(c, { error: inFormWords(err.message, o.labels), typed: typedIn(f) }, err.status as Status);
        throw err;
      }
    };
  return { form, flash, publicUrl: opts.publicUrl, ssoName: opts.ssoName };
}
