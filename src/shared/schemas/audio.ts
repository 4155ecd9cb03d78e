import { z } from "zod";
import { AUDIO_EXTENSIONS } from "../vocabulary.js";
import { ChannelRoles, HandParticipants } from "./notes.js";

export const GenerateUploadUrlBody = z
  .object({
    fileExtension: z
      .string()
      .min(1, "is required")
      .max(10)
      .meta({ example: "m4a", description: AUDIO_EXTENSIONS.join(", ") }),
    duration: z
      .number()
      .positive("must be a positive number of seconds")
      .max(14_400, "must be at most 14400 seconds (4 hours)")
      .meta({ description: "Recording length in seconds, at most 14400." }),
  })
  .strict()
  .meta({ id: "GenerateUploadUrl" });

export const UploadUrl = z
  .object({
    presignedUrl: z
      .string()
      .meta({ description: "PUT the raw file here, with Content-Type equal to contentType; valid 10 minutes, once." }),
    audioUrl: z.string().meta({ description: "Opaque reference to pass to POST /v1/notes/from-audio." }),
    contentType: z.string(),
  })
  .meta({ id: "UploadUrl" });

export const FromAudioBody = z
  .object({
    audioUrl: z.string().min(1, "is required").max(500),
    title: z.string().max(500).optional(),
    calendarEventId: z.string().max(500).optional(),
    folderId: z.string().max(200).optional(),
    participants: HandParticipants,
    channels: ChannelRoles,
  })
  .strict()
  .meta({ id: "NoteFromAudio" });

export const FromAudioResult = z.object({ noteId: z.string() }).meta({ id: "NoteFromAudioResult" });

export const UploadResult = z
  .object({ status: z.literal("uploaded"), bytes: z.number().int() })
  .meta({ id: "UploadResult" });
