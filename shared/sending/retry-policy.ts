/** How often and how late a temporarily failed send is tried again. */
export const MAX_SEND_ATTEMPTS = 5;

/** Seconds before attempt `nextAttempt` (2..5): 30, 60, 120, 240 plus up to 10 s of jitter; SQS caps at 900. */
export function retryDelaySeconds(nextAttempt: number, random: () => number = Math.random): number {
  const base = 30 * 2 ** Math.max(0, nextAttempt - 2);
  return Math.min(900, base + Math.floor(random() * 10));
}
