// Route-level: through app.request() (the fast tier, helpers/app.ts).
// List items are rendered as JSON by SQLite (the list's hot path); the single read
// is presented in TypeScript. Both must say the same thing, field for field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startApp, type TestApp } from "../helpers/app.js";

let server: TestApp;
let api: Client;

beforeAll(async () => {
  server = await startApp({ args: ["--no-rate-limit"] });
  api = client(server, server.key);
});
afterAll(() => server?.stop());

describe("a list item is the single read without the full parts", () => {
  it("holds for notes with every kind of field", async () => {
    const me = (await api("GET", "/v1/me")).body;
    const folder = async (name: string) =>
      (await api("POST", "/v1/folders", { name, ownerUserId: me.user.id, color: "#A1B2C3" })).body.folder.id as string;
    // Two folders whose names sort differently from their creation order.
    const zulu = await folder('Zulu "quoted" ✓');
    const alpha = await folder("alpha");
    const bodies = [
      {
        title: 'Ünïcödé "quotes" \\ back\\slash \u2028 line sep 🎉',
        userWrittenNote: "# Notes\n\ttabbed\r\nand </script>",
        kind: "in-person",
        visibility: "private",
        participants: [
          {
            name: 'Zoë "Z" O\'Neil',
            email: "Zoe@Example.com",
            accountName: "Ex\nample",
            accountDomain: "example.com",
            profileImageUrl: "https://x.test/a.png?b=1&c=2",
          },
          { name: "", email: "" },
        ],
        calendarEvent: {
          title: "Weekly",
          startsAt: "2026-01-02T03:04:05.000Z",
          attendees: [{ email: "a@b.c", displayName: 'Ä "B"', self: false }],
        },
        folderIds: [zulu, alpha],
        summary: "A summary that lists must not carry.",
        enhancedNote: "## Enhanced",
        transcripts: [{ speaker: "Zoë", text: "Hello.", startTimestamp: "00:00", endTimestamp: "00:02" }],
        createdAt: "1999-12-31T23:59:59.999Z",
        totalDurationSec: 3599,
        inputLanguage: "de",
        meetingApp: "zoom",
      },
      { title: "Bare", createdAt: "2026-03-04T05:06:07.008+02:00" },
      { title: "Only me", visibility: "only-me", folderIds: [alpha], inputLanguage: null, meetingApp: null },
    ];
    const ids: string[] = [];
    for (const body of bodies) {
      const r = await api("POST", "/v1/notes", body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.note.id);
    }
    // Filtered and unfiltered lists take different statements; both must agree.
    for (const query of [
      "?limit=100",
      `?limit=100&folderIds=${alpha},${zulu}`,
      "?limit=100&search=only",
      "?limit=100&sortBy=title&sortOrder=asc",
    ]) {
      const list = await api("GET", `/v1/notes${query}`);
      expect(list.status).toBe(200);
      const items = new Map((list.body.items as { id: string }[]).map((n) => [n.id, n]));
      for (const id of ids) {
        const item = items.get(id);
        if (!item) continue;
        const { note } = (await api("GET", `/v1/notes/${id}`)).body;
        const {
          processingError: _e,
          processingInfo: _i,
          shareUrl: _s,
          processingWarnings: _w,
          textEditedAt: _x,
          progress: _g,
          template: _t,
          speakers: _p,
          ...common
        } = note;
        expect(item).toStrictEqual({ ...common, enhancedNote: "", summary: "", transcripts: [] });
        // The same keys in the same order, too.
        expect(Object.keys(item)).toEqual(Object.keys(common));
      }
    }
    const first = (await api("GET", `/v1/notes?limit=100&folderIds=${zulu}`)).body.items[0];
    expect(first.tags.map((t: { name: string }) => t.name)).toEqual(['Zulu "quoted" ✓', "alpha"]);
    expect(first.createdAt).toBe("1999-12-31T23:59:59.999Z");
  });
});
