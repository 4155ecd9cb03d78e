// Debian's Chromium, headless, as every browser test starts it: quiet (no background
// networking, updates or sync), plus what a test adds (a fake microphone, say).
import { chromium, type Browser, type Page } from "playwright-core";

export const launchChromium = (extraArgs: string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });

/** A new desktop-sized page signed in to the web app at `url` as `email`, on the notes list. */
export async function signedInPage(browser: Browser, url: string, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${url}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/notes$/);
  return page;
}
