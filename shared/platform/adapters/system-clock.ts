import type { Clock } from '../core/ports';

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };
