import { z } from "zod";

export const RecapRecipient = z
  .object({
    email: z.string(),
    name: z.string(),
    link: z.enum(["share", "note"]).nullable().meta({
      description:
        "What link the mail carries: share (the note is public), note (a member who may see it), or null (the text alone).",
    }),
  })
  .meta({ id: "RecapRecipient" });
export type RecapRecipient = z.infer<typeof RecapRecipient>;

export const RecapPreview = z
  .object({
    configured: z.boolean().meta({ description: "Whether this server sends mail at all (SMTP is set up)." }),
    subject: z.string(),
    text: z.string().meta({ description: "The mail's plain text, as the first recipient gets it." }),
    recipients: z.array(RecapRecipient),
  })
  .meta({ id: "RecapPreview" });

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
