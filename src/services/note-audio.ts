// A note's stored audio, whichever way it came: an upload (presigned PUT), named by the
// note's uploadId, or a live recording (pieces joined when it stopped), named by its
// recordingId. Both are kept in the audio store under `<workspace>/<id>.<extension>`.
import type { Repositories } from "../db/repos/index.js";
import type { AudioUploadRow } from "../db/repos/audio-uploads.js";
import type { RecordingRow } from "../db/repos/recordings.js";

export type NoteAudio =
  | { kind: "upload"; id: string; workspaceId: string; extension: string; contentType: string; upload: AudioUploadRow }
  | {
      kind: "recording";
      id: string;
      workspaceId: string;
      extension: string;
      contentType: string;
      recording: RecordingRow;
    };

/** Which audio a note is made from, by kind. */
export type AudioRef = { kind: "upload" | "recording"; id: string };

type AudioColumns = { uploadId: string | null; recordingId: string | null };

/** The id of the note's audio, of either kind, or null for a note with none. */
export const audioIdOf = (note: AudioColumns): string | null => note.uploadId ?? note.recordingId;

export async function noteAudio(repos: Repositories, note: AudioColumns): Promise<NoteAudio | null> {
  const upload = note.uploadId ? await repos.audioUploads.get(note.uploadId) : null;
  if (upload) return { kind: "upload", ...pick(upload, upload.extension), upload };
  const recording = note.recordingId ? await repos.recordings.get(note.recordingId) : null;
  if (recording) return { kind: "recording", ...pick(recording, recording.format), recording };
  return null;
}

const pick = (r: { id: string; workspaceId: string; contentType: string }, extension: string) => ({
  id: r.id,
  workspaceId: r.workspaceId,
  extension,
  contentType: r.contentType,
});
