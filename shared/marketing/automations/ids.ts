/**
 * The engine's derived ids (RFC 4122 version 5, name-based with SHA-1): a run's id from its
 * automation, lead and entry key, and a step's effect id (its mail's activity, its webhook event)
 * from the run and the step's seq. A redelivered entry or a redone step derives the same id, so the
 * conditional writes downstream (the run's put, the pipeline's accept) refuse a second one.
 */
import { createHash } from 'node:crypto';

/** The namespace of every automation id (a fixed random UUID). */
const NAMESPACE = Buffer.from('6f0d2a9c4b1e4f7a9d3c5e8b7a1f2c4d', 'hex');

/** The version-5 UUID of `name` in the automations' namespace. */
export function uuidv5(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A run's id: one per (automation, lead, entry key). */
export const runIdOf = (automationId: string, leadId: string, entryKey: string): string => uuidv5(`${automationId}:${leadId}:${entryKey}`);

/** The id of step `seq`'s effect in a run: its mail's activity id, its webhook event's id. */
export const effectIdOf = (runId: string, seq: number): string => uuidv5(`${runId}:${seq}`);
