// notula notes recap <id> [--send] [--to EMAIL...]
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { printTable } from "../../lib/output.js";

export const define = (notes: Command) =>
  notes
    .command("recap")
    .description("Show the recap mail of a note you made and who would get it; --send emails it to the participants")
    .argument("<id>", "note id")
    .option("--send", "send it (without this, only show it)")
    .option("--to <email...>", "only these participants (default: all but you)")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes recap note_…\n  notula notes recap note_… --send\n  notula notes recap note_… --send --to ana@example.com ben@example.com",
    );

export interface Input {
  id: string;
  send?: boolean;
  to?: string[];
}

type Preview = ApiResponse<"previewRecap">["recap"];
type Sent = ApiResponse<"sendRecap">;

export async function run(f: Input, { api }: Deps): Promise<{ sent: boolean } & (Preview | Sent)> {
  if (!f.send) return { sent: false, ...(await api.call("previewRecap", { params: { id: f.id } })).recap };
  const body = f.to?.length ? { recipients: f.to } : {};
  return { sent: true, ...(await api.call("sendRecap", { params: { id: f.id }, body })) };
}

const LINK = { share: "share link", note: "note link" } as Record<string, string>;

export function render(r: Awaited<ReturnType<typeof run>>) {
  if ("subject" in r) {
    process.stdout.write(`Subject: ${r.subject}\n\n${r.text}\n`);
    if (!r.configured)
      process.stdout.write(
        "Email is not set up for this workspace: an admin sets it up in Settings → Email or with `notula mail set`.\n\n",
      );
  }
  printTable(
    ["TO", "NAME", "LINK"],
    r.recipients.map((x) => [x.email, x.name, x.link ? LINK[x.link] : "text only"]),
  );
  process.stdout.write(
    r.sent
      ? `Queued to ${r.recipients.length} ${r.recipients.length === 1 ? "person" : "people"}.\n`
      : "Not sent: run again with --send.\n",
  );
}
