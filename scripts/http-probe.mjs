// What the scripts that start an app and talk to it share: a free port, and waiting for /health.
import { createServer } from 'node:net';

/** A port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once GET `base`/health answers 200; rejects when `child` exits first or after `timeoutMs`. */
export async function untilHealthy(base, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const status = await fetch(`${base}/health`).then((response) => response.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`/health not 200 within ${timeoutMs} ms`);
}
