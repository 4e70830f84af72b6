import { getActivity } from '../../../shared/mail-pipeline/activity/activity-repository';
import type { Activity } from '../../../shared/mail-pipeline/activity/activity';
import { batchActivityId } from '../../../shared/mail-pipeline/batches/batch-ids';
import { services } from '../../../composition/services';
import { sendBody } from '../../integration/support/test-cloud';
import { campaignMails, startCampaign, storedCampaign } from './campaigns';
import type { FaultCloud } from './fault-cloud';
import { deadLetters, waitForQuiet } from './pump';

/** What a workload run found: the figures docs/testing.md reports, and the lists that must be empty. */
export interface WorkloadReport {
  readonly accepted: number;
  readonly refused: number;
  /** The campaign's mails (its waves' recipients), and its final status. */
  readonly campaignMails: number;
  readonly campaignStatus: string | undefined;
  readonly mailsInOutbox: number;
  readonly lost: string[];
  readonly duplicated: string[];
  readonly wrongStatus: string[];
  readonly failedForGood: number;
  readonly webhookEventsExpected: number;
  readonly webhookEventsDelivered: number;
  readonly missingWebhooks: string[];
  readonly deadLetters: Record<string, number>;
  readonly seconds: number;
  /** Mails in the outbox per second, from the first API call to the last mail's arrival. */
  readonly mailsPerSecond: number;
}

/** An accepted mail and what its final state must be. */
interface Expected {
  readonly id: string;
  readonly recipient: string;
  /** The status the mail must end in once sent (`delivered`, or `bounced` for the bounce simulator). */
  readonly sentStatus: 'delivered' | 'bounced';
}

/** Runs `work` over `items`, `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

const BOUNCE = 'bounce@simulator.amazonses.com';

/**
 * Sends `mails` single sends through the API at `concurrency` (one to the bounce simulator) while
 * a batch of `batchRecipients` and a campaign to `campaignLeads` new leads go out, waits until
 * every queue settled (the campaign's last step is its completion), then checks the outbox (each
 * accepted mail exactly once, unless it failed for good with nothing sent), every final status,
 * every webhook event and the dead-letter queues.
 */
