import net from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server on `requested`, or, when that is 0, on a free port, choosing again when another
 * process took the port between the choice and the bind (parallel test workers do).
 */
export async function onFreePort<T>(requested: number, start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  if (requested !== 0) return start(requested);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= attempts || !/EADDRINUSE|Address already in use/.test(String((error as Error)?.message ?? error))) throw error;
    }
  }
}
