// Asking one's meetings: the question's time words become dates, the one search finds
// the moments (scoped by the access policy, so an answer never reads a note its asker
// may not see), and the workspace's answerer writes from those moments alone, citing
// them. Nothing relevant found: the answer says so and what was searched, and no model
// is asked. Each person's questions are kept as their own threads.
import { isSmallTalk } from "../ai/ask/small-talk.js";
import { noteMoments } from "../ai/ask/note-moments.js";
import { answeringMeetings } from "../ai/ask/answering-meetings.js";
import { searchedWords } from "../ai/ask/question-words.js";
import { noteUrl } from "../shared/note-links.js";
import type { Repositories } from "../db/repos/index.js";
import type { AskScopeValue, AskTurnValue } from "../db/schema/ask.js";
import type { AskThreadRow } from "../db/repos/ask-threads.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import { iso } from "../core/clock.js";
import { newId } from "../core/ids.js";
import { BadRequestError, GatewayTimeoutError, NotFoundError, RateLimitError } from "../core/errors.js";
import { publicErrorMessage } from "../core/error-message.js";
import { contentTerms, parseSearchQuery } from "../core/search-query.js";
import { readTime, type TimeWindow } from "../ai/ask/time-words.js";
import type { Answerer, Moment } from "../ai/ask/answerers.js";
import type { SearchService } from "./search.js";
import type { Access } from "./access.js";
import type { ConcurrencyLimiter } from "../core/concurrency.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { AskAnswerDto, AskCitationDto, AskInput, AskThreadDto } from "../shared/schemas/ask.js";

/** A JSON answer is given up this long before the request's own time limit, to say why. */
const ONCE_MARGIN_MS = 2_000;

/** Meetings a question reads at most, and moments given to the answerer, the best of each meeting first. */
const NOTES_SEARCHED = 12;
const MOMENTS = 12;
/**
 * How long a question holds its place among those answered at once: past any answer's
 * time limit, so that a replica that died answering gives the place back by itself.
 */
const ASK_LEASE_MS = 10 * 60_000;

export interface AskDeps {
  repos: Repositories;
  search: Pick<SearchService, "search">;
  access: Access;
  answerer: (workspaceId: string) => Promise<Answerer>;
  now: Clock;
  /** For the citations' links. */
  publicUrl: string;
  /** Places among the questions answered at once, counted across replicas. */
  leases: ConcurrencyLimiter;
  /** The settings table's limits.askPerPerson, limits.askPerWorkspace and the request time limit. */
  limits: Pick<ResolvedConfig["limits"], "askPerPerson" | "askPerWorkspace" | "requestTimeoutMs">;
}

const unmark = (s: string) => s.replace(/[«»]/g, "");

/**
 * Moments taken a meeting at a time: every meeting's best, in search's order, then
 * every meeting's second, and so on. A question that several meetings answer cites
 * each of them before it cites a second line of any.
 */
function eachNoteInTurn(moments: Moment[]): Moment[] {
  const byNote = new Map<string, Moment[]>();
  for (const m of moments) byNote.set(m.noteId, [...(byNote.get(m.noteId) ?? []), m]);
  const out: Moment[] = [];
  for (let round = 0; out.length < moments.length; round++)
    for (const list of byNote.values()) if (list[round]) out.push(list[round]);
  return out;
}

