// The one page frame: head (our stylesheet and script only), a top bar with the
// sections and who is signed in, and the page's content.
import { html } from "hono/html";
import { cloneElement, isValidElement, type Child } from "hono/jsx";
import { ICON_URL, SCRIPT_URL, STYLESHEET_URL } from "../assets/index.js";
import type { Viewer } from "../context.js";
import { workspacePolicy, type Person } from "../../core/access.js";

export type Section =
  | "notes"
  | "ask"
  | "actions"
  | "new"
  | "folders"
  | "calendars"
  | "keys"
  | "account"
  | "admin"
  | "webhooks"
  | "workspace"
  | "email"
  | "speech"
  | "ai";

interface SectionLink {
  id: Section;
  href: string;
  label: string;
  /** Shown only to those the access policy allows. */
  allowed?: (a: Person) => boolean;
}

/** The top bar's sections. */
const SECTIONS: SectionLink[] = [
  { id: "notes", href: "/notes", label: "Notes" },
  { id: "ask", href: "/ask", label: "Ask" },
  { id: "actions", href: "/action-items", label: "Action items" },
  { id: "new", href: "/notes/new", label: "New note" },
];

/** Settings, under one entry: the person's own first, then the workspace's (for admins). */
const SETTINGS: { group: string; links: SectionLink[] }[] = [
  {
    group: "Yours",
    links: [
      { id: "account", href: "/settings/account", label: "Account" },
      { id: "keys", href: "/settings/keys", label: "API keys" },
      { id: "calendars", href: "/settings/calendars", label: "Calendars" },
      { id: "folders", href: "/settings/folders", label: "Folders" },
    ],
  },
  {
    group: "Workspace",
    links: [
      { id: "admin", href: "/settings/members", label: "Members", allowed: workspacePolicy.manage },
      { id: "workspace", href: "/settings/workspace", label: "Workspace", allowed: workspacePolicy.manage },
      { id: "webhooks", href: "/settings/webhooks", label: "Webhooks", allowed: workspacePolicy.manage },
      { id: "email", href: "/settings/email", label: "Email", allowed: workspacePolicy.configureMail },
      { id: "speech", href: "/settings/speech", label: "Speech-to-text", allowed: workspacePolicy.configureAi },
      { id: "ai", href: "/settings/ai", label: "AI", allowed: workspacePolicy.configureAi },
    ],
  },
];

const linkTo = (s: SectionLink, section: Section | undefined) =>
  html`<a href="${s.href}"${section === s.id ? html` aria-current="page"` : ""}>${s.label}</a>`;

/** The settings groups this person may open. */
const settingsFor = (viewer: Viewer) =>
  SETTINGS.map((g) => ({ ...g, links: g.links.filter((s) => !s.allowed || s.allowed(viewer.principal)) })).filter(
    (g) => g.links.length,
  );

const isSettings = (section: Section | undefined) => SETTINGS.some((g) => g.links.some((s) => s.id === section));

/** On a settings page, every settings page one click away. */
function settingsNav(viewer: Viewer, section: Section | undefined) {
  if (!isSettings(section)) return "";
  return html`<nav class="settings-nav" aria-label="Settings">${settingsFor(viewer).map(
    (g) => html`<div><span class="muted small">${g.group}</span>${g.links.map((s) => linkTo(s, section))}</div>`,
  )}</nav>`;
}

/** The top bar of a signed-in page: sections, Settings (a menu of its pages), who, sign out. */
function topBar(viewer: Viewer, section: Section | undefined) {
  const settings = html`<details class="settings-menu"><summary${isSettings(section) ? html` aria-current="page"` : ""}>Settings</summary><div class="menu">${settingsFor(
    viewer,
  ).map(
    (g) =>
      html`<div class="group"><span class="muted small">${g.group}</span>${g.links.map((s) => linkTo(s, section))}</div>`,
  )}</div></details>`;
  const links = [...SECTIONS.map((s) => linkTo(s, section)), settings];
  // On a phone the sections fold into a menu: a checkbox and its label open it, so it
  // works without script; on a wider screen both are hidden and the sections shown.
  return html`<header class="top"><a class="brand" href="/notes">notula</a><button type="button" id="open-switcher" class="secondary go-to" hidden aria-keyshortcuts="Control+K">Go to…</button><input type="checkbox" id="menu-toggle" class="menu-toggle" aria-label="Show the sections" /><label for="menu-toggle" class="menu-button" aria-hidden="true">Menu</label><nav aria-label="Sections">${links}</nav><div class="who"><span>${viewer.name} · ${viewer.workspace.name}</span><form method="post" action="/sign-out"><input type="hidden" name="csrf" value="${viewer.csrf}" /><button class="link" type="submit">Sign out</button></form></div></header>`;
}

