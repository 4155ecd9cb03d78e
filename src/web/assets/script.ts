// The web app's one script, a plain module: everything works without it except the
// audio upload and recording; with it, transcript times (and links to a moment) seek the player, a processing note follows
// its status, secrets copy with one click, and uploads show their progress.
export const SCRIPT = `
const $ = (s, el = document) => el.querySelector(s);
const $$ = (s, el = document) => [...el.querySelectorAll(s)];
const csrf = () => $('meta[name="csrf-token"]')?.content ?? "";

// Transcript: a time seeks the player; the segment being played is marked.
const player = $("audio#player");
if (player) {
  const rows = $$("ol.transcript li[data-start]");
  for (const b of $$("ol.transcript button.at")) b.addEventListener("click", () => {
    player.currentTime = Number(b.closest("li").dataset.start);
    void player.play().catch(() => {});
  });
  player.addEventListener("timeupdate", () => {
    let current = null;
    for (const r of rows) if (Number(r.dataset.start) <= player.currentTime) current = r;
    for (const r of rows) r.classList.toggle("playing", r === current);
  });
  // A link to a moment (#segment-N, as search results give): the player starts there.
  const cue = () => {
    const row = /^#segment-[0-9]+$/.test(location.hash) ? $(location.hash) : null;
    if (!row) return;
    const at = () => { player.currentTime = Number(row.dataset.start); };
    if (player.readyState >= 1) at(); else player.addEventListener("loadedmetadata", at, { once: true });
  };
  cue();
  addEventListener("hashchange", cue);
}

// Settings → Speech-to-text: the local engine's setup fills its progress bar, and the
// page reloads once it has finished (or failed).
const setup = $("#speech-setup");
if (setup && (setup.dataset.phase === "installing" || setup.dataset.phase === "downloading")) {
  const bar = $("#speech-progress"), said = $("#speech-progress-text");
  const mb = (n) => (n / 1048576).toFixed(1) + " MB";
  const tick = async () => {
    try {
      const r = await fetch("/settings/speech/status", { headers: { accept: "application/json" } });
      const s = await r.json();
      if (s.phase !== "installing" && s.phase !== "downloading") return location.reload();
      if (s.phase === "downloading" && s.total) {
        bar.max = s.total; bar.value = s.received;
        said.textContent = "Downloading " + s.model + ": " + mb(s.received) + " of " + mb(s.total) + " (" + Math.floor(s.received / s.total * 100) + "%)";
      } else if (s.phase === "downloading") said.textContent = "Downloading " + s.model + ": " + mb(s.received);
    } catch {}
    setTimeout(tick, 500);
  };
  setTimeout(tick, 500);
}

// Keyboard: "/" finds, Ctrl/Cmd-K jumps to a meeting or a page, j/k move through a list,
// "?" lists these. Plain links and forms do everything without them.
const typing = (el) => el && (el.isContentEditable || /^(input|textarea|select)$/i.test(el.tagName));
const overlay = (id, label, inner) => {
  let d = document.getElementById(id);
  if (!d) {
    d = document.createElement("dialog");
    d.id = id;
    d.className = "overlay";
    d.setAttribute("aria-label", label);
    d.innerHTML = inner;
    document.body.append(d);
    d.addEventListener("click", (e) => { if (e.target === d) d.close(); });
  }
  return d;
};
const esc = (s) => String(s).replace(/[&<>"']/g, (ch) => "&#" + ch.charCodeAt(0) + ";");
function openSwitcher() {
  const d = overlay("switcher", "Go to a meeting or a page",
    '<input id="switcher-q" type="text" role="combobox" aria-controls="switcher-list" aria-expanded="true" aria-autocomplete="list" placeholder="The title of a meeting, or a page" aria-label="Go to" autocomplete="off"><ul id="switcher-list" role="listbox" aria-label="Matches"></ul>');
  const input = $("#switcher-q", d), list = $("#switcher-list", d);
  const pages = $$("header.top nav a").map((a) => ({ title: a.textContent, href: a.getAttribute("href"), kind: "page" }));
  let items = [], at = 0, seq = 0;
  const show = () => {
    list.innerHTML = items.map((it, i) => '<li role="option" id="switcher-' + i + '" data-href="' + esc(it.href) + '" aria-selected="' + (i === at) + '">' + esc(it.title) + '<span class="kind"> · ' + esc(it.kind) + "</span></li>").join("");
    input.setAttribute("aria-activedescendant", items.length ? "switcher-" + at : "");
  };
  const update = async () => {
    const q = input.value.trim().toLowerCase(), mine = ++seq;
    const matching = pages.filter((p) => !q || p.title.toLowerCase().includes(q));
    items = matching; at = 0; show();
    if (!q) return;
    try {
      const r = await fetch("/notes/titles?q=" + encodeURIComponent(q), { headers: { accept: "application/json" } });
      const { notes } = await r.json();
      if (mine !== seq) return;
      items = [...notes.map((n) => ({ title: n.title, href: "/notes/" + encodeURIComponent(n.id), kind: n.createdAt.slice(0, 10) })), ...matching];
      at = 0; show();
    } catch {}
  };
  input.oninput = update;
  list.onclick = (e) => { const li = e.target.closest("li[data-href]"); if (li) location.href = li.dataset.href; };
  input.onkeydown = (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      at = (at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % Math.max(1, items.length);
      show();
    } else if (e.key === "Enter" && items[at]) { e.preventDefault(); location.href = items[at].href; }
  };
  input.value = ""; update();
  d.showModal(); input.focus();
}
function openShortcuts() {
  const d = overlay("shortcuts", "Keyboard shortcuts",
    "<h2>Keyboard shortcuts</h2><dl class='keys'><dt><kbd>/</kbd></dt><dd>Search what was said</dd><dt><kbd>Ctrl</kbd> <kbd>K</kbd> or <kbd>⌘</kbd> <kbd>K</kbd></dt><dd>Go to a meeting or a page</dd><dt><kbd>j</kbd> <kbd>k</kbd></dt><dd>Next and previous in a list; <kbd>Enter</kbd> opens</dd><dt><kbd>?</kbd></dt><dd>These shortcuts</dd><dt><kbd>Esc</kbd></dt><dd>Close</dd></dl>");
  d.showModal();
}
addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k" && $("header.top")) { e.preventDefault(); openSwitcher(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || $("dialog[open]")) return;
  if (e.key === "/") {
    const field = $("#said");
    if (field) { e.preventDefault(); field.focus(); field.select(); }
    else if ($("header.top")) { e.preventDefault(); location.href = "/notes#said"; }
  } else if (e.key === "?") { e.preventDefault(); openShortcuts(); }
  else if (e.key === "j" || e.key === "k") {
    const links = $$("ul.notes li a.title");
    if (!links.length) return;
    const now = links.indexOf(document.activeElement);
    const next = now < 0 ? 0 : Math.min(links.length - 1, Math.max(0, now + (e.key === "j" ? 1 : -1)));
    links[next].focus();
    links[next].scrollIntoView({ block: "nearest" });
  }
});
if (location.hash === "#said") $("#said")?.focus();

// A destructive form asks first.
for (const f of $$("form[data-confirm]"))
  f.addEventListener("submit", (e) => { if (!confirm(f.dataset.confirm)) e.preventDefault(); });

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
for (const b of $$("button[data-copy]")) b.addEventListener("click", async () => {
  const text = document.getElementById(b.dataset.copy)?.textContent ?? "";
  try { await navigator.clipboard.writeText(text); b.textContent = "Copied"; } catch { b.textContent = "Select and copy"; }
});

// Upload: presigned URL, PUT with progress, then the note.
const up = $("form#upload");
if (up) {
  const zone = $(".dropzone", up);
  const input = $("input[type=file]", up);
  const bar = $("progress", up);
  const status = $("#upload-status");
  const say = (m) => { status.textContent = m; };
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => { e.preventDefault(); zone.classList.remove("over"); if (e.dataTransfer.files.length) { input.files = e.dataTransfer.files; } });
  up.addEventListener("submit", async (e) => {
    e.preventDefault();
    const file = input.files[0];
    if (!file) return say("Choose a recording first.");
    const ext = (file.name.split(".").pop() || "").toLowerCase();
    const duration = await new Promise((resolve) => {
      const a = new Audio();
      a.preload = "metadata";
      a.onloadedmetadata = () => resolve(Number.isFinite(a.duration) ? a.duration : 0);
      a.onerror = () => resolve(0);
      a.src = URL.createObjectURL(file);
    });
    const json = async (url, body) => {
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": csrf() }, body: JSON.stringify(body) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(data.error?.message ?? "The server refused the upload (" + r.status + ").");
      return data;
    };
    try {
      say("Preparing the upload…");
      bar.hidden = false;
      const target = await json("/notes/upload-url", { fileExtension: ext, duration: Math.max(1, Math.ceil(duration || 1)), size: file.size });
      await new Promise((resolve, reject) => {
        const x = new XMLHttpRequest();
        x.open("PUT", target.presignedUrl);
        x.setRequestHeader("content-type", target.contentType);
        x.upload.onprogress = (ev) => { if (ev.lengthComputable) { bar.value = ev.loaded / ev.total; say("Uploading… " + Math.round((100 * ev.loaded) / ev.total) + "%"); } };
        x.onload = () => {
          if (x.status >= 200 && x.status < 300) return resolve();
          let m = "The upload failed (" + x.status + ").";
          try { m = JSON.parse(x.responseText).error.message; } catch {}
          reject(new Error(m));
        };
        x.onerror = () => reject(new Error("The upload was interrupted."));
        x.send(file);
      });
      bar.value = 1;
      say("Uploaded; creating the note…");
      const made = await json("/notes/from-upload", { audioUrl: target.audioUrl, title: $("#upload-title").value || undefined, folderId: $("#upload-folder")?.value || undefined });
      location.href = "/notes/" + encodeURIComponent(made.noteId);
    } catch (err) {
      say(err.message);
    }
  });
}

// Recording: the microphone (and, if asked, a tab's or window's sound, mixed in) goes
// to MediaRecorder, whose pieces are kept in IndexedDB until the server has stored
// them; they are sent in order, and again after the connection returns. Pieces left
// by an earlier page (a reload, a crash) are sent when any page opens.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const idb = (mode, fn) => new Promise((resolve, reject) => {
  const open = indexedDB.open("notula-recordings", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("pieces", { keyPath: ["noteId", "seq"] });
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction("pieces", mode);
    const req = fn(tx.objectStore("pieces"));
    tx.oncomplete = () => { open.result.close(); resolve(req?.result); };
    tx.onerror = () => { open.result.close(); reject(tx.error); };
  };
});
const kept = () => idb("readonly", (s) => s.getAll()).then((all) => all.sort((a, b) => a.noteId.localeCompare(b.noteId) || a.seq - b.seq));
let sending = null;
let onSent = () => {};
const pump = () => (sending ??= (async () => {
  try {
    for (;;) {
      const [p] = await kept().catch(() => []);
      if (!p) return;
      let r;
      try {
        r = await fetch("/notes/" + encodeURIComponent(p.noteId) + "/pieces/" + p.seq + "?durationMs=" + p.durationMs, {
          method: "PUT",
          headers: { "x-csrf-token": csrf(), accept: "application/json", "content-type": "application/octet-stream" },
          body: p.blob,
        });
      } catch {
        onSent({ offline: true });
        await sleep(2000);
        continue;
      }
      if (r.ok || [400, 404, 409, 413, 415].includes(r.status)) {
        // Stored; or refused for good (the recording is over, or the piece is wrong): not sent again.
        await idb("readwrite", (s) => s.delete([p.noteId, p.seq]));
        const data = r.ok ? null : await r.json().catch(() => ({}));
        onSent({ noteId: p.noteId, seq: p.seq, refused: data?.error?.message });
        continue;
      }
      onSent({ offline: true });
      await sleep(2000);
    }
  } finally {
    sending = null;
  }
})());
if ("indexedDB" in window) void pump();

const form = $("form#record");
if (form) {
  const unavailable = $("#record-unavailable");
  const state = (m) => { $("#record-state").textContent = m; };
  const start = $("#record-start");
  const pauseButton = $("#record-pause");
  const stopButton = $("#record-stop");
  const secure = window.isSecureContext && navigator.mediaDevices?.getUserMedia && window.MediaRecorder;
  if (!secure) {
    unavailable.hidden = false;
    unavailable.textContent = window.isSecureContext
      ? "This browser cannot record audio (it has no MediaRecorder)."
      : "Browsers allow the microphone only on https pages or on localhost: open notula over https (see the README's reverse proxy), or at http://localhost on this computer, to record here. notula record records from a terminal.";
    start.disabled = true;
  }
  const clock = (s) => [s / 3600, (s / 60) % 60, s % 60].map((n) => String(Math.floor(n)).padStart(2, "0")).join(":");
  let noteId = null;
  let recorder = null;
  let recording = false;
  let seq = 0;
  let elapsedMs = 0;
  let since = 0;
  let lastPieceAt = 0;
  let failed = null;
  const elapsed = () => elapsedMs + (recorder?.state === "recording" ? Date.now() - since : 0);
  addEventListener("beforeunload", (e) => { if (recording) { e.preventDefault(); e.returnValue = ""; } });
  onSent = (e) => {
    if (e.offline) state("No connection: the recording is kept here and sent when it returns.");
    else if (e.refused && e.noteId === noteId) failed = e.refused;
    else if (recording) state("Recording…");
  };
  const live = async () => {
    if (!noteId) return;
    try {
      const r = await fetch("/notes/" + encodeURIComponent(noteId) + "/live", { headers: { accept: "application/json" } });
      if (r.ok) {
        const { transcript } = await r.json();
        const list = $("#record-transcript");
        $("#record-live-title").hidden = !transcript.length;
        list.replaceChildren(...transcript.map((s) => {
          const li = document.createElement("li");
          const at = document.createElement("span");
          at.className = "at";
          at.textContent = s.at;
          const text = document.createElement("span");
          text.textContent = s.text;
          li.append(at, text);
          return li;
        }));
      }
    } catch {}
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (recording) return;
    try {
      const mic = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
      const ctx = new AudioContext();
      const mix = ctx.createMediaStreamDestination();
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 1024;
      ctx.createMediaStreamSource(mic).connect(mix);
      ctx.createMediaStreamSource(mic).connect(analyser);
      const tracks = [...mic.getTracks()];
      if ($("#record-tab").checked) {
        // A Meet, Zoom or Teams call in the browser: the tab's sound, mixed with the microphone.
        const shared = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
        tracks.push(...shared.getTracks());
        if (shared.getAudioTracks().length) {
          const source = ctx.createMediaStreamSource(new MediaStream(shared.getAudioTracks()));
          source.connect(mix);
          source.connect(analyser);
        } else state("The shared tab or window gives no sound; recording the microphone only.");
      }
      const type = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4"].find((t) => MediaRecorder.isTypeSupported(t));
      if (!type) throw new Error("This browser records no format notula reads.");
      const format = type.startsWith("audio/webm") ? "webm" : type.startsWith("audio/ogg") ? "ogg" : "mp4";
      const r = await fetch("/notes/record/start", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf() },
        body: JSON.stringify({ format, title: $("#record-title").value || undefined, folderId: $("#record-folder")?.value || undefined }),
      });
      const started = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(started.error?.message ?? "The server could not start the recording (" + r.status + ").");
      noteId = started.noteId;
      recorder = new MediaRecorder(mix.stream, { mimeType: type, audioBitsPerSecond: 32000 });
      recorder.ondataavailable = async (ev) => {
        if (!ev.data.size) return;
        const now = elapsed();
        const durationMs = Math.max(0, Math.round(now - lastPieceAt));
        lastPieceAt = now;
        await idb("readwrite", (s) => s.put({ noteId, seq: seq++, blob: ev.data, durationMs }));
        void pump();
      };
      const ended = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start(5000);
      recording = true;
      since = Date.now();
      $("#recorder").hidden = false;
      start.hidden = true;
      pauseButton.hidden = false;
      stopButton.hidden = false;
      state("Recording…");
      const level = new Uint8Array(analyser.fftSize);
      const tick = () => {
        if (!recording) return;
        analyser.getByteTimeDomainData(level);
        let peak = 0;
        for (const v of level) peak = Math.max(peak, Math.abs(v - 128) / 128);
        $("#record-level").value = peak;
        $("#record-elapsed").textContent = clock(elapsed() / 1000);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      const poll = setInterval(live, 3000);
      pauseButton.onclick = () => {
        if (recorder.state === "recording") {
          recorder.pause();
          elapsedMs += Date.now() - since;
          pauseButton.textContent = "Resume";
          $("#recorder").classList.add("paused");
          state("Paused.");
        } else {
          recorder.resume();
          since = Date.now();
          pauseButton.textContent = "Pause";
          $("#recorder").classList.remove("paused");
          state("Recording…");
        }
      };
      stopButton.onclick = async () => {
        stopButton.disabled = true;
        pauseButton.disabled = true;
        state("Stopping…");
        recorder.stop();
        await ended;
        for (const t of tracks) t.stop();
        void ctx.close();
        // Every piece stored before the recording is closed.
        while ((await kept()).some((p) => p.noteId === noteId)) {
          state("Sending the last of the recording…");
          void pump();
          await sleep(300);
        }
        clearInterval(poll);
        const r = await fetch("/notes/" + encodeURIComponent(noteId) + "/record/stop", {
          method: "POST",
          headers: { accept: "application/json", "x-csrf-token": csrf() },
        });
        recording = false;
        if (!r.ok && !failed) failed = (await r.json().catch(() => ({}))).error?.message ?? "The server could not stop the recording.";
        if (failed) return state(failed);
        location.href = "/notes/" + encodeURIComponent(noteId);
      };
    } catch (err) {
      state(err.name === "NotAllowedError" ? "The browser was not allowed to use the microphone." : err.message);
    }
  });
}
`;
