// Where request and attempt counts are kept: the interface every limit counts through.
// The stores (memory for one process, the shared database for replicas) are in
// services/counters.ts; the sliding-window rule over them is core/sliding-window.ts.

/** One slot of a sliding window: how many were counted from `start` for one slot's width. */
export interface SlotCount {
  start: number;
  count: number;
}

export interface CounterStore {
  /** Counts shared by replicas, each one a round trip to where they are kept. */
  readonly shared?: boolean;
  /** Counts one more for `key` in the slot beginning at `slotStart`, kept until `expiresAt`. */
  add(key: string, slotStart: number, expiresAt: number): Promise<void>;
  /**
   * Counts `amount` (one by default) as `add` does, then returns the key's slots from
   * `from` on (these counted): what every limited request asks, so that a shared
   * database answers it in one round trip.
   */
  addAndRead(key: string, slotStart: number, expiresAt: number, from: number, amount?: number): Promise<SlotCount[]>;
  /** Takes `amount` (one by default) back from that slot, never below zero: a refused request spends nothing. */
  undo(key: string, slotStart: number, amount?: number): Promise<void>;
  /** The key's slots that begin at or after `from`, oldest first, with a count above zero. */
  slots(key: string, from: number): Promise<SlotCount[]>;
  clear(key: string): Promise<void>;
}
