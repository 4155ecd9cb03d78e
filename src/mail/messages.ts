import { renderMarkdown } from "../shared/markdown.js";

// The mails notula sends, each as plain text and HTML. Every value that comes from a
// person (a name, a workspace's name) is escaped for HTML, and nothing reaches a mail
// header with a line break in it: a name with CR/LF cannot add a header.

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe on notifications). */
  headers?: Record<string, string>;
}

/** One line: CR, LF and other control characters become spaces. */
export const oneLine = (s: string) =>
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, 300);

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const button = (link: { url: string; label: string }) =>
  `<p><a href="${esc(link.url)}" style="display:inline-block;padding:.6em 1em;background:#4338ca;color:#fff;border-radius:6px;text-decoration:none">${esc(link.label)}</a></p><p style="color:#555;font-size:.9em">${esc(link.url)}</p>`;

/** `body` is HTML already made safe (rendered markdown with raw HTML off). */
function html(paragraphs: string[], link: { url: string; label: string } | null, body = "", footer = "") {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">${paragraphs
    .map((p) => `<p>${esc(p)}</p>`)
    .join(
      "",
    )}${body}${link ? button(link) : ""}${footer ? `<p style="color:#555;font-size:.9em">${esc(footer)}</p>` : ""}</body></html>`;
}

export function inviteMail(o: { to: string; workspace: string; inviter: string; role: string; url: string }): Mail {
  const workspace = oneLine(o.workspace);
  const inviter = oneLine(o.inviter);
  const lines = [
    `${inviter} invited you to ${workspace} on notula, as ${o.role === "admin" ? "an admin" : "a member"}.`,
    "notula keeps the team's meeting notes: recordings, transcripts and summaries, searchable by what was said.",
    "The link works once and for seven days.",
  ];
  return {
    to: o.to,
    subject: oneLine(`${inviter} invited you to ${workspace} on notula`),
    text: `${lines.join("\n\n")}\n\nJoin: ${o.url}\n`,
    html: html(lines, { url: o.url, label: `Join ${workspace}` }),
  };
}

export function passwordResetMail(o: { to: string; url: string }): Mail {
  const lines = [
    "Someone, probably you, asked to set a new password for your notula account.",
    "The link works once and for 24 hours. If it was not you, ignore this mail: your password stays as it is.",
  ];
  return {
    to: o.to,
    subject: "Set a new password for notula",
    text: `${lines.join("\n\n")}\n\nSet a new password: ${o.url}\n`,
    html: html(lines, { url: o.url, label: "Set a new password" }),
  };
}

/**
 * A meeting's recap, from the person who made the note to someone who was there: the
 * summary and action items, and a link only where the recipient can open it (the share
 * link of a public note, or the note itself for a member who may see it).
 */
export function recapMail(o: {
  to: string;
  sender: string;
  title: string;
  /** The meeting's day, written out ("Tuesday 3 March 2026"). */
  day: string;
  summary: string;
  actionItems: string[];
  link: { url: string; label: string } | null;
}): Mail {
  const sender = oneLine(o.sender);
  const title = oneLine(o.title) || "the meeting";
  const intro = [`${sender} sent you the recap of ${title} (${o.day}).`];
  const actions = o.actionItems.length ? `\n\n## Action items\n\n${o.actionItems.map((a) => `- ${a}`).join("\n")}` : "";
  const markdown = `${o.summary.trim()}${actions}`;
  const footer = "You get this mail because you were at the meeting.";
  return {
    to: o.to,
    subject: oneLine(`Recap: ${title}`),
    text: `${intro.join("\n\n")}\n\n${markdown}\n\n${o.link ? `${o.link.label}: ${o.link.url}\n\n` : ""}${footer}\n`,
    html: html(intro, o.link, renderMarkdown(markdown), footer),
  };
}

/**
 * "Your note is ready", to the person who recorded it, when they asked for it. It
 * carries List-Unsubscribe (with one-click, RFC 8058), so a mail client's button turns
 * it off without signing in.
 */
export function noteReadyMail(o: {
  to: string;
  title: string;
  url: string;
  summary: string;
  unsubscribeUrl: string;
}): Mail {
  const title = oneLine(o.title) || "Your meeting";
  const firstLines = o.summary.trim().split("\n").filter(Boolean).slice(0, 6).join("\n");
  const lines = [`The note of ${title} is ready: its transcript, summary and enhanced note.`];
  const footer = `You asked to be mailed when your notes are ready. Stop these mails: ${o.unsubscribeUrl}`;
  return {
    to: o.to,
    subject: oneLine(`Ready: ${title}`),
    text: `${lines.join("\n\n")}\n\n${firstLines}\n\nOpen the note: ${o.url}\n\n${footer}\n`,
    html: html(lines, { url: o.url, label: "Open the note" }, renderMarkdown(firstLines), footer),
    headers: {
      "List-Unsubscribe": `<${o.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

export function testMail(o: { to: string; workspace: string; settingsUrl: string }): Mail {
  const workspace = oneLine(o.workspace);
  const lines = [
    `This is a test from notula: mail from ${workspace} reaches you.`,
    "Invites, password resets, recaps and note-ready mail go out the same way.",
  ];
  return {
    to: o.to,
    subject: oneLine(`notula: mail from ${workspace} works`),
    text: `${lines.join("\n\n")}\n\nEmail settings: ${o.settingsUrl}\n`,
    html: html(lines, { url: o.settingsUrl, label: "Email settings" }),
  };
}
