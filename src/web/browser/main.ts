// The one script of every page, bundled with its imports (tsup.config.ts) and served
// under a content-hashed name (web/assets). The page's parts first, then the recorder.
import "./page.js";
import "./keyboard.js";
import "./ask.js";
import "./transcript-edit.js";
import "./upload.js";
import "./import.js";
import "./recording.js";
import "./note-notepad.js";
