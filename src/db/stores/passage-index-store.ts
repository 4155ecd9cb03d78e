// The vector index's build side (sqlite/passage-index.ts): SQLite partitions a
// workspace's vectors into cells in the background. PostgreSQL needs none (pgvector's
// HNSW index keeps itself), so its store reports nothing due and refuses the rest.

/** A workspace's vector index of one size. */
export interface IndexTarget {
  workspaceId: string;
  dims: number;
}

export interface IndexStatus extends IndexTarget {
  passages: number;
  cells: number;
  generation: number;
  building: boolean;
  progress: number | null;
}

export interface CellPosition {
  cell: number;
  passageId: number;
}

export interface PassageIndexStore {
  /**
   * Workspaces (or the one given) whose passages of a size are due to be partitioned,
   * or repartitioned, or whose last build stopped before it had moved every passage.
   */
  buildsDue(workspaceId?: string): Promise<IndexTarget[]>;
  unfinishedBuild(target: IndexTarget): Promise<{ generation: number; firstCell: number } | null>;
  /** Takes the build of an index for a lease; false when another holds it. */
  claimBuild(target: IndexTarget, now: number, leaseMs: number): Promise<boolean>;
  buildProgress(target: IndexTarget, now: number, progress: number): Promise<void>;
  passageCount(target: IndexTarget): Promise<number>;
  memberIdsAfter(target: IndexTarget, after: CellPosition | null, limit: number): Promise<CellPosition[]>;
  vectorsOf(ids: number[]): Promise<Float32Array[]>;
  installCells(
    target: IndexTarget,
    centroids: Float32Array[],
    trainedOn: number,
  ): Promise<{ generation: number; firstCell: number }>;
  moveToCells(target: IndexTarget, generation: number, firstCell: number, limit: number): Promise<number>;
  finishBuild(target: IndexTarget, generation: number): Promise<void>;
  releaseBuild(target: IndexTarget): Promise<void>;
  indexStatus(): Promise<IndexStatus[]>;
}
