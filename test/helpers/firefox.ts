// Debian's Firefox ESR, headless, over WebDriver BiDi (puppeteer-core: playwright-core's
// Firefox needs its own patched build). Its fake microphone plays a tone and needs no
// permission prompt.
import puppeteer, { type Browser } from "puppeteer-core";

export const FIREFOX = "/usr/lib/firefox-esr/firefox-esr";

export const launchFirefox = (): Promise<Browser> =>
  puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      "media.navigator.streams.fake": true,
      "media.navigator.permission.disabled": true,
      // Quiet: no update checks, telemetry or first-run pages.
      "app.update.enabled": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "browser.shell.checkDefaultBrowser": false,
    },
  });
