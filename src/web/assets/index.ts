// The app's static assets, served by notula itself (nothing from a CDN, so it works
// offline) under content-hashed names that may be cached for a year.
import { createHash } from "node:crypto";
import { SCRIPT } from "./script.js";
import { STYLES } from "./styles.js";

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

export const ASSETS = {
  [`app.${hash(STYLES)}.css`]: { body: STYLES, type: "text/css; charset=utf-8" },
  [`app.${hash(SCRIPT)}.js`]: { body: SCRIPT, type: "text/javascript; charset=utf-8" },
};

const names = Object.keys(ASSETS);
export const STYLESHEET_URL = `/assets/${names.find((n) => n.endsWith(".css"))}`;
export const SCRIPT_URL = `/assets/${names.find((n) => n.endsWith(".js"))}`;
