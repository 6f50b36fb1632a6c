/** Thrown by `SignalShutdown.step` once a signal came: start-up goes no further. */
export class StartupStopped extends Error {
  constructor() {
    super('start-up stopped by a signal');
  }
}

/**
 * SIGTERM and SIGINT for the whole life of the server, start-up included: the entry installs this
 * before it loads anything else, because a signal that finds no handler kills the process (exit 143,
 * which supervisors count as a failure) and Nest's shutdown hooks exist only once the app is created.
 * Start-up runs each step (loading the modules, creating the app, binding the port) through `step`:
 * a signal waits for the step in progress, since none can be cut short safely, then closes what the
 * steps opened and ends the process with code 0; start-up stops at its next step. Once the server
 * runs, a signal drains it the same way (the framework finishes the commands in flight). This module
 * imports nothing, so it loads at once.
 */
export class SignalShutdown {
  private stopping = false;
  private inProgress: Promise<unknown> = Promise.resolve();
  private close: (() => Promise<unknown>) | undefined;

  constructor(
    signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'],
    /** A close that takes longer is given up: exit code 1. */
    private readonly graceMs = 60_000,
  ) {
    for (const signal of signals) process.on(signal, () => void this.stop(signal));
  }

  /** Runs one step of the start-up; `closer` says how to close what it opened, should a signal come. */
  step<T>(run: () => Promise<T>, closer?: (opened: T) => () => Promise<unknown>): Promise<T> {
    if (this.stopping) return Promise.reject(new StartupStopped());
    const step = run().then((opened) => {
      if (closer) this.close = closer(opened);
      return opened;
    });
    this.inProgress = step.catch(() => undefined);
    return step;
  }

  /** Whether start-up failed because a signal stopped it, rather than by a fault of its own. */
  stoppedBy(error: unknown): boolean {
    return error instanceof StartupStopped || this.stopping;
  }

  private async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    console.error(`poker: ${signal} received, shutting down`);
    setTimeout(() => {
      console.error(`poker: shutdown took longer than ${this.graceMs} ms; exiting`);
      process.exit(1);
    }, this.graceMs).unref();
    await this.inProgress;
    try {
      await this.close?.();
    } catch (error) {
      console.error(`poker: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
    process.exit(0);
  }
}
