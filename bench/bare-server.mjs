// A reference point for the REST benchmark: the same stack (hono on node-server,
// better-sqlite3) serving a bare 20-row page of notes with no auth, validation or
// shaping. Started on the benchmark's database, in its own process.
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import { Hono } from "hono";

const db = new Database(process.argv[2], { readonly: true });
const ws = db.prepare("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").get().id;
const page = db.prepare("SELECT * FROM notes WHERE workspace_id = ? ORDER BY created_at DESC LIMIT 20");
const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
app.get("/bare", (c) => c.json({ items: page.all(ws) }));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => console.log(`http://127.0.0.1:${info.port}`));
