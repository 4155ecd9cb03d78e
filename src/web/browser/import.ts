// The import page: files dropped on the zone become the form's files, and the page says
// which were chosen; the form itself posts them (it works without this script too).
import { $ } from "./dom.js";

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
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer?.files.length) {
      input.files = e.dataTransfer.files;
      list();
    }
  });
  input.addEventListener("change", list);
  form.addEventListener("submit", () => {
    const button = $<HTMLButtonElement>("button[type=submit]", form);
    button.disabled = true;
    button.textContent = `Importing ${input.files?.length ?? 0} files…`;
  });
}
