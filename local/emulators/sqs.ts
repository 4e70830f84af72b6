import type { Server } from 'node:http';
import { createSqsServer } from 'local-aws-sqs';
import type { RunningEmulator } from './dynamodb';
import { closeServer } from './close-server';

/** Starts an SQS-compatible server (JSON protocol, delays, visibility timeouts, DLQ redrive). */
export async function startSqs(options: { port: number }): Promise<RunningEmulator> {
  const server: Server = await createSqsServer({
    port: options.port,
    hostname: '127.0.0.1',
    emulateQueueCreationLifecycle: false,
    validateDlqDestination: true,
  });
  return { endpoint: `http://127.0.0.1:${options.port}`, stop: () => closeServer(server) };
}
