import { SQSClient } from '@aws-sdk/client-sqs';
import { refreshConfig } from '../../../shared/platform/core/config';
import { overrideServices, services } from '../../../composition/services';
import { QueueEventPublisher } from '../../../shared/platform/adapters/queue-event-publisher';
import type { Clock } from '../../../shared/platform/core/ports';
import { updateProjectFields } from '../../../shared/platform/projects/project-repository';
import { startTestCloud, type TestCloud } from '../../integration/support/test-cloud';
import { DbHolds, FaultLog, faultyBlobs, faultyDb, faultyMailer, faultyQueue, seededRandom, type QueueFaults } from './faults';
import { FlakyReceiver } from './webhook-receiver';

/** A private local cloud whose ports inject faults, with the seeded project's webhooks on a flaky receiver. */
export interface FaultCloud {
  readonly cloud: TestCloud;
  readonly sqs: SQSClient;
  readonly log: FaultLog;
  readonly random: () => number;
  readonly receiver: FlakyReceiver;
  readonly seed: number;
  /** Latches on the table's commands, for races driven in a chosen order. */
  readonly holds: DbHolds;
  /** Moves the services' clock forward at once (a redelivery after a claim's lease ran out). */
  advanceClock(ms: number): void;
  stop(): Promise<void>;
}

/**
 * Starts the cloud without its pollers (the suite runs the workers itself), wraps the DynamoDB,
 * S3, SES and SQS ports in fault decorators, runs the clock `timeFactor` times faster (the queue's
 * delays shrink by as much), compresses the webhook backoff to 1 s, and points the
 * seeded project's live webhook at a receiver that fails the first `failFirst` POSTs of each delivery.
 */
export async function startFaultCloud(options: { queue: QueueFaults; failFirst: number; seed?: number }): Promise<FaultCloud> {
  const seed = options.seed ?? Number(process.env.FAULTS_SEED ?? Date.now() % 100_000);
  const random = seededRandom(seed);
  const log = new FaultLog();
  const cloud = await startTestCloud({ workers: false });
  const receiver = new FlakyReceiver(options.failFirst);
  await receiver.start();
  refreshConfig({ WEBHOOK_BACKOFF_SECONDS: '1,1,1,1' });
  // The clock runs timeFactor times faster than real time from now on, plus any jumps the suite makes.
  let offset = 0;
  const origin = Date.now();
  const clock: Clock = { now: () => new Date(origin + (Date.now() - origin) * options.queue.timeFactor + offset) };
  const real = services();
  const queue = faultyQueue(real.queue, log, random, options.queue);
  const holds = new DbHolds();
  overrideServices({ db: faultyDb(real.db, log, random, holds), blobs: faultyBlobs(real.blobs, log), mailer: faultyMailer(real.mailer, log, random), queue, events: new QueueEventPublisher(queue), clock });
  await updateProjectFields(real.db, cloud.seed.project_id, { webhook_url: receiver.url });
  const sqs = new SQSClient({});
  return {
    cloud,
    sqs,
    log,
    random,
    receiver,
    seed,
    holds,
    advanceClock: (ms) => void (offset += ms),
    async stop() {
      sqs.destroy();
      await receiver.stop();
      await cloud.stop();
    },
  };
}
