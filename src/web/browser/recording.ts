// Recording: the microphone (and, if asked, a tab's or window's sound, mixed in) goes
// to MediaRecorder, whose pieces are kept in IndexedDB until the server has stored
// them; they are sent in order, and again after the connection returns. Pieces left
// by an earlier page (a reload, a crash) are sent when any page opens.
import { $, clock as mmssClock, csrf, people } from "./dom.js";
import { attachNotepad, sendKeptNotes } from "./notepad.js";

/** A piece kept until the server has stored it. */
interface Piece {
  noteId: string;
  seq: number;
  durationMs: number;
  blob: Blob;
}
/** What the sender tells the page of each piece it sent, or could not. */
interface SentEvent {
  offline?: boolean;
  noteId?: string;
  seq?: number;
  refused?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const idb = <T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T> | void) =>
  new Promise<T>((resolve, reject) => {
    const open = indexedDB.open("notula-recordings", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("pieces", { keyPath: ["noteId", "seq"] });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("pieces", mode);
      const req = fn(tx.objectStore("pieces"));
      tx.oncomplete = () => {
        open.result.close();
        resolve(req ? req.result : undefined);
      };
      tx.onerror = () => {
        open.result.close();
        reject(tx.error);
      };
    };
  });
const kept = () =>
  idb<Piece[]>("readonly", (s) => s.getAll()).then((all) =>
    all.sort((a, b) => a.noteId.localeCompare(b.noteId) || a.seq - b.seq),
  );
