import { defineConfig } from "drizzle-kit";

// PostgreSQL migrations, generated from the same schema source as SQLite's (see
// src/db/pg/schema.ts): `npm run db:generate` writes both.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/pg/tables.ts",
  out: "./drizzle/pg",
});
