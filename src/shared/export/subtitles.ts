// A note's transcript as subtitles other tools read: WebVTT, with each line's speaker as
// a voice (`<v Ana>`), and SRT, with the speaker before the words ("Ana: …"), written
// by the `subtitle` library. Each line runs from its start to its end; a line without
// an end (or one that ends before it starts) runs to the next line's start.
import { stringifySync, type NodeList } from "subtitle";
import type { NoteDto } from "../schemas/notes.js";
import { secondsOf } from "../note-links.js";

/** A voice's name as WebVTT allows it: no ">" or line breaks, and "&" and "<" escaped. */
const voice = (name: string) =>
  name
    .replace(/[>\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;");
const cueText = (text: string) =>
  text
    .replace(/\r?\n+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;");

export function noteToSubtitles(n: NoteDto, format: "vtt" | "srt"): string {
  const lines = n.transcripts;
  const nodes: NodeList = [];
  // The library writes a header in place of the WEBVTT line: it carries the line, then the title as a note.
  if (format === "vtt") {
    const title = n.title.replace(/-->/g, "→").replace(/\s+/g, " ");
    nodes.push({ type: "header", data: `WEBVTT\n\nNOTE ${title}` });
  }
  lines.forEach((l, i) => {
    const start = (secondsOf(l.startTimestamp) ?? 0) * 1000;
    const said = (secondsOf(l.endTimestamp) ?? 0) * 1000;
    const next = lines[i + 1] ? (secondsOf(lines[i + 1].startTimestamp) ?? 0) * 1000 : start + 2000;
    const end = said > start ? said : Math.max(next, start + 1000);
    const text =
      format === "vtt"
        ? `${l.speaker ? `<v ${voice(l.speaker)}>` : ""}${cueText(l.text)}`
        : `${l.speaker ? `${l.speaker}: ` : ""}${l.text.replace(/\r?\n+/g, " ")}`;
    nodes.push({ type: "cue", data: { start, end, text } });
  });
  return stringifySync(nodes, { format: format === "vtt" ? "WebVTT" : "SRT" });
}
