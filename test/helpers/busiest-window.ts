// The most accepted requests found in any interval of `windowMs` (the intervals that
// matter start at a request): what a limit over a sliding window must keep at or under it.
export function busiestWindow(accepted: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < accepted.length; i++) {
    while (accepted[i] - accepted[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
