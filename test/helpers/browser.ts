// Debian's Chromium, headless, as every browser test starts it: quiet (no background
// networking, updates or sync), plus what a test adds (a fake microphone, say).
import { chromium, type Browser } from "playwright-core";

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
