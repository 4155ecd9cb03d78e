// Upload: presigned URL, PUT with progress, then the note.
import { $, acceptDrops, csrf, people } from "./dom.js";

const up = $("form#upload");
if (up) {
  const zone = $(".dropzone", up);
  const input = $<HTMLInputElement>("input[type=file]", up);
  const bar = $<HTMLProgressElement>("progress", up);
  const status = $("#upload-status");
  const say = (m: string) => {
    status.textContent = m;
  };
  acceptDrops(zone, input);
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
    const json = async (url: string, body: unknown) => {
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
        // Left empty, the note is named for what was said.
        title: $<HTMLInputElement>("#upload-title").value.trim() || undefined,
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
