// Action items: a note's tasks as things of their own (extension). Declared once here
// for REST, the web app, the CLI and MCP.
import { z } from "zod";
import { Iso, MAX_OFFSET, Pagination, queryInt } from "./common.js";

const Day = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "must be a date as YYYY-MM-DD, for example 2026-03-04");

export const ActionItem = z
  .object({
    id: z.string(),
    noteId: z.string(),
    noteTitle: z.string(),
    text: z.string().meta({ description: "The task as the note words it." }),
    owner: z
      .object({
        name: z.string(),
        userId: z.string().nullable().meta({
          description:
            "The member it is given to, where the name is a member's or a participant's whose address is a member's.",
        }),
      })
      .nullable()
      .meta({ description: "Who takes it on; null when nobody was named." }),
    due: Day.nullable().meta({ description: "YYYY-MM-DD, or null." }),
    done: z.boolean(),
    doneAt: Iso.nullable(),
    doneBy: z.string().nullable().meta({ description: "The user who ticked it." }),
    at: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Seconds into the meeting of the moment it was said, where the note cites one." }),
    url: z.string().meta({ description: "The note at that moment (/notes/{id}#t=SECONDS), or the note." }),
  })
  .meta({ id: "ActionItem" });
export type ActionItemDto = z.infer<typeof ActionItem>;

export const ACTION_ITEM_STATUSES = ["open", "done", "all"] as const;

export const ActionItemListQuery = z.object({
  limit: queryInt(1, 100, 20),
  offset: queryInt(0, MAX_OFFSET, 0),
  assignee: z.string().min(1).max(200).optional().meta({ description: "`me` for the caller's items, or a user's id." }),
  status: z.enum(ACTION_ITEM_STATUSES).default("all"),
  noteId: z.string().min(1).max(200).optional(),
  dueBefore: Day.optional().meta({
    description: "Items due before this day (YYYY-MM-DD); those with no due date are left out.",
  }),
});
export type ActionItemListQueryInput = z.infer<typeof ActionItemListQuery>;

export const ActionItemList = z
  .object({ items: z.array(ActionItem), pagination: Pagination })
  .meta({ id: "ActionItemList" });
export const ActionItemEnvelope = z.object({ actionItem: ActionItem }).meta({ id: "ActionItemEnvelope" });

export const ActionItemUpdateBody = z
  .object({
    done: z.boolean().optional(),
    owner: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .meta({ description: "Who takes it on, by name (a member's name ties it to them); null for nobody." }),
    due: Day.nullable()
      .optional()
      .meta({ description: "YYYY-MM-DD; a day in the past is kept, and shown as overdue." }),
  })
  .strict()
  .refine((b) => b.done !== undefined || b.owner !== undefined || b.due !== undefined, {
    message: "Say what to change: done, owner or due.",
  })
  .meta({ id: "ActionItemUpdate" });
export type ActionItemUpdate = z.infer<typeof ActionItemUpdateBody>;
