// A version of a text, to tell whether a text changed since a page read it (two tabs
// typing in one note's notes). Not SHA-256: the same function runs in pages served over
// plain http on a local network, where the browser offers no crypto.subtle; it tells two
// versions of one person's notes apart, which needs no resistance to an attacker (the
// server decides who may write them).

/** 64 bits of two FNV-1a hashes over the text's UTF-16 code units, as 16 hex digits. */
export function textVersion(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
