import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { expandChunk } from '../../shared/mail-pipeline/batches/batch-fanout';
import { asFunction, runAsFunction } from '../../local/iam/function-roles';
import { services } from '../../composition/services';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * `include=html` on a batch mail not yet sent (issue 16): the HTML that will be sent, rendered on
 * read, before the fan-out writes the record and before the worker sends the mail. The workers
 * are run by hand here, so each stage can be looked at.
 */

jest.setTimeout(60_000);

let cloud: TestCloud;
let sqs: SQSClient;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  sqs = new SQSClient({});
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
});

/** Runs the batch-send worker over whatever its queue holds. */
async function runBatchSendWorker(): Promise<void> {
  const handler = asFunction('batch-send-worker', (await import('../../functions/batch-send-worker/handler')).handler);
  for (let idle = 0; idle < 2; ) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls['batch-send'], MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const messages = out.Messages ?? [];
    if (messages.length === 0) {
      idle++;
      continue;
    }
    const event = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body })) } as unknown as SQSEvent;
    expect(((await handler(event)) as SQSBatchResponse).batchItemFailures).toEqual([]);
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: cloud.queueUrls['batch-send'], Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
  }
}

describe('GET /v1/activity/:id?include=html on a queued batch mail', () => {
  test('answers the HTML that will be sent, before the record is written and before the mail is sent', async () => {
    const res = await cloud.api('POST', '/v1/send-batch', {
      body: {
        sender: cloud.seed.sender_email,
        subject: 'Hello {{name}}',
        html: '<p>Hi {{name}}, your code is {{code}}</p>',
        data: { code: 'none' },
        email_type: 'transactional',
        recipients: ['first@example.com', { email: 'second@example.com', name: 'Bea', data: { code: 'B2' } }],
      },
    });
    expect(res.status).toBe(200);
    const batchId = res.body.batch_id as string;
    const id = (res.body.recipients as { activity_id: string }[])[1].activity_id;

    // No record yet: the fan-out has not run.
    const beforeFanout = await cloud.api('GET', `/v1/activity/${id}?include=html`);
    expect(beforeFanout.body.data).toMatchObject({ current_status: 'queued' });
    const html = (beforeFanout.body.data as { html_content: string }).html_content;
    expect(html).toContain('Hi Bea, your code is B2');

    // The record is written, the mail not sent.
    await runAsFunction('batch-fanout', () => expandChunk(services(), { v: 1, batch_id: batchId, project_id: cloud.seed.project_id, chunk: 0 }));
    const beforeSend = await cloud.api('GET', `/v1/activity/${id}?include=html,events`);
    expect(beforeSend.body.data).toMatchObject({ current_status: 'queued', html_content: html });

    // Sent: the stored body is what the reads showed.
    await runBatchSendWorker();
    const sent = await cloud.api('GET', `/v1/activity/${id}?include=html`);
    expect(sent.body.data).toMatchObject({ current_status: 'sent', html_content: html });
  });
});

describe('a batch mail with a long subject (more than 100 bytes): its record leaves it to the batch', () => {
  test('the stored record has no subject, yet GET /v1/activity/:id (with and without include) and GET /v1/activity show it', async () => {
    const subject = `${'Long news '.repeat(40)}{{name}}`;
    const res = await cloud.api('POST', '/v1/send-batch', {
      body: { sender: cloud.seed.sender_email, subject, html: '<p>Hi {{name}}</p>', email_type: 'marketing', recipients: ['long-subject@example.com'] },
    });
    expect(res.status).toBe(200);
    const id = (res.body.recipients as { activity_id: string }[])[0].activity_id;
    await runAsFunction('batch-fanout', () => expandChunk(services(), { v: 1, batch_id: res.body.batch_id as string, project_id: cloud.seed.project_id, chunk: 0 }));

    const { getActivity } = await import('../../shared/mail-pipeline/activity/activity-repository');
    const stored = await getActivity(services().db, id);
    expect(stored).toMatchObject({ current_status: 'queued' });
    expect(stored?.subject).toBeUndefined();

    expect((await cloud.api('GET', `/v1/activity/${id}`)).body.data).toMatchObject({ id, subject });
    expect((await cloud.api('GET', `/v1/activity/${id}?include=events`)).body.data).toMatchObject({ id, subject });
    const list = (await cloud.api('GET', '/v1/activity?per_page=100')).body.data as { id: string; subject: string }[];
    expect(list.find((a) => a.id === id)).toMatchObject({ subject });
  });
});
