// A transcript file's bytes as text. Tools write UTF-8 mostly, but Windows ones write
// UTF-16 with a byte-order mark, and older ones Latin-1 (Windows-1252): each is read
// as what it is. A binary file renamed .vtt, or a file far larger than any meeting's
// transcript, is refused by name before anything is parsed.
/** Larger than the transcript of any meeting (a 4-hour meeting's VTT is about 1 MB). */
export const MAX_TRANSCRIPT_FILE_BYTES = 16 * 1024 * 1024;

export class UnreadableFileError extends Error {}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Refuses a file too large to be a transcript, by its size, before it is read. */
export function refuseOversize(name: string, size: number) {
  if (size > MAX_TRANSCRIPT_FILE_BYTES)
    throw new UnreadableFileError(
      `${name} is ${mb(size)}; a transcript or note file is at most ${mb(MAX_TRANSCRIPT_FILE_BYTES)}.`,
    );
}

export function decodeText(name: string, bytes: Uint8Array): string {
  refuseOversize(name, bytes.length);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const head = bytes.subarray(0, 8192);
  if (head.includes(0))
    throw new UnreadableFileError(
      `${name} is a binary file (or UTF-16 without a byte-order mark), not text notula can read as a transcript or a note.`,
    );
  try {
    // ignoreBOM: false (the default) drops a UTF-8 byte-order mark.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}
