import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Activity } from '../../../../shared/mail-pipeline/activity/activity';
import { claimQueuedSend, putActivityBody, putActivity, statusIndexFields, transitionFromSendable, updateActivityIfVersion } from '../../../../shared/mail-pipeline/activity/activity-repository';
import { reserveSend } from '../../../../shared/mail-pipeline/quota/usage-repository';
import type { ScheduledSend } from '../../../../shared/mail-pipeline/scheduling/scheduled-send';
import { claimScheduledSend, putScheduledSend } from '../../../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { CounterBatch } from '../../../../shared/identities/stats/domain-stats';
import type { Db } from '../../../../shared/platform/store/client';
import { scheduledDueIndex } from '../../../../shared/platform/store/keys';
import { attemptEntry, logDeliveryAttempt } from '../../../../shared/notifications/webhooks/delivery-log';
import type { WebhookJob } from '../../../../shared/notifications/webhooks/webhook-job';

/**
 * No hot partition (issue 14): while the deployment sends 3,000 mails a second, from one project or
 * from many, no partition key of the table or of an index takes more than 300 writes a second. The
 * burst runs through the real write paths (the API's put, the quota, the worker's claim and `sent`,
 * the daily and hourly counters per batch of ten, the event's status update) against a table fake that only records
 * which partition keys each write touches.
 */

const LIMIT_PER_SECOND = 300;
const MAILS_PER_SECOND = 3_000;
const BATCH = 10;

/** A table that accepts every write and counts writes per partition key (table and indexes apart). */
function recordingTable() {
  const writes = new Map<string, number>();
  const count = (key: string) => writes.set(key, (writes.get(key) ?? 0) + 1);
  const indexKeys = (attributes: Record<string, unknown>) =>
    Object.entries(attributes).filter(([name, value]) => /^gsi\dpk$/.test(name) && typeof value === 'string') as [string, string][];
  const db = {
    tableName: 'mailroom',
    doc: {
      send: async (command: unknown) => {
        if (command instanceof PutCommand) {
          const item = command.input.Item as Record<string, unknown>;
          count(`table ${item.pk}`);
          for (const [name, value] of indexKeys(item)) count(`${name} ${value}`);
        } else if (command instanceof UpdateCommand) {
          const { Key, ExpressionAttributeNames: names = {}, ExpressionAttributeValues: values = {} } = command.input;
          count(`table ${Key?.pk}`);
          // Index keys an update sets are named through #fN and valued through :fN (see the repositories).
          const set = Object.fromEntries(Object.entries(names).map(([alias, name]) => [name, values[`:${alias.slice(1)}`]]));
          for (const [name, value] of indexKeys(set)) count(`${name} ${value}`);
        } else if (!(command instanceof GetCommand)) {
          throw new Error(`unexpected ${(command as object).constructor.name}`);
        }
        return {};
      },
    },
  } as unknown as Db;
  const busiest = () => [...writes.entries()].sort((a, b) => b[1] - a[1])[0];
  return { db, writes, count, busiest };
}

const NOW = new Date('2030-01-01T09:00:00.000Z');
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function mail(n: number, projectId: string): Activity {
  const at = new Date(NOW.getTime() + Math.floor((n * 1000) / MAILS_PER_SECOND)).toISOString();
  return {
    id: uuid(n),
    project_id: projectId,
    created_at: at,
    updated_at: at,
    email_type: 'marketing',
    campaign_id: `campaign-of-${projectId}`,
    subject: 'Burst',
    sender_email: `news@${projectId}.example.com`,
    recipient_primary: `reader${n}@example.net`,
    recipient_count: 1,
    current_status: 'queued',
    is_test: false,
  };
}

/**
 * One second of mail: every write a single send makes from the API to its final event, with a
 * quota, a campaign, and (the worst case for the rare-status index) every mail bouncing.
 */
