// The import page: files dropped on the zone become the form's files, and the page says
// which were chosen; the form itself posts them (it works without this script too).
import { $, acceptDrops } from "./dom.js";

const form = $("form#import");
if (form) {
  const zone = $("#import-drop", form);
  const input = $<HTMLInputElement>("#import-files", form);
  const chosen = $("#import-chosen", form);
  const list = () => {
    chosen.replaceChildren(
      ...[...(input.files ?? [])].map((f) => {
        const li = document.createElement("li");
        li.textContent = f.name;
        return li;
      }),
    );
  };
  acceptDrops(zone, input, list);
  input.addEventListener("change", list);
  form.addEventListener("submit", () => {
    const button = $<HTMLButtonElement>("button[type=submit]", form);
    button.disabled = true;
    button.textContent = `Importing ${input.files?.length ?? 0} files…`;
  });
}
