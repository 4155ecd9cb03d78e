// Polling for something that happens in the background (a job, a delivery, a log line).

/**
 * Calls `probe` until it returns something truthy, and returns that; fails after
 * `timeoutMs`, saying what was awaited (`what` may be a function, read only then: the
 * server's output at that moment, say).
 */
export async function until<T>(
  what: string | (() => string),
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
