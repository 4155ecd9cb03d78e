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

const VOICES = ["Ana Lopez", "Ben Ode", "Cyrus Park", "Dee Lang"];
const mmss = (sec) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;

/**
 * Meeting i as a `POST /v1/notes` body: ten lines of transcript, so that it is
 * summarised and indexed in the background. One meeting in a hundred says the rare
 * word "zeppelin". Every line is its own (as in real meetings), so that no meeting's
 * summary or passages are answered from the sentence encoder's cache of texts it has
 * embedded.
 */
export const transcriptMeeting = (i) => ({
  title: `Meeting ${i}`,
  transcripts: Array.from({ length: 10 }, (_, j) => ({
    speaker: VOICES[(i + j) % VOICES.length],
    text: `${MEETING_LINES[(i + j) % MEETING_LINES.length]} That was point ${j + 1} of meeting ${i}.${i % 100 === 0 && j === 3 ? " The zeppelin arrives." : ""}`,
    startTimestamp: mmss(j * 5),
    endTimestamp: mmss(j * 5 + 5),
  })),
});

/**
 * Makes a note (transcriptMeeting) every 1/rate s on `server` from number `from` on,
 * until the returned function is called; it resolves to the rate reached (notes/s).
 */
export function steadyIngest(server, rate, from) {
  let stop = false;
  let made = 0;
  const started = performance.now();
  const writer = (async () => {
    for (let i = from; !stop; i++) {
      const t = performance.now();
      const res = await fetch(`${server.url}/v1/notes`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: JSON.stringify(transcriptMeeting(i)),
      });
      if (!res.ok) throw new Error(`POST /v1/notes: ${res.status} ${await res.text()}`);
      made++;
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 / rate - (performance.now() - t))));
    }
  })();
  return async () => {
    stop = true;
    await writer;
    return made / ((performance.now() - started) / 1000);
  };
}
