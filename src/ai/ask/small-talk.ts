// Lines an answer never quotes: the greetings, thanks and goodbyes that open and close
// every meeting say nothing about any question, and a quote of one reads as noise. A
// line is small talk when, its courtesies taken away, fewer than three words remain.

const COURTESIES = [
  /\b(good\s+(morning|afternoon|evening|day))\b/g,
  /\b(hi|hello|hey|welcome|greetings)\b/g,
  /\b(thanks?|thank\s+you)(\s+(all|everyone|everybody|so\s+much|very\s+much|for\s+(joining|coming|your\s+time)))*\b/g,
  /\b(bye|goodbye|see\s+you(\s+(all|soon|next\s+(week|time)))?|take\s+care|have\s+a\s+(good|great|nice)\s+(day|weekend|one))\b/g,
  /\b(everyone|everybody|all|folks|guys|team|again)\b/g,
  /\b(can\s+you\s+hear\s+me|you('re|\s+are)\s+(on\s+)?mute(d)?|let('s|\s+us)\s+(get\s+)?started|shall\s+we\s+(begin|start))\b/g,
  /\b(ok(ay)?|so|well|right|great|yes|yeah|sure|um+|uh+|and|for|the|a)\b/g,
];

/** Whether a line is only courtesies (a greeting, thanks, a goodbye) with no content of its own. */
export function isSmallTalk(text: string): boolean {
  let rest = ` ${text.toLowerCase()} `;
  for (const c of COURTESIES) rest = rest.replace(c, " ");
  return (rest.match(/[\p{L}\p{N}]+/gu) ?? []).length < 3;
}
