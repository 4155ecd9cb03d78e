// What every page test checks of a page: no serious accessibility violation (axe-core),
// nothing wider than a phone's screen, and a photograph at desktop and phone width.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { ROOT } from "./server.js";

// What page.evaluate's callbacks see: the browser's globals (the suite compiles without the DOM library).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const ARTIFACTS = path.join(ROOT, "test-artifacts");
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** No serious or critical accessibility violation on the page as it stands. */
export async function expectAccessible(page: Page, name: string) {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: {
          run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run({
      resultTypes: ["violations"],
    });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad, `${name}: ${JSON.stringify(bad)}`).toEqual([]);
}

/** Desktop and phone screenshots, and the accessibility check. */
export async function capture(page: Page, name: string) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await expectAccessible(page, name);
  await page.screenshot({ path: path.join(ARTIFACTS, `web-${name}-desktop.png`), fullPage: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  // Nothing is wider than the phone's screen.
  const wide = await page.evaluate(
    () =>
      [...document.querySelectorAll("body *")]
        .filter((e: any) => e.getBoundingClientRect().right > 376)
        .map((e: any) => `${e.tagName.toLowerCase()}.${e.className}`), // eslint-disable-line @typescript-eslint/no-explicit-any
  );
  expect(wide, name).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, `web-${name}-phone.png`), fullPage: true });
  if (size) await page.setViewportSize(size);
}
