// Settings → AI (admins): what writes the workspace's notes and answers its questions:
// an OpenAI-compatible language model, or a small one on this server (set up here with
// progress), with a Test button; without either, notes are extracts and answers quote
// the moments found.
import type { AiConfigDto } from "../../shared/schemas/templates.js";
import type { SpeechSetupState } from "../../services/setup-runner.js";
import { Alert, Csrf, Layout } from "../components/layout.js";
import { ServerFields } from "../components/server-fields.js";
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
          <ServerFields id="llm" url={config.llm.url} model={config.llm.model} apiKeySet={config.llm.apiKeySet} />
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
