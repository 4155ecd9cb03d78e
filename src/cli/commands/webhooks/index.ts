// notula webhooks register|list|remove|deliveries|redeliver
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as deliveries from "./deliveries.js";
import * as list from "./list.js";
import * as redeliver from "./redeliver.js";
import * as register from "./register.js";
import * as remove from "./remove.js";

export const registerWebhooks = (program: Command) =>
  under(
    program.command("webhooks").description("Automation webhooks: new meetings are POSTed to these URLs"),
    clientDeps,
    [register, list, remove, deliveries, redeliver],
  );
