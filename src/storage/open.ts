// Chooses the audio store at start from the configured storage URL: the data dir's
// audio/ folder unless an s3:// URL names a bucket.
import path from "node:path";
import { ConfigError } from "../core/errors.js";
import type { AudioStore } from "./audio-store.js";
import { createFsAudioStore } from "./fs-audio-store.js";
import { createS3AudioStore, parseS3Url } from "./s3-audio-store.js";

export interface StorageSettings {
  /** s3://bucket/prefix, file:/path, a plain path, or unset for <data dir>/audio. */
  url?: string;
  /** Defaults for an s3:// URL that does not name them itself. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

export interface OpenedAudioStore {
  store: AudioStore;
  /** For logs and /readyz: where recordings go, without credentials. */
  describe: string;
  /** Removes what a crash left half-written (only the filesystem store has such). */
  sweep(): void;
}

export function openAudioStore(settings: StorageSettings, dataDir: string): OpenedAudioStore {
  const url = settings.url?.trim();
  if (url?.startsWith("s3://")) {
    let location;
    try {
      location = parseS3Url(url, { endpoint: settings.endpoint, region: settings.region });
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
    return {
      store: createS3AudioStore({
        ...location,
        credentials:
          settings.accessKeyId && settings.secretAccessKey
            ? {
                accessKeyId: settings.accessKeyId,
                secretAccessKey: settings.secretAccessKey,
                sessionToken: settings.sessionToken,
              }
            : undefined,
      }),
      describe: `s3://${location.bucket}/${location.prefix}${location.endpoint ? ` at ${location.endpoint}` : ""}`,
      sweep: () => {},
    };
  }
  if (url && /^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith("file://"))
    throw new ConfigError(
      `The storage URL ${url} is not supported: use a directory, file:///path or s3://bucket/prefix.`,
    );
  const dir = url ? path.resolve(url.startsWith("file://") ? new URL(url).pathname : url) : path.join(dataDir, "audio");
  const store = createFsAudioStore(dir);
  return { store, describe: dir, sweep: () => store.sweepIncoming() };
}
