import type { Db } from '../../platform/store/client';
import { contentionBackoff, transactWrite, TRANSACTION_LIMIT, type TransactItem } from '../../platform/store/transact';
import { addMembershipAction, removeMembershipAction, segmentCounterAction } from './segment-repository';

const ATTEMPTS = 8;

/**
 * Adds and removes one lead's static memberships, each change with its segment's counter in the same
 * transaction (so counts stay exact under races and retries). A change whose condition fails was
 * already made by someone else: it is dropped and the rest written again. Returns what this call changed.
 */
export async function changeMemberships(
  db: Db,
  projectId: string,
  lead: { id: string; created_at: string },
  changes: { add: readonly string[]; remove: readonly string[] },
): Promise<{ added: string[]; removed: string[] }> {
  const ops = [...changes.add.map((segmentId) => ({ segmentId, delta: 1 })), ...changes.remove.map((segmentId) => ({ segmentId, delta: -1 }))];
  const done = { added: [] as string[], removed: [] as string[] };
  // Each op is one action plus its counter: 50 ops fill a transaction.
  for (let i = 0; i < ops.length; i += TRANSACTION_LIMIT / 2) {
    let chunk = ops.slice(i, i + TRANSACTION_LIMIT / 2);
    for (let attempt = 1; chunk.length > 0; attempt++) {
      const actions: TransactItem[] = chunk.map((op) =>
        op.delta > 0 ? addMembershipAction(db, projectId, op.segmentId, lead) : removeMembershipAction(db, projectId, op.segmentId, lead.id),
      );
      actions.push(...chunk.map((op) => segmentCounterAction(db, projectId, op.segmentId, op.delta)));
      const outcome = await transactWrite(db, actions);
      if (outcome.written) {
        for (const op of chunk) (op.delta > 0 ? done.added : done.removed).push(op.segmentId);
        break;
      }
      if (attempt >= ATTEMPTS) throw new Error('Membership changes kept conflicting with other writes');
      const failed = new Set(outcome.failedConditions);
      chunk = chunk.filter((_, j) => !failed.has(j));
      if (failed.size === 0) await contentionBackoff(attempt);
    }
  }
  return done;
}
