// notula notes list|get|create|update|edit|delete|share|recap|reprocess|enhance|speakers|transcript|search|export|sync|wait
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as create from "./create.js";
import * as del from "./delete.js";
import * as edit from "./edit.js";
import * as enhance from "./enhance.js";
import * as exportNotes from "./export.js";
import * as get from "./get.js";
import * as list from "./list.js";
import * as recap from "./recap.js";
import * as reprocess from "./reprocess.js";
import * as search from "./search.js";
import * as share from "./share.js";
import * as speakers from "./speakers.js";
import * as transcript from "./transcript.js";
import * as sync from "./sync.js";
import * as update from "./update.js";
import * as wait from "./wait.js";

export const registerNotes = (program: Command) =>
  under(program.command("notes").description("Meeting notes"), clientDeps, [
    list,
    get,
    create,
    update,
    edit,
    del,
    share,
    recap,
    reprocess,
    enhance,
    speakers,
    transcript,
    search,
    exportNotes,
    sync,
    wait,
  ]);
