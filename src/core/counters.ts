// Where fixed-window counts are kept (rate limits, failed sign-ins): the interface every
// layer counts through; the stores (memory, the shared database) are in services/counters.ts.

export interface WindowCount {
  count: number;
  /** When the current window ends (ms since the epoch). */
  resetAt: number;
  /** The count in the window before this one (given by peek): what a sliding window weighs in. */
  previous?: number;
}

export interface CounterStore {
  /** Counts one more for `key` in the current window of `windowMs`. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The count so far in the current window, and the previous window's count. */
  peek(key: string, windowMs: number): Promise<WindowCount>;
  clear(key: string): Promise<void>;
}
