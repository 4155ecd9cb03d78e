// The notice on every page where a recording would not be transcribed now (recording,
// upload, a note that waits): admins get the reason and the one-click local setup,
// members are told whom to ask. Either way, what is recorded is kept.
import { DEFAULT_MODEL, findModel } from "../../ai/models.js";
import type { Viewer } from "../context.js";
import { workspacePolicy } from "../../core/access.js";
import { Csrf } from "./layout.js";

export function SpeechNotice(props: { viewer: Viewer; problem: string | null | undefined; waiting?: boolean }) {
  if (!props.problem) return null;
  const mayConfigure = workspacePolicy.configureAi(props.viewer.principal);
  const model = findModel(DEFAULT_MODEL);
  return (
    <div class="alert error speech-notice" role="alert">
      <p>
        {props.waiting ? "This recording waits for a speech-to-text engine." : "Recordings cannot be transcribed yet."}{" "}
        {mayConfigure ? props.problem : "Ask an admin of the workspace to set up speech-to-text."}{" "}
        {props.waiting
          ? "It is kept, and transcribed by itself as soon as an engine is set up."
          : "What you record or upload now is kept, and transcribed by itself as soon as an engine is set up."}
      </p>
      {mayConfigure ? (
        <form method="post" action="/settings/speech/setup" class="inline">
          <Csrf viewer={props.viewer} />
          <input type="hidden" name="model" value={model.name} />
          <button type="submit">
            Set up local speech-to-text ({model.name}, about {model.sizeMb} MB)
          </button>{" "}
          <a href="/settings/speech">Other choices</a>
        </form>
      ) : null}
    </div>
  );
}
