// The settings of what notula sends out: webhook deliveries and mail. Part of the one
// settings table (settings.ts), kept here to keep that file readable.
import { z } from "zod";
import { group, setting } from "./setting.js";

export const webhookSettings = group({
  retryScheduleMs: setting(
    z.array(z.number().int().min(0)).min(0).max(20).default([30_000, 120_000, 600_000, 3_600_000, 21_600_000]),
    {
      env: ["NOTULA_WEBHOOK_RETRY_SCHEDULE_MS"],
      doc: "Waits before each retry of a failed delivery, comma-separated (about 30 s, 2 min, 10 min, 1 h, 6 h).",
    },
  ),
  timeoutMs: setting(z.number().int().min(100).default(10_000), {
    env: ["NOTULA_WEBHOOK_TIMEOUT_MS"],
    doc: "How long a delivery may take.",
  }),
  disableAfter: setting(z.number().int().min(1).default(10), {
    env: ["NOTULA_WEBHOOK_DISABLE_AFTER"],
    doc: "A registration is disabled after this many events in a row failed for good.",
  }),
});

export const mailSettings = group({
  smtpUrl: setting(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be smtp://… or smtps://…")
      .optional(),
    {
      // No flag: a password on the command line is visible to every user of the machine (ps).
      env: ["NOTULA_SMTP_URL"],
      doc: "Where mail goes: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465. Without it, invites show their link and nothing is emailed.",
      secret: true,
    },
  ),
  from: setting(z.string().min(3).max(320).default("notula <notula@localhost>"), {
    env: ["NOTULA_MAIL_FROM"],
    flag: "--mail-from <address>",
    doc: "The sender of notula's mail, as `Name <address>` or an address.",
  }),
  retryBaseMs: setting(z.number().int().min(10).default(30_000), {
    env: ["NOTULA_MAIL_RETRY_BASE_MS"],
    doc: "The first wait before a mail the SMTP server did not take is tried again; each next wait is four times longer.",
  }),
});
