// Settings → AI (admins): what writes the workspace's notes and answers its questions:
// an OpenAI-compatible language model, or a small one on this server (set up here with
// progress), with a Test button; without either, notes are extracts and answers quote
// the moments found.
import type { AiConfigDto } from "../../shared/schemas/templates.js";
import type { SpeechSetupState } from "../../services/setup-runner.js";
import { Alert, Csrf, Layout } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { LocalModelSection } from "./local-llm.js";

export function AiSettingsPage(props: {
  viewer: Viewer;
  config: AiConfigDto;
  setup: SpeechSetupState;
  notice?: string;
  error?: string;
}) {
  const { viewer, config } = props;
  const extractive = /^extractive/.test(config.effective.summary);
  return (
    <Layout title="AI" viewer={viewer} section="ai">
      <h1>AI</h1>
      <Alert error={props.error} ok={props.notice} />
      <p id="ai-state">
        Notes and answers are written by <strong>{config.effective.summary}</strong>.
        {extractive
          ? " Without a language model, a note's summary and enhanced note are extracts of what was said, and answers quote the moments found. Set one up below for written notes and answers."
          : ""}
      </p>
      <section>
        <h2>A language model</h2>
        <p class="small muted">
          Any OpenAI-compatible chat-completions server: OpenAI, OpenRouter, or one on your own machines (Ollama, LM
          Studio, vLLM). Transcripts are sent there.
        </p>
        <form method="post" action="/settings/ai" class="panel">
          <Csrf viewer={viewer} />
          <label for="llm-url">Server address</label>
          <input
            id="llm-url"
            name="url"
            type="url"
            required
            maxlength={2000}
            placeholder="https://api.openai.com/v1"
            value={config.llm.url ?? ""}
          />
          <label for="llm-model">Model</label>
          <input id="llm-model" name="model" type="text" maxlength={200} value={config.llm.model ?? ""} />
          <label for="llm-key">API key {config.llm.apiKeySet ? "(one is set; leave empty to keep it)" : ""}</label>
          <input id="llm-key" name="apiKey" type="password" autocomplete="off" maxlength={500} />
          <button type="submit">Use this model</button>
        </form>
        <div class="actions">
          <form method="post" action="/settings/ai/test">
            <Csrf viewer={viewer} />
            <button type="submit" class="secondary" disabled={extractive}>
              Test the model
            </button>
          </form>
          {config.llm.url || config.effective.summary.startsWith("local:") ? (
            <form method="post" action="/settings/ai/remove">
              <Csrf viewer={viewer} />
              <button type="submit" class="secondary">
                Stop using it
              </button>
            </form>
          ) : null}
        </div>
      </section>
      <LocalModelSection viewer={viewer} config={config} setup={props.setup} />
    </Layout>
  );
}
