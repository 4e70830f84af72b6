import { loadPayload, parseSendJob } from '../../../../shared/mail-pipeline/job';
import type { BlobStore } from '../../../../shared/platform/core/ports';

const ACTIVITY = '0b6f3c9e-7a1d-4c2b-9e8f-1a2b3c4d5e6f';
const payload = { from_email: 'a@example.com', to: ['b@example.com'], cc: [], bcc: [], subject: 'Hi', html: '<p>Hi</p>', attachments: [{ filename: 'a.txt', content: 'aGk=' }] };

/** A send-queue message is parsed strictly: anything that is not a send job throws (and ends in the DLQ). */
describe('send job: parsing a queue message', () => {
  it('reads a job with its inline payload', () => {
    const job = { v: 1, activity_id: ACTIVITY, project_id: 'p1', attempt: 2, payload };
    expect(parseSendJob(JSON.stringify(job))).toEqual(job);
  });

  it('drops fields it does not know', () => {
    expect(parseSendJob(JSON.stringify({ v: 1, activity_id: ACTIVITY, project_id: 'p1', attempt: 1, payload_key: 'k', extra: true }))).toEqual({
      v: 1,
      activity_id: ACTIVITY,
      project_id: 'p1',
      attempt: 1,
      payload_key: 'k',
    });
  });

  it.each([
    ['another version', { v: 2, activity_id: ACTIVITY, project_id: 'p1', attempt: 1 }],
    ['an activity id that is no uuid', { v: 1, activity_id: 'abc', project_id: 'p1', attempt: 1 }],
    ['attempt 0', { v: 1, activity_id: ACTIVITY, project_id: 'p1', attempt: 0 }],
    ['a fractional attempt', { v: 1, activity_id: ACTIVITY, project_id: 'p1', attempt: 1.5 }],
    ['a payload without recipients', { v: 1, activity_id: ACTIVITY, project_id: 'p1', attempt: 1, payload: { ...payload, to: undefined } }],
    ['a header that is not a string', { v: 1, activity_id: ACTIVITY, project_id: 'p1', attempt: 1, payload: { ...payload, headers: { 'X-A': 1 } } }],
  ])('refuses %s', (_name, job) => {
    expect(() => parseSendJob(JSON.stringify(job))).toThrow();
  });

  it("says what is wrong in zod's English words", () => {
    expect(() => parseSendJob(JSON.stringify({ v: 1, activity_id: 'abc', project_id: 'p1', attempt: 0 }))).toThrow(/Invalid UUID[\s\S]*Too small: expected number to be >0/);
  });

  it('loads a payload moved to the blob store and checks its shape', async () => {
    const stored: Record<string, unknown> = { good: payload, bad: { ...payload, subject: 7 } };
    const blobs = { get: async (key: string) => Buffer.from(JSON.stringify(stored[key])) } as unknown as BlobStore;
    const head = { v: 1 as const, activity_id: ACTIVITY, project_id: 'p1', attempt: 1 };
    await expect(loadPayload(blobs, { ...head, payload_key: 'good' })).resolves.toEqual(payload);
    await expect(loadPayload(blobs, { ...head, payload_key: 'bad' })).rejects.toThrow();
  });
});
