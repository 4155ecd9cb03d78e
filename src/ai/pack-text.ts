// Packs pieces of text (lines, sentences) into parts of at most a given length, in
// order, cutting inside a piece only when the piece alone is longer.

export function packText(pieces: string[], maxChars: number, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (const whole of pieces) {
    for (let i = 0; i < whole.length; i += maxChars) {
      const piece = whole.slice(i, i + maxChars);
      if (current && current.length + piece.length + separator.length > maxChars) {
        parts.push(current);
        current = "";
      }
      current = current ? `${current}${separator}${piece}` : piece;
    }
  }
  if (current) parts.push(current);
  return parts;
}
