import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import type { RunningEmulator } from './dynamodb';

/** Starts an S3-compatible server storing objects under `directory`. */
export async function startS3(options: { port: number; directory: string }): Promise<RunningEmulator> {
  const server = new S3rver({ port: options.port, address: '127.0.0.1', silent: true, directory: options.directory });
  const { port } = (await server.run()) as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
