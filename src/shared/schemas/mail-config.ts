// A workspace's own mail server, as admins set it (REST, web, CLI alike). The password
// goes in and never comes out; it is kept only while the host and user stay the same,
// so that a changed host cannot be handed the old server's password.
import { z } from "zod";

const Host = z
  .string()
  .trim()
  .min(1, "is required")
  .max(253)
  .regex(
    /^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/,
    "is not a host name",
  );

/** A sender: `Name <address>` or an address, on one line. */
export const MailFrom = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .regex(/^[^\r\n<>]*<?[^\s@<>]+@[^\s@<>]+>?$/, "must be an address or `Name <address>`");

export const SmtpServerBody = z
  .object({
    host: Host.meta({ description: "The SMTP server's name or address." }),
    port: z.number().int().min(1).max(65535).meta({ description: "Usually 587 for starttls, 465 for tls." }),
    security: z.enum(["tls", "starttls"]).meta({
      description: "tls: TLS from the first byte (smtps); starttls: upgraded when the server offers it.",
    }),
    username: z
      .string()
      .max(500)
      .nullable()
      .optional()
      .meta({ description: "Leave out for a server without sign-in." }),
    password: z.string().max(1000).nullable().optional().meta({
      description:
        "Never returned. Leave it out to keep the stored one, which is kept only while host and username stay the same.",
    }),
  })
  .strict()
  .meta({ id: "SmtpServerInput" });

export const MailConfigUpdateBody = z
  .object({
    smtp: SmtpServerBody.nullable()
      .optional()
      .meta({ description: "The workspace's own SMTP server; null to use the server's (if any)." }),
    from: MailFrom.nullable()
      .optional()
      .meta({ description: "The sender of the workspace's mail; null for the server's." }),
  })
  .strict()
  .meta({ id: "MailConfigUpdate" });
export type MailConfigUpdateInput = z.infer<typeof MailConfigUpdateBody>;

export const MailConfig = z
  .object({
    source: z.enum(["workspace", "server", "none"]).meta({
      description: "Whose SMTP server sends this workspace's mail: its own, the server's (NOTULA_SMTP_URL), or none.",
    }),
    smtp: z
      .object({
        host: z.string(),
        port: z.number().int(),
        security: z.enum(["tls", "starttls"]),
        username: z.string().nullable(),
        hasPassword: z.boolean(),
      })
      .nullable()
      .meta({ description: "The workspace's own server; null when it has none." }),
    from: z.string().nullable().meta({ description: "The workspace's own sender; null for the server's." }),
    effectiveFrom: z.string().meta({ description: "The sender its mail goes out as." }),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "MailConfig" });
export type MailConfigDto = z.infer<typeof MailConfig>;

export const MailTestResult = z
  .object({
    delivered: z.boolean().meta({ description: "Whether the SMTP server took the mail." }),
    to: z.string().meta({ description: "The caller's own address: a test goes nowhere else." }),
    error: z.string().nullable().meta({ description: "What the SMTP server or the connection said, when it failed." }),
  })
  .meta({ id: "MailTestResult" });
export type MailTestResultDto = z.infer<typeof MailTestResult>;
