-- Every change to what a caller is (a key, a session, a membership, a workspace's plan
-- or settings, a user, a private folder and its members) notifies the channel
-- notula_facts on commit, so that each process may keep these reads in memory between
-- changes (src/db/pg/fact-changes.ts). A key's last use is kept to the minute and is
-- not such a change.
CREATE OR REPLACE FUNCTION notula_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('notula_facts', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_facts_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, workspace_id, user_id, key_hash, scopes, revoked_at ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
--> statement-breakpoint
CREATE TRIGGER web_sessions_facts_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON web_sessions FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
--> statement-breakpoint
CREATE TRIGGER members_facts_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON members FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
--> statement-breakpoint
CREATE TRIGGER workspaces_facts_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON workspaces FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
--> statement-breakpoint
CREATE TRIGGER users_facts_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
--> statement-breakpoint
CREATE TRIGGER folders_facts_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON folders FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
--> statement-breakpoint
CREATE TRIGGER folder_members_facts_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON folder_members FOR EACH STATEMENT EXECUTE FUNCTION notula_facts_changed();
