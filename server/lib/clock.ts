/** Time as the server sees it; tests pass a clock they can move (idle time-outs, code expiry). */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
