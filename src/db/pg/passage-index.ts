// SQLite's vector cells (repos/passage-index.ts) have no counterpart on PostgreSQL:
// pgvector's HNSW index keeps itself, and without it search is exact. Nothing is ever
// due a build, so nothing else here is called.
import type { IndexStatus, IndexTarget, PassageIndexStore } from "../stores/passage-index-store.js";

const notHere = (): never => {
  throw new Error("Vector cells are SQLite's; PostgreSQL has none to build.");
};

export function pgPassageIndexRepo(): PassageIndexStore {
  return {
    buildsDue: async (_workspaceId?: string): Promise<IndexTarget[]> => [],
    unfinishedBuild: async (_target: IndexTarget): Promise<{ generation: number; firstCell: number } | null> => null,
    claimBuild: async (_target: IndexTarget, _now: number, _leaseMs: number) => false,
    buildProgress: async (_target: IndexTarget, _now: number, _progress: number): Promise<void> => notHere(),
    passageCount: async (_target: IndexTarget): Promise<number> => notHere(),
    memberIdsAfter: async (
      _target: IndexTarget,
      _after: { cell: number; passageId: number } | null,
      _limit: number,
    ): Promise<{ cell: number; passageId: number }[]> => notHere(),
    vectorsOf: async (_ids: number[]): Promise<Float32Array[]> => notHere(),
    installCells: async (
      _target: IndexTarget,
      _centroids: Float32Array[],
      _trainedOn: number,
    ): Promise<{ generation: number; firstCell: number }> => notHere(),
    moveToCells: async (
      _target: IndexTarget,
      _generation: number,
      _firstCell: number,
      _limit: number,
    ): Promise<number> => notHere(),
    finishBuild: async (_target: IndexTarget, _generation: number): Promise<void> => notHere(),
    releaseBuild: async (_target: IndexTarget): Promise<void> => {},
    indexStatus: async (): Promise<IndexStatus[]> => [],
  };
}
