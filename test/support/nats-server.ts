import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, freePort, startProcess, stopAppProcess } from './app-process.js';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/**
 * A NATS JetStream server of the suite's own, on a free port with its own store folder, so a suite
 * can stop and restart it (keeping its streams) without touching the shared server.
 */
export class PrivateNatsServer {
  private process?: AppProcess;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'nats-js-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again, on the same port and store) and resolves once it accepts clients. */
  async restart(): Promise<void> {
    this.process = await startProcess(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], {}, /Server is ready/, this.port);
  }

  /** Stops the server; the streams stay in its store folder for the next `restart`. */
  async stop(): Promise<void> {
    if (this.process) await stopAppProcess(this.process);
    this.process = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