export async function runWorkload(fc: FaultCloud, options: { mails: number; batchRecipients: number; campaignLeads?: number; concurrency: number; settleTimeoutMs: number }): Promise<WorkloadReport> {
  const { cloud } = fc;
  const run = Math.random().toString(36).slice(2, 8);
  const expected: Expected[] = [];
  let refused = 0;
  const started = Date.now();

  const batchRecipients = Array.from({ length: options.batchRecipients }, (_, i) => ({ email: `batch-${run}-${i}@example.com`, name: `B${i}` }));
  const batchAccepted = (async () => {
    if (batchRecipients.length === 0) return;
    const res = await cloud.api('POST', '/v1/send-batch', { body: { sender: cloud.seed.sender_email, subject: 'Batch {{name}}', html: '<p>Hi {{name}}</p>', recipients: batchRecipients } });
    if (res.status !== 200) throw new Error(`The batch was refused: ${res.status} ${JSON.stringify(res.body)}`);
    const batchId = res.body.batch_id as string;
    batchRecipients.forEach((r, i) => expected.push({ id: batchActivityId(batchId, i), recipient: r.email, sentStatus: 'delivered' }));
  })();

  const campaignLeads = options.campaignLeads ?? 0;
  const campaignStarted = campaignLeads > 0 ? startCampaign(fc, `campaign-${run}`, campaignLeads) : undefined;

  const singles = Array.from({ length: options.mails }, (_, i) => (i === 0 ? BOUNCE : `single-${run}-${i}@example.com`));
  await pool(singles, options.concurrency, async (recipient, i) => {
    const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: recipient, subject: `fault ${run} ${i}` }) });
    if (res.status === 200) expected.push({ id: res.body.email_id as string, recipient, sentStatus: recipient === BOUNCE ? 'bounced' : 'delivered' });
    else refused++;
  });
  await batchAccepted;
  const campaign = await campaignStarted;

  await waitForQuiet(fc.sqs, cloud.queueUrls, { timeoutMs: options.settleTimeoutMs });
  // The campaign's mails, from its waves' derived ids; a recipient no wave holds is lost.
  let campaignOwned = 0;
  if (campaign) {
    const owned = await campaignMails(campaign.id);
    campaignOwned = owned.length;
    for (const m of owned) expected.push({ ...m, sentStatus: 'delivered' });
    for (const r of campaign.recipients) if (!owned.some((m) => m.recipient === r)) expected.push({ id: `(campaign ${campaign.id}: no wave)`, recipient: r, sentStatus: 'delivered' });
  }
  const outbox = (await cloud.outbox()).filter((m) => m.subject.startsWith(`fault ${run} `) || m.destination.to.some((t) => t.startsWith(`batch-${run}-`) || t.startsWith(`campaign-${run}-`)));
  const arrivals = new Map<string, number>();
  for (const mail of outbox) for (const to of mail.destination.to) arrivals.set(to.toLowerCase(), (arrivals.get(to.toLowerCase()) ?? 0) + 1);
  const lastArrival = Math.max(started, ...(await outboxTimes(fc, outbox.map((m) => m.messageId))));

  const activities = new Map<string, Activity | undefined>();
  await pool(expected, 20, async (e) => void activities.set(e.id, await getActivity(services().db, e.id, true)));

  const lost: string[] = [];
  const duplicated: string[] = [];
  const wrongStatus: string[] = [];
  const webhooks: string[] = [];
  let failedForGood = 0;
  for (const e of expected) {
    const activity = activities.get(e.id);
    const copies = arrivals.get(e.recipient) ?? 0;
    const status = activity?.current_status;
    if (status === 'failed') {
      // Only SES failing every attempt may end a mail this way, and then nothing was sent.
      failedForGood++;
      if (!['rate_limit_exhausted', 'send_failed'].includes(activity?.failure?.error_code ?? '')) wrongStatus.push(`${e.id}: failed with ${activity?.failure?.error_code}`);
      if (copies > 0) duplicated.push(`${e.id}: failed yet sent ${copies}`);
      webhooks.push(`email.failed|${e.id}`);
      continue;
    }
    if (copies === 0) lost.push(`${e.id} (${e.recipient}): ${status}`);
    if (copies > 1) duplicated.push(`${e.id} (${e.recipient}): ${copies} copies`);
    if (status !== e.sentStatus) wrongStatus.push(`${e.id}: ${status}, expected ${e.sentStatus}`);
    webhooks.push(`email.send|${e.id}`, e.sentStatus === 'bounced' ? `email.bounce|${e.id}` : `email.delivery|${e.id}`);
  }
  const delivered = fc.receiver.delivered();
  const missingWebhooks = webhooks.filter((w) => !delivered.has(w));
  const seconds = (lastArrival - started) / 1000;
  return {
    accepted: expected.length,
    refused,
    campaignMails: campaignOwned,
    campaignStatus: campaign ? (await storedCampaign(campaign.id))?.status : undefined,
    mailsInOutbox: outbox.length,
    lost,
    duplicated,
    wrongStatus,
    failedForGood,
    webhookEventsExpected: webhooks.length,
    webhookEventsDelivered: webhooks.length - missingWebhooks.length,
    missingWebhooks,
    deadLetters: await deadLetters(fc.sqs, cloud.queueUrls),
    seconds: Math.round(seconds * 10) / 10,
    mailsPerSecond: Math.round((outbox.length / Math.max(seconds, 0.001)) * 10) / 10,
  };
}

/** When each mail reached the SES emulator's outbox (the mtime of its `<message id>.eml`), in ms. */
async function outboxTimes(fc: FaultCloud, messageIds: string[]): Promise<number[]> {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const dir = fc.cloud.outboxDir;
  return messageIds.flatMap((id) => {
    const file = path.join(dir, `${id}.eml`);
    return fs.existsSync(file) ? [fs.statSync(file).mtimeMs] : [];
  });
}
