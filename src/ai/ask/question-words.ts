// What of a question is searched for: its subject, without the words that make it a
// question. "What was said about the Lisbon lease?" searches for "the Lisbon lease",
// "How long did the outage last?" for "the outage last": the asking words ("what was
// said about", "how long did") are in no meeting, and searched for they make a meeting
// that says the subject look like a partial match, or, around a quoted phrase, like no
// match at all. The whole question still goes to the model.

const OPENERS = String.raw`(?:so|and|ok|okay|hey|please|remind me|tell me|can you tell me|do you know)[,:]?\s+`;
const ASKING = String.raw`(?:what|which|who|whom|whose|when|where|why|how(?:\s+(?:much|many|long|often|far|soon))?)`;
const AUXILIARY = String.raw`(?:is|are|was|were|did|do|does|has|have|had|will|would|should|can|could)`;
const SUBJECT = String.raw`(?:we|they|you|i|everyone|the team|anyone|someone)`;
const SAYING = String.raw`(?:say|said|decide|decided|discuss|discussed|agree|agreed|mention|mentioned|talk|talked|conclude|concluded|plan|planned|note|noted)`;
const ABOUT = String.raw`(?:about|on|regarding|concerning|of|for)`;

/** "what was said about", "how long did", "tell me about", "why did we decide on": the asking part of a question's start. */
const END = String.raw`(?:\s+|$)`;
const FRAME = new RegExp(
  String.raw`^\s*(?:${OPENERS})*(?:${ASKING}${END}(?:${AUXILIARY}${END})?(?:${SUBJECT}${END})?(?:(?:been|be)${END})?(?:${SAYING}${END})?(?:${ABOUT}${END})?|(?:${SAYING}|anything|everything)\s+${ABOUT}${END}|${ABOUT}\s+)`,
  "i",
);

/** The question's subject, to search for; the question itself when nothing is left of it. */
export function searchedWords(question: string): string {
  let text = question.trim().replace(/[?!.]+$/, "");
  for (let i = 0; i < 3; i++) {
    const next = text.replace(FRAME, "");
    if (next === text) break;
    text = next;
  }
  text = text.trim();
  return /[\p{L}\p{N}]/u.test(text) ? text : question.trim();
}
