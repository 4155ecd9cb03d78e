// Which engine transcribes, said where people look: the start banner, the first-run
// screen and Settings → Speech-to-text. With --stt-engine auto, whisper once a model is
// there (its engine comes with notula), else pocketsphinx, which is named a fallback of
// lower accuracy, with the measured figures and the whisper setup beside it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testModelPath } from "../../scripts/test-models.js";
import { adminBrowser } from "../helpers/admin-browser.js";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { capture } from "../helpers/page-checks.js";
import { PASSWORD } from "../helpers/world.js";
import { speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startServerProcess, tempDir } from "../helpers/server.js";
import { MEASURED_WER } from "../../src/ai/transcription/engine-notes.js";

describe("the speech engine chosen by auto", () => {
  it("is pocketsphinx without a whisper model, said to be a fallback with its figures, with the setup offered", async () => {
    const server = await startServerProcess({ args: ["--no-rate-limit"] });
    try {
      expect(server.output()).toMatch(/Speech-to-text: pocketsphinx\. pocketsphinx is an English-only fallback/);
      expect(server.output()).toContain("notula models pull base.en");
      const a = await adminBrowser(server, "admin");
      const speech = (await a.page("/settings/speech")).html;
      expect(speech).toMatch(/id="speech-engine">[\s\S]*<strong>pocketsphinx<\/strong>/);
      expect(speech).toMatch(/id="speech-caveat"/);
      expect(speech).toContain(
        `got ${MEASURED_WER.sphinx.clean} of the words wrong on clean speech and ${MEASURED_WER.sphinx.noisy} under noise, where whisper base.en got ${MEASURED_WER.whisperBaseEn.clean}`,
      );
      expect(speech).toContain('action="/settings/speech/setup"');
      // The first-run screen says so to an admin, with the way to whisper; a member has nothing to set up.
      expect((await a.page("/notes")).html).toMatch(/id="first-run-speech"[\s\S]*href="\/settings\/speech"/);
      const m = await adminBrowser(server, "member");
      expect((await m.page("/notes")).html).not.toContain("first-run-speech");
      // As a browser shows them: accessible, at desktop and phone width.
      const browser = await launchChromium();
      try {
        const me = (await a.api("GET", "/v1/me")).body.user.email as string;
        const page = await signedInPage(browser, server.url, me, PASSWORD);
        await page.goto(`${server.url}/settings/speech`);
        await page.locator("#speech-caveat").waitFor();
        await capture(page, "settings-speech-fallback");
        await page.goto(`${server.url}/notes`);
        await page.locator("#first-run-speech").waitFor();
        await capture(page, "notes-first-run-speech");
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  });

  it("is whisper once a model is in the data dir, and transcribes with it", async () => {
    const dataDir = tempDir("notula-auto-whisper-");
    fs.mkdirSync(path.join(dataDir, "models"));
    fs.symlinkSync(testModelPath("whisperBaseEn"), path.join(dataDir, "models", "ggml-base.en.bin"));
    const server = await startServerProcess({ args: ["--no-rate-limit"], dataDir });
    try {
      expect(server.output()).toMatch(/Speech-to-text: whisper \(\S*ggml-base\.en\.bin\)\n/);
      const a = await adminBrowser(server, "admin");
      const speech = (await a.page("/settings/speech")).html;
      expect(speech).toMatch(/<strong>whisper \(ggml-base\.en\.bin\)<\/strong>/);
      expect(speech).not.toContain("speech-caveat");
      expect((await a.page("/notes")).html).not.toContain("first-run-speech");
      const api = client(server.url, server.key);
      const id = await uploadRecording(api, speak(tempDir(), "The launch moves to the second week of March."), "wav");
      const note = await waitForStatus(api, id, undefined, 120_000);
      expect(note.processingInfo.transcription).toBe("whisper:ggml-base.en.bin");
      expect(note.transcripts.map((s: { text: string }) => s.text).join(" ")).toMatch(/second week of March/i);
    } finally {
      await server.stop();
    }
  });

  it("names a model file that cannot be loaded on the settings page, before any recording fails on it", async () => {
    const dataDir = tempDir("notula-bad-model-");
    const truncated = path.join(dataDir, "ggml-base.en.bin");
    const whole = fs.openSync(testModelPath("whisperBaseEn"), "r");
    const head = Buffer.alloc(10 * 1024 * 1024);
    fs.readSync(whole, head, 0, head.length, 0);
    fs.closeSync(whole);
    fs.writeFileSync(truncated, head);
    const server = await startServerProcess({
      args: ["--no-rate-limit", "--stt-engine", "whisper", "--model-path", truncated],
    });
    try {
      const a = await adminBrowser(server, "admin");
      const speech = (await a.page("/settings/speech")).html;
      expect(speech).toMatch(
        /Recordings cannot be transcribed now: \S*ggml-base\.en\.bin is not a whisper\.cpp model the engine can load/,
      );
    } finally {
      await server.stop();
    }
  });
});