export function createAskService(d: AskDeps) {
  const { repos } = d;
  const owner = (p: Principal) => ({ workspaceId: p.workspaceId, userId: p.userId });

  async function claim(p: Principal): Promise<() => Promise<void>> {
    const release = await d.leases.acquire(
      [
        { key: `ask:u:${p.workspaceId}:${p.userId}`, limit: d.limits.askPerPerson },
        { key: `ask:w:${p.workspaceId}`, limit: d.limits.askPerWorkspace },
      ],
      ASK_LEASE_MS,
    );
    if (!release) throw new RateLimitError(5);
    return release;
  }

  const link = (noteId: string, startSec: number | null) => noteUrl(d.publicUrl, noteId, startSec);

  /** A note's transcript with the names given to its speakers. */
  async function transcript(noteId: string) {
    const names = await repos.speakers.namesOf(noteId);
    return (await repos.notes.segmentsOf(noteId)).map((s) => ({
      ...s,
      speaker: names.get(s.speaker)?.name ?? s.speaker,
    }));
  }

  /** The lines around segment `i`, for the answerer to read. */
  const around = (lines: { speaker: string; text: string }[], i: number) =>
    lines
      .slice(Math.max(0, i - 1), i + 2)
      .map((l) => `${l.speaker}: ${l.text}`)
      .join("\n");

  /** One meeting's moments: its transcript's and its typed note's, those that say the question's words first. */
  async function momentsOfNote(
    row: { id: string; title: string; createdAt: number; userWrittenNote: string },
    words: string[],
  ): Promise<Moment[]> {
    return noteMoments(row, await transcript(row.id), words);
  }

  /** Across meetings: the one search's moments, the closest first; a note found by a few common words is left out. */
  async function momentsFound(p: Principal, q: string, scope: AskScopeValue): Promise<Moment[]> {
    const searched = (mode: "hybrid" | "semantic") =>
      d.search.search(
        p,
        {
          q,
          mode,
          limit: NOTES_SEARCHED,
          folderIds: scope.folderIds,
          fromDate: scope.fromDate,
          toDate: scope.toDate,
          participantEmail: scope.participantEmail,
        },
        "similarity",
      );
    // No word worth searching for, or (for meaning) no sentence model: nothing found that way.
    const unless = <T>(search: Promise<T>) =>
      search.catch((err: unknown) => {
        if (err instanceof BadRequestError) return null;
        throw err;
      });
    // The question's meaning alone too (its embedding is the one hybrid asked for, kept).
    const [found, byMeaning] = await Promise.all([unless(searched("hybrid")), unless(searched("semantic"))]);
    if (!found) return [];
    // Meetings whose meaning is close to the question's, above the model's floor.
    const related = new Set(byMeaning?.results.map((r) => r.note.id));
    const terms = contentTerms(parseSearchQuery(q)).words.length;
    const out: Moment[] = [];
    for (const r of answeringMeetings(found.results, related, terms)) {
      const lines = r.matches.some((m) => m.segment !== null) ? await transcript(r.note.id) : [];
      for (const m of r.matches) {
        const i = m.segment !== null && m.segment < lines.length ? m.segment : -1;
        const line = i >= 0 ? lines[i] : null;
        out.push({
          n: 0,
          noteId: r.note.id,
          title: r.note.title,
          createdAt: Date.parse(r.note.createdAt),
          startSec: line ? line.startSec : null,
          speaker: line ? line.speaker : m.speaker,
          quote: line ? line.text : unmark(m.text),
          context: line ? around(lines, i) : unmark(m.text),
        });
      }
    }
    return eachNoteInTurn(out);
  }

  /** The moments worth quoting: each line once, and no greeting or thanks. */
  function readable(moments: Moment[]): Moment[] {
    const seen = new Set<string>();
    return moments.filter((m) => {
      const key = `${m.noteId} ${m.quote.toLowerCase().replace(/\s+/g, " ").trim()}`;
      if (seen.has(key) || isSmallTalk(m.quote)) return false;
      seen.add(key);
      return true;
    });
  }

  /** What was searched, said in the answer. */
  function searchedText(words: string, scope: AskScopeValue, window: TimeWindow | null, title: string | null) {
    const where = title ? `the meeting "${title}"` : "the meetings you can see";
    const filters = [
      window?.said,
      !window && scope.fromDate ? `from ${iso(scope.fromDate).slice(0, 10)}` : null,
      !window && scope.toDate ? `before ${iso(scope.toDate).slice(0, 10)}` : null,
      scope.folderIds?.length ? `in ${scope.folderIds.length} folder${scope.folderIds.length > 1 ? "s" : ""}` : null,
      scope.participantEmail ? `with ${scope.participantEmail}` : null,
    ].filter(Boolean);
    return `"${words}" in ${where}${filters.length ? `, ${filters.join(", ")}` : ""}, by words and by meaning`;
  }

  const presentThread = (t: AskThreadRow): AskThreadDto => ({
    id: t.id,
    title: t.title,
    noteId: t.scope.noteId ?? null,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    turns: t.turns.map((x) => ({
      question: x.question,
      answer: x.answer,
      found: x.found,
      citations: x.citations.map((c) => ({ ...c, url: link(c.noteId, c.startSec) })),
      engine: x.engine,
      partial: x.partial,
      error: x.error,
      askedAt: iso(x.at),
    })),
  });

  return {
    /**
     * Checks `input` (the thread is the asker's, the note one they may see, not too many
     * asks running) and returns the answering itself, which gives each piece of the
     * answer to `onText` as it is written. A model that fails mid-answer ends it with
     * `error`, keeping what was written. Splitting the two lets a stream start only once
     * the request is known to be good.
     */
    async start(
      p: Principal,
      input: AskInput,
    ): Promise<(onText?: (text: string) => void, signal?: AbortSignal) => Promise<AskAnswerDto>> {
      const thread = input.threadId ? await repos.askThreads.get(owner(p), input.threadId) : null;
      if (input.threadId && !thread) throw new NotFoundError(`Thread ${input.threadId} not found.`);
      const given: AskScopeValue = {
        ...(input.noteId ? { noteId: input.noteId } : {}),
        ...(input.folderIds?.length ? { folderIds: input.folderIds } : {}),
        ...(input.fromDate !== undefined ? { fromDate: input.fromDate } : {}),
        ...(input.toDate !== undefined ? { toDate: input.toDate } : {}),
        ...(input.participantEmail ? { participantEmail: input.participantEmail } : {}),
      };
      // A follow-up looks where its thread looked, unless it says otherwise.
      const scope: AskScopeValue = Object.keys(given).length ? given : (thread?.scope ?? {});
      const time = readTime(input.question, d.now());
      let window = time.window;
      if (time.sinceMeeting) {
        // The latest meeting of that name, as the one search finds it.
        const since = await d.search
          .search(p, { q: time.sinceMeeting, mode: "fulltext", limit: 1 })
          .catch(() => ({ results: [] }));
        const first = since.results[0]?.note;
        if (first)
          window = {
            fromDate: Date.parse(first.createdAt),
            said: `since "${first.title}" (${first.createdAt.slice(0, 10)})`,
          };
      }
      const searchScope: AskScopeValue = {
        ...scope,
        ...(window ? { fromDate: window.fromDate, toDate: window.toDate } : {}),
      };
      // The subject is searched for, not the asking words ("what was said about").
      const words = searchedWords(time.rest || input.question);
      const note = scope.noteId ? await repos.notes.get(await d.access.view(p), scope.noteId) : null;
      if (scope.noteId && !note) throw new NotFoundError(`Note ${scope.noteId} not found.`);
      const release = await claim(p);
      return async (onText = () => {}, signal = new AbortController().signal, onQueued?: (ahead: number) => void) => {
        try {
          const title = note?.title ?? null;
          const moments0 = note
            ? await momentsOfNote(note, contentTerms(parseSearchQuery(words)).words)
            : await momentsFound(p, words, searchScope);
          const moments = readable(moments0)
            .slice(0, MOMENTS)
            .map((m, i) => ({ ...m, n: i + 1 }));
          const searched = searchedText(words, searchScope, window, title);
          let answer = "";
          const emit = (text: string) => {
            answer += text;
            onText(text);
          };
          let engine = "none";
          let partial = false;
          let error: string | null = null;
          if (!moments.length)
            emit(`Nothing found: searched for ${searched}. No answer is given without a moment to cite.`);
          else {
            const answerer = await d.answerer(p.workspaceId);
            engine = answerer.name;
            try {
              partial = (
                await answerer.answer(
                  {
                    question: input.question,
                    moments,
                    history: (thread?.turns ?? []).slice(-4).map((t) => ({ question: t.question, answer: t.answer })),
                  },
                  emit,
                  signal,
                  { onQueued },
                )
              ).partial;
              // The engine that answered: the quotes, where the local model could not.
              engine = answerer.name;
            } catch (err) {
              if (signal.aborted) throw err;
              error = publicErrorMessage(err);
            }
            if (partial) emit("\n\n(Only part of what was found could be read: the rest did not fit the model.)");
          }
          const citations: AskCitationDto[] = moments.map((m) => ({
            noteId: m.noteId,
            title: m.title,
            startSec: m.startSec,
            speaker: m.speaker,
            quote: m.quote,
            url: link(m.noteId, m.startSec),
          }));
          const turn: AskTurnValue = {
            question: input.question,
            answer,
            found: moments.length > 0,
            citations: citations.map(({ url: _url, ...c }) => c),
            engine,
            partial,
            error,
            at: d.now(),
          };
          const threadId = thread?.id ?? newId("ask");
          if (thread)
            await repos.askThreads.update(owner(p), thread.id, { turns: [...thread.turns, turn], updatedAt: d.now() });
          else
            await repos.askThreads.create({
              id: threadId,
              ...owner(p),
              title: input.question.slice(0, 200),
              scope,
              turns: [turn],
              createdAt: d.now(),
              updatedAt: d.now(),
            });
          return { answer, found: turn.found, citations, threadId, engine, partial, searched, error };
        } finally {
          await release().catch(() => {});
        }
      };
    },

    /**
     * The whole answer at once, for a client that does not read the stream. A model too
     * slow to finish before the request's time limit is stopped (freeing it for the next
     * question) and the asker is told to read the answer as it is written instead.
     */
    async once(
      answer: (onText?: (text: string) => void, signal?: AbortSignal) => Promise<AskAnswerDto>,
      signal: AbortSignal,
    ): Promise<AskAnswerDto> {
      const limitMs = Math.max(1_000, d.limits.requestTimeoutMs - ONCE_MARGIN_MS);
      const late = new GatewayTimeoutError(
        `The model did not finish its answer within ${Math.round(limitMs / 1000)} s, so it was stopped. Ask for the answer as it is written: send Accept: text/event-stream (what \`notula ask\` and the web app do).`,
      );
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(late), limitMs);
      const onAbort = () => stop.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        return await answer(undefined, stop.signal);
      } catch (err) {
        throw stop.signal.reason === late ? late : err;
      } finally {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      }
    },

    async threads(p: Principal) {
      return (await repos.askThreads.list(owner(p), 100)).map((t) => {
        const { turns: _turns, ...rest } = presentThread(t);
        return { ...rest, questions: t.turns.length };
      });
    },

    async thread(p: Principal, id: string): Promise<AskThreadDto> {
      const t = await repos.askThreads.get(owner(p), id);
      if (!t) throw new NotFoundError(`Thread ${id} not found.`);
      return presentThread(t);
    },

    async deleteThread(p: Principal, id: string): Promise<void> {
      if (!(await repos.askThreads.remove(owner(p), id))) throw new NotFoundError(`Thread ${id} not found.`);
    },
  };
}

export type AskService = ReturnType<typeof createAskService>;
