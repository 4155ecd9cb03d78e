// The app's static assets, served by notula itself (nothing from a CDN, so it works
// offline) under content-hashed names that may be cached for a year.
import { createHash } from "node:crypto";
import { pageScript } from "./page-script.js";
import { STYLES } from "./styles.js";

/** The mark: a note page with a sound wave, legible at 16 px, in light and dark tabs alike. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="2" width="26" height="28" rx="5" fill="#2456c9"/><path d="M8 16h2M12 11v10M16 7v18M20 12v8M24 15v2" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/></svg>`;

const SCRIPT = pageScript();

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

export const ASSETS = {
  [`app.${hash(STYLES)}.css`]: { body: STYLES, type: "text/css; charset=utf-8" },
  [`app.${hash(SCRIPT)}.js`]: { body: SCRIPT, type: "text/javascript; charset=utf-8" },
  [`icon.${hash(FAVICON)}.svg`]: { body: FAVICON, type: "image/svg+xml" },
};

const names = Object.keys(ASSETS);
export const STYLESHEET_URL = `/assets/${names.find((n) => n.endsWith(".css"))}`;
export const SCRIPT_URL = `/assets/${names.find((n) => n.endsWith(".js"))}`;
export const ICON_URL = `/assets/${names.find((n) => n.endsWith(".svg"))}`;
