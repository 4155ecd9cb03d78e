// The Ask box: the answer streams in below it as the model writes it, then its sources,
// each a link that opens the note at that moment. A follow-up stays in the thread.
import { createParser } from "eventsource-parser";
import type { AskCitationDto } from "../../shared/schemas/ask.js";
import { $$, clock, esc } from "./dom.js";

for (const form of $$<HTMLFormElement>("form.ask-form")) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const live = form.querySelector(".ask-live");
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    const question = form.querySelector<HTMLTextAreaElement>("#ask-question").value;
    button.disabled = true;
    live.innerHTML = '<p class="question"></p><p class="answer"></p>';
    live.querySelector(".question").textContent = question;
    const said = live.querySelector<HTMLElement>(".answer");
    const fail = (msg: string) =>
      live.insertAdjacentHTML("beforeend", '<p class="alert error" role="alert">' + esc(msg) + "</p>");
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
          if (data.citations.length)
            live.insertAdjacentHTML(
              "beforeend",
              "<h3>Sources</h3><ol class='sources'>" +
                data.citations
                  .map(
                    (c: AskCitationDto) =>
                      "<li><a href='" +
                      esc(new URL(c.url).pathname + new URL(c.url).hash) +
                      "'>" +
                      esc(c.title) +
                      (c.startSec !== null ? ", " + esc(clock(c.startSec)) : "") +
                      (c.speaker ? ", " + esc(c.speaker) : "") +
                      "</a>: “" +
                      esc(c.quote) +
                      "”</li>",
                  )
                  .join("") +
                "</ol>",
            );
          live.insertAdjacentHTML(
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
