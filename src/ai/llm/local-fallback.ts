// A local model that is missing or cannot be loaded never costs a note or an answer:
// the note is written offline and the answer quotes the moments, each saying why, and
// the reason is kept for the settings page (cleared once the model works again).
import type { Answerer } from "../ask/answerers.js";
import type { Summarizer } from "../summarization/summarizer.js";
import { LocalModelError } from "./local-model-error.js";

/** Told why the local model could not be used, or null once it was. */
export type ProblemReport = (message: string | null) => Promise<void>;

/** `make`'s engine, or `fallback` when the local model behind it cannot be made or loaded. */
export function summarizerWithFallback(
  make: () => Summarizer,
  fallback: () => Summarizer,
  report: ProblemReport,
): Summarizer {
  let primary: Summarizer;
  try {
    primary = make();
  } catch (err) {
    if (!(err instanceof LocalModelError)) throw err;
    return offline(fallback(), err, report);
  }
  if (!primary.name.startsWith("local:")) return primary;
  return {
    name: primary.name,
    async summarize(input, opts) {
      try {
        const r = await primary.summarize(input, opts);
        await report(null);
        return r;
      } catch (err) {
        if (!(err instanceof LocalModelError)) throw err;
        return offline(fallback(), err, report).summarize(input, opts);
      }
    },
  };
}

function offline(extractive: Summarizer, err: LocalModelError, report: ProblemReport): Summarizer {
  return {
    name: extractive.name,
    async summarize(input, opts) {
      await report(err.message);
      const r = await extractive.summarize(input, opts);
      return {
        ...r,
        writtenBy: extractive.name,
        warnings: [`${err.message}; this note was written offline instead.`, ...r.warnings],
      };
    },
  };
}

/** `make`'s answerer, or `fallback` (the moments quoted) when the local model cannot be made or loaded. */
export function answererWithFallback(make: () => Answerer, fallback: () => Answerer, report: ProblemReport): Answerer {
  let primary: Answerer | null = null;
  let failure: LocalModelError | null = null;
  try {
    primary = make();
  } catch (err) {
    if (!(err instanceof LocalModelError)) throw err;
    failure = err;
  }
  let used = primary?.name ?? fallback().name;
  return {
    get name() {
      return used;
    },
    async answer(ctx, emit, signal, opts) {
      if (primary && !failure) {
        let said = false;
        try {
          const r = await primary.answer(
            ctx,
            (text) => {
              said = true;
              emit(text);
            },
            signal,
            opts,
          );
          if (primary.name.startsWith("local:")) await report(null);
          return r;
        } catch (err) {
          if (!(err instanceof LocalModelError) || said) throw err;
          failure = err;
        }
      }
      await report(failure!.message);
      const quotes = fallback();
      used = quotes.name;
      emit(`${failure!.message}.\n\n`);
      return quotes.answer(ctx, emit, signal, opts);
    },
  };
}
