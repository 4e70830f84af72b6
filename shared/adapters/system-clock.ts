import type { Clock } from '../ports';

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };
