// Where counts are kept for the limits (API requests per key, requests per address,
// failed sign-ins). One process counts in memory, exactly and for free; replicas on a
// shared database count in it, so that a limit is one limit however many replicas serve.
// The sliding-window rule over these counts is core/sliding-window.ts.
import type { Clock } from "../core/clock.js";
import type { CounterStore, SlotCount } from "../core/counters.js";
import type { Repositories } from "../db/repos/index.js";

export type { CounterStore, SlotCount };

export function memoryCounters(now: Clock): CounterStore {
  const keys = new Map<string, { slots: Map<number, number>; expiresAt: number }>();
  let swept = 0;
  const sweep = () => {
    const t = now();
    if (t - swept < 60_000) return;
    // Keys seen once must not stay forever.
    for (const [k, v] of keys) if (v.expiresAt <= t) keys.delete(k);
    swept = t;
  };
  function add(key: string, slotStart: number, expiresAt: number, amount: number) {
    sweep();
    let entry = keys.get(key);
    if (!entry) keys.set(key, (entry = { slots: new Map(), expiresAt }));
    entry.slots.set(slotStart, (entry.slots.get(slotStart) ?? 0) + amount);
    entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
    // A key's slots older than its newest window go as new ones come.
    if (entry.slots.size > 64) {
      const newest = Math.max(...entry.slots.keys());
      for (const s of entry.slots.keys()) if (s < newest - (expiresAt - slotStart)) entry.slots.delete(s);
    }
  }
  const store: CounterStore = {
    async addAndRead(key, slotStart, expiresAt, from, amount = 1) {
      add(key, slotStart, expiresAt, amount);
      return store.slots(key, from);
    },
    add(key, slotStart, expiresAt) {
      add(key, slotStart, expiresAt, 1);
      return Promise.resolve();
    },
    undo(key, slotStart, amount = 1) {
      const entry = keys.get(key);
      const n = entry?.slots.get(slotStart);
      if (entry && n) entry.slots.set(slotStart, Math.max(0, n - amount));
      return Promise.resolve();
    },
    slots(key, from) {
      const entry = keys.get(key);
      const out: SlotCount[] = [];
      if (entry) for (const [start, count] of entry.slots) if (start >= from && count > 0) out.push({ start, count });
      return Promise.resolve(out.sort((a, b) => a.start - b.start));
    },
    clear(key) {
      keys.delete(key);
      return Promise.resolve();
    },
  };
  return store;
}

export function databaseCounters(repos: Repositories): CounterStore {
  return {
    shared: true,
    add: (key, slotStart, expiresAt) => repos.sharedState.addCount(key, slotStart, expiresAt),
    addAndRead: (key, slotStart, expiresAt, from, amount) =>
      repos.sharedState.addCountAndRead(key, slotStart, expiresAt, from, amount),
    undo: (key, slotStart, amount) => repos.sharedState.undoCount(key, slotStart, amount),
    slots: (key, from) => repos.sharedState.countsSince(key, from),
    clear: (key) => repos.sharedState.clearCounter(key),
  };
}
