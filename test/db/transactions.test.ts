// The repositories' transactions on the embedded database: one connection serves every
// request, so a transaction that awaits between statements must keep other callers out
// until it ends, roll back whole, and let nested calls join it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { openRuntime, type Runtime } from "../../src/runtime/index.js";
import { tempDir, runtimeConfig } from "../helpers/server.js";

const row = (id: string, name: string) => ({
  id,
  name,
  plan: "enterprise" as const,
  settings: {},
  allowedEmailDomains: [],
  iconUrl: null,
  createdAt: 1,
  updatedAt: 1,
});

describe("repository transactions", () => {
  let rt: Runtime;
  beforeEach(async () => {
    rt = await openRuntime(await runtimeConfig(tempDir(), { publicUrl: "http://127.0.0.1:8787" }));
  });
  afterEach(() => rt.close());

  it("an outside call made while a transaction awaits runs after it commits, never inside it", async () => {
    const { repos } = rt;
    const order: string[] = [];
    // Each step waits for the one before it by a promise, never by a guess at how long it takes.
    const wrote = signal();
    const outsideAsked = signal();
    const tx = repos.transaction(async () => {
      await repos.workspaces.insert(row("ws_a", "first"));
      order.push("tx wrote");
      wrote.fire();
      await outsideAsked.fired; // the outside read is under way while the transaction still awaits
      await new Promise(setImmediate);
      await repos.workspaces.update("ws_a", { name: "renamed" }, 2);
      order.push("tx done");
    });
    const outside = (async () => {
      await wrote.fired;
      order.push("outside asks");
      const reading = repos.workspaces.get("ws_a").then((seen) => {
        order.push("outside read");
        return seen?.name;
      });
      outsideAsked.fire();
      return reading;
    })();
    const [, seenName] = await Promise.all([tx, outside]);
    expect(order).toEqual(["tx wrote", "outside asks", "tx done", "outside read"]);
    expect(seenName).toBe("renamed");
  });

  it("a failure rolls back every write of the transaction, across awaits", async () => {
    const { repos } = rt;
    await expect(
      repos.transaction(async () => {
        await repos.workspaces.insert(row("ws_b", "kept?"));
        await sleep(1);
        await repos.workspaces.insert(row("ws_c", "kept?"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await repos.workspaces.get("ws_b")).toBeNull();
    expect(await repos.workspaces.get("ws_c")).toBeNull();
    // The connection is usable again at once.
    await repos.workspaces.insert(row("ws_d", "after"));
    expect((await repos.workspaces.get("ws_d"))?.name).toBe("after");
  });

  it("a nested transaction joins the outer one; a failing repository call inside is seen by the caller", async () => {
    const { repos } = rt;
    await expect(
      repos.transaction(async () => {
        await repos.transaction(async () => repos.workspaces.insert(row("ws_e", "inner")));
        await repos.workspaces.insert(row("ws_e", "duplicate id")); // primary key violation
      }),
    ).rejects.toThrow(/UNIQUE|PRIMARY/);
    expect(await repos.workspaces.get("ws_e")).toBeNull();
  });

  it("transactions started together run one after the other", async () => {
    const { repos } = rt;
    const log: string[] = [];
    const run = (id: string) =>
      repos.transaction(async () => {
        log.push(`${id} start`);
        await sleep(10);
        await repos.workspaces.insert(row(id, id));
        log.push(`${id} end`);
      });
    await Promise.all([run("ws_1"), run("ws_2"), run("ws_3")]);
    expect(log).toEqual(["ws_1 start", "ws_1 end", "ws_2 start", "ws_2 end", "ws_3 start", "ws_3 end"]);
    expect(await repos.workspaces.count()).toBe(3);
  });

  it("who waits for the connection is served in turn: a read is not overtaken by the transactions after it", async () => {
    const { repos } = rt;
    const log: string[] = [];
    const first = signal();
    const release = signal();
    const holding = repos.transaction(async () => {
      first.fire();
      await release.fired;
      await repos.workspaces.insert(row("ws_h", "held"));
    });
    await first.fired;
    // Asked in this order while the first transaction holds the connection.
    const queued = [
      repos.transaction(async () => {
        log.push("tx 2");
        await new Promise(setImmediate);
        await repos.workspaces.insert(row("ws_q2", "second"));
      }),
      repos.workspaces.count().then((n) => log.push(`read sees ${n}`)),
      repos.transaction(async () => {
        log.push("tx 3");
        await repos.workspaces.insert(row("ws_q3", "third"));
      }),
      repos.workspaces.count().then((n) => log.push(`count ${n}`)),
    ];
    release.fire();
    await Promise.all([holding, ...queued]);
    // The second transaction was first in line; the read waited for it only, not for the
    // third (what it counted says when it ran: the answer may reach it a tick later).
    expect(log.filter((l) => l.startsWith("tx"))).toEqual(["tx 2", "tx 3"]);
    expect(log).toContain("read sees 2");
    expect(log).toContain("count 3");
  });

  it("work a transaction started that outlives it is not inside any transaction", async () => {
    const { repos } = rt;
    const order: string[] = [];
    const secondWrote = signal();
    const timerAsked = signal();
    let later!: Promise<void>;
    await repos.transaction(async () => {
      await repos.workspaces.insert(row("ws_t1", "first"));
      // A timer set inside the transaction inherits its async context.
      later = new Promise<void>((resolve) =>
        setTimeout(async () => {
          await secondWrote.fired;
          order.push("timer asks");
          const writing = repos.workspaces.insert(row("ws_t2", "from the timer")).then(() => {
            order.push("timer wrote");
          });
          timerAsked.fire();
          await writing;
          resolve();
        }, 0),
      );
    });
    await repos.transaction(async () => {
      await repos.workspaces.insert(row("ws_t3", "second"));
      order.push("second wrote");
      secondWrote.fire();
      await timerAsked.fired;
      // Had the timer's write been taken for part of a transaction, it would land now, inside this one.
      await new Promise(setImmediate);
      order.push("second done");
    });
    await later;
    // The timer's write waited for the second transaction instead of landing inside it.
    expect(order).toEqual(["second wrote", "timer asks", "second done", "timer wrote"]);
  });
});

/** A one-time signal between concurrent steps of a test. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}
