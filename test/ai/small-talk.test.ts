// The lines an answer never quotes: greetings, thanks and goodbyes with nothing else in
// them. A line that says something besides its courtesy is kept.
import { describe, expect, it } from "vitest";
import { isSmallTalk } from "../../src/ai/ask/small-talk.js";

describe("small talk", () => {
  it("is the greetings, thanks and goodbyes of a meeting", () => {
    for (const line of [
      "Good afternoon everyone, thanks for joining.",
      "Good afternoon everyone, thanks for joining the pricing review.",
      "Hi all!",
      "Hello, can you hear me?",
      "Okay, let's get started.",
      "Thanks everyone, bye!",
      "Great, thank you so much, see you next week.",
      "Have a great weekend.",
    ])
      expect(isSmallTalk(line), line).toBe(true);
  });

  it("is not a line that says something", () => {
    for (const line of [
      "Thanks, the launch moves to the second week of March.",
      "Welcome to the Lisbon office, which opens with six people.",
      "The outage lasted forty minutes.",
      "We will hire two engineers before the summer.",
    ])
      expect(isSmallTalk(line), line).toBe(false);
  });
});