let sending = null;
let onSent: (e: SentEvent) => void = () => {};
const pump = () =>
  (sending ??= (async () => {
    try {
      for (;;) {
        const [p] = await kept().catch((): Piece[] => []);
        if (!p) return;
        let r;
        try {
          r = await fetch(
            "/notes/" + encodeURIComponent(p.noteId) + "/pieces/" + p.seq + "?durationMs=" + p.durationMs,
            {
              method: "PUT",
              headers: {
                "x-csrf-token": csrf(),
                accept: "application/json",
                "content-type": "application/octet-stream",
              },
              body: p.blob,
            },
          );
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
if ("localStorage" in window) void sendKeptNotes().catch(() => {});

const form = $("form#record");
if (form) {
  const unavailable = $("#record-unavailable");
  const state = (m: string) => {
    $("#record-state").textContent = m;
  };
  const start = $<HTMLButtonElement>("#record-start");
  const pauseButton = $<HTMLButtonElement>("#record-pause");
  const stopButton = $<HTMLButtonElement>("#record-stop");
  const secure = window.isSecureContext && navigator.mediaDevices?.getUserMedia && window.MediaRecorder;
  if (!secure) {
    unavailable.hidden = false;
    unavailable.textContent = window.isSecureContext
      ? "This browser cannot record audio (it has no MediaRecorder)."
      : "Browsers allow the microphone only on https pages or on localhost: open notula over https (see docs/operations.md, the reverse proxy), or at http://localhost on this computer, to record here. notula record records from a terminal.";
    start.disabled = true;
  }
  const clock = (s: number) =>
    [s / 3600, (s / 60) % 60, s % 60].map((n) => String(Math.floor(n)).padStart(2, "0")).join(":");
  let noteId: string | null = null;
  let recorder: MediaRecorder | null = null;
  let recording = false;
  let seq = 0;
  let elapsedMs = 0;
  let since = 0;
  let lastPieceAt = 0;
  let failed: string | null = null;
  const elapsed = () => elapsedMs + (recorder?.state === "recording" ? Date.now() - since : 0);
  // The notes typed beside the transcript; a line begun while recording carries its time.
  const notepad = attachNotepad($<HTMLTextAreaElement>("#record-notes"), {
    stamp: () => (recording ? mmssClock(elapsed() / 1000) : null),
    status: (m) => ($("#record-notes-state").textContent = m),
  });
  // The note exists once recording starts: a name or folder changed after that is saved to it.
  const saveDetails = async () => {
    if (!noteId || !recording) return;
    const title = $<HTMLInputElement>("#record-title").value.trim();
    const r = await fetch("/notes/" + encodeURIComponent(noteId) + "/record/details", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf() },
      body: JSON.stringify({
        title: title || undefined,
        folderId: $<HTMLSelectElement>("#record-folder")?.value,
        participants: people("#record"),
      }),
    }).catch((): null => null);
    const data = r ? await r.json().catch(() => ({})) : {};
    $("#record-details").textContent = r?.ok
      ? "Saved to the note."
      : (data.error?.message ?? "Not saved: no connection.");
  };
  $<HTMLInputElement>("#record-title").addEventListener("change", saveDetails);
  $<HTMLSelectElement>("#record-folder")?.addEventListener("change", saveDetails);
  for (const field of document.querySelectorAll("#record input[name=participant]"))
    field.addEventListener("change", saveDetails);
  addEventListener("beforeunload", (e) => {
    if (recording) {
      e.preventDefault();
      e.returnValue = "";
    }
  });
  onSent = (e) => {
    if (e.offline) state("No connection: the recording is kept here and sent when it returns.");
    else if (e.refused && e.noteId === noteId) failed = e.refused;
    else if (recording) state("Recording…");
  };
  const live = async () => {
    if (!noteId) return;
    try {
      const r = await fetch("/notes/" + encodeURIComponent(noteId) + "/live", {
        headers: { accept: "application/json" },
      });
      if (r.ok) {
        const { transcript, notes, notesVersion } = await r.json();
        notepad.seen(notes, notesVersion);
        const list = $("#record-transcript");
        $("#record-live-title").hidden = !transcript.length;
        list.replaceChildren(
          ...transcript.map((s: { at: string; speaker: string; text: string }) => {
            const li = document.createElement("li");
            const at = document.createElement("span");
            at.className = "at";
            at.textContent = s.at;
            const text = document.createElement("span");
            text.textContent = s.text;
            li.append(at, text);
            return li;
          }),
        );
      }
    } catch {}
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (recording) return;
    try {
      const mic = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true },
      });
      const ctx = new AudioContext();
      const mix = ctx.createMediaStreamDestination();
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 1024;
      const micSource = ctx.createMediaStreamSource(mic);
      micSource.connect(analyser);
      const tracks = [...mic.getTracks()];
      // One side of a call as one channel: whatever it comes as, folded to mono.
      const mono = (node: AudioNode) => {
        const g = ctx.createGain();
        g.channelCount = 1;
        g.channelCountMode = "explicit";
        g.channelInterpretation = "speakers";
        node.connect(g);
        return g;
      };
      let sides = false;
      if ($<HTMLInputElement>("#record-tab").checked) {
        // A Meet, Zoom or Teams call in the browser: the tab's sound and the microphone
        // kept apart as the two channels of one stream (the microphone first), so that
        // the server can tell who said what; played back, it is an ordinary stereo file.
        const shared = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
        tracks.push(...shared.getTracks());
        if (shared.getAudioTracks().length) {
          const source = ctx.createMediaStreamSource(new MediaStream(shared.getAudioTracks()));
          const merger = ctx.createChannelMerger(2);
          mono(micSource).connect(merger, 0, 0);
          mono(source).connect(merger, 0, 1);
          merger.connect(mix);
          source.connect(analyser);
          sides = true;
        } else state("The shared tab or window gives no sound; recording the microphone only.");
      }
      if (!sides) micSource.connect(mix);
      const type = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4"].find((t) =>
        MediaRecorder.isTypeSupported(t),
      );
      if (!type) throw new Error("This browser records no format notula reads.");
      const format = type.startsWith("audio/webm") ? "webm" : type.startsWith("audio/ogg") ? "ogg" : "mp4";
      const r = await fetch("/notes/record/start", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf() },
        body: JSON.stringify({
          format,
          title: $<HTMLInputElement>("#record-title").value || undefined,
          folderId: $<HTMLSelectElement>("#record-folder")?.value || undefined,
          calendarEventId: $<HTMLInputElement>("#record-event")?.value || undefined,
          participants: people("#record"),
          channels: sides ? ["me", "others"] : undefined,
        }),
      });
      const started = await r.json().catch(() => ({}));
      if (!r.ok)
        throw new Error(started.error?.message ?? "The server could not start the recording (" + r.status + ").");
      noteId = started.noteId;
      notepad.started(noteId);
      // The name the server gave an unnamed meeting, shown where it can be changed.
      if (!$<HTMLInputElement>("#record-title").value.trim())
        $<HTMLInputElement>("#record-title").value = started.title;
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
        $<HTMLMeterElement>("#record-level").value = peak;
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
        // The notes as typed to the end, saved before the note is written from them.
        state("Saving your notes…");
        await notepad.flush();
        const r = await fetch("/notes/" + encodeURIComponent(noteId) + "/record/stop", {
          method: "POST",
          headers: { accept: "application/json", "x-csrf-token": csrf() },
        });
        recording = false;
        if (!r.ok && !failed)
          failed = (await r.json().catch(() => ({}))).error?.message ?? "The server could not stop the recording.";
        if (failed) return state(failed);
        location.href = "/notes/" + encodeURIComponent(noteId);
      };
    } catch (err) {
      state(err.name === "NotAllowedError" ? "The browser was not allowed to use the microphone." : err.message);
    }
  });
}
