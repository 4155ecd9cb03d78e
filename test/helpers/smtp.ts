// A real SMTP server for the mail tests (the smtp-server package), receiving on a
// fixed port so that it can be stopped and started again at the same address; each
// mail is parsed (mailparser) with the envelope it came with. It may ask for a password.
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import { freePort } from "./free-port.js";

export interface Received {
  envelope: { from: string; to: string[] };
  mail: ParsedMail;
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: Received[];
  /** Refuses mail to these addresses with 550, as a server does for an unknown mailbox. */
  refuse: Set<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** With `auth`, the server takes mail only after AUTH with that user and password. */
export async function startSmtp(o: { auth?: { user: string; pass: string } } = {}): Promise<SmtpSink> {
  const port = await freePort();
  const received: Received[] = [];
  const refuse = new Set<string>();
  let server: SMTPServer | null = null;
  const start = async () => {
    server = new SMTPServer({
      authOptional: !o.auth,
      // No TLS here, so AUTH must be allowed in the clear (on loopback only).
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      onAuth(auth, _session, callback) {
        if (o.auth && auth.username === o.auth.user && auth.password === o.auth.pass)
          return callback(null, { user: auth.username });
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      },
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address.toLowerCase())) {
          const err = Object.assign(new Error("No such mailbox"), { responseCode: 550 });
          return callback(err);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          void simpleParser(raw).then((mail) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              mail,
              raw,
            });
            callback();
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(port, "127.0.0.1", () => resolve());
    });
  };
  await start();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
