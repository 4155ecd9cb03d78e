import { describe, expect, it } from "vitest";
import { searchedWords } from "../../src/ai/ask/question-words.js";

describe("what a question searches for", () => {
  it.each([
    ["What was said about the Lisbon lease?", "the Lisbon lease"],
    ['What was said about "design researcher"?', '"design researcher"'],
    ["How long did the outage last?", "the outage last"],
    ["Why did the site go down?", "the site go down"],
    ["How much will moving the office cost?", "moving the office cost"],
    ["How many people will work in Portugal?", "people will work in Portugal"],
    ["When is the launch now?", "the launch now"],
    ["What did we decide about pricing?", "pricing"],
    ["Tell me about the offsite", "the offsite"],
    ["So, what have we discussed regarding hiring?", "hiring"],
    ["Who will send the contract?", "send the contract"],
    ["budget Lisbon", "budget Lisbon"],
  ])("%s → %s", (question, words) => {
    expect(searchedWords(question)).toBe(words);
  });

  it("keeps the question when nothing else is left of it", () => {
    expect(searchedWords("What was said?")).toBe("What was said?");
    expect(searchedWords("why?")).toBe("why?");
  });
});
