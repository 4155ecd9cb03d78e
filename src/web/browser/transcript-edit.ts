// Correcting the transcript in place on a note's page: Enter on a line (or a double
// click on its words) opens its words for editing; Enter saves, Esc cancels. The line's
// version goes with the edit: a line changed meanwhile (another tab, another person)
// is refused, and the page shows the line as it is now and says so.
import { $, $$, csrf } from "./dom.js";

const list = $<HTMLOListElement>("ol.transcript[data-note]");
if (list) {
  const note = list.dataset.note!;
  const status = document.createElement("p");
  status.className = "small";
  status.setAttribute("role", "status");
  list.after(status);

  const edit = (li: HTMLLIElement) => {
    const said = li.querySelector<HTMLElement>(".said");
    if (!said || li.querySelector("input.line-edit")) return;
    const before = said.textContent ?? "";
    const input = document.createElement("input");
    input.type = "text";
    input.className = "line-edit";
    input.value = before;
    input.maxLength = 10_000;
    input.setAttribute("aria-label", "The line's words");
    said.replaceChildren(input);
    input.focus();
    input.select();
    const close = (text: string) => {
      said.textContent = text;
      li.focus();
    };
    input.addEventListener("keydown", async (e) => {
      e.stopPropagation();
      if (e.key === "Escape") {
        e.preventDefault();
        close(before);
        status.textContent = "";
      } else if (e.key === "Enter") {
        e.preventDefault();
        const text = input.value.trim();
        if (text === before) return close(before);
        if (!text) {
          status.textContent = "A line cannot be empty.";
          return;
        }
        input.disabled = true;
        const r = await fetch(`/notes/${encodeURIComponent(note)}/transcript/${encodeURIComponent(li.dataset.line!)}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-csrf-token": csrf() },
          body: JSON.stringify({ version: Number(li.dataset.version), text }),
        }).catch((): null => null);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const data: any = r ? await r.json().catch(() => ({})) : {};
        input.disabled = false;
        if (r?.ok) {
          li.dataset.version = String(data.lines[0].version);
          close(data.lines[0].text);
          const offered: string[] = data.vocabularyOffered ?? [];
          status.textContent = offered.length
            ? `Saved. Offered for the workspace's vocabulary, so that the next meeting spells ${offered.length > 1 ? "them" : "it"} right: ${offered.join(", ")} (an admin takes it in Settings → AI).`
            : "Saved.";
        } else if (r?.status === 409 && data.error?.current) {
          li.dataset.version = String(data.error.current.version);
          close(data.error.current.text);
          status.textContent = "This line was changed meanwhile: it shows as it is now. Edit it again to correct it.";
        } else {
          status.textContent = data.error?.message ?? "The correction could not be saved; try again.";
          input.focus();
        }
      }
    });
  };

  list.addEventListener("keydown", (e) => {
    const li = e.target as HTMLElement;
    if (e.key === "Enter" && li.matches?.("li[data-line]")) {
      e.preventDefault();
      edit(li as HTMLLIElement);
    }
  });
  for (const said of $$<HTMLElement>(".said", list))
    said.addEventListener("dblclick", () => edit(said.closest<HTMLLIElement>("li[data-line]")!));
}
