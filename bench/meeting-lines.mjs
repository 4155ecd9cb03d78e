// Sentences a meeting is made of, spoken by flite's voices in the speech benchmarks
// (bench/speakers.mjs, bench/live-lag.mjs): words pocketsphinx mostly hears right.
export const MEETING_LINES = [
  "Good morning everyone, let us look at the budget for the Lisbon office.",
  "The quarterly revenue grew by twelve percent compared to last year.",
  "I think we should hire two more engineers before the summer.",
  "Please schedule a meeting with the design team for Tuesday afternoon.",
  "I will send the contract on Friday, after the review.",
  "Can we move the launch to the second week of March?",
  "The customer asked for a discount on the annual plan.",
  "Let us ask legal to look at the new terms first.",
  "We are still waiting for the numbers from the sales team.",
  "That sounds good to me, let us decide next week.",
];
