// The interface's fixed vocabularies as plain constants, with no dependency beyond core: the zod
// schemas build on them, and the CLI's help and checks read them without loading zod.

export { IN_FLIGHT_STATUSES, NOTE_KINDS, NOTE_STATUSES, VISIBILITIES } from "../core/note-vocabulary.js";
export type { NoteKind, NoteStatus, Visibility } from "../core/note-vocabulary.js";
export const NOTE_SORT_FIELDS = ["createdAt", "updatedAt", "title"] as const;

/**
 * The recordings an upload accepts, by file extension, with the content type the
 * upload URL binds: the interface's four, and what else ffmpeg decodes that recorders
 * and browsers write (Ogg and Opus, WebM, FLAC, MP4 video with its sound).
 */
export const AUDIO_CONTENT_TYPES = {
  m4a: "audio/mp4",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  aac: "audio/aac",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  webm: "audio/webm",
  flac: "audio/flac",
  mp4: "audio/mp4",
} as const satisfies Record<string, string>;
export type AudioExtension = keyof typeof AUDIO_CONTENT_TYPES;
export const AUDIO_EXTENSIONS = Object.keys(AUDIO_CONTENT_TYPES) as AudioExtension[];
