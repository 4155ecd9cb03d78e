// Voices recognised across meetings, from the point where the pipeline hands over a
// note's separated voices (services.voicePrints.heard, which process-note calls after
// sherpa-onnx's diarization): a voice named once is offered the same name in a later
// meeting, marked as a suggestion until confirmed; a name a person gave is never
// replaced; a member's voice goes with their membership; no embedding is ever served.
// The embeddings are made here, since no speaker model can be downloaded where the
// tests run; the real separation is in test/pipeline/voices.test.ts, behind its model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";

let app: TestApp;
let workspaceId: string;

/** A voice: a unit vector of TitaNet-small's 192 dimensions, from a seed. */
function voice(seed: number): number[] {
  let x = seed * 2654435761;
  const v = Array.from({ length: 192 }, () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x7fffffff - 0.5;
  });
  const n = Math.hypot(...v);
  return v.map((a) => a / n);
}
/** The same voice heard again: mostly it, a little of something else. */
const again = (v: number[], other: number[], mix = 0.25) => v.map((a, i) => a + mix * other[i]);

const call = async (method: string, path: string, body?: unknown, key = app.key) => {
  const res = await app.fetch(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
};

async function meeting(title: string, voices: Record<string, number[]>): Promise<string> {
  const labels = Object.keys(voices);
  const made = await call("POST", "/v1/notes", {
    title,
    transcripts: labels.map((label, i) => ({
      speaker: label,
      text: `Line ${i} of ${title}.`,
      startTimestamp: `00:${String(i * 5).padStart(2, "0")}`,
      endTimestamp: `00:${String(i * 5 + 4).padStart(2, "0")}`,
    })),
  });
  expect(made.status, made.text).toBe(200);
  const id = made.body.note?.id ?? made.body.id;
  await app.services.voicePrints.heard(
    { id, workspaceId },
    labels.map((label) => ({ label, embedding: voices[label] })),
  );
  return id;
}

const speakers = async (id: string) =>
  (await call("GET", `/v1/notes/${id}/speakers`)).body.speakers as {
    label: string;
    name: string;
    email: string | null;
    suggested: boolean;
  }[];
const named = async (id: string, label: string) => (await speakers(id)).find((s) => s.label === label)!;

const ANA = voice(1);
const BEN = voice(2);
const CY = voice(3);

beforeAll(async () => {
  app = await startApp({ args: ["--no-rate-limit"] });
  workspaceId = (await call("GET", "/v1/me")).body.workspace.id;
}, 60_000);
afterAll(async () => {
  await app?.stop();
});

describe("voice prints", () => {
  it("offer a voice named once the same name in a later meeting, as a suggestion until confirmed", async () => {
    const first = await meeting("Kick-off", { "Speaker 1": BEN, "Speaker 2": ANA });
    // Nobody is known yet: nothing is offered.
    expect((await speakers(first)).map((s) => [s.name, s.suggested])).toEqual([
      ["Speaker 1", false],
      ["Speaker 2", false],
    ]);
    expect((await call("PATCH", `/v1/notes/${first}/speakers`, { label: "Speaker 2", name: "Ana" })).status).toBe(200);

    // Ana again (her voice a little different), as the first voice this time, beside a stranger.
    const second = await meeting("Follow-up", { "Speaker 1": again(ANA, CY), "Speaker 2": CY });
    expect(await named(second, "Speaker 1")).toMatchObject({ name: "Ana", suggested: true });
    expect(await named(second, "Speaker 2")).toMatchObject({ name: "Speaker 2", suggested: false });
    // The transcript reads the name offered.
    const note = (await call("GET", `/v1/notes/${second}`)).body.note;
    expect(note.transcripts[0].speaker).toBe("Ana");

    // Confirming is naming it so: no longer a suggestion.
    await call("PATCH", `/v1/notes/${second}/speakers`, { label: "Speaker 1", name: "Ana" });
    expect(await named(second, "Speaker 1")).toMatchObject({ name: "Ana", suggested: false });
  });

  it("offer each known voice to one speaker only, and never replace a name a person gave", async () => {
    const EVE = voice(5);
    const first = await meeting("Eve's", { "Speaker 1": EVE });
    await call("PATCH", `/v1/notes/${first}/speakers`, { label: "Speaker 1", name: "Eve" });
    // Two voices that both sound like Eve: the closer is offered her name, the other nothing.
    const id = await meeting("Two of a kind", { "Speaker 1": again(EVE, BEN, 0.1), "Speaker 2": again(EVE, CY, 0.3) });
    expect((await speakers(id)).map((s) => [s.label, s.name, s.suggested]).sort()).toEqual([
      ["Speaker 1", "Eve", true],
      ["Speaker 2", "Speaker 2", false],
    ]);
    await call("PATCH", `/v1/notes/${id}/speakers`, { label: "Speaker 2", name: "Fay" });
    // The note is heard again (processed once more): the person's name stays theirs.
    await app.services.voicePrints.heard({ id, workspaceId }, [
      { label: "Speaker 1", embedding: again(EVE, BEN, 0.1) },
      { label: "Speaker 2", embedding: again(EVE, CY, 0.3) },
    ]);
    expect(await named(id, "Speaker 2")).toMatchObject({ name: "Fay", suggested: false });
  });

  it("keep a member's voice only while they are a member, and never serve an embedding", async () => {
    const { user } = await app.services.workspaces.addUser({ workspaceId, email: "dee@example.com", name: "Dee" });
    const dee = voice(4);
    const id = await meeting("With Dee", { "Speaker 1": dee });
    const byEmail = await call("PATCH", `/v1/notes/${id}/speakers`, { label: "Speaker 1", email: "dee@example.com" });
    expect(byEmail.status, byEmail.text).toBe(200);
    const later = await meeting("Dee again", { "Speaker 1": again(dee, ANA, 0.2) });
    expect(await named(later, "Speaker 1")).toMatchObject({ name: "Dee", email: "dee@example.com", suggested: true });
    for (const path of [`/v1/notes/${later}`, `/v1/notes/${later}/speakers`])
      expect((await call("GET", path)).text).not.toMatch(/embedding|0\.0\d{5}/);

    const member = (await call("GET", "/v1/workspace/members?limit=100")).body.items.find(
      (m: { userId: string }) => m.userId === user.id,
    );
    expect((await call("DELETE", `/v1/workspace/members/${member.id}`)).status).toBe(200);
    const after = await meeting("Dee's voice, after", { "Speaker 1": again(dee, ANA, 0.2) });
    expect(await named(after, "Speaker 1")).toMatchObject({ name: "Speaker 1", suggested: false });
    // Ana, who is no member but a name, is still known.
    const ana = await meeting("Ana still", { "Speaker 1": again(ANA, CY, 0.2) });
    expect(await named(ana, "Speaker 1")).toMatchObject({ name: "Ana", suggested: true });
  });

  it("are learned only from notes every member sees", async () => {
    const GUS = voice(6);
    const HAL = voice(7);
    // A note only its creator sees, and a note filed in a private folder.
    const mine = await meeting("Only mine", { "Speaker 1": GUS });
    expect((await call("PATCH", `/v1/notes/${mine}`, { visibility: "only-me" })).status).toBe(200);
    const me = (await call("GET", "/v1/me")).body.user.id;
    const folder = await call("POST", "/v1/folders", { name: "Board", ownerUserId: me, isPrivate: true });
    expect(folder.status, folder.text).toBe(200);
    const boardNote = await meeting("Board meeting", { "Speaker 1": HAL });
    const filed = await call("PATCH", `/v1/notes/${boardNote}`, {
      folderIds: [folder.body.folder?.id ?? folder.body.id],
    });
    expect(filed.status, filed.text).toBe(200);
    expect((await call("PATCH", `/v1/notes/${mine}/speakers`, { label: "Speaker 1", name: "Gus" })).status).toBe(200);
    expect((await call("PATCH", `/v1/notes/${boardNote}/speakers`, { label: "Speaker 1", name: "Hal" })).status).toBe(
      200,
    );
    // Their names stay on those notes, and are offered nowhere else.
    expect(await named(mine, "Speaker 1")).toMatchObject({ name: "Gus", suggested: false });
    const later = await meeting("Everyone's", { "Speaker 1": again(GUS, CY, 0.1), "Speaker 2": again(HAL, CY, 0.1) });
    expect((await speakers(later)).map((s) => [s.label, s.name, s.suggested])).toEqual([
      ["Speaker 1", "Speaker 1", false],
      ["Speaker 2", "Speaker 2", false],
    ]);
  });

  it("offer nothing to a voice that only resembles a known one", async () => {
    // More a stranger's voice than hers: too far from her print to be offered her name.
    const id = await meeting("Stranger", { "Speaker 1": again(ANA, CY, 1.2) });
    expect(await named(id, "Speaker 1")).toMatchObject({ name: "Speaker 1", suggested: false });
  });
});
