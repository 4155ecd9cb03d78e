// The note page tells the truth about a note: who can read it (a private folder's
// members, by the folder's name), and a player only once there is a recording to play.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { PASSWORD, webSession } from "../helpers/world.js";
import { wavBytes } from "../helpers/audio.js";

let server: TestServer;
let api: Client;
let cookie: string;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  cookie = await webSession(server.url, "admin@notula.local");
});
afterAll(() => server?.stop());

const page = async (id: string) => (await fetch(`${server.url}/notes/${id}`, { headers: { cookie } })).text();
const visibility = (html: string) => /<dt>Visibility<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];

describe("the note page", () => {
  it("names the private folder that narrows who can read a note", async () => {
    const me = (await api("GET", "/v1/me")).body.user.id;
    const folder = async (name: string, isPrivate: boolean) =>
      (await api("POST", "/v1/folders", { name, ownerUserId: me, isPrivate })).body.folder.id as string;
    const board = await folder("Board", true);
    const finance = await folder("Finance", true);
    const team = await folder("Team room", false);
    const note = async (folderIds: string[], visibility = "workspace") =>
      (await api("POST", "/v1/notes", { title: "Filed", folderIds, visibility })).body.note.id as string;

    expect(visibility(await page(await note([board])))).toBe("Only members of “Board”");
    expect(visibility(await page(await note([board, finance])))).toBe(
      "Only people in every one of “Board” and “Finance”",
    );
    expect(visibility(await page(await note([team])))).toBe("Everyone in the workspace");
    expect(visibility(await page(await note([board], "only-me")))).toBe("Only me");
  });

  it("shows no player or Enhance while the meeting is recorded, and a player and a download once it is joined", async () => {
    const started = await api("POST", "/v1/recordings", { format: "wav", title: "Live" });
    const id = started.body.note.id;
    const piece = await fetch(`${server.url}/v1/recordings/${id}/pieces/0?durationMs=2000`, {
      method: "PUT",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/wav" },
      body: wavBytes(64_000),
    });
    expect(piece.status).toBe(200);
    const during = await page(id);
    // No player that cannot play (its audio is not joined yet): it would sit at 0:00 and 404.
    expect(during).not.toContain('id="player"');
    // Nothing to enhance yet, and no recording to download.
    expect(during).not.toContain(">Enhance</button>");
    expect(during).not.toContain('id="download-audio"');
    expect((await fetch(`${server.url}/notes/${id}/audio`, { headers: { cookie } })).status).toBe(404);

    expect((await api("POST", `/v1/recordings/${id}/stop`)).status).toBe(200);
    await waitForStatus(api, id);
    const after = await page(id);
    expect(after).toContain('<div class="player-bar"><audio id="player"');
    expect(after).not.toContain("Preparing the recording");
    // The recording is among the downloads, beside the note's text.
    expect(after).toContain(`<a href="/notes/${id}/audio" download="" id="download-audio">`);
    expect((await fetch(`${server.url}/notes/${id}/audio`, { headers: { cookie } })).status).toBe(200);
  });
});