async function burst(db: Db, projectOf: (n: number) => string): Promise<void> {
  const mails = Array.from({ length: MAILS_PER_SECOND }, (_, n) => mail(n, projectOf(n)));
  for (const a of mails) {
    await putActivity(db, a, 1);
    await putActivityBody(db, a.id, new Uint8Array(10), 1);
  }
  for (let i = 0; i < mails.length; i += BATCH) {
    const sent = new CounterBatch();
    for (const a of mails.slice(i, i + BATCH)) {
      await reserveSend(db, a.project_id, '2030-01', 10_000_000, NOW);
      await claimQueuedSend(db, { activityId: a.id, attempt: 1, leaseUntil: 0, now: 0 });
      await transitionFromSendable(db, a, 'sent', { message_id: `m-${a.id}`, sent_at: a.created_at, updated_at: a.created_at });
      sent.add(a.project_id, 'example.com', '2030-01-01', 'sent');
      sent.addProject(a.project_id, 'live', a.created_at, 'sent');
    }
    await sent.flush(db);
  }
  for (let i = 0; i < mails.length; i += BATCH) {
    const events = new CounterBatch();
    for (const a of mails.slice(i, i + BATCH)) {
      await updateActivityIfVersion(db, a.id, 2, { current_status: 'bounced', bounced_at: a.created_at, ...statusIndexFields(a, 'bounced') });
      events.add(a.project_id, 'example.com', '2030-01-01', 'hard_bounced');
      events.addProject(a.project_id, 'live', a.created_at, 'bounced');
    }
    await events.flush(db);
  }
}

describe('no partition takes more than 300 writes a second at 3,000 mails a second', () => {
  test('from one project', async () => {
    const table = recordingTable();
    await burst(table.db, () => 'big');
    const [key, writes] = table.busiest();
    expect({ key, writes: writes <= LIMIT_PER_SECOND }).toEqual({ key, writes: true });
    // Every key that every mail of the project writes was exercised.
    const families = new Set([...table.writes.keys()].map((k) => k.split('#')[0]));
    expect([...families].sort()).toEqual(['gsi3pk ACTS', 'gsi5pk ACTST', 'gsi6pk ACTC', 'table ACT', 'table PSTAT', 'table STAT', 'table USAGE'].sort());
  });

  test('from many projects', async () => {
    const table = recordingTable();
    await burst(table.db, (n) => `p${n % 300}`);
    const [key, writes] = table.busiest();
    expect({ key, writes: writes <= LIMIT_PER_SECOND }).toEqual({ key, writes: true });
  });

  test('the webhook delivery log: three deliveries a mail (send, delivery, open), one attempt each', async () => {
    const table = recordingTable();
    for (let n = 0; n < MAILS_PER_SECOND; n++) {
      for (const event of ['email.send', 'email.delivery', 'email.open']) {
        const job: WebhookJob = {
          v: 1,
          delivery_id: `msg_${uuid(n)}-${event}`,
          project_id: 'big',
          url: 'https://hooks.example.com/events',
          slot: 'live',
          max_attempts: 5,
          event: { event, timestamp: NOW.toISOString(), project_id: 'big', is_test: false, data: { activity_id: uuid(n) } },
        };
        // Retries do not add to the rate: the webhooks worker's 50 instances cap the attempts a second
        // (about 10,000 with receivers answering in 50 ms), and a failing receiver is slower, not faster.
        await logDeliveryAttempt(table.db, job, attemptEntry(job, 1, { ok: true, status: 200 }, NOW, 5), NOW);
      }
    }
    const [key, writes] = table.busiest();
    expect({ key, writes: writes <= LIMIT_PER_SECOND }).toEqual({ key, writes: true });
    expect([...table.writes.keys()].filter((k) => k.startsWith('table WHDLV#'))).toHaveLength(32);
  });

  test('scheduled for the same second: the deployment-wide due index', async () => {
    const table = recordingTable();
    for (let n = 0; n < MAILS_PER_SECOND; n++) {
      const send = { id: uuid(n), project_id: 'big', status: 'pending', scheduled_for: NOW.toISOString(), content: {} } as unknown as ScheduledSend;
      await putScheduledSend(table.db, send, 1);
      await claimScheduledSend(table.db, { id: send.id, scheduledFor: send.scheduled_for, claimedBy: 'm', now: NOW.toISOString() });
      // The claim's REMOVE deletes the entry from the partition it was written to.
      table.count(`gsi5pk ${scheduledDueIndex(send.scheduled_for, send.id).gsi5pk}`);
    }
    const [key, writes] = table.busiest();
    expect({ key, writes: writes <= LIMIT_PER_SECOND }).toEqual({ key, writes: true });
  });
});
