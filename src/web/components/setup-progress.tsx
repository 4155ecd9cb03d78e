// A setup running on the server (the local speech engine, the speaker models, the local
// language model) as its settings page shows it: a progress bar while it runs, what it
// says of itself, and where the page's script asks for its state (without script, the
// page refreshes itself while it runs).
import type { SpeechSetupState } from "../../services/setup-runner.js";

export const setupRunning = (s: SpeechSetupState) =>
  s.phase === "installing" || s.phase === "downloading" || s.phase === "checking";

export function SetupProgress(props: {
  id: string;
  /** Where the page's script reads the state from. */
  statusUrl: string;
  setup: SpeechSetupState;
  text: string;
  /** Ids of the bar and its text, for pages whose tests or labels name them. */
  barId?: string;
  textId?: string;
}) {
  const { setup } = props;
  return (
    <div id={props.id} data-phase={setup.phase} data-setup-status={props.statusUrl} aria-live="polite">
      {setupRunning(setup) ? (
        <>
          <noscript>
            <meta http-equiv="refresh" content="2" />
          </noscript>
          <progress
            id={props.barId}
            max={setup.total ?? 1}
            value={setup.phase === "downloading" && setup.total ? setup.received : undefined}
          ></progress>
        </>
      ) : null}
      <p id={props.textId} class={`progress-text${setup.phase === "failed" ? " alert error" : ""}`}>
        {props.text}
      </p>
    </div>
  );
}
