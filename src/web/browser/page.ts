// The web app's page script: everything works without it except the audio upload and
// recording; with it, transcript times (and links to a moment) seek the player, a
// processing note follows its status, secrets copy with one click, and uploads show
// their progress.
import { MOMENT_FRAGMENT } from "../../shared/note-links.js";
import { $, $$ } from "./dom.js";

// The Settings menu closes on a click elsewhere and on Escape, as menus do.
const settingsMenu = $<HTMLDetailsElement>("header.top details.settings-menu");
if (settingsMenu) {
  document.addEventListener("click", (e) => {
    if (settingsMenu.open && !settingsMenu.contains(e.target as Node)) settingsMenu.open = false;
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && settingsMenu.open) {
      settingsMenu.open = false;
      settingsMenu.querySelector("summary").focus();
    }
  });
}

// Sign-in forms carry the browser's time zone: the pages write the person's times in it.
for (const i of $$<HTMLInputElement>("input[data-browser-zone]"))
  i.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";

// A search sends only the fields filled in: its address stays short enough to read and share.
for (const f of $$<HTMLFormElement>('form[role="search"]'))
  f.addEventListener("submit", () => {
    for (const el of f.elements as Iterable<HTMLInputElement>) if (el.name && !el.value) el.disabled = true;
    setTimeout(() => {
      for (const el of f.elements as Iterable<HTMLInputElement>) el.disabled = false;
    });
  });

// The notes list's tools and filters: folded behind one tap on a phone, open on a wider screen.
if (matchMedia("(min-width: 40rem)").matches)
  for (const d of $$<HTMLDetailsElement>("details.filters, details[data-open-wide]")) d.open = true;

// Speakers: a name marks that speaker's lines in the transcript (again: unmarks them).
for (const b of $$("ul.speakers button[data-speaker]"))
  b.addEventListener("click", () => {
    const on = b.getAttribute("aria-pressed") !== "true";
    for (const other of $$("ul.speakers button[data-speaker]")) other.setAttribute("aria-pressed", "false");
    b.setAttribute("aria-pressed", String(on));
    for (const li of $$("ol.transcript li[data-speaker]"))
      li.classList.toggle("marked-speaker", on && li.dataset.speaker === b.dataset.speaker);
  });

// Transcript: a time seeks the player; the segment being played is marked.
const player = $<HTMLAudioElement>("audio#player");
const rows = $$("ol.transcript li[data-start]");
if (player) {
  for (const b of $$("ol.transcript button.at"))
    b.addEventListener("click", () => {
      player.currentTime = Number(b.closest<HTMLElement>("li").dataset.start);
      void player.play().catch(() => {});
    });
  // Once it has played, the player stays in view on a phone: docked at the window's foot
  // (in the page's flow it sits far above a long transcript). On a desktop it already
  // stays beside the transcript; the docking's rule applies only at a phone's width.
  player.addEventListener(
    "play",
    () => {
      player.closest(".player-bar")?.classList.add("docked");
      document.body.classList.add("player-docked");
    },
    { once: true },
  );
  player.addEventListener("timeupdate", () => {
    let current = null;
    for (const r of rows) if (Number(r.dataset.start) <= player.currentTime) current = r;
    for (const r of rows) r.classList.toggle("playing", r === current);
  });
}
// A link to a moment (#t=SECONDS, as search results, ask's sources and the CLI give
// it; #segment-N from older links): the line said then is marked and shown, and the
// player starts there.
const cue = () => {
  const t = MOMENT_FRAGMENT.exec(location.hash);
  const old = /^#segment-[0-9]+$/.test(location.hash) ? $(location.hash) : null;
  if ((!t && !old) || !rows.length) return;
  const at = t ? Number(t[1]) : Number(old.dataset.start);
  let row = rows[0];
  for (const r of rows) if (Number(r.dataset.start) <= at) row = r;
  for (const r of rows) r.classList.toggle("cited", r === row);
  row.scrollIntoView({ block: "center" });
  if (!player) return;
  const seek = () => {
    player.currentTime = at;
  };
  if (player.readyState >= 1) seek();
  else player.addEventListener("loadedmetadata", seek, { once: true });
};
cue();
addEventListener("hashchange", cue);

// Settings → Speech-to-text: a setup running on the server (the local engine, the
// speaker models) fills its progress bar, and the page reloads once it has finished
// (or failed).
for (const setup of $$("[data-setup-status]")) {
  if (setup.dataset.phase !== "installing" && setup.dataset.phase !== "downloading") continue;
  const bar = setup.querySelector("progress"),
    said = setup.querySelector(".progress-text");
  const mb = (n: number) => (n / 1048576).toFixed(1) + " MB";
  const tick = async () => {
    try {
      const r = await fetch(setup.dataset.setupStatus, { headers: { accept: "application/json" } });
      const s = await r.json();
      if (s.phase !== "installing" && s.phase !== "downloading") return location.reload();
      if (s.phase === "downloading" && s.total) {
        bar.max = s.total;
        bar.value = s.received;
        said.textContent =
          "Downloading " +
          s.model +
          ": " +
          mb(s.received) +
          " of " +
          mb(s.total) +
          " (" +
          Math.floor((s.received / s.total) * 100) +
          "%)";
      } else if (s.phase === "downloading") said.textContent = "Downloading " + s.model + ": " + mb(s.received);
    } catch {}
    setTimeout(tick, 500);
  };
  setTimeout(tick, 500);
}

// A destructive form asks first.
for (const f of $$("form[data-confirm]"))
  f.addEventListener("submit", (e) => {
    if (!confirm(f.dataset.confirm)) e.preventDefault();
  });

// A note being processed shows its stage and progress, and reloads once its status changes
// (a note recorded with the notepad open follows itself without reloading: note-notepad.ts).
const poll = $("[data-poll-status]");
if (poll && !$("#note-notes")) {
  const url = poll.dataset.pollStatus;
  const first = poll.dataset.status;
  const tick = async () => {
    try {
      const r = await fetch(url, { headers: { accept: "application/json" } });
      if (r.ok) {
        const { status, label, segments } = await r.json();
        poll.textContent = label ?? status;
        if (status !== first) return location.reload();
        if (status === "recording" && String(segments) !== poll.dataset.segments) return location.reload();
      }
    } catch {}
    setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
}

// Copy buttons.
for (const b of $$("button[data-copy]"))
  b.addEventListener("click", async () => {
    const text = document.getElementById(b.dataset.copy)?.textContent ?? "";
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = "Copied";
    } catch {
      b.textContent = "Select and copy";
    }
  });

// A note's action item ticked where it is written: its checkbox belongs to the item's
// form, which is sent at once (the page comes back with the item and its line changed).
for (const box of $$<HTMLInputElement>("input[data-tick]"))
  box.addEventListener("change", () => box.form?.requestSubmit());
