// A note's stored audio, whichever way it came: an upload (presigned PUT) or a live
// recording (pieces joined when it stopped). The note names it by id; both are kept in
// the audio store under `<workspace>/<id>.<extension>`.
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

export async function noteAudio(repos: Repositories, id: string | null): Promise<NoteAudio | null> {
  if (!id) return null;
  const upload = await repos.audioUploads.get(id);
  if (upload) return { kind: "upload", ...pick(upload, upload.extension), upload };
  const recording = await repos.recordings.get(id);
  if (recording) return { kind: "recording", ...pick(recording, recording.format), recording };
  return null;
}

const pick = (r: { id: string; workspaceId: string; contentType: string }, extension: string) => ({
  id: r.id,
  workspaceId: r.workspaceId,
  extension,
  contentType: r.contentType,
});
