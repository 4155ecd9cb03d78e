// Leases on places among things running at once, over the counter store: the limit is
// reached exactly, a refusal takes nothing, a release gives the place back, and a lease
// a dead replica never released expires on the injected clock.
import { describe, expect, it } from "vitest";
import { concurrencyLimiter } from "../../src/core/concurrency.js";
import { memoryCounters } from "../../src/services/counters.js";

describe("concurrencyLimiter", () => {
  it("gives `limit` leases on a key and refuses the next, which takes nothing", async () => {
    let t = 1_000_000;
    const leases = concurrencyLimiter(
      memoryCounters(() => t),
      () => t,
    );
    const claims = [
      { key: "person", limit: 2 },
      { key: "team", limit: 3 },
    ];
    const first = await leases.acquire(claims, 60_000);
    const second = await leases.acquire(claims, 60_000);
    expect(first && second).toBeTruthy();
    expect(await leases.acquire(claims, 60_000)).toBeNull();
    // The refused claim gave back its count on "team": another person still fits there.
    expect(await leases.acquire([{ key: "team", limit: 3 }], 60_000)).toBeTruthy();
    expect(await leases.acquire([{ key: "team", limit: 3 }], 60_000)).toBeNull();
    await first!();
    await first!(); // released once, however often it is called
    t += 1;
    expect(await leases.acquire([{ key: "person", limit: 2 }], 60_000)).toBeTruthy();
    expect(await leases.acquire([{ key: "person", limit: 2 }], 60_000)).toBeNull();
  });

  it("lets a lease that was never released expire after its time", async () => {
    let t = 5_000_000;
    const leases = concurrencyLimiter(
      memoryCounters(() => t),
      () => t,
    );
    expect(await leases.acquire([{ key: "k", limit: 1 }], 10_000)).toBeTruthy();
    t += 9_999;
    expect(await leases.acquire([{ key: "k", limit: 1 }], 10_000)).toBeNull();
    t += 1;
    expect(await leases.acquire([{ key: "k", limit: 1 }], 10_000)).toBeTruthy();
  });
});
