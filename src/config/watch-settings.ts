// A watched folder (`notula serve --watch-dir DIR`): each recording or transcript
// dropped there becomes a note of one person in one workspace, named here.
import { z } from "zod";
import { group, setting } from "./setting.js";

export const watchSettings = group({
  dir: setting(z.string().min(1).optional(), {
    env: ["NOTULA_WATCH_DIR"],
    flag: "--watch-dir <dir>",
    doc: "A folder whose new recordings and transcripts (VTT, SRT, Otter text, markdown) become notes, once each: a file is taken when it has stopped growing, then moved to imported/ or failed/ in it, with a line in its notula-import.log.",
  }),
  user: setting(z.string().min(1).optional(), {
    env: ["NOTULA_WATCH_USER"],
    flag: "--watch-user <email>",
    doc: "Whose notes the watched folder's files become: a member's email or user id.",
    defaultDoc: "the workspace's first admin",
  }),
  workspace: setting(z.string().min(1).optional(), {
    env: ["NOTULA_WATCH_WORKSPACE"],
    flag: "--watch-workspace <id>",
    doc: "The workspace the watched folder's notes go to.",
    defaultDoc: "the only workspace, when there is one",
  }),
  everySec: setting(z.number().int().min(1).max(3600).default(5), {
    env: ["NOTULA_WATCH_EVERY_SEC"],
    doc: "How often the watched folder is looked at; a file is taken once two looks find it the same size.",
  }),
});
