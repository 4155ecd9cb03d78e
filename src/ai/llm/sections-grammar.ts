// A note's sections as a JSON schema, for a model that llama.cpp can hold to it by a
// grammar: every section comes back, each a short list, so that even a 1B model writes
// a note in the template's shape instead of restating the transcript. The answer is
// turned back into the markdown every other model writes, and read leniently: an answer
// cut short by the token limit still gives the items it finished.

/** Items a section may hold, and characters an item may take, in one answer. */
const MAX_ITEMS = 6;
const MAX_ITEM_CHARS = 240;

export interface SectionsSchema {
  type: "object";
  properties: Record<
    string,
    { type: "array"; items: { type: "string"; maxLength: number }; minItems: number; maxItems: number }
  >;
  required: string[];
  additionalProperties: false;
}

/**
 * Every section a list of short strings. The first (a template's main one: key points,
 * how things are going) holds at least one: left free, a small model answers every list
 * empty.
 */
export function sectionsSchema(titles: string[]): SectionsSchema {
  return {
    type: "object",
    properties: Object.fromEntries(
      titles.map((t, i) => [
        t,
        {
          type: "array",
          items: { type: "string", maxLength: MAX_ITEM_CHARS },
          minItems: i === 0 ? 1 : 0,
          maxItems: MAX_ITEMS,
        },
      ]),
    ),
    required: titles,
    additionalProperties: false,
  };
}

/** What the model is told of the shape it is held to. */
export function sectionsInstruction(titles: string[]): string {
  // No items in the shape: a small model copies them, and an empty list, too.
  const shape = `{${titles.map((t) => `${JSON.stringify(t)}: [...]`).join(", ")}}`;
  return (
    `Answer in JSON of this shape: ${shape}, each list holding at most ${MAX_ITEMS} short items in your own words ` +
    "(none when the meeting said nothing for it). Write each item once."
  );
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"/y;
/** Lowercase letters and digits alone: "Action items:" and "action items" are one. */
const bare = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The answer as markdown, `## Title` and a bullet per item, for every section in
 * `titles`' order. Items are read one by one, so an answer cut short keeps the ones it
 * finished; an item said twice is kept once.
 */
export function sectionsMarkdown(answer: string, titles: string[]): string {
  const items = new Map<string, string[]>(titles.map((t) => [t, []]));
  const heading = new Set(titles.map(bare));
  let key: string | null = null;
  let depth = 0;
  for (let i = 0; i < answer.length; i++) {
    const ch = answer[i];
    if (ch === "[") depth++;
    else if (ch === "]") depth = Math.max(0, depth - 1);
    else if (ch === '"') {
      JSON_STRING.lastIndex = i;
      const m = JSON_STRING.exec(answer);
      if (!m) break; // an item cut short
      i += m[0].length - 1;
      let text: string;
      try {
        text = JSON.parse(m[0]) as string;
      } catch {
        continue;
      }
      if (depth === 0) key = items.has(text) ? text : null;
      else if (key) {
        const item = text.trim().replace(/^[-*•]\s+/, "");
        const list = items.get(key)!;
        // An item with no word in it ("…", "-") is a placeholder, and one that is a
        // section's title an echo of the instructions: neither is a note.
        if (/[\p{L}\p{N}]/u.test(item) && !heading.has(bare(item)) && !list.some((x) => bare(x) === bare(item)))
          list.push(item);
      }
    }
  }
  return titles
    .map(
      (t) =>
        `## ${t}\n\n${items
          .get(t)!
          .map((x) => `- ${x}`)
          .join("\n")}`,
    )
    .join("\n\n");
}
