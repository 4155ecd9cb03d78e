import { z } from "zod";
import { Speaker } from "./templates.js";
import { Iso, MAX_OFFSET, Pagination, queryDate, queryFlag, queryIdList, queryInt } from "./common.js";

import { NOTE_KINDS, NOTE_SORT_FIELDS, NOTE_STATUSES, VISIBILITIES } from "../vocabulary.js";

export { NOTE_KINDS, NOTE_STATUSES, VISIBILITIES };
/** The older shape, still accepted on input: private ↔ only-me, shared ↔ public. */
export const LEGACY_VISIBILITY: Record<string, (typeof VISIBILITIES)[number]> = {
  private: "only-me",
  shared: "public",
  workspace: "workspace",
  "only-me": "only-me",
  public: "public",
};

export const NoteStatus = z.enum(NOTE_STATUSES);
export const NoteKind = z.enum(NOTE_KINDS);
export const Visibility = z.enum(VISIBILITIES);
export const VisibilityInput = z
  .enum(["only-me", "workspace", "public", "private", "shared"])
  .transform((v) => LEGACY_VISIBILITY[v])
  .meta({ description: "Either shape: only-me | workspace | public, or the older private | workspace | shared." });

export const NoteTag = z
  .object({ id: z.string(), name: z.string(), color: z.string() })
  .meta({ id: "NoteTag", description: "A folder the note is filed in, returned as a tag." });

export const Participant = z
  .object({
    name: z.string(),
    email: z.string(),
    profileImageUrl: z.string(),
    accountName: z.string(),
    accountDomain: z.string(),
    accountImageUrl: z.string(),
  })
  .meta({ id: "Participant" });

/** The longest text a note holds in each of its notes, summary and enhanced note. */
export const NOTE_TEXT_MAX = 500_000;

export const TranscriptSegment = z
  .object({
    id: z.string().meta({
      description:
        "Extension: the line's id, which stays through corrections (PATCH /v1/notes/{id}/transcript/{segmentId}); a new transcription gives new ones.",
    }),
    version: z.number().int().meta({
      description: "Extension: how many times the line was corrected; a correction names the version it read.",
    }),
    speaker: z.string(),
    text: z.string(),
    startTimestamp: z.string().meta({ example: "01:05", description: "MM:SS, minutes not capped at 59" }),
    endTimestamp: z.string().meta({ example: "75:03" }),
  })
  .meta({ id: "TranscriptSegment" });

export const CalendarEvent = z
  .object({
    id: z.string(),
    href: z.string(),
    title: z.string(),
    startsAt: Iso,
    endsAt: Iso,
    createdAt: Iso,
    updatedAt: Iso,
    calendarId: z.string(),
    attendees: z.array(z.object({ self: z.boolean(), email: z.string(), displayName: z.string() })),
  })
  .meta({ id: "CalendarEvent" });