/**
 * Every page's frame. A tagged template rather than JSX: it wraps every page, and
 * hono's `html` renders it in a fraction of the time, escaping every value just the same.
 */
export function Layout(props: {
  title: string;
  viewer?: Viewer | null;
  section?: Section;
  narrow?: boolean;
  /** Room for two columns on a wide screen (the note: its text beside its recording and transcript). */
  wide?: boolean;
  noindex?: boolean;
  children: Child;
}) {
  const { viewer } = props;
  return html`<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />${
    props.noindex ? html`<meta name="robots" content="noindex, nofollow" />` : ""
  }${viewer ? html`<meta name="csrf-token" content="${viewer.csrf}" />` : ""}<title>${props.title} · notula</title><link rel="icon" href="${ICON_URL}" type="image/svg+xml" /><link rel="stylesheet" href="${STYLESHEET_URL}" /><script type="module" src="${SCRIPT_URL}"></script></head><body><a class="skip" href="#content">Skip to content</a>${
    viewer ? topBar(viewer, props.section) : ""
  }<main id="content"${props.narrow ? html` class="narrow"` : props.wide ? html` class="wide"` : ""}>${
    viewer ? settingsNav(viewer, props.section) : ""
  }${props.children as unknown as string}</main></body></html>`;
}

/** A message above a form: an error to fix, or what just happened. */
export function Alert(props: { error?: string | null; ok?: string | null; id?: string }) {
  if (props.error)
    return (
      <p class="alert error" role="alert" id={props.id}>
        {props.error}
      </p>
    );
  if (props.ok)
    return (
      <p class="alert ok" role="status">
        {props.ok}
      </p>
    );
  return null;
}

/** The hidden field every signed-in form carries. */
export const Csrf = (props: { viewer: Viewer }) => <input type="hidden" name="csrf" value={props.viewer.csrf} />;

/** A secret shown once, with a copy button. */
export function Secret(props: { id: string; value: string; label: string }) {
  return (
    <div>
      <p>
        <strong>{props.label}</strong> It is shown this once; store it now.
      </p>
      <div class="secret">
        <code id={props.id}>{props.value}</code>
        <button type="button" class="secondary" data-copy={props.id}>
          Copy
        </button>
      </div>
    </div>
  );
}

/** A table that scrolls sideways on a narrow screen rather than widening the page. */
const flat = (children: Child): Child[] =>
  Array.isArray(children) ? children.flatMap((c) => flat(c as Child)) : [children];

/**
 * Each row's cells carry their column's name (data-label): on a phone the table stacks
 * into one block per row, and the stylesheet shows each value with its label.
 */
function labelled(rows: Child, columns: string[]): Child[] {
  return flat(rows).map((row) => {
    if (!isValidElement(row) || row.tag !== "tr") return row;
    let i = 0;
    const cells = flat(row.children).map((cell) =>
      isValidElement(cell) && cell.tag === "td" && columns[i] !== undefined
        ? cloneElement(cell, { "data-label": columns[i++] })
        : cell,
    );
    return cloneElement(row, {}, ...cells);
  });
}

export function Table(props: { columns: string[]; actions?: boolean; children: Child }) {
  return (
    <div class="table">
      <table>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col">{c}</th>
            ))}
            {props.actions ? (
              <th scope="col">
                <span class="skip">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{labelled(props.children, props.columns)}</tbody>
      </table>
    </div>
  );
}

/** One action as a button in its own CSRF-protected form. */
export function PostButton(props: {
  viewer: Viewer;
  action: string;
  label: string;
  ariaLabel?: string;
  danger?: boolean;
  hidden?: Record<string, string>;
  /** Asked before a destructive action (with script; without, the form goes ahead). */
  confirm?: string;
}) {
  return (
    <form method="post" action={props.action} data-confirm={props.confirm}>
      <Csrf viewer={props.viewer} />
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? "danger" : "secondary"} aria-label={props.ariaLabel}>
        {props.label}
      </button>
    </form>
  );
}
