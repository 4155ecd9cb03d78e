import { describe, expect, it } from "vitest";
import { sectionsMarkdown, sectionsSchema } from "../../src/ai/llm/sections-grammar.js";

const titles = ["Key points", "Decisions", "Action items"];

describe("a note's sections held by a grammar", () => {
  it("asks for every section, a short list each, the first never empty", () => {
    const schema = sectionsSchema(titles);
    expect(schema.required).toEqual(titles);
    expect(schema.additionalProperties).toBe(false);
    expect(titles.map((t) => schema.properties[t].minItems)).toEqual([1, 0, 0]);
    expect(schema.properties.Decisions).toMatchObject({ maxItems: 6, items: { type: "string", maxLength: 240 } });
  });

  it("turns the answer into markdown in the template's order, whatever order it came in", () => {
    const answer = JSON.stringify({
      Decisions: ["Open Lisbon in March"],
      "Key points": ["The Lisbon office", 'Budget of "200k"'],
      "Action items": [],
    });
    expect(sectionsMarkdown(answer, titles)).toBe(
      '## Key points\n\n- The Lisbon office\n- Budget of "200k"\n\n## Decisions\n\n- Open Lisbon in March\n\n## Action items\n\n',
    );
  });

  it("keeps the items an answer cut short had finished", () => {
    const cut = '{"Key points": ["The Lisbon office", "Budget of two hun';
    expect(sectionsMarkdown(cut, titles)).toBe(
      "## Key points\n\n- The Lisbon office\n\n## Decisions\n\n\n\n## Action items\n\n",
    );
  });

  it("drops placeholders, echoed titles and items said twice", () => {
    const answer =
      '{"Key points": ["…", "- Decisions", "Action items:", "Lisbon opens", "lisbon opens.", "- Hiring six people"], "Decisions": [], "Action items": ["-"]}';
    expect(sectionsMarkdown(answer, titles)).toBe(
      "## Key points\n\n- Lisbon opens\n- Hiring six people\n\n## Decisions\n\n\n\n## Action items\n\n",
    );
  });
});
