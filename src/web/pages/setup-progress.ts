// What a setup running on the server (the local engine, the speaker models) says of itself.
import type { SpeechSetupState } from "../../services/speech-setup.js";
import { formatBytes } from "../format.js";

export function progressText(s: SpeechSetupState): string {
  if (s.model === "speakers") {
    if (s.phase === "downloading")
      return `Downloading the speaker models: ${formatBytes(s.received)}${s.total ? ` of ${formatBytes(s.total)} (${Math.floor((s.received / s.total) * 100)}%)` : ""}`;
    if (s.phase === "done") return "The speaker models are set up; recordings are split into voices.";
    if (s.phase === "failed") return `Setting up the speaker models failed: ${s.error}`;
    return "";
  }
  if (s.phase === "installing") return "Installing the local engine…";
  if (s.phase === "downloading")
    return s.total
      ? `Downloading ${s.model}: ${formatBytes(s.received)} of ${formatBytes(s.total)} (${Math.floor((s.received / s.total) * 100)}%)`
      : `Downloading ${s.model}: ${formatBytes(s.received)}`;
  if (s.phase === "done") return `The local engine is set up with ${s.model}; recordings are transcribed with it.`;
  if (s.phase === "failed") return `Setting up the local engine failed: ${s.error}`;
  return "";
}
