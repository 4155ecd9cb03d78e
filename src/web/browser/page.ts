// The web app's page script: everything works without it except the audio upload and
// recording; with it, transcript times (and links to a moment) seek the player, a
// processing note follows its status, secrets copy with one click, and uploads show
// their progress.
import { MOMENT_FRAGMENT } from "../../shared/note-links.js";
import { createParser } from "eventsource-parser";
import { $, $$, csrf, people } from "./dom.js";
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
  const mb = (n) => (n / 1048576).toFixed(1) + " MB";
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

// Keyboard: "/" finds, Ctrl/Cmd-K jumps to a meeting or a page, j/k move through a list,
// "?" lists these. Plain links and forms do everything without them.
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
const esc = (s) => String(s).replace(/[&<>"']/g, (ch) => "&#" + ch.charCodeAt(0) + ";");
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
  let items = [],
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
        ...notes.map((n) => ({
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

// The Ask box: the answer streams in below it as the model writes it, then its sources,
// each a link that opens the note at that moment. A follow-up stays in the thread.
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
    const fail = (msg) =>
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
      const show = (event: string | undefined, data) => {
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
                    (c) =>
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
const clock = (sec) => {
  const s = Math.floor(sec);
  return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
};

// A destructive form asks first.
for (const f of $$("form[data-confirm]"))
  f.addEventListener("submit", (e) => {
    if (!confirm(f.dataset.confirm)) e.preventDefault();
  });

// A note being processed shows its stage and progress, and reloads once its status changes.
const poll = $("[data-poll-status]");
if (poll) {
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

// Upload: presigned URL, PUT with progress, then the note.
const up = $("form#upload");
if (up) {
  const zone = $(".dropzone", up);
  const input = $<HTMLInputElement>("input[type=file]", up);
  const bar = $<HTMLProgressElement>("progress", up);
  const status = $("#upload-status");
  const say = (m) => {
    status.textContent = m;
  };
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files.length) {
      input.files = e.dataTransfer.files;
    }
  });
  up.addEventListener("submit", async (e) => {
    e.preventDefault();
    const file = input.files[0];
    if (!file) return say("Choose a recording first.");
    const ext = (file.name.split(".").pop() || "").toLowerCase();
    // Measured in the page (the server measures it again from the file when it decodes it).
    const duration = await new Promise<number>((resolve) => {
      const a = new Audio();
      const url = URL.createObjectURL(file);
      const done = (sec: number) => {
        URL.revokeObjectURL(url);
        resolve(sec);
      };
      a.preload = "metadata";
      a.onloadedmetadata = () => done(Number.isFinite(a.duration) ? a.duration : 0);
      a.onerror = () => done(0);
      a.src = url;
    });
    const json = async (url, body) => {
      const r = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf() },
        body: JSON.stringify(body),
      });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(data.error?.message ?? "The server refused the upload (" + r.status + ").");
      return data;
    };
    try {
      say("Preparing the upload…");
      bar.hidden = false;
      const target = await json("/notes/upload-url", {
        fileExtension: ext,
        duration: Math.max(1, Math.ceil(duration || 1)),
        size: file.size,
      });
      await new Promise<void>((resolve, reject) => {
        const x = new XMLHttpRequest();
        x.open("PUT", target.presignedUrl);
        x.setRequestHeader("content-type", target.contentType);
        x.upload.onprogress = (ev) => {
          if (ev.lengthComputable) {
            bar.value = ev.loaded / ev.total;
            say("Uploading… " + Math.round((100 * ev.loaded) / ev.total) + "%");
          }
        };
        x.onload = () => {
          if (x.status >= 200 && x.status < 300) return resolve();
          let m = "The upload failed (" + x.status + ").";
          try {
            m = JSON.parse(x.responseText).error.message;
          } catch {}
          reject(new Error(m));
        };
        x.onerror = () => reject(new Error("The upload was interrupted."));
        x.send(file);
      });
      bar.value = 1;
      say("Uploaded; creating the note…");
      const made = await json("/notes/from-upload", {
        audioUrl: target.audioUrl,
        title:
          $<HTMLInputElement>("#upload-title").value.trim() ||
          file.name.replace(/\.[^.]*$/, "").slice(0, 500) ||
          undefined,
        folderId: $<HTMLSelectElement>("#upload-folder")?.value || undefined,
        participants: people("#upload"),
        channels: $<HTMLInputElement>("#upload-sides")?.checked ? ["me", "others"] : undefined,
      });
      location.href = "/notes/" + encodeURIComponent(made.noteId);
    } catch (err) {
      say(err.message);
    }
  });
}
