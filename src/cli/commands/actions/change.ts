// What done, reopen and assign share: one PATCH of an action item, said back in a line.
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { info } from "../../lib/output.js";

export const change = (
  id: string,
  body: { done?: boolean; owner?: string | null; due?: string | null },
  { api }: Deps,
) => api.call("updateActionItem", { params: { id }, body });

export const said = ({ actionItem: i }: ApiResponse<"updateActionItem">) =>
  info(
    `${i.done ? "Done" : "Open"}: ${i.text}${i.owner ? ` (owner: ${i.owner.name})` : ""}${i.due ? ` (due: ${i.due})` : ""}`,
  );
