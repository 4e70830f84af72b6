/**
 * How often a pending domain is asked about: every 5 minutes in its first hour, hourly for the rest
 * of its first day, every 6 hours until 72 hours (when SES itself gives up), then no more.
 */
export function nextDomainCheckAt(createdAt: string, now: Date): string | undefined {
  const age = now.getTime() - Date.parse(createdAt);
  const minutes = (n: number) => n * 60_000;
  let step: number;
  if (age < minutes(60)) step = minutes(5);
  else if (age < minutes(24 * 60)) step = minutes(60);
  else if (age < minutes(72 * 60)) step = minutes(6 * 60);
  else return undefined;
  return new Date(now.getTime() + step).toISOString();
}

/** Magic-link senders are asked every 2 minutes for the 24 hours a verification link stays valid. */
export function nextSenderCheckAt(createdAt: string, now: Date): string | undefined {
  const age = now.getTime() - Date.parse(createdAt);
  if (age >= 24 * 3_600_000) return undefined;
  return new Date(now.getTime() + 2 * 60_000).toISOString();
}
