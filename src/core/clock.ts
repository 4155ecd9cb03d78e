// Time as the service reads it: one injectable clock, so tests and jobs agree on "now".
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
export const iso = (ms: number): string => new Date(ms).toISOString();
