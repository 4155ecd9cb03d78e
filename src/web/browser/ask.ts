// The Ask box: the answer streams in above it as the model writes it, then its sources,
// each a link that opens the note at that moment (as does each [n] of the answer). A
// follow-up stays in the thread, below the answers before it; the page's list of one's
// questions shows the thread at once.
import { createParser } from "eventsource-parser";
import type { AskAnswerDto, AskCitationDto } from "../../shared/schemas/ask.js";
import { answerPieces } from "../../shared/answer-marks.js";
import { $, $$, clock, esc } from "./dom.js";

const pathOf = (url: string) => new URL(url).pathname + new URL(url).hash;

/** The answer's text with each [n] a link to its source. */
const linked = (d: AskAnswerDto) =>
  answerPieces(d.answer, d.citations.length)
    .map((p) =>
      "text" in p
        ? esc(p.text)
        : "<a class='cite' href='" +
          esc(pathOf(d.citations[p.cite - 1].url)) +
          "' aria-label='Source " +
          p.cite +
          "'>[" +
          p.cite +
          "]</a>",
    )
    .join("");

/** The Ask page's list of one's questions: this thread first, as it now is. */
function listThread(threadId: string, question: string) {
  const section = $<HTMLElement>("section[aria-label='Your questions']");
  if (!section) return;
  let list = section.querySelector("ul.threads");
  if (!list) {
    section.querySelector("p.muted")?.remove();
    list = document.createElement("ul");
    list.className = "threads";
    section.append(list);
  }
  const href = "/ask/threads/" + encodeURIComponent(threadId);
  const had = list.querySelector<HTMLAnchorElement>("a[href='" + href + "']")?.closest("li");
  const item = had ?? document.createElement("li");
  if (!had)
    item.innerHTML = "<a href='" + esc(href) + "'>" + esc(question) + "</a> <span class='small muted'>just now</span>";
  else item.querySelector(".muted").textContent = "just now";
  list.prepend(item);
}

for (const form of $$<HTMLFormElement>("form.ask-form")) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const live = form.querySelector(".ask-live");
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    const question = form.querySelector<HTMLTextAreaElement>("#ask-question").value;
    button.disabled = true;
    // Each question asks after the ones before: its turn goes below theirs, above the box.
    const turn = document.createElement("section");
    turn.className = "turn";
    turn.innerHTML = '<p class="question"></p><p class="answer"></p>';
    turn.querySelector(".question").textContent = question;
    live.append(turn);
    const said = turn.querySelector<HTMLElement>(".answer");
    const fail = (msg: string) =>
      turn.insertAdjacentHTML("beforeend", '<p class="alert error" role="alert">' + esc(msg) + "</p>");
    try {
      const res = await fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
        headers: { accept: "text/event-stream, application/json" },
      });
      if (!res.ok || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
        let msg = "The question could not be asked (" + res.status + ").";
        try {
          msg = (await res.json()).error.message;
        } catch {}
        return fail(msg);
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      // The server sends these events (the API reference names their fields).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const show = (event: string | undefined, data: any) => {
        if (event === "queued")
          said.dataset.waiting = said.textContent = "Waiting for the local model: " + data.ahead + " ahead…";
        else if (event === "text") {
          if (said.dataset.waiting) {
            said.textContent = "";
            delete said.dataset.waiting;
          }
          said.textContent += data.text;
        } else if (event === "error") fail("The answer ended early: " + data.message);
        else if (event === "done") {
          said.innerHTML = linked(data);
          // Without a model the answer is the quotes: the sources say only where they were said.
          const quoted = data.engine !== "extractive";
          if (data.citations.length)
            turn.insertAdjacentHTML(
              "beforeend",
              "<h3>Sources</h3><ol class='sources'>" +
                data.citations
                  .map(
                    (c: AskCitationDto) =>
                      "<li><a href='" +
                      esc(pathOf(c.url)) +
                      "'>" +
                      esc(c.title) +
                      (c.startSec !== null ? ", " + esc(clock(c.startSec)) : "") +
                      (c.speaker ? ", " + esc(c.speaker) : "") +
                      "</a>" +
                      (quoted ? ": “" + esc(c.quote) + "”" : "") +
                      "</li>",
                  )
                  .join("") +
                "</ol>",
            );
          turn.insertAdjacentHTML(
            "beforeend",
            "<p class='small'><a href='/ask/threads/" +
              encodeURIComponent(data.threadId) +
              "#latest'>Open the thread</a></p>",
          );
          let thread = form.querySelector<HTMLInputElement>("input[name=threadId]");
          if (!thread) {
            thread = document.createElement("input");
            thread.type = "hidden";
            thread.name = "threadId";
            form.append(thread);
          }
          thread.value = data.threadId;
          listThread(data.threadId, question);
          form.querySelector("label[for=ask-question]").textContent = "Ask a follow-up";
          form.querySelector<HTMLTextAreaElement>("#ask-question").value = "";
        }
      };
      const parser = createParser({ onEvent: (m) => show(m.event, JSON.parse(m.data)) });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch (err) {
      fail("The answer could not be read: " + err.message);
    } finally {
      button.disabled = false;
    }
  });
}
