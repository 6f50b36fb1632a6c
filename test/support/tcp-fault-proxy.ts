import net from 'node:net';

export type ProxyMode = 'pass' | 'stall' | 'refuse';

/**
 * A TCP proxy on a loopback port between an application and its database, with faults on command:
 * `reset()` cuts every open connection (RST), `stall` keeps connections open but forwards nothing
 * (a database gone silent), `refuse` turns new connections away (RST on connect) and cuts the open ones.
 */
export class TcpFaultProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private mode: ProxyMode = 'pass';

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpFaultProxy> {
    const proxy = new TcpFaultProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  get connections(): number {
    return this.pairs.size;
  }

  set(mode: ProxyMode): void {
    this.mode = mode;
    if (mode === 'refuse') this.reset();
    for (const [client, upstream] of this.pairs) {
      if (mode === 'stall') {
        client.pause();
        upstream.pause();
      } else {
        client.resume();
        upstream.resume();
      }
    }
  }

  /** Cuts every open connection at once, as a crashed database host or a dropped route would. */
  reset(): void {
    for (const [client, upstream] of this.pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.target);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.mode === 'stall') {
      client.pause();
      upstream.pause();
    }
  }
}
