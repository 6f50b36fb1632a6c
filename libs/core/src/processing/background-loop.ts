/**
 * A loop that runs in the background until stopped: `stop()` wakes any sleep at once and resolves
 * when the iteration in hand (and the `finally` step) is done. It can be started again.
 */
export class BackgroundLoop {
  private stopping = false;
  private wakeUp = new AbortController();
  private loop?: Promise<void>;

  get stopped(): boolean {
    return this.stopping;
  }

  /** Aborts when a stop begins: pass it to waits that should end early. */
  get signal(): AbortSignal {
    return this.wakeUp.signal;
  }

  start(iteration: () => Promise<void>, onStop: () => Promise<void> = async () => undefined): void {
    this.stopping = false;
    this.wakeUp = new AbortController();
    this.loop = (async () => {
      while (!this.stopping) await iteration();
      await onStop();
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp.abort();
    await this.loop;
  }

  /** Waits `ms`, or less when a stop begins. */
  sleep(ms: number): Promise<void> {
    if (this.wakeUp.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const signal = this.wakeUp.signal;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
