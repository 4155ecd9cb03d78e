// Settings → AI → On this server: a small language model run by notula itself, for an
// install that sends nothing out. Set up with one click (its engine, the download with
// progress and checksum, a first answer), then chosen for notes and answers.
import { DEFAULT_LLM_MODEL, LLM_MODELS } from "../../ai/llm/local-models.js";
import type { SpeechSetupState } from "../../services/setup-runner.js";
import type { AiConfigDto } from "../../shared/schemas/templates.js";
import { Csrf } from "../components/layout.js";
import { OperatorModels } from "../components/operator-models.js";
import { SetupProgress, setupRunning } from "../components/setup-progress.js";
import type { Viewer } from "../context.js";
import { formatBytes, formatDate } from "../format.js";

export function llmProgressText(s: SpeechSetupState): string {
  switch (s.phase) {
    case "installing":
      return "Installing the local model's engine (node-llama-cpp)…";
    case "downloading":
      return s.total
        ? `Downloading ${s.model}: ${formatBytes(s.received)} of ${formatBytes(s.total)} (${Math.floor((s.received / s.total) * 100)}%)`
        : `Downloading ${s.model}: ${formatBytes(s.received)}`;
    case "checking":
      return `Trying ${s.model} once…`;
    case "done":
      return `${s.model} is set up; it writes this workspace's notes and answers.`;
    case "failed":
      return `Setting up the local model failed: ${s.error}`;
    default:
      return "";
  }
}

export function LocalModelSection(props: { viewer: Viewer; config: AiConfigDto; setup: SpeechSetupState }) {
  const zone = props.viewer.timeZone;
  const { viewer, config, setup } = props;
  const running = setupRunning(setup);
  const ready = config.localModel.file !== null && config.localModel.engineInstalled;
  const inUse = config.effective.summary.startsWith("local:");
  return (
    <section aria-labelledby="local-llm-heading">
      <h2 id="local-llm-heading">On this server</h2>
      <p class="small muted">
        A small instruction model run by notula itself (llama.cpp, on the CPU): nothing leaves this machine. It writes
        plainer notes than a large hosted model, and a long meeting takes minutes. One meeting or question is answered
        at a time; the others wait their turn.
      </p>
      <p id="local-llm-state">
        {inUse
          ? `In use: ${config.localModel.file} writes the notes and answers.`
          : ready
            ? `${config.localModel.file} is on this server and not in use.`
            : "None is set up."}
      </p>
      {config.localModel.problem ? (
        <p class="alert error" role="alert" id="local-llm-problem">
          {config.localModel.problem}. Notes were written offline and answers quoted the moments found
          {config.localModel.problemAt ? ` (last on ${formatDate(config.localModel.problemAt, zone)})` : ""}.
        </p>
      ) : null}
      <SetupProgress
        id="local-llm-setup"
        statusUrl="/settings/ai/local/status"
        setup={setup}
        text={llmProgressText(setup)}
      />
      {config.localModelsForWorkspaces ? null : <OperatorModels id="local-llm-operator" />}
      <div class="actions" hidden={!config.localModelsForWorkspaces}>
        {ready && !inUse ? (
          <form method="post" action="/settings/ai/local/use">
            <Csrf viewer={viewer} />
            <button type="submit">Use {config.localModel.file}</button>
          </form>
        ) : null}
        {!ready ? (
          <form method="post" action="/settings/ai/local/setup" class="inline">
            <Csrf viewer={viewer} />
            <label for="local-llm-model">Model</label>
            <select id="local-llm-model" name="model" disabled={running}>
              {LLM_MODELS.map((m) => (
                <option value={m.name} selected={m.name === DEFAULT_LLM_MODEL}>
                  {m.name} (about {m.sizeMb >= 1000 ? `${(m.sizeMb / 1000).toFixed(1)} GB` : `${m.sizeMb} MB`},{" "}
                  {m.licence})
                </option>
              ))}
            </select>
            <button type="submit" disabled={running}>
              Set up a local model
            </button>
          </form>
        ) : null}
      </div>
    </section>
  );
}
