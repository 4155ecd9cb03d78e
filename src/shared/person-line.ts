// A person as one line of text, the way forms and the command line show and read them.

/** "Ana Silva <ana@acme.example>", the way the participant fields show and read a person. */
export const personLine = (p: { name: string; email: string }) =>
  p.name && p.email ? `${p.name} <${p.email}>` : p.name || p.email;

/** A typed line back into a person: "Name <email>", an address alone, or a name alone. */
export function parsePersonLine(line: string): { name: string; email: string } | null {
  const s = line.trim();
  if (!s) return null;
  const m = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(s);
  if (m) return { name: m[1].replace(/^"|"$/g, "").trim(), email: m[2] };
  if (/^[^\s@<>]+@[^\s@<>]+$/.test(s)) return { name: "", email: s };
  return { name: s.slice(0, 500), email: "" };
}
