// The Ask box in headless Chromium: on the notes list, `a` focuses it; the answer
// streams in under it (its words appear before its sources do); each source is a link
// that opens the note at that moment; a follow-up stays in the thread; the note's own
// page asks that meeting; the Ask page lists one's threads. The language model is the
// local stand-in, streaming a word at a time.
import { type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { client } from "../helpers/http.js";
import { capture } from "../helpers/page-checks.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { startChatServer, type VendorServer } from "../helpers/vendors.js";

// What page.evaluate's callbacks see (the suite compiles without the DOM library).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = "asking password 1";
let llm: VendorServer;
let server: TestServer;
let browser: Browser;
let noteId: string;

beforeAll(async () => {
  llm = await startChatServer();
  server = await startServer({ args: ["--no-rate-limit", "--llm-url", llm.url, "--llm-model", "test-model"] });
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  const made = await client(server.url, server.key)("POST", "/v1/notes", {
    title: "Office planning",
    transcripts: [
      { speaker: "Ana", text: "Good morning, let us start.", startTimestamp: "00:00", endTimestamp: "00:05" },
      {
        speaker: "Ana",
        text: "We decided to open the Lisbon office in March with six people.",
        startTimestamp: "00:05",
        endTimestamp: "00:12",
      },
      {
        speaker: "Ben",
        text: "The budget for Lisbon is two hundred thousand euros.",
        startTimestamp: "00:12",
        endTimestamp: "00:20",
      },
    ],
  });
  expect(made.status, made.text).toBe(200);
  noteId = made.body.note?.id ?? made.body.id;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

const signedIn = () => signedInPage(browser, server.url, "admin@notula.local", PASSWORD);

describe("the Ask box", () => {
  it("streams the answer on the notes list, with sources that open the moment, and keeps the thread", async () => {
    const page = await signedIn();
    // A word every 150 ms: the answer is seen growing before its sources arrive.
    llm.set({ streamDelayMs: 150 });
    try {
      await page.keyboard.press("a");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("ask-question");
      await page.keyboard.type("What did we decide about the Lisbon office?");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () =>
          (document.querySelector(".ask-live .answer")?.textContent ?? "").length > 0 &&
          !document.querySelector(".ask-live ol.sources"),
        undefined,
        { timeout: 30_000 },
      );
      await page.locator(".ask-live ol.sources").waitFor({ timeout: 60_000 });
    } finally {
      llm.set({ streamDelayMs: 0 });
    }
    expect(await page.locator(".ask-live .answer").textContent()).toMatch(/^From the meetings: .+ \[\d+\]/);
    await capture(page, "ask");
    const source = page.locator(".ask-live ol.sources a", { hasText: "00:05, Ana" });
    expect(await source.getAttribute("href")).toBe(`/notes/${noteId}#t=5`);
    // Each [n] of the answer is a link to its source's moment.
    const marks = page.locator(".ask-live .answer a.cite");
    expect(await marks.count()).toBeGreaterThan(0);
    for (const href of await marks.evaluateAll((els) => els.map((a) => a.getAttribute("href"))))
      expect(href).toMatch(new RegExp(`^/notes/${noteId}#t=\\d+$`));

    // A follow-up in the same thread, asked below the answer before it.
    expect(await page.locator(".ask-form label").textContent()).toBe("Ask a follow-up");
    await page.locator("#ask-question").fill("And the budget for Lisbon?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const second = page.locator(".ask-live .turn").nth(1);
    await second.locator("ol.sources").waitFor({ timeout: 60_000 });
    expect(await page.locator(".ask-live .turn .question").allTextContents()).toEqual([
      "What did we decide about the Lisbon office?",
      "And the budget for Lisbon?",
    ]);
    const [lastAnswer, box] = [await second.boundingBox(), await page.locator("#ask-question").boundingBox()];
    expect(box!.y).toBeGreaterThan(lastAnswer!.y + lastAnswer!.height - 1);
    const thread = await second.locator("a", { hasText: "Open the thread" }).getAttribute("href");
    await page.goto(server.url + thread!);
    expect(await page.locator("section.turn h2.question").allTextContents()).toEqual([
      "What did we decide about the Lisbon office?",
      "And the budget for Lisbon?",
    ]);

    // The source opens the note at that moment; the note's page asks that meeting.
    await page.goto(`${server.url}/notes`);
    await page.goto(`${server.url}/notes/${noteId}#t=5`);
    expect(await page.locator(".ask-form label").textContent()).toBe("Ask this meeting");
    expect(await page.locator(".ask-form input[name=noteId]").getAttribute("value")).toBe(noteId);

    // The Ask page lists the thread.
    await page.getByRole("link", { name: "Ask", exact: true }).click();
    await page.waitForURL(/\/ask$/);
    expect(await page.locator("ul.threads li").count()).toBe(1);
    expect(await page.locator("ul.threads li a").textContent()).toBe("What did we decide about the Lisbon office?");
  }, 180_000);

  it("without script, the form posts and the thread's page shows the answer", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel("Email").fill("admin@notula.local");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/notes$/);
    // Without script the list's tools stay folded: one tap opens Ask.
    await page.locator("details.fold > summary", { hasText: "Ask" }).click();
    await page.locator("#ask-question").fill("What is the Lisbon budget?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    await page.waitForURL(/\/ask\/threads\/ask_/);
    expect(await page.locator("#latest .answer").textContent()).toMatch(/^From the meetings: /);
    expect(await page.locator("#latest ol.sources a").first().getAttribute("href")).toMatch(
      new RegExp(`^/notes/${noteId}#t=\\d+$`),
    );
  }, 60_000);
});

describe("the Ask page without a language model", () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startServer({ args: ["--no-rate-limit"] });
    await admin(bare.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
    const made = await client(bare.url, bare.key)("POST", "/v1/notes", {
      title: "Office planning",
      transcripts: [
        {
          speaker: "Ana",
          text: "We decided to open the Lisbon office in March with six people.",
          startTimestamp: "00:05",
          endTimestamp: "00:12",
        },
      ],
    });
    expect(made.status, made.text).toBe(200);
  }, 60_000);
  afterAll(() => bare?.stop());

  it("lists the new thread at once, and shows each quote once", async () => {
    const page = await signedInPage(browser, bare.url, "admin@notula.local", PASSWORD);
    await page.goto(`${bare.url}/ask`);
    expect(await page.getByText("None yet.").count()).toBe(1);
    await page.locator("#ask-question").fill("When does the Lisbon office open?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const turn = page.locator(".ask-live .turn").first();
    await turn.locator("ol.sources").waitFor({ timeout: 60_000 });
    // The quotes are the answer: the sources say where, and nothing is printed twice.
    const text = (await turn.textContent()) ?? "";
    expect(text.split("open the Lisbon office in March").length - 1, text).toBe(1);
    expect(await turn.locator("ol.sources li").first().textContent()).toBe("Office planning, 00:05, Ana");
    expect(await turn.locator(".answer a.cite").first().getAttribute("href")).toMatch(/^\/notes\/[^#]+#t=5$/);
    // The list of questions has it without a reload.
    expect(await page.getByText("None yet.").count()).toBe(0);
    expect(await page.locator("ul.threads li a").allTextContents()).toEqual(["When does the Lisbon office open?"]);
    // And so does the thread's page, rendered by the server.
    await page.locator("ul.threads li a").click();
    await page.waitForURL(/\/ask\/threads\//);
    const shown = (await page.locator("#latest").textContent()) ?? "";
    expect(shown.split("open the Lisbon office in March").length - 1, shown).toBe(1);
    expect(await page.locator("#latest .answer a.cite").count()).toBe(1);
    await page.context().close();
  }, 120_000);
});
