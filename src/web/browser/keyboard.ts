// Keyboard: "/" finds, Ctrl/Cmd-K jumps to a meeting or a page, j/k move through a list,
// "?" lists these. Plain links and forms do everything without them.
import { $, $$, esc } from "./dom.js";

const typing = (el: Element | null) =>
  el && ((el as HTMLElement).isContentEditable || /^(input|textarea|select)$/i.test(el.tagName));
const overlay = (id: string, label: string, inner: string) => {
  let d = document.getElementById(id) as HTMLDialogElement | null;
  if (!d) {
    d = document.createElement("dialog");
    d.id = id;
    d.className = "overlay";
    d.setAttribute("aria-label", label);
    d.innerHTML = '<button type="button" class="close link" aria-label="Close">×</button>' + inner;
    document.body.append(d);
    d.addEventListener("click", (e) => {
      if (e.target === d || (e.target as Element).closest("button.close")) d.close();
    });
  }
  return d;
};
function openSwitcher() {
  const d = overlay(
    "switcher",
    "Go to a meeting or a page",
    '<input id="switcher-q" type="text" role="combobox" aria-controls="switcher-list" aria-expanded="true" aria-autocomplete="list" placeholder="The title of a meeting, or a page" aria-label="Go to" autocomplete="off"><ul id="switcher-list" role="listbox" aria-label="Matches"></ul>',
  );
  const input = $<HTMLInputElement>("#switcher-q", d),
    list = $("#switcher-list", d);
  const pages = $$("header.top nav a").map((a) => ({
    title: a.textContent,
    href: a.getAttribute("href"),
    kind: "page",
  }));
  let items: { title: string; href: string; kind: string }[] = [],
    at = 0,
    seq = 0;
  const show = () => {
    list.innerHTML = items
      .map(
        (it, i) =>
          '<li role="option" id="switcher-' +
          i +
          '" data-href="' +
          esc(it.href) +
          '" aria-selected="' +
          (i === at) +
          '">' +
          esc(it.title) +
          '<span class="kind"> · ' +
          esc(it.kind) +
          "</span></li>",
      )
      .join("");
    input.setAttribute("aria-activedescendant", items.length ? "switcher-" + at : "");
  };
  const update = async () => {
    const q = input.value.trim().toLowerCase(),
      mine = ++seq;
    const matching = pages.filter((p) => !q || p.title.toLowerCase().includes(q));
    // Words that are no title may still have been said: the last offer searches the transcripts.
    const said = q
      ? [
          {
            title: "Search what was said for “" + input.value.trim() + "”",
            href: "/notes?said=" + encodeURIComponent(input.value.trim()),
            kind: "search",
          },
        ]
      : [];
    items = [...matching, ...said];
    at = 0;
    show();
    if (!q) return;
    try {
      const r = await fetch("/notes/titles?q=" + encodeURIComponent(q), { headers: { accept: "application/json" } });
      const { notes } = await r.json();
      if (mine !== seq) return;
      items = [
        ...notes.map((n: { id: string; title: string; createdAt: string }) => ({
          title: n.title,
          href: "/notes/" + encodeURIComponent(n.id),
          kind: n.createdAt.slice(0, 10),
        })),
        ...matching,
        ...said,
      ];
      at = 0;
      show();
    } catch {}
  };
  input.oninput = update;
  list.onclick = (e) => {
    const li = (e.target as Element).closest<HTMLElement>("li[data-href]");
    if (li) location.href = li.dataset.href;
  };
  input.onkeydown = (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      at = (at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % Math.max(1, items.length);
      show();
    } else if (e.key === "Enter" && items[at]) {
      e.preventDefault();
      location.href = items[at].href;
    }
  };
  input.value = "";
  void update();
  d.showModal();
  input.focus();
}
// The same switcher without a keyboard (phones): the header's "Go to…" button.
const goTo = $("#open-switcher");
if (goTo) {
  goTo.hidden = false;
  goTo.addEventListener("click", openSwitcher);
}
function openShortcuts() {
  const d = overlay(
    "shortcuts",
    "Keyboard shortcuts",
    "<h2>Keyboard shortcuts</h2><dl class='keys'><dt><kbd>/</kbd></dt><dd>Search what was said</dd><dt><kbd>Ctrl</kbd> <kbd>K</kbd> or <kbd>⌘</kbd> <kbd>K</kbd></dt><dd>Go to a meeting or a page</dd><dt><kbd>a</kbd></dt><dd>Ask your meetings (or this meeting)</dd><dt><kbd>j</kbd> <kbd>k</kbd></dt><dd>Next and previous in a list; <kbd>Enter</kbd> opens</dd><dt><kbd>?</kbd></dt><dd>These shortcuts</dd><dt><kbd>Esc</kbd></dt><dd>Close</dd></dl>",
  );
  d.showModal();
}
addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k" && $("header.top")) {
    e.preventDefault();
    openSwitcher();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target as Element) || $("dialog[open]")) return;
  if (e.key === "/") {
    const field = $<HTMLInputElement>("#said");
    if (field) {
      e.preventDefault();
      field.focus();
      field.select();
    } else if ($("header.top")) {
      e.preventDefault();
      location.href = "/notes#said";
    }
  } else if (e.key === "?") {
    e.preventDefault();
    openShortcuts();
  } else if (e.key === "a" && $("#ask-question")) {
    e.preventDefault();
    $("#ask-question").focus();
  } else if (e.key === "j" || e.key === "k") {
    const links = $$("ul.notes li a.title");
    if (!links.length) return;
    const now = links.indexOf(document.activeElement as HTMLElement);
    const next = now < 0 ? 0 : Math.min(links.length - 1, Math.max(0, now + (e.key === "j" ? 1 : -1)));
    links[next].focus();
    links[next].scrollIntoView({ block: "nearest" });
  }
});
if (location.hash === "#said") $("#said")?.focus();
