// Settings → Speech-to-text → Speakers: the local speaker models (download with
// progress, checksum, switch on or off) and why the last recording could not be split.
import { SPEAKER_MODELS } from "../../ai/diarization/models.js";
import type { SpeechSetupState } from "../../services/speech-setup.js";
import type { AiConfigDto } from "../../shared/schemas/templates.js";
import { Csrf } from "../components/layout.js";
import { OperatorModels } from "../components/operator-models.js";
import type { Viewer } from "../context.js";
import { formatDate } from "../format.js";
import { progressText } from "./setup-progress.js";
import { SetupProgress, setupRunning } from "../components/setup-progress.js";

export function SpeakerSection(props: { viewer: Viewer; config: AiConfigDto; setup: SpeechSetupState }) {
  const zone = props.viewer.timeZone;
  const { viewer, setup, config } = props;
  const s = config.speakerSeparation;
  const running = setupRunning(setup);
  const sizeMb = SPEAKER_MODELS.reduce((n, m) => n + m.sizeMb, 0);
  return (
    <section aria-labelledby="speakers-heading">
      <h2 id="speakers-heading">Speakers</h2>
      <p class="small muted">
        The others on a call, or a room around one microphone, split into their voices on this server: pyannote's
        segmentation model and NeMo's TitaNet speaker embeddings (about {sizeMb} MB in all), run by sherpa-onnx. Without
        them each side of a recording is one speaker: you by name, and the others.
      </p>
      <p id="speakers-state">
        {s.engine === "local" && s.ready
          ? "On: recordings are split into voices."
          : s.engine === "local"
            ? "On, but the models are missing from this server: set them up again below."
            : s.ready
              ? "Off: the models are on this server; switch them on below."
              : "Off: each side of a recording is one speaker."}
      </p>
      {s.problem ? (
        <p class="alert error" role="alert" id="speakers-problem">
          {s.problem} {s.problemAt ? <span class="small">({formatDate(s.problemAt, zone)})</span> : null} Those notes
          keep one speaker per side.
        </p>
      ) : null}
      <SetupProgress
        id="speakers-setup"
        statusUrl="/settings/speech/speakers/status"
        setup={setup}
        text={progressText(setup)}
      />
      {config.localModelsForWorkspaces ? null : <OperatorModels id="speakers-operator" />}
      <div class="actions" hidden={!config.localModelsForWorkspaces}>
        {s.engine === "local" && s.ready ? (
          <form method="post" action="/settings/speech/speakers/off">
            <Csrf viewer={viewer} />
            <button type="submit">Switch speaker separation off</button>
          </form>
        ) : (
          <form method="post" action="/settings/speech/speakers/setup">
            <Csrf viewer={viewer} />
            <button type="submit" disabled={running}>
              {s.ready ? "Switch speaker separation on" : "Set up speaker separation"}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
