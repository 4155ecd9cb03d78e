// Where a recording lives in the audio store: one key per upload, under its workspace.

/** The store key of an upload's recording: `<workspace>/<upload id>.<extension>`. */
export const audioKey = (u: { workspaceId: string; id: string; extension: string }) =>
  `${u.workspaceId}/${u.id}.${u.extension}`;
