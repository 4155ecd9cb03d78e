// @ts-check
// Run by the local model's check (services/llm-setup.ts), in a child: load the model,
// make a small context, write a few tokens. What it says goes out as one line of JSON;
// a crash inside llama.cpp is seen by its exit. A file (not code given with -e):
// node-llama-cpp finds its prebuilt build only from a file.
try {
  const { getLlama, LlamaChat, LlamaLogLevel } = await import(process.env.NOTULA_LLAMA_ENTRY);
  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, progressLogs: false });
  const model = await llama.loadModel({ modelPath: process.env.NOTULA_LLM_FILE });
  const context = await model.createContext({ contextSize: Math.min(512, model.trainContextSize || 512), threads: 1 });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  await chat.generateResponse([{ type: "user", text: "Say hello." }], { maxTokens: 4 });
  process.stdout.write(JSON.stringify({ ok: true }) + "\n");
  process.exit(0);
} catch (err) {
  process.stdout.write(JSON.stringify({ ok: false, message: String(err?.message ?? err) }) + "\n");
  process.exit(1);
}
