import type { ScheduledSend } from '../../shared/mail-pipeline/scheduling/scheduled-send';
import {
  cancelPendingScheduledSend,
  claimScheduledSend,
  getScheduledSend,
  markScheduledSendFailed,
  moveScheduledSend,
  putScheduledSend,
  queryDueScheduledSends,
} from '../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { startTestTable, type TestTable } from './support/dynamodb-table';

/**
 * The scheduled-send store against DynamoDB Local: which writes its conditions let through, and
 * what the due index shows afterwards. The due partition is shared, so each test uses its own year.
 */
let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
}, 60_000);
afterAll(() => table?.stop());

let n = 0;
/** A pending send of project p-1 with a fresh id, due at 09:00 UTC on 1 January of its own year. */
function pending(): ScheduledSend {
  n++;
  const at = `${2030 + n}-01-01T09:00:00.000Z`;
  return {
    id: `0b6f3c2e-8d1a-4c3e-9f00-${String(n).padStart(12, '0')}`,
    project_id: 'p-1',
    mode: 'live',
    status: 'pending',
    scheduled_for: at,
    timezone: 'UTC',
    recipient_email: 'reader@example.com',
    sender_email: 'hello@example.com',
    content: { recipient: 'reader@example.com', sender: 'hello@example.com', html: '<p>Hi</p>', emailType: 'transactional', customHeaders: {}, references: [] },
    email_id: `1b6f3c2e-8d1a-4c3e-9f00-${String(n).padStart(12, '0')}`,
    created_at: '2029-12-31T09:00:00.000Z',
    updated_at: '2029-12-31T09:00:00.000Z',
    version: 1,
  };
}

/** The ids the due index lists up to the end of the send's year. */
const dueIn = async (send: ScheduledSend) =>
  (await queryDueScheduledSends(table.db, new Date(`${send.scheduled_for.slice(0, 4)}-12-31T23:59:59.999Z`)))
    .filter((e) => e.scheduledFor.startsWith(send.scheduled_for.slice(0, 4)))
    .map((e) => e.id);
const NOW = '2029-12-31T10:00:00.000Z';

describe('putScheduledSend', () => {
  test('stores the send, due in the index at its time, and reads it back as it was', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1234);
    expect(await getScheduledSend(table.db, send.id, true)).toEqual(send);
    expect(await queryDueScheduledSends(table.db, new Date(send.scheduled_for))).toEqual(expect.arrayContaining([{ id: send.id, scheduledFor: send.scheduled_for }]));
  });

  test('never writes over an existing send', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    await expect(putScheduledSend(table.db, { ...send, recipient_email: 'other@example.com' }, 1)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect((await getScheduledSend(table.db, send.id, true))?.recipient_email).toBe('reader@example.com');
  });
});

describe('moveScheduledSend', () => {
  test('moves a pending send of the project: new time, and the due index follows', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    const to = send.scheduled_for.replace('01-01T09', '06-01T12');
    const moved = await moveScheduledSend(table.db, { id: send.id, projectId: 'p-1', scheduledFor: to, timezone: 'Europe/Paris', now: NOW, ttl: 99 });
    expect(moved).toEqual({ changed: true, send: { ...send, scheduled_for: to, timezone: 'Europe/Paris', updated_at: NOW, version: 2 } });
    expect(await queryDueScheduledSends(table.db, new Date(send.scheduled_for))).not.toContainEqual(expect.objectContaining({ id: send.id }));
    expect(await dueIn(send)).toEqual([send.id]);
  });

  test("another project's send is not moved", async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    expect(await moveScheduledSend(table.db, { id: send.id, projectId: 'p-2', scheduledFor: NOW, timezone: 'UTC', now: NOW, ttl: 1 })).toEqual({ changed: false });
    expect(await getScheduledSend(table.db, send.id, true)).toEqual(send);
  });

  test('a cancelled send is not moved', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    await cancelPendingScheduledSend(table.db, send.id, 'p-1', NOW);
    expect(await moveScheduledSend(table.db, { id: send.id, projectId: 'p-1', scheduledFor: send.scheduled_for, timezone: 'UTC', now: NOW, ttl: 1 })).toEqual({
      changed: false,
    });
    expect(await dueIn(send)).toEqual([]);
  });
});

describe('cancelPendingScheduledSend', () => {
  test('cancels a pending send of the project and takes it out of the due index, once', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    expect(await cancelPendingScheduledSend(table.db, send.id, 'p-2', NOW)).toBe(false);
    expect(await dueIn(send)).toEqual([send.id]);
    expect(await cancelPendingScheduledSend(table.db, send.id, 'p-1', NOW)).toBe(true);
    expect((await getScheduledSend(table.db, send.id, true))?.status).toBe('cancelled');
    expect(await dueIn(send)).toEqual([]);
    expect(await cancelPendingScheduledSend(table.db, send.id, 'p-1', NOW)).toBe(false);
  });
});

describe('claimScheduledSend and markScheduledSendFailed', () => {
  test('one fire message claims a pending send at the time it names; a second claim is refused', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    expect(await markScheduledSendFailed(table.db, send.id, 'too early', NOW)).toBe(false);
    expect(await claimScheduledSend(table.db, { id: send.id, scheduledFor: send.scheduled_for, claimedBy: 'm-1', now: NOW })).toBe(true);
    expect(await claimScheduledSend(table.db, { id: send.id, scheduledFor: send.scheduled_for, claimedBy: 'm-2', now: NOW })).toBe(false);
    expect(await getScheduledSend(table.db, send.id, true)).toMatchObject({ status: 'processing' });
    expect(await dueIn(send)).toEqual([]);
    expect(await markScheduledSendFailed(table.db, send.id, 'template deleted', NOW)).toBe(true);
    expect(await getScheduledSend(table.db, send.id, true)).toMatchObject({ status: 'failed' });
  });

  test('the fire message of a send that was moved since does not claim it', async () => {
    const send = pending();
    await putScheduledSend(table.db, send, 1);
    const to = send.scheduled_for.replace('T09', 'T10');
    await moveScheduledSend(table.db, { id: send.id, projectId: 'p-1', scheduledFor: to, timezone: 'UTC', now: NOW, ttl: 1 });
    expect(await claimScheduledSend(table.db, { id: send.id, scheduledFor: send.scheduled_for, claimedBy: 'm-old', now: NOW })).toBe(false);
    expect(await claimScheduledSend(table.db, { id: send.id, scheduledFor: to, claimedBy: 'm-new', now: NOW })).toBe(true);
  });
});
