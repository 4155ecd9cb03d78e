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

/** What writes the notes, in words: the summarizer's name is "extractive (why)", "local:MODEL" or "openai:MODEL". */
function writtenBy(summary: string) {
  const extract = /^extractive(?: \((.*)\))?$/.exec(summary);
  if (extract)
    return (
      <>
        No language model writes them yet: a note's summary and enhanced note are extracts of what was said, and answers
        quote the moments found{extract[1] ? ` (${extract[1]})` : ""}. Set one up below for written notes and answers.
      </>
    );
  const [kind, ...model] = summary.split(":");
  return kind === "local" ? (
    <>
      Notes and answers are written by the language model on this server, <strong>{model.join(":")}</strong>.
    </>
  ) : (
    <>
      Notes and answers are written by <strong>{model.join(":") || summary}</strong>, on the model server below.
    </>
  );
}

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
      <p id="ai-state">{writtenBy(config.effective.summary)}</p>
      <section>
        <h2>A language model</h2>
        <p class="small muted">
          Any OpenAI-compatible chat-completions server: OpenAI, OpenRouter, or one you run (Ollama, LM Studio, vLLM).
          Transcripts are sent there.
        </p>
        <p class="small" id="ai-who">
          {config.privateUrlsForWorkspaces ? (
            <>
              This server lets workspaces use model servers on its own machine or private network (an Ollama on
              localhost, say), as well as ones on the internet.
            </>
          ) : (
            <>
              As a workspace admin you can use a model server reachable on the internet, or the small model on this
              server below. A model server on this machine or a private network (an Ollama on localhost, say) is refused
              until the server's operator allows it, by starting notula with <code>--allow-private-ai-urls</code>.
            </>
          )}
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
