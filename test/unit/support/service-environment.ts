import { refreshConfig } from '../../../shared/platform/core/config';
import { resetServices } from '../../../composition/services';
import { queues } from '../../../shared/platform/core/queues';

/** A queue URL nothing listens on: unit tests never reach a real queue. */
const NOWHERE_QUEUE = 'http://127.0.0.1:9/000000000000/q';

/**
 * Gives the file's tests the variables shared/platform/core/config.ts requires (plus `extra`; `undefined`
 * removes one), with fresh config and services, and puts the environment back afterwards.
 * Call it at the top of a file, before the file's own beforeAll.
 */
export function useServiceEnvironment(extra: Record<string, string | undefined> = {}): void {
  const saved = { ...process.env };
  beforeAll(() => {
    refreshConfig({
      TABLE_NAME: 'mailroom',
      PAYLOAD_BUCKET: 'payloads',
      AWS_REGION: 'us-east-1',
      ...Object.fromEntries(Object.values(queues).map((q) => [q.urlEnv, NOWHERE_QUEUE])),
      ...extra,
    });
    resetServices();
  });
  afterAll(() => {
    process.env = saved;
    refreshConfig();
    resetServices();
  });
}
