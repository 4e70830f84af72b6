import { resetConfig } from '../../../shared/config';
import { resetServices } from '../../../shared/container';
import { queues } from '../../../shared/queues';

/** A queue URL nothing listens on: unit tests never reach a real queue. */
const NOWHERE_QUEUE = 'http://127.0.0.1:9/000000000000/q';

/**
 * Gives the file's tests the variables shared/config.ts requires (plus `extra`; `undefined`
 * removes one), with fresh config and services, and puts the environment back afterwards.
 * Call it at the top of a file, before the file's own beforeAll.
 */
export function useServiceEnvironment(extra: Record<string, string | undefined> = {}): void {
  const saved = { ...process.env };
  beforeAll(() => {
    Object.assign(process.env, {
      TABLE_NAME: 'mailroom',
      PAYLOAD_BUCKET: 'payloads',
      AWS_REGION: 'us-east-1',
      ...Object.fromEntries(Object.values(queues).map((q) => [q.urlEnv, NOWHERE_QUEUE])),
    });
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
    resetServices();
  });
  afterAll(() => {
    process.env = saved;
    resetConfig();
    resetServices();
  });
}
