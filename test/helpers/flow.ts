// The from-audio flow as a client does it, and waiting for processing to finish.
import fs from "node:fs";
import { expect } from "vitest";
import { FORMATS, type Format } from "./audio.js";
import type { Client } from "./http.js";

export async function uploadRecording(
  api: Client,
  file: string,
  format: Format,
  extra: Record<string, unknown> = {},
  duration = 30,
) {
  const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: format, duration });
  expect(u.status, u.text).toBe(200);
  expect(u.body.contentType).toBe(FORMATS[format]);
  const put = await fetch(u.body.presignedUrl, {
    method: "PUT",
    body: fs.readFileSync(file),
    headers: { "content-type": u.body.contentType },
  });
  expect(put.status, await put.clone().text()).toBe(200);
  const created = await api("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl, ...extra });
  expect(created.status, created.text).toBe(200);
  return created.body.noteId as string;
}

export const FINAL = ["completed", "recorded-not-summarized"];

/** Polls the note until its status is one of `statuses`; returns the note. */
export async function waitForStatus(api: Client, id: string, statuses: string[] = FINAL, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let note: any;
  while (Date.now() < deadline) {
    const r = await api("GET", `/v1/notes/${id}`);
    note = r.body?.note;
    if (note && statuses.includes(note.status)) return note;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `note ${id} did not reach ${statuses.join("/")} in ${timeoutMs} ms; last: ${note?.status} ${note?.processingError ?? ""}`,
  );
}

/** A note's transcript lines without their ids and versions (checked to be there), for comparing words and times. */
export function linesOf(transcripts: { id: string; version: number }[]) {
  for (const l of transcripts) {
    expect(l.id).toMatch(/^seg_/);
    expect(Number.isInteger(l.version)).toBe(true);
  }
  return transcripts.map(({ id: _id, version: _version, ...line }) => line);
}