export const Note = z
  .object({
    id: z.string(),
    title: z.string(),
    kind: NoteKind,
    status: NoteStatus,
    createdAt: Iso,
    updatedAt: Iso,
    visibility: Visibility,
    tags: z.array(NoteTag),
    participants: z.array(Participant),
    totalDurationSec: z.number(),
    userWrittenNote: z.string(),
    enhancedNote: z.string().meta({ description: "Empty in list responses." }),
    summary: z.string().meta({ description: "Empty in list responses." }),
    transcripts: z.array(TranscriptSegment).meta({ description: "Empty in list responses." }),
    calendarEvent: CalendarEvent.nullable(),
    inputLanguage: z.string().nullable(),
    translationLanguage: z.string().nullable(),
    meetingApp: z.string().nullable(),
    processingError: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Extension, single-note read only: why processing failed, else null." }),
    processingInfo: z.record(z.string(), z.string()).nullable().optional().meta({
      description:
        "Extension, single-note read only: which engines made the transcript and summary, e.g. {transcription: 'sphinx:en-us', summary: 'extractive'}.",
    }),
    shareUrl: z.string().nullable().optional().meta({
      description:
        "Extension, single-note read only: the link anyone can open while the note is public (/s/{token}), else null.",
    }),
    processingWarnings: z.array(z.string()).nullable().optional().meta({
      description:
        "Extension, single-note read only: what processing could not do fully (a part of a long meeting the model cut short), else null.",
    }),
    textEditedAt: Iso.nullable().optional().meta({
      description:
        "Extension, single-note read only: when a person last edited the summary or the enhanced note, else null.",
    }),
    progress: z
      .object({
        stage: z.enum(["preparing", "transcribing", "summarizing"]),
        percent: z.number().int().min(0).max(100).nullable().meta({
          description:
            "How far the stage has come, where it can tell (transcription does, window by window); else null.",
        }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          "Extension, single-note read only: while the note is being processed, its stage and progress; null otherwise.",
      }),
    template: z.object({ id: z.string(), name: z.string().nullable() }).nullable().optional().meta({
      description:
        "Extension, single-note read only: the template the enhanced note was written with (name null once deleted).",
    }),
    speakers: z.array(Speaker).optional().meta({
      description:
        "Extension, single-note read only: the transcript's speakers with their talk time, the most talkative first.",
    }),
  })
  .meta({ id: "Note" });
export type NoteDto = z.infer<typeof Note>;

export const NoteListQuery = z.object({
  limit: queryInt(1, 100, 20),
  offset: queryInt(0, MAX_OFFSET, 0),
  sortBy: z.enum(NOTE_SORT_FIELDS).default("createdAt"),
  sortOrder: z.enum(["asc", "desc"]).default("desc"),
  status: NoteStatus.optional(),
  kind: NoteKind.optional(),
  search: z.string().max(200).optional().meta({
    description:
      'Words of the title: each must begin a word of it, case-insensitive ("plan" finds "Quarterly planning").',
  }),
  createdBy: z.string().max(200).optional(),
  fromDate: queryDate("Notes created at or after this ISO 8601 date."),
  toDate: queryDate("Notes created before this ISO 8601 date."),
  updatedAfter: queryDate(
    "Extension: notes changed after this ISO 8601 time (exclusive), for incremental sync; sort by updatedAt to walk them.",
  ),
  folderIds: queryIdList("Comma-separated folder IDs: notes filed in any of them."),
  tagIds: queryIdList("Deprecated alias of folderIds."),
  participantEmail: z.string().max(320).optional(),
});
export type NoteListQueryInput = z.infer<typeof NoteListQuery>;

export const NoteList = z.object({ items: z.array(Note), pagination: Pagination }).meta({ id: "NoteList" });
export const NoteEnvelope = z.object({ note: Note }).meta({ id: "NoteEnvelope" });

const idArray = z.array(z.string().min(1).max(200)).max(100);

export const ParticipantInput = z
  .object({
    name: z.string().max(500).default(""),
    email: z.string().max(320).default(""),
    profileImageUrl: z.string().max(2000).default(""),
    accountName: z.string().max(500).default(""),
    accountDomain: z.string().max(500).default(""),
    accountImageUrl: z.string().max(2000).default(""),
  })
  .strict();

/** What a two-channel recording's channels are (an extension): channel 0 the person recording, 1 the others. */
export const ChannelRoles = z
  .tuple([z.literal("me"), z.literal("others")])
  .optional()
  .meta({
    description:
      'Extension: the recording\'s channel 0 is the person recording (their microphone) and channel 1 the others (a call\'s sound); each transcript segment is then attributed to the side that spoke it. Only ["me", "others"].',
  });

/** People who were there, given with a recording or upload (an extension): added to the event's attendees. */
export const HandParticipants = z.array(ParticipantInput).max(500).optional().meta({
  description:
    "Extension: who was there, added to the attendees of the calendar event (named or found), if any. Name, email or both.",
});

export const NoteUpdateBody = z
  .object({
    title: z.string().min(1).max(500).optional(),
    visibility: VisibilityInput.optional(),
    userWrittenNote: z.string().max(NOTE_TEXT_MAX).optional(),
    summary: z.string().max(NOTE_TEXT_MAX).optional().meta({
      description:
        "Extension: the summary as a person corrected it (Markdown). Processing again and enhancing then ask before writing it anew.",
    }),
    enhancedNote: z.string().max(NOTE_TEXT_MAX).optional().meta({
      description:
        "Extension: the enhanced note as a person corrected it (Markdown); its task lines are the note's action items.",
    }),
    tagIds: idArray.optional().meta({ description: "Deprecated alias of folderIds: the folders to file the note in." }),
    folderIds: idArray
      .optional()
      .meta({ description: "Extension: the folders to file the note in (replaces the set)." }),
    participants: z
      .array(ParticipantInput)
      .max(500)
      .optional()
      .meta({ description: "Extension: who was there, edited by hand (replaces the list)." }),
    calendarEventId: z.string().trim().min(1).max(200).nullable().optional().meta({
      description:
        "Extension: link the note to an event of the caller's calendars (its event, attendees and app), or null to unlink it (the event's attendees leave the participants).",
    }),
  })
  .strict()
  .meta({ id: "NoteUpdate" });

/** A calendar event given with a note: any of the event's fields, and no others. */
const CalendarEventInput = CalendarEvent.partial()
  .extend({
    attendees: z
      .array(z.object({ self: z.boolean(), email: z.string().max(320), displayName: z.string().max(500) }).strict())
      .max(500)
      .optional(),
  })
  .strict();

const timestamp = z.string().regex(/^\d{1,4}:[0-5]\d$/, "must be MM:SS, for example 01:05 or 75:03");

const TranscriptInput = z
  .object({
    speaker: z.string().max(200).default(""),
    text: z.string().max(100_000),
    startTimestamp: timestamp,
    endTimestamp: timestamp,
  })
  .strict();

export const NoteCreateBody = z
  .object({
    title: z.string().min(1).max(500),
    userWrittenNote: z.string().max(NOTE_TEXT_MAX).optional(),
    kind: NoteKind.optional(),
    visibility: VisibilityInput.optional(),
    participants: z.array(ParticipantInput).max(500).optional(),
    transcripts: z.array(TranscriptInput).max(20_000).optional(),
    calendarEvent: CalendarEventInput.nullable().optional(),
    calendarEventId: z.string().max(500).optional().meta({
      description:
        "An event of one of the caller's calendars: fills calendarEvent, participants and meetingApp (what is given explicitly wins).",
    }),
    folderIds: idArray.optional(),
    tagIds: idArray.optional().meta({ description: "Deprecated alias of folderIds, as on PATCH." }),
    summary: z.string().max(200_000).optional(),
    enhancedNote: z.string().max(NOTE_TEXT_MAX).optional(),
    createdAt: z.iso.datetime({ offset: true }).optional().meta({ description: "For imports; default now." }),
    totalDurationSec: z.number().nonnegative().max(1_000_000).optional(),
    inputLanguage: z.string().max(20).nullable().optional(),
    meetingApp: z.string().max(100).nullable().optional(),
    audioUrl: z.string().min(1).max(500).optional().meta({
      description:
        "For imports: the audioUrl of an upload (generate-upload-url), attached to the note as its recording for playback. The transcript given is kept and summarised; the recording is not transcribed.",
    }),
    sourceHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex (64 characters)")
      .optional()
      .meta({
        description:
          "For imports: the SHA-256 of the file the note comes from. A second note from the same file in the workspace is refused (409), naming the first, so an import run again makes nothing twice.",
      }),
  })
  .strict()
  .meta({ id: "NoteCreate" });
export type NoteCreateInput = z.infer<typeof NoteCreateBody>;

/** What a page listing notes shows of each note: a brief of the list item. */
export const BRIEF_KEYS = ["id", "title", "status", "createdAt", "totalDurationSec", "tags", "participants"] as const;
export type NoteBrief = Pick<NoteDto, (typeof BRIEF_KEYS)[number]>;

export const ReprocessQuery = z.object({
  discardCorrections: queryFlag(
    "Transcribe the recording anew even though lines of its transcript were corrected by a person (they are lost).",
  ),
  discardEdits: queryFlag("Write the summary and enhanced note anew even though a person edited them."),
});
