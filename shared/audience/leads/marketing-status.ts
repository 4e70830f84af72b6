import type { Db } from '../../platform/store/client';
import { findSuppressed } from '../../mail-pipeline/suppression/suppression-repository';
import type { MarketingStatus } from './lead';

/**
 * Each address's marketing status, read from the project's suppression list (one BatchGet per 100):
 * `unsubscribed` when the entry's reason is an unsubscribe, `suppressed` for any other reason
 * (bounce, complaint, manual), `subscribed` when absent.
 */
export async function marketingStatuses(db: Db, projectId: string, emails: readonly string[]): Promise<Map<string, MarketingStatus>> {
  const suppressed = emails.length > 0 ? await findSuppressed(db, projectId, emails) : new Map();
  return new Map(emails.map((e) => {
    const entry = suppressed.get(e);
    return [e, !entry ? 'subscribed' : entry.reason === 'unsubscribe' ? 'unsubscribed' : 'suppressed'];
  }));
}
