// Names and terms a person corrected in a transcript, offered for the workspace's
// vocabulary: whisper writes what an unknown name sounds like ("Cooper Netties"), a
// person corrects it ("Kubernetes"), and once an admin takes the offer the name goes
// into the engine's prompt, so the next meeting spells it right. The offers are kept in
// the workspace's AI settings beside the vocabulary (transcription.vocabularyOffered):
// taking one is the vocabulary's own update (PATCH /v1/ai-config), and so is setting
// the offers aside.
import type { AiSettingsStore } from "./ai-settings-store.js";

/** Offers kept at most: the newest, an offer made again moving to the end. */
export const MAX_VOCABULARY_OFFERS = 50;

export interface VocabularyOffers {
  /** Offers the terms the workspace has neither in its vocabulary nor on offer; returns those. */
  offer(workspaceId: string, terms: readonly string[]): Promise<string[]>;
}

export function createVocabularyOffers(store: AiSettingsStore): VocabularyOffers {
  return {
    async offer(workspaceId, terms) {
      if (!terms.length) return [];
      let fresh: string[] = [];
      await store.write(workspaceId, (s) => {
        const t = s.transcription ?? {};
        const known = new Set([...(t.vocabulary ?? []), ...(t.vocabularyOffered ?? [])].map((v) => v.toLowerCase()));
        fresh = terms.filter((term) => !known.has(term.toLowerCase())).map((term) => term.slice(0, 100));
        if (!fresh.length) return s;
        const offered = [...(t.vocabularyOffered ?? []), ...fresh].slice(-MAX_VOCABULARY_OFFERS);
        return { ...s, transcription: { ...t, vocabularyOffered: offered } };
      });
      return fresh;
    },
  };
}
