// Telling a recording from something else by its first bytes, before it is stored:
// every container notula accepts starts with a signature of its own. A PDF, an image
// or a text file sent as "audio/mp4" is refused at once (415) rather than failing
// later in ffmpeg with a less helpful message.

/** Bytes enough for every signature below. */
export const SIGNATURE_BYTES = 12;

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString("latin1", at, at + s.length) === s;

/** The container the bytes start like, or null when they are not a recording notula reads. */
export function audioContainerOf(head: Buffer): string | null {
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WAVE")) return "wav";
  if (ascii(head, 4, "ftyp")) return "mp4";
  if (ascii(head, 0, "OggS")) return "ogg";
  if (ascii(head, 0, "fLaC")) return "flac";
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return "webm";
  if (ascii(head, 0, "ID3")) return "mp3";
  // Frame sync: eleven set bits. MPEG audio (mp3) has a layer; ADTS (aac) has layer 0.
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) return (head[1] & 0x06) === 0 ? "aac" : "mp3";
  return null;
}

/** What the bytes look like instead, for the error message. */
export function describeNonAudio(head: Buffer): string {
  if (head.length === 0) return "an empty file";
  if (ascii(head, 0, "%PDF")) return "a PDF document";
  if (head[0] === 0x89 && ascii(head, 1, "PNG")) return "a PNG image";
  if (head[0] === 0xff && head[1] === 0xd8) return "a JPEG image";
  if (ascii(head, 0, "PK")) return "a ZIP archive (or an office document)";
  if (ascii(head, 0, "GIF8")) return "a GIF image";
  if ([...head].every((c) => c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0x7f))) return "text";
  return "not a recording";
}
