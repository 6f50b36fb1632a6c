import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { InstanceOptions } from './scale-out-options.js';

/** An application instance in a process of its own (scale-out-instance.ts), called over IPC. */
export class InstanceProcess {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private exited = false;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      if (message.error) call.reject(new Error(`instance ${child.pid}: ${message.error}`));
      else call.resolve(message.result);
    });
    child.once('exit', (code, signal) => {
      this.exited = true;
      for (const call of this.pending.values()) call.reject(new Error(`instance ${child.pid} exited (${signal ?? code})`));
      this.pending.clear();
    });
  }

  /** Forks an instance and waits until its application has started. */
  static start(options: InstanceOptions): Promise<InstanceProcess> {
    const child = fork(fileURLToPath(new URL('./scale-out-instance.js', import.meta.url)), [JSON.stringify(options)]);
    return new Promise((resolve, reject) => {
      child.once('message', (message) => (message === 'ready' ? resolve(new InstanceProcess(child)) : reject(new Error(`unexpected ${String(message)}`))));
      child.once('exit', (code) => reject(new Error(`an instance exited with ${code} before it was ready`)));
      child.once('error', reject);
    });
  }

  call<T>(call: string, args?: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.exited) return reject(new Error(`instance ${this.child.pid} has exited`));
      const id = this.nextId++;
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, call, args });
    });
  }

  /** The partitions (checkpoint names) running in the instance now. */
  running(): Promise<string[]> {
    return this.call('running');
  }

  /** Killed without a chance to release anything, as a crash would; resolves once the process is gone. */
  kill(): Promise<void> {
    if (this.exited) return Promise.resolve();
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    return gone;
  }

  /** A graceful stop (the application closes, its leases are released); killed if it has not exited in 30 s. */
  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.call('close').catch(() => undefined);
    await gone;
    clearTimeout(timer);
  }
}
