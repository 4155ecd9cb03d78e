// The MCP server factory: the read-only tools over the services (the interface's six,
// and the action items), for one principal. Every transport (streamable HTTP, stdio) builds its own instance.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  ListToolsRequestSchema,
  ListToolsResultSchema,
  type CallToolResult,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Services } from "../services/index.js";
import type { Principal } from "../core/principal.js";
import { AppError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { Pagination } from "../shared/schemas/common.js";
import { Note, NoteListQuery } from "../shared/schemas/notes.js";
import {
  KnowledgeSearchQuery,
  KnowledgeSearchResult,
  NoteSearchQuery,
  NoteSearchResult,
} from "../shared/schemas/search.js";
import { Member, MemberListQuery, Workspace } from "../shared/schemas/workspace.js";
import { ActionItem, ActionItemListQuery } from "../shared/schemas/action-items.js";
import { TranscriptWindow, TranscriptWindowInput, windowTranscript } from "./transcript-window.js";

export const MCP_SERVER_INFO = { name: "MCP Server", version: "1.0.0" } as const;
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

type Scope = "notes" | "users" | null;

/**
 * The JSON Schema validator every session's server is given. The SDK makes a new Ajv per
 * server otherwise (over a millisecond of each new session, and its garbage), for
 * elicitation forms that a read-only server never sends; the validator keeps nothing of a
 * session's, so one serves all.
 */
let validator: AjvJsonSchemaValidator | undefined;

export const TOOL_DESCRIPTIONS: Record<string, string> = {
  svc_list_notes:
    "List the workspace's meeting notes, newest first, with the filters of the notes API (status, kind, title search, creator, dates, folders, participant); updatedAfter with sortBy updatedAt gives what changed since a sync.",
  svc_get_note:
    "Read one meeting note: summary, AI-enhanced note, the user's notes, speakers and the transcript. A long transcript comes in parts: pass fromTimestamp/toTimestamp or fromSegment/toSegment for a window, maxChars for a budget, and cursor to read on.",
  svc_search_notes:
    "Search meeting notes by what was written or said (title, notes, summary, transcript), ranked by relevance, with snippets and, for words said in a meeting, the timestamp and speaker to cite.",
  svc_search_knowledge:
    "Search meeting content and the workspace knowledge base together; results are notes and articles with snippets.",
  svc_list_action_items:
    "List action items from the meetings: each task with its owner, due date, whether it is done, and the note and moment it was said; assignee 'me' for the caller's own, status open or done, noteId, dueBefore (YYYY-MM-DD).",
  svc_list_members: "List workspace members with their roles, groups and folder assignments.",
  svc_get_workspace: "The workspace: name, settings and allowed email domains.",
};

// Every tool's arguments are a strict object, as REST bodies are: an argument a tool does
// not know is refused by name (InvalidParams, reported as a tool error the client can
// correct), never dropped. Passing a bare shape would let the SDK rebuild a lenient one.

function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

function fail(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** The list filters of GET /v1/notes, without the deprecated tagIds alias. */
const ListNotesInput = NoteListQuery.omit({ tagIds: true }).strict();

/**
 * `caller` gives the principal of the request being answered: a session outlives
 * requests, and each one is authenticated afresh (a changed role or folder membership
 * counts on the next call, a revoked credential never reaches here).
 */
export function createMcpServer(
  services: Services,
  caller: Principal | (() => Principal),
  logger: Logger,
  opts: {
    /** tools/list's answer made once (toolListing): the SDK would turn every schema into JSON Schema per session. */
    listing?: Promise<ListToolsResult>;
  } = {},
): McpServer {
  const current = typeof caller === "function" ? caller : () => caller;
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
  });
  const log = logger.child({ component: "mcp", workspace: current().workspaceId });

  /**
   * The one error mapping of the MCP surface, for every tool: a scope it lacks or a
   * service error is a tool error with the service's message; anything else is logged
   * and reported without its details. Never a protocol error.
   */
  const guarded =
    <A>(tool: string, scope: Scope, run: (args: A, principal: Principal) => CallToolResult | Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      const principal = current();
      if (scope && !principal.scopes.has(scope))
        return fail(
          `This credential lacks the '${scope}' scope that this tool needs; ask for a key (or sign-in) with ${scope} access.`,
        );
      try {
        return await run(args, principal);
      } catch (err) {
        if (err instanceof AppError) return fail(err.message);
        log.error({ err, tool }, "MCP tool failed unexpectedly");
        return fail("The tool failed unexpectedly; the server log has the details.");
      }
    };

  server.registerTool(
    "svc_list_notes",
    {
      description: TOOL_DESCRIPTIONS.svc_list_notes,
      inputSchema: ListNotesInput,
      outputSchema: { notes: z.array(Note), pagination: Pagination },
      annotations: readOnly,
    },
    guarded("svc_list_notes", "notes", async (a, principal) => {
      const r = await services.notes.list(principal, { ...a, tagIds: undefined });
      const text = r.items.length
        ? r.items.map((n) => `- ${n.title} (${n.id}, ${n.createdAt.slice(0, 10)}, ${n.status})`).join("\n")
        : "No notes match.";
      return ok(
        { notes: r.items, pagination: r.pagination },
        text + (r.pagination.isLast ? "" : `\nMore: offset ${r.pagination.nextOffset}.`),
      );
    }),
  );

  server.registerTool(
    "svc_list_action_items",
    {
      description: TOOL_DESCRIPTIONS.svc_list_action_items,
      inputSchema: ActionItemListQuery.strict(),
      outputSchema: { actionItems: z.array(ActionItem), pagination: Pagination },
      annotations: readOnly,
    },
    guarded("svc_list_action_items", "notes", async (a, principal) => {
      const r = await services.actionItems.list(principal, a);
      const text = r.items.length
        ? r.items
            .map(
              (i) =>
                `- [${i.done ? "x" : " "}] ${i.text}${i.owner ? ` (owner: ${i.owner.name})` : ""}${i.due ? ` (due: ${i.due})` : ""} — ${i.noteTitle} (${i.url})`,
            )
            .join("\n")
        : "No action items match.";
      return ok(
        { actionItems: r.items, pagination: r.pagination },
        text + (r.pagination.isLast ? "" : `\nMore: offset ${r.pagination.nextOffset}.`),
      );
    }),
  );

  /** 95 → "1:35": how long someone spoke. */
  const talkTime = (sec: number) => `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;

  server.registerTool(
    "svc_get_note",
    {
      description: TOOL_DESCRIPTIONS.svc_get_note,
      inputSchema: z.strictObject({ id: z.string().min(1).describe("note id"), ...TranscriptWindowInput }),
      outputSchema: { note: Note, transcriptWindow: TranscriptWindow },
      annotations: readOnly,
    },
    guarded("svc_get_note", "notes", async ({ id, ...windowArgs }, principal) => {
      const full = await services.notes.get(principal, id);
      const { transcripts, window } = windowTranscript(full, windowArgs);
      const note = { ...full, transcripts };
      const parts = [`# ${note.title}`, `${note.createdAt} · ${note.status}`];
      if (note.template) parts.push(`Template: ${note.template.name ?? note.template.id}`);
      if (note.speakers?.length)
        parts.push(`Speakers: ${note.speakers.map((s) => `${s.name} (${talkTime(s.talkTimeSec)})`).join(", ")}`);
      if (note.summary) parts.push("## Summary", note.summary);
      if (note.enhancedNote) parts.push("## Enhanced note", note.enhancedNote);
      if (note.userWrittenNote) parts.push("## Notes", note.userWrittenNote);
      if (transcripts.length) {
        const range =
          window.totalSegments > transcripts.length
            ? ` (segments ${window.fromSegment}–${window.toSegment} of ${window.totalSegments})`
            : "";
        parts.push(
          `## Transcript${range}`,
          transcripts.map((s) => `[${s.startTimestamp}] ${s.speaker}: ${s.text}`).join("\n"),
        );
      }
      if (window.nextCursor) parts.push(`More of the transcript: call again with cursor "${window.nextCursor}".`);
      return ok({ note, transcriptWindow: window }, parts.join("\n\n"));
    }),
  );

  server.registerTool(
    "svc_search_notes",
    {
      description: TOOL_DESCRIPTIONS.svc_search_notes,
      inputSchema: NoteSearchQuery.strict(),
      outputSchema: NoteSearchResult.shape,
      annotations: readOnly,
    },
    guarded("svc_search_notes", "notes", async (a, principal) => {
      const r = await services.search.notes(principal, a);
      const text = r.count
        ? r.notes.map((n) => `- ${n.title} (${n.id}): ${n.snippet} ${n.url}`).join("\n")
        : `No notes mention "${a.query}".`;
      return ok(r, text);
    }),
  );

  server.registerTool(
    "svc_search_knowledge",
    {
      description: TOOL_DESCRIPTIONS.svc_search_knowledge,
      inputSchema: KnowledgeSearchQuery.strict(),
      outputSchema: KnowledgeSearchResult.shape,
      annotations: readOnly,
    },
    guarded("svc_search_knowledge", "notes", async (a, principal) => {
      const r = await services.search.knowledge(principal, a);
      const text = r.results.length
        ? r.results
            .map((x) => `- [${x.source}] ${x.title} (${x.id}): ${x.snippet}${x.url ? ` ${x.url}` : ""}`)
            .join("\n")
        : `Nothing found for "${a.query}".`;
      return ok(r, `${text}\n(${r.note})`);
    }),
  );

  server.registerTool(
    "svc_list_members",
    {
      description: TOOL_DESCRIPTIONS.svc_list_members,
      inputSchema: MemberListQuery.strict(),
      outputSchema: { members: z.array(Member), pagination: Pagination },
      annotations: readOnly,
    },
    guarded("svc_list_members", "users", async (a, principal) => {
      const r = await services.directory.listMembers(principal, a);
      const text = r.items
        .map(
          (m) =>
            `- ${m.name} <${m.email}> (${m.role}; groups: ${m.groups.map((g) => g.name).join(", ") || "none"}; folders: ${m.folders.map((f) => f.name).join(", ") || "none"})`,
        )
        .join("\n");
      return ok({ members: r.items, pagination: r.pagination }, text || "No members match.");
    }),
  );

  server.registerTool(
    "svc_get_workspace",
    {
      description: TOOL_DESCRIPTIONS.svc_get_workspace,
      inputSchema: z.strictObject({}),
      outputSchema: { workspace: Workspace },
      annotations: readOnly,
    },
    guarded("svc_get_workspace", null, async (_a, principal) => {
      const workspace = await services.workspaces.get(principal.workspaceId);
      return ok(
        { workspace },
        `${workspace.name} (${workspace.id}); language ${workspace.settings.defaultLanguage}; allowed domains: ${workspace.allowedEmailDomains.join(", ") || "none"}`,
      );
    }),
  );

  const { listing } = opts;
  if (listing) server.server.setRequestHandler(ListToolsRequestSchema, () => listing);
  return server;
}

/** The tools as tools/list gives them, the same for every principal: made once for a server's sessions. */
export async function toolListing(services: Services, logger: Logger): Promise<ListToolsResult> {
  const nobody: Principal = { workspaceId: "", userId: "", keyId: "", scopes: new Set(), plan: "free", role: "member" };
  const server = createMcpServer(services, nobody, logger);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "notula-tool-listing", version: "1" });
  await Promise.all([server.connect(a), client.connect(b)]);
  try {
    // A plain request: the client's listTools also compiles a validator for each tool's
    // output, which nothing here uses (a few hundred ms, on the first session's request).
    return await client.request({ method: "tools/list" }, ListToolsResultSchema);
  } finally {
    await client.close();
    await server.close();
  }
}
