import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** A connection to NATS with its JetStream handles. */
export interface JetStreamConnection {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/**
 * The NATS packages are optional peers of the library: loaded only here, when a JetStream adapter
 * starts, so applications that do not use them need not install them.
 */
export async function connectJetStream(servers: string | string[], name: string): Promise<JetStreamConnection> {
  const transport = await load<typeof import('@nats-io/transport-node')>('@nats-io/transport-node');
  const jetstreamModule = await load<typeof import('@nats-io/jetstream')>('@nats-io/jetstream');
  // Reconnects forever: the adapters keep their place in the store and carry on when NATS is back.
  const nc = await transport.connect({ servers, name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  return { nc, js: jetstreamModule.jetstream(nc), jsm: await jetstreamModule.jetstreamManager(nc) };
}

async function load<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(`the NATS JetStream adapters need the package ${name}: npm install @nats-io/jetstream @nats-io/transport-node`, { cause: error });
    }
    throw error;
  }
}
