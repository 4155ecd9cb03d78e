import { z } from "zod";

export const RecapRecipient = z
  .object({
    email: z.string(),
    name: z.string(),
    link: z.enum(["share", "note"]).nullable().meta({
      description:
        "What link the mail carries: share (the note is public), note (a member who may see it), or null (the text alone).",
    }),
    from: z.enum(["meeting", "note"]).meta({
      description:
        "Where the address comes from: meeting (an attendee of the calendar event the note is linked to) or note (a participant added to the note).",
    }),
  })
  .meta({ id: "RecapRecipient" });
export type RecapRecipient = z.infer<typeof RecapRecipient>;

export const RecapPreview = z
  .object({
    configured: z.boolean().meta({ description: "Whether this server sends mail at all (SMTP is set up)." }),
    subject: z.string(),
    text: z.string().meta({ description: "The mail's plain text, as the first recipient gets it." }),
    meeting: z
      .object({ title: z.string(), startsAt: z.string().nullable() })
      .nullable()
      .meta({ description: "The calendar event the note is linked to, whose attendees are among the recipients." }),
    recipients: z.array(RecapRecipient),
  })
  .meta({ id: "RecapPreview" });
export type RecapPreview = z.infer<typeof RecapPreview>;

export const RecapSendBody = z
  .object({
    recipients: z
      .array(z.string().trim().min(3).max(320))
      .min(1)
      .max(50)
      .optional()
      .meta({ description: "Emails of participants to send it to; default: every participant but the sender." }),
  })
  .strict()
  .meta({ id: "RecapSend" });
