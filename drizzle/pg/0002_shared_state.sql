CREATE TABLE "mcp_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_states" (
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "pending_states_kind_key_hash_pk" PRIMARY KEY("kind","key_hash")
);
--> statement-breakpoint
CREATE INDEX "mcp_sessions_expiry_idx" ON "mcp_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "pending_states_expiry_idx" ON "pending_states" USING btree ("expires_at");