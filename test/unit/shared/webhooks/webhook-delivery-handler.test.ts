import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { createWebhookDeliveryHandler } from '../../../../functions/webhook-delivery/handler';
import { overrideServices, services } from '../../../../composition/services';
import type { Queue } from '../../../../shared/platform/core/ports';
import type { Db } from '../../../../shared/platform/store/client';
import type { WebhookPoster } from '../../../../shared/platform/adapters/webhook-poster';
import { useServiceEnvironment } from '../../support/service-environment';

/** The worker's batch handling with a fake table, queue and poster: which records come back. */
const SECRET = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;

const puts: unknown[] = [];
const visibility: [string, number][] = [];
const posted: string[] = [];
const allowPrivateSeen: boolean[] = [];

useServiceEnvironment({ TOKEN_SECRET: 'unit-webhook-secret-0123456789', ALLOW_PRIVATE_URLS: 'false', WEBHOOK_BACKOFF_SECONDS: undefined });

beforeAll(() => {
  const db = {
    tableName: 't',
    doc: {
      send: async (command: unknown) => {
        if (command instanceof GetCommand) return { Item: { pk: 'PROJECT#p1', webhook_secret: SECRET } };
        // The delivery log's entries are not the failure records this test counts.
        if (command instanceof PutCommand) return void (/^WH(DLV|PAYLOAD)#/.test(String(command.input.Item?.pk)) || puts.push(command.input.Item));
        throw new Error('unexpected command');
      },
    },
  } as unknown as Db;
  const queue: Queue = { send: async () => undefined, sendBatch: async () => undefined, changeVisibility: async (_q, handle, seconds) => void visibility.push([handle, seconds]) };
  overrideServices({ db, queue });
});

const poster: WebhookPoster = {
  post: async (url) => {
    posted.push(url);
    return url.endsWith('/ok') ? { ok: true, status: 200 } : { ok: false, status: 500, error: 'HTTP 500' };
  },
};

const job = (id: string, url: string, maxAttempts = 5) =>
  JSON.stringify({ v: 1, delivery_id: id, project_id: 'p1', url, slot: 'live', max_attempts: maxAttempts, event: { event: 'email.send', timestamp: 't', project_id: 'p1', data: { activity_id: 'a' } } });

const record = (messageId: string, body: string, receiveCount: number) => ({
  messageId,
  receiptHandle: `rh-${messageId}`,
  body,
  attributes: { ApproximateReceiveCount: String(receiveCount) },
});

test('only the failed and unreadable records come back; retries are hidden for their backoff', async () => {
  const handler = createWebhookDeliveryHandler((allowPrivate) => {
    allowPrivateSeen.push(allowPrivate);
    return poster;
  });
  const event = {
    Records: [
      record('ok', job('d1', 'https://h.example/ok'), 1),
      record('retry', job('d2', 'https://h.example/fail'), 2),
      record('last', job('d3', 'https://h.example/fail'), 5),
      record('beyond', job('d4', 'https://h.example/fail', 1), 3),
      record('garbage', 'not json', 1),
      record('unknown', JSON.stringify({ v: 9 }), 1),
    ],
  } as unknown as SQSEvent;
  const result = await handler(event);
  expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['beyond', 'garbage', 'last', 'retry', 'unknown']);
  expect(visibility.sort()).toEqual([
    ['rh-beyond', 0],
    ['rh-last', 0],
    ['rh-retry', 120],
  ]);
  expect(posted.sort()).toEqual(['https://h.example/fail', 'https://h.example/fail', 'https://h.example/ok']);
  expect(puts).toHaveLength(1);
  expect(puts[0]).toMatchObject({ delivery_id: 'd3', attempts: 5, last_status: 500 });
  expect(allowPrivateSeen).toEqual([false]);
  expect(services().config.ALLOW_PRIVATE_URLS).toBe('false');
});
