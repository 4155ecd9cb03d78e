// An OpenAI-compatible server's fields (address, model, key), as the settings forms for
// speech-to-text and the language model ask them; read back by openAiServerChange in
// routes/settings/kit.ts. The key is never shown, only whether one is set.
export function ServerFields(props: { id: string; url: string | null; model: string | null; apiKeySet: boolean }) {
  const { id } = props;
  return (
    <>
      <label for={`${id}-url`}>Server address</label>
      <input
        id={`${id}-url`}
        name="url"
        type="url"
        required
        maxlength={2000}
        placeholder="https://api.openai.com/v1"
        value={props.url ?? ""}
      />
      <label for={`${id}-model`}>Model</label>
      <input id={`${id}-model`} name="model" type="text" maxlength={200} value={props.model ?? ""} />
      <label for={`${id}-key`}>API key {props.apiKeySet ? "(one is set; leave empty to keep it)" : ""}</label>
      <input id={`${id}-key`} name="apiKey" type="password" autocomplete="off" maxlength={500} />
    </>
  );
}
