// Where a recording lives in the audio store: one key per upload, under its workspace.

/** The store key of an upload's recording: `<workspace>/<upload id>.<extension>`. */
export const audioKey = (u: { workspaceId: string; id: string; extension: string }) =>
  `${u.workspaceId}/${u.id}.${u.extension}`;

/**
 * The store key of piece `seq` of a live recording: beside its recording's own key and
 * named after its upload, so that the sweep of unknown files keeps it while the upload exists.
 */
export const pieceKey = (u: { workspaceId: string; id: string }, seq: number) =>
  `${u.workspaceId}/${u.id}.p${String(seq).padStart(5, "0")}`;
