// The web app's one script, a plain module: everything works without it except the
// audio upload; with it, transcript times (and links to a moment) seek the player, a processing note follows
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

// A note being processed shows its stage and progress, and reloads once its status changes.
const poll = $("[data-poll-status]");
if (poll) {
  const url = poll.dataset.pollStatus;
  const first = poll.dataset.status;
  const tick = async () => {
    try {
      const r = await fetch(url, { headers: { accept: "application/json" } });
      if (r.ok) {
        const { status, label } = await r.json();
        poll.textContent = label ?? status;
        if (status !== first) return location.reload();
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
`;
