import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // The SQLite-only vector index tables live beside the shared schema (see vector-index.ts).
  schema: ["./src/db/schema/index.ts", "./src/db/schema/vector-index.ts"],
  out: "./drizzle",
});
