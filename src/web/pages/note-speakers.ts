// The note page's list of speakers.
import { html } from "hono/html";

const formatTalkTime = (sec: number) => `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;

/**
 * Each speaker with their talk time as a bar (against whoever talked most); with the
 * page's script, a speaker's name marks their lines in the transcript.
 */
export function speakerList(speakers: { name: string; suggested: boolean; talkTimeSec: number }[]) {
  const most = Math.max(1, ...speakers.map((s) => s.talkTimeSec));
  return html`<ul class="speakers">${speakers.map(
    (sp) =>
      html`<li><button type="button" class="link" data-speaker="${sp.name}" aria-pressed="false" title="Mark ${sp.name}'s lines">${sp.name}</button>${sp.suggested ? html` <abbr class="muted suggested" title="Suggested by voice: confirm it under Speakers">(suggested)</abbr>` : ""} <meter min="0" max="${String(most)}" value="${String(sp.talkTimeSec)}" aria-label="${sp.name}'s talk time"></meter> <span class="muted">${formatTalkTime(sp.talkTimeSec)}</span></li>`,
  )}</ul>`;
}
