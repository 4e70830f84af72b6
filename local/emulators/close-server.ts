import type { Server } from 'node:http';

/** Closes an HTTP server, dropping keep-alive connections so that the close does not hang. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}
