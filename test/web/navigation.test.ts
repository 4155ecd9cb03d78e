// The web app's navigation in headless Chromium: at 1280 px the top bar is one row,
// with the settings pages grouped under one Settings menu (the person's own, then the
// workspace's for admins), and on a settings page every settings page is one click
// away. Settings → AI says what a workspace admin can do and what only the server's
// operator can.
import { type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { capture } from "../helpers/page-checks.js";
import { addMember } from "../helpers/members.js";
import { PASSWORD } from "../helpers/world.js";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  await addMember(server, { name: "Mo", email: "mo@acme.example" });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("navigation", () => {
  it("is one row at 1280 px, with the settings under one menu", async () => {
    const page = await signedInPage(browser, server.url, "admin@notula.local", PASSWORD);
    const bar = (await page.locator("header.top").boundingBox())!;
    expect(bar.height).toBeLessThan(70);
    expect(await page.locator("header.top nav > a").allTextContents()).toEqual([
      "Notes",
      "Ask",
      "Action items",
      "New note",
    ]);
    await page.locator("header details.settings-menu > summary").click();
    const groups = await page
      .locator("header .settings-menu .group")
      .evaluateAll((gs) => gs.map((g) => [...g.querySelectorAll("a")].map((a) => a.textContent)));
    expect(groups).toEqual([
      ["Account", "API keys", "Calendars", "Folders"],
      ["Members", "Workspace", "Webhooks", "Email", "Speech-to-text", "AI"],
    ]);
    await capture(page, "settings-menu");
    // A click elsewhere closes it.
    await page.mouse.click(1200, 850);
    expect(await page.locator("header details.settings-menu[open]").count()).toBe(0);

    // On a settings page the others are one click away, and Settings is marked as where one is.
    await page.locator("header details.settings-menu > summary").click();
    await page.getByRole("link", { name: "AI", exact: true }).click();
    await page.waitForURL(/\/settings\/ai$/);
    expect(await page.locator("header .settings-menu > summary").getAttribute("aria-current")).toBe("page");
    expect(await page.locator("nav.settings-nav a[aria-current=page]").textContent()).toBe("AI");
    // What the workspace admin can do, and the flag only the operator can give.
    const who = (await page.locator("#ai-who").textContent())!.replace(/\s+/g, " ");
    expect(who).toContain("As a workspace admin you can use a model server reachable on the internet");
    expect(who).toContain("until the server's operator allows it, by starting notula with --allow-private-ai-urls");
    expect(await page.locator("#ai-state").textContent()).not.toMatch(/written by extractive/);
    await capture(page, "ai-settings");
    await page.locator("nav.settings-nav").getByRole("link", { name: "Calendars" }).click();
    await page.waitForURL(/\/settings\/calendars$/);
  }, 60_000);

  it("shows a member only their own settings", async () => {
    const page = await signedInPage(browser, server.url, "mo@acme.example", PASSWORD);
    await page.locator("header details.settings-menu > summary").click();
    expect(await page.locator("header .settings-menu .group").count()).toBe(1);
    expect(await page.locator("header .settings-menu a").allTextContents()).toEqual([
      "Account",
      "API keys",
      "Calendars",
      "Folders",
    ]);
  }, 60_000);
});
