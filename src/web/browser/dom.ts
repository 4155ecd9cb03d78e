// What every part of the page's script uses: finding elements, the page's CSRF token,
// and the people typed into a form.
export const $ = <E extends Element = HTMLElement>(s: string, el: ParentNode = document): E | null =>
  el.querySelector<E>(s);
export const $$ = <E extends Element = HTMLElement>(s: string, el: ParentNode = document): E[] => [
  ...el.querySelectorAll<E>(s),
];
export const csrf = () => $<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
/** The participant fields a form holds, as typed ("Name <email>", an address or a name). */
export const people = (form: string) =>
  $$<HTMLInputElement>(form + " input[name=participant]")
    .map((i) => i.value.trim())
    .filter(Boolean);
/** Text made safe to put into HTML. */
export const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (ch) => "&#" + ch.charCodeAt(0) + ";");
/** Seconds as the transcript writes them: "MM:SS". */
export const clock = (sec: number) => {
  const s = Math.floor(sec);
  return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
};

/** Files dropped on `zone` become `input`'s, as if chosen there; `then` runs after. */
export function acceptDrops(zone: HTMLElement, input: HTMLInputElement, then: () => void = () => {}) {
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
      then();
    }
  });
}
