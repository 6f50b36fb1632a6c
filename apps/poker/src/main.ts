// `npm start`. Signals are handled before anything else loads (see SignalShutdown): the server's
// modules come in through a dynamic import, which a static one would have evaluated first.
import { SignalShutdown } from './signal-shutdown.js';

const shutdown = new SignalShutdown();
// From here on a signal ends the process cleanly (the supervisor and the tests can tell when that is).
console.log(`poker starting (pid ${process.pid})`);
try {
  const { startServer } = await shutdown.step(() => import('./start-server.js'));
  await startServer(shutdown);
} catch (error) {
  // Stopped by a signal: SignalShutdown closes what was opened and exits with code 0.
  if (!shutdown.stoppedBy(error)) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
