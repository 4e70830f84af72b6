import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../../../shared/platform/core/logger';
import { RetryLaterError, sqsBatchHandler } from '../../../../shared/platform/queue-worker/batch-handler';

const record = (messageId: string, body = '{}'): SQSRecord => ({
  messageId,
  receiptHandle: `rh-${messageId}`,
  body,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: '1700000000000',
    SenderId: 'sender',
    ApproximateFirstReceiveTimestamp: '1700000000000',
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:send',
  awsRegion: 'eu-west-1',
});

const eventOf = (...ids: string[]): SQSEvent => ({ Records: ids.map((id) => record(id, JSON.stringify({ id }))) });

describe('sqsBatchHandler (partial batch failures)', () => {
  let errorLog: jest.SpyInstance;
  let infoLog: jest.SpyInstance;

  beforeEach(() => {
    errorLog = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    infoLog = jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  test('all records succeeding report no failures', async () => {
    const seen: string[] = [];
    const handler = sqsBatchHandler(async (r) => {
      seen.push(r.messageId);
    });
    expect(await handler(eventOf('m1', 'm2', 'm3'))).toEqual({ batchItemFailures: [] });
    expect(seen.sort()).toEqual(['m1', 'm2', 'm3']);
  });

  test('failed records are reported by messageId and succeeded ones are not', async () => {
    const handler = sqsBatchHandler(async (r) => {
      if (r.messageId === 'm2' || r.messageId === 'm4') throw new Error(`cannot process ${r.messageId}`);
    });
    const result = await handler(eventOf('m1', 'm2', 'm3', 'm4', 'm5'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }, { itemIdentifier: 'm4' }]);
  });

  test('every record failing reports every messageId', async () => {
    const handler = sqsBatchHandler(() => Promise.reject(new Error('down')));
    const result = await handler(eventOf('a', 'b'));
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['a', 'b']);
  });

  test('a synchronous throw inside an async processor is a failure of that record only', async () => {
    const handler = sqsBatchHandler(async (r) => {
      JSON.parse(r.messageId === 'bad' ? 'not json' : '{}');
    });
    const result = await handler(eventOf('ok', 'bad'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
  });

  test('a processor that throws before returning a promise fails its record only', async () => {
    const handler = sqsBatchHandler((r) => {
      if (r.messageId === 'bad') throw new Error('unreadable');
      return Promise.resolve();
    });
    const result = await handler(eventOf('ok', 'bad'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
  });

  test('an empty batch reports no failures', async () => {
    const handler = sqsBatchHandler(async () => undefined);
    expect(await handler({ Records: [] })).toEqual({ batchItemFailures: [] });
  });

  test('records are processed concurrently', async () => {
    let running = 0;
    let maxRunning = 0;
    const releases: (() => void)[] = [];
    const handler = sqsBatchHandler(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
    });
    const done = handler(eventOf('m1', 'm2', 'm3', 'm4'));
    // Let every processor start: with sequential processing only one would be waiting.
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(4);
    releases.forEach((release) => release());
    expect(await done).toEqual({ batchItemFailures: [] });
    expect(maxRunning).toBe(4);
  });

  test('a slow record does not delay the start of the others', async () => {
    const started: string[] = [];
    const handler = sqsBatchHandler(async (r) => {
      started.push(r.messageId);
      if (r.messageId === 'slow') await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const done = handler(eventOf('slow', 'fast1', 'fast2'));
    // Long before the slow record's 50 ms are up, every record has started.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['slow', 'fast1', 'fast2']);
    await done;
  });

  test('failures are logged with the messageId (RetryLaterError at info, others at error)', async () => {
    const handler = sqsBatchHandler(async (r) => {
      if (r.messageId === 'later') throw new RetryLaterError('throttled');
      if (r.messageId === 'broken') throw new Error('bug');
    });
    await handler(eventOf('later', 'broken', 'fine'));
    expect(infoLog).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ messageId: 'later' }));
    expect(errorLog).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ messageId: 'broken' }));
    expect(errorLog).toHaveBeenCalledTimes(1);
  });

  test('an error that only borrows the name RetryLaterError is an error, not an expected retry', async () => {
    const impostor = Object.assign(new Error('bug'), { name: 'RetryLaterError' });
    const handler = sqsBatchHandler(async () => {
      throw impostor;
    });
    expect(await handler(eventOf('m1'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(errorLog).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ messageId: 'm1', error: impostor }));
    expect(infoLog).not.toHaveBeenCalled();
  });

  test('a batch scope is started once per batch, shared by its records, and finished after every record settled', async () => {
    const events: string[] = [];
    let batches = 0;
    const handler = sqsBatchHandler(
      async (r, batch: { id: number; seen: string[] }) => {
        batch.seen.push(r.messageId);
        if (r.messageId === 'bad') throw new Error('bug');
      },
      {
        start: () => ({ id: ++batches, seen: [] }),
        finish: async (batch) => void events.push(`finish ${batch.id}: ${[...batch.seen].sort().join(',')}`),
      },
    );
    expect(await handler(eventOf('a', 'bad', 'b'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
    await handler(eventOf('c'));
    expect(events).toEqual(['finish 1: a,b,bad', 'finish 2: c']);
  });
});
