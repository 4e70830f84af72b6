import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/send-worker/handler';
import { asFunction } from '../../local/iam/function-roles';
import { services } from '../../composition/services';
import { activityBodyKey } from '../../shared/platform/store/keys';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * `include=html` on a single send the worker has not taken yet (issue 16): the API stores the body
 * at accept, so the answer is the HTML that will be sent, the same the read shows after the send.
 * The send worker is run by hand, so the queued state can be looked at.
 */

jest.setTimeout(60_000);

const sendWorker = asFunction('send-worker', handler);

let cloud: TestCloud;
let sqs: SQSClient;
let templateId: string;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  sqs = new SQSClient({});
  const res = await cloud.api('POST', '/v1/templates', {
    body: { name: 'Code', subject: 'Your code', html: '<p>Hi {{name}}, your code is {{code}}. <a href="https://example.com/help">Help</a></p>' },
  });
  templateId = (res.body.data as { id: string }).id;
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
});

/** Takes the send job of `id` off the queue and runs the real send worker on it `times` times (redeliveries). */
async function deliver(id: string, times = 1): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.send, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const message = (out.Messages ?? []).find((m) => JSON.parse(m.Body ?? '{}').activity_id === id);
    if (!message) continue;
    for (let n = 0; n < times; n++) {
      const event = { Records: [{ messageId: `${message.MessageId}-${n}`, receiptHandle: 'r', body: message.Body }] } as unknown as SQSEvent;
      expect(((await sendWorker(event)) as { batchItemFailures: unknown[] }).batchItemFailures).toEqual([]);
    }
    return;
  }
  throw new Error(`No send message for ${id}`);
}

const readHtml = async (id: string) => {
  const res = await cloud.api('GET', `/v1/activity/${id}?include=html`);
  expect(res.status).toBe(200);
  return res.body.data as { current_status: string; html_content: string | null };
};

const storedBody = async (id: string) =>
  (await services().db.doc.send(new GetCommand({ TableName: services().db.tableName, Key: activityBodyKey(id), ConsistentRead: true }))).Item;

describe('GET /v1/activity/:id?include=html on a queued single send', () => {
  test.each([
    ['POST /v1/send-email', () => cloud.api('POST', '/v1/send-email', { body: { recipient_email: 'a@example.com', sender_email: cloud.seed.sender_email, subject: 'Hi', html_body: '<p>Queued <b>as is</b></p>' } })],
    [
      'POST /v1/send-template-email',
      () => cloud.api('POST', '/v1/send-template-email', { body: { recipient_email: 'b@example.com', sender_email: cloud.seed.sender_email, template_id: templateId, variables: { name: 'Ada', code: '4711' } } }),
    ],
    [
      'POST /send-email (marketing: footer and unsubscribe links)',
      () => cloud.api('POST', '/send-email', { body: { recipient: 'c@example.com', sender: cloud.seed.sender_email, subject: 'News', html: '<p>Hello {{name}}</p>', data: { name: 'Bea' }, email_type: 'marketing' } }),
    ],
  ])('%s: answers the HTML that will be sent before the worker runs, and the same after', async (_name, accept) => {
    const res = await accept();
    expect(res.status).toBe(200);
    const id = (res.body.email_id ?? res.body.activity_id ?? res.body.id) as string;
    expect(typeof id).toBe('string');

    const queued = await readHtml(id);
    expect(queued.current_status).toBe('queued');
    expect(queued.html_content).toEqual(expect.any(String));
    expect(queued.html_content).not.toBe('');

    await deliver(id);
    const sent = await readHtml(id);
    expect(sent.current_status).toBe('sent');
    expect(sent.html_content).toBe(queued.html_content);
  });

  test('the marketing HTML shown while queued carries the rendered data, the footer and the unsubscribe link that go out', async () => {
    const res = await cloud.api('POST', '/send-email', {
      body: { recipient: 'd@example.com', sender: cloud.seed.sender_email, subject: `Footer ${Date.now()}`, html: '<p>Hello {{name}}</p>', data: { name: 'Cy' }, email_type: 'marketing' },
    });
    const id = (res.body.email_id ?? res.body.activity_id ?? res.body.id) as string;
    const queued = await readHtml(id);
    expect(queued.html_content).toContain('Hello Cy');
    // The footer's link is the mail's own unsubscribe URL (`/u/<token>`).
    const unsubscribe = /<a href="([^"]*\/u\/[^"]*)"[^>]*>Unsubscribe<\/a>/.exec(queued.html_content ?? '')?.[1];
    expect(unsubscribe).toBeDefined();
    await deliver(id);
    const mail = (await cloud.outbox()).find((m) => m.destination.to.includes('d@example.com'));
    // The sent HTML is the queued one with opens and clicks tracked; the unsubscribe link is left as it is.
    expect(mail?.body.html).toContain(`href="${unsubscribe}"`);
    expect(mail?.body.html).toContain('Hello Cy');
  });

  test('the worker does not write the body again, and a redelivered job sends nothing twice', async () => {
    const subject = `once-${Date.now()}`;
    const res = await cloud.api('POST', '/v1/send-email', { body: { recipient_email: 'e@example.com', sender_email: cloud.seed.sender_email, subject, html_body: '<p>Once</p>' } });
    const id = res.body.email_id as string;
    const atAccept = await storedBody(id);
    expect(atAccept?.content).toBeDefined();

    await deliver(id, 2);
    expect((await cloud.outbox()).filter((m) => m.subject === subject)).toHaveLength(1);
    // The claim is on the record: the body item is exactly as the API wrote it.
    expect(await storedBody(id)).toEqual(atAccept);
  });
});
