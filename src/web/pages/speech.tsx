// Settings → Speech-to-text (admins): which engine transcribes the workspace's
// recordings, setting up the local engine (with its progress), or a server to use.
import { MODELS, DEFAULT_MODEL } from "../../ai/models.js";
import { engineCaveat, engineLabel } from "../../ai/transcription/engine-notes.js";
import type { SpeechSetupState } from "../../services/speech-setup.js";
import type { AiConfigDto } from "../../shared/schemas/templates.js";
import { Alert, Csrf, Layout } from "../components/layout.js";
import { ServerFields } from "../components/server-fields.js";
import { OperatorModels } from "../components/operator-models.js";
import type { Viewer } from "../context.js";
import { SpeakerSection } from "./speakers-setup.js";
import { progressText } from "./setup-progress.js";
import { SetupProgress, setupRunning } from "../components/setup-progress.js";

export function SpeechSettingsPage(props: {
  viewer: Viewer;
  config: AiConfigDto;
  problem: string | null;
  setup: SpeechSetupState;
  speakerSetup: SpeechSetupState;
  notice?: string;
  error?: string;
}) {
  const { viewer, config, setup } = props;
  const running = setupRunning(setup);
  return (
    <Layout title="Speech-to-text" viewer={viewer} section="speech">
      <h1>Speech-to-text</h1>
      <Alert error={props.error} ok={props.notice} />
      {props.problem ? (
        <p class="alert error" role="alert">
          Recordings cannot be transcribed now: {props.problem} They are kept, and transcribed as soon as an engine is
          set up below.
        </p>
      ) : (
        <p id="speech-engine">
          Recordings are transcribed with <strong>{engineLabel(config.effective.transcription)}</strong>.
        </p>
      )}
      {engineCaveat(config.effective.transcription) ? (
        <p class="alert" id="speech-caveat">
          {engineCaveat(config.effective.transcription)} Set up the local whisper engine below to transcribe with it.
        </p>
      ) : null}
      <section>
        <h2>The local engine</h2>
        <p class="small muted">
          whisper.cpp on this server: no recording leaves the machine. The engine comes with notula; setting it up
          downloads a model, whose checksum is verified.
        </p>
        <SetupProgress
          id="speech-setup"
          statusUrl="/settings/speech/status"
          setup={setup}
          text={progressText(setup)}
          barId="speech-progress"
          textId="speech-progress-text"
        />
        {config.localModelsForWorkspaces ? null : <OperatorModels id="speech-operator" />}
        <form method="post" action="/settings/speech/setup" class="panel" hidden={!config.localModelsForWorkspaces}>
          <Csrf viewer={viewer} />
          <label for="speech-model">Model</label>
          <select id="speech-model" name="model" disabled={running}>
            {MODELS.map((m) => (
              <option value={m.name} selected={m.name === (setup.model ?? DEFAULT_MODEL)}>
                {m.name}: {m.languages}, about {m.sizeMb} MB
              </option>
            ))}
          </select>
          <button type="submit" disabled={running}>
            Set up the local engine
          </button>
        </form>
      </section>
      <SpeakerSection viewer={viewer} config={config} setup={props.speakerSetup} />
      <VocabularySection viewer={viewer} config={config} />
      <section>
        <h2>A transcription server</h2>
        <p class="small muted">
          Any OpenAI-compatible transcription API (OpenAI, Groq, a local faster-whisper server). Recordings are sent
          there.
        </p>
        <form method="post" action="/settings/speech/server" class="panel">
          <Csrf viewer={viewer} />
          <ServerFields
            id="stt"
            url={config.transcription.url}
            model={config.transcription.model}
            apiKeySet={config.transcription.apiKeySet}
          />
          <button type="submit">Use this server</button>
        </form>
      </section>
    </Layout>
  );
}

/** The names and terms the engine is told, and those people corrected in transcripts, offered for them. */
function VocabularySection(props: { viewer: Viewer; config: AiConfigDto }) {
  const { vocabulary, vocabularyOffered } = props.config.transcription;
  return (
    <section id="vocabulary">
      <h2>Names and terms</h2>
      <p class="small muted">
        Told to the engine with every recording (whisper takes them as its prompt), so that it spells them as written
        here: people's names, products, places.
      </p>
      {vocabularyOffered.length ? (
        <form method="post" action="/settings/speech/vocabulary/offers" class="panel" id="vocabulary-offers">
          <Csrf viewer={props.viewer} />
          <p>Corrected in transcripts, and not yet here: add them, and the next meetings spell them right.</p>
          {vocabularyOffered.map((term) => (
            <label class="check">
              <input type="checkbox" name="take" value={term} checked /> {term}
            </label>
          ))}
          <div class="actions">
            <button type="submit" name="do" value="take">
              Add the ones ticked
            </button>
            <button type="submit" name="do" value="dismiss" class="secondary">
              Set them all aside
            </button>
          </div>
        </form>
      ) : null}
      <form method="post" action="/settings/speech/vocabulary" class="panel">
        <Csrf viewer={props.viewer} />
        <label for="vocabulary-terms">One per line (at most 200)</label>
        <textarea id="vocabulary-terms" name="vocabulary" rows={6}>
          {vocabulary.join("\n")}
        </textarea>
        <button type="submit">Save the names and terms</button>
      </form>
    </section>
  );
}
