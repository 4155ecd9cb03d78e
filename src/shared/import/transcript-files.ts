// Meetings from other tools, read from the files they export: WebVTT and SRT subtitles
// (Zoom, Teams, Meet and most recorders; speakers from `<v Ana>` or "Ana: …"), Otter's
// text export ("Ana Lopez  0:03" above each paragraph), and notes in markdown or plain
// text with front matter (title, date, participants). Each becomes what POST /v1/notes
// takes. Subtitles are read by the `subtitle` library, front matter by `yaml`.
import { parseSync } from "subtitle";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import type { NoteCreateBody } from "../schemas/notes.js";

/** A POST /v1/notes body, as sent (defaults left to the server). */
export type NoteCreateRequest = z.input<typeof NoteCreateBody>;
type Lines = { speaker: string; text: string; startTimestamp: string; endTimestamp: string }[];

export type ImportKind = "vtt" | "srt" | "otter" | "note";

export interface ImportedNote {
  kind: ImportKind;
  body: NoteCreateRequest;
}

/** The file kinds by extension; a .txt is Otter's export when it reads as one, else a note. */
export const IMPORT_EXTENSIONS = [".vtt", ".srt", ".txt", ".md", ".markdown"] as const;

/** MM:SS with minutes not capped at 59, as the API's transcript times are. */
const timestamp = (ms: number) => {
  const sec = Math.max(0, Math.round(ms / 1000));
  return `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;
};

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");

/** A cue's speaker and words: `<v Ana>words</v>`, or "Ana: words" with a short name. */
function speakerOf(text: string): { speaker: string; text: string } {
  const voice = /^\s*<v(?:\.[\w.-]+)?\s+([^>]+)>([\s\S]*?)(?:<\/v>)?\s*$/.exec(text);
  if (voice) return { speaker: unescape(voice[1].trim()), text: unescape(voice[2].replace(/<[^>]+>/g, "")) };
  const plain = unescape(text.replace(/<[^>]+>/g, ""));
  const named = /^\s*([\p{L}][\p{L}\p{M}'. -]{0,40}?):\s+(.+)$/su.exec(plain);
  return named ? { speaker: named[1].trim(), text: named[2] } : { speaker: "Speaker", text: plain };
}

function fromSubtitles(text: string): Lines {
  const cues = parseSync(text.replace(/^\uFEFF/, "")).flatMap((n) => (n.type === "cue" ? [n.data] : []));
  const lines = cues
    .map((c) => ({ ...speakerOf(c.text), start: c.start, end: c.end }))
    .map((l) => ({ ...l, text: l.text.replace(/\s+/g, " ").trim() }))
    .filter((l) => l.text);
  return lines.map((l) => ({
    speaker: l.speaker,
    text: l.text,
    startTimestamp: timestamp(l.start),
    endTimestamp: timestamp(Math.max(l.end, l.start)),
  }));
}

const OTTER_HEAD = /^(.{1,80}?)\s{2,}((?:\d{1,2}:)?\d{1,2}:\d{2})\s*$/;
const seconds = (t: string) => t.split(":").reduce((s, p) => s * 60 + Number(p), 0);

/** Otter's date line: "Tue, Nov 24, 2026 10:00 AM • 12:34" (the weekday and the length may be missing). */
const OTTER_DATE =
  /^(?:[A-Z][a-z]{2,8},\s*)?([A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}(?:,? \d{1,2}:\d{2}(?: ?[AP]M)?)?)\s*(?:[•·|–-]\s*(?:\d{1,2}:)?\d{1,2}:\d{2})?\s*$/;

/**
 * Otter's export without the lines it may start with: the meeting's title, then its date
 * and length. Returns what they say (the date as the exporting machine's local time).
 */
function otterHeader(text: string): { title?: string; date?: Date; body: string } {
  const lines = text
    .replace(/^\uFEFF/, "")
    .trimStart()
    .split(/\r?\n/);
  const dateAt = [0, 1].find((i) => OTTER_DATE.test(lines[i]?.trim() ?? ""));
  if (dateAt === undefined || OTTER_HEAD.test(lines[0] ?? "")) return { body: text };
  const when = new Date(OTTER_DATE.exec(lines[dateAt].trim())![1].replace(/\.|,(?= \d{1,2}:)/g, ""));
  return {
    title: dateAt === 1 ? lines[0].trim() || undefined : undefined,
    date: Number.isNaN(when.getTime()) ? undefined : when,
    body: lines.slice(dateAt + 1).join("\n"),
  };
}

/** Whether a text reads as Otter's export: its first line is a name and a time, after its title and date lines. */
export const isOtterText = (text: string) => OTTER_HEAD.test(otterHeader(text).body.trimStart().split("\n")[0] ?? "");

function fromOtter(text: string): Lines {
  const out: { speaker: string; text: string; start: number }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const head = OTTER_HEAD.exec(line);
    if (head) out.push({ speaker: head[1].trim(), text: "", start: seconds(head[2]) });
    else if (line.trim() && out.length)
      out[out.length - 1].text += `${out[out.length - 1].text ? " " : ""}${line.trim()}`;
  }
  const said = out.filter((l) => l.text);
  return said.map((l, i) => ({
    speaker: l.speaker,
    text: l.text,
    startTimestamp: timestamp(l.start * 1000),
    endTimestamp: timestamp(Math.max(l.start, said[i + 1]?.start ?? l.start) * 1000),
  }));
}

interface FrontMatter {
  title?: unknown;
  date?: unknown;
  participants?: unknown;
}

/** A note's front matter (between --- lines at the top) and the rest. */
function frontMatter(text: string): { meta: FrontMatter; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta = parseYaml(m[1]) as unknown;
  return { meta: meta && typeof meta === "object" ? (meta as FrontMatter) : {}, body: text.slice(m[0].length) };
}

/** "Ana Lopez <ana@acme.example>", an address or a name, as a participant. */
function participant(p: unknown): { name: string; email: string } | null {
  if (typeof p !== "string" || !p.trim()) return null;
  const m = /^(.*?)\s*<([^>]+@[^>]+)>$/.exec(p.trim());
  if (m) return { name: m[1].trim(), email: m[2].trim() };
  return p.includes("@") ? { name: "", email: p.trim() } : { name: p.trim(), email: "" };
}

const isoDate = (d: unknown): string | undefined => {
  const t = d instanceof Date ? d.getTime() : typeof d === "string" ? Date.parse(d) : NaN;
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};

/**
 * The note a file makes: `name` is its file name (its title unless the file gives one),
 * `modified` its time (the meeting's date unless the file gives one).
 */
export function readImport(name: string, text: string, modified: Date): ImportedNote {
  const ext = name.slice(name.lastIndexOf(".")).toLowerCase();
  const stem = name.slice(0, name.lastIndexOf(".")).replace(/[_]+/g, " ").trim() || name;
  const createdAt = modified.toISOString();
  if (ext === ".vtt" || ext === ".srt") {
    let transcripts: Lines;
    try {
      transcripts = fromSubtitles(text);
    } catch (err) {
      throw new Error(`${name} cannot be read as ${ext === ".vtt" ? "WebVTT" : "SRT"} (${(err as Error).message}).`);
    }
    if (!transcripts.length) throw new Error(`${name} holds no subtitles.`);
    return {
      kind: ext === ".vtt" ? "vtt" : "srt",
      body: { title: stem, createdAt, transcripts, participants: people(transcripts) },
    };
  }
  if (ext === ".txt" && isOtterText(text)) {
    const head = otterHeader(text);
    const transcripts = fromOtter(head.body);
    return {
      kind: "otter",
      body: {
        title: head.title?.slice(0, 500) ?? stem,
        createdAt: head.date?.toISOString() ?? createdAt,
        transcripts,
        participants: people(transcripts),
      },
    };
  }
  const { meta, body } = frontMatter(text);
  if (!body.trim() && !meta.title) throw new Error(`${name} is empty.`);
  const participants = (Array.isArray(meta.participants) ? meta.participants : [])
    .map(participant)
    .filter((p): p is { name: string; email: string } => p !== null);
  return {
    kind: "note",
    body: {
      title: typeof meta.title === "string" && meta.title.trim() ? meta.title.trim().slice(0, 500) : stem,
      createdAt: isoDate(meta.date) ?? createdAt,
      userWrittenNote: body.trim(),
      ...(participants.length ? { participants } : {}),
    },
  };
}

/** The transcript's speakers, in order of first words, as the meeting's participants. */
function people(transcripts: Lines) {
  const names = [...new Set(transcripts.map((t) => t.speaker))].filter((s) => s !== "Speaker");
  return names.map((name) => ({ name, email: "" }));
}
