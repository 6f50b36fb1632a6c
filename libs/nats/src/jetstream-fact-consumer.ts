import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { fact } from '@nest-es/core';
import { FactAppender } from '@nest-es/core/internal';
import { NATS_JETSTREAM_OPTIONS, type IncomingMessage, type NatsJetStreamOptions } from './jetstream-options.js';
import { connectJetStream, type JetStreamConnection } from './nats-client.js';

const REDELIVER_AFTER_MS = 1_000;

/**
 * Turns the messages of a JetStream stream into facts, through a durable consumer with explicit
 * acknowledgement: a message is acknowledged only after its fact is stored, and the fact's external
 * id is the message id, so a redelivered message (a crash between store and ack) is stored once.
 * A message that fails is redelivered later; JetStream's `max_deliver` of the consumer bounds that.
 */
@Injectable()
export class JetStreamFactConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JetStreamFactConsumer');
  private connection?: JetStreamConnection;
  private messages?: ConsumerMessages;
  private running?: Promise<void>;

  constructor(
    @Inject(NATS_JETSTREAM_OPTIONS) private readonly options: NatsJetStreamOptions,
    private readonly facts: FactAppender,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const settings = this.options.consumer;
    if (!settings) return;
    this.connection = await connectJetStream(this.options.servers, `jetstream-consumer:${settings.durable}`);
    const { js, jsm } = this.connection;
    try {
      await jsm.consumers.info(settings.stream, settings.durable);
    } catch {
      await jsm.consumers.add(settings.stream, {
        durable_name: settings.durable,
        ack_policy: 'explicit',
        ...(settings.filterSubject ? { filter_subject: settings.filterSubject } : {}),
      });
    }
    const consumer = await js.consumers.get(settings.stream, settings.durable);
    this.messages = await consumer.consume();
    this.running = this.consume(this.messages);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.messages?.close();
    await this.running;
    await this.connection?.nc.drain().catch(() => undefined);
  }

  private async consume(messages: ConsumerMessages): Promise<void> {
    for await (const message of messages) await this.handle(message);
  }

  private async handle(message: JsMsg): Promise<void> {
    const settings = this.options.consumer!;
    const incoming = toIncoming(settings.stream, message);
    try {
      const wanted = await settings.toFact(incoming);
      if (wanted) {
        const correlationId = incoming.headers['Correlation-Id'] ?? incoming.id;
        await this.facts.append(fact(wanted.aggregateType, wanted.aggregateId, wanted.event, incoming.id), { correlationId, causationId: incoming.id });
      }
      // Acknowledged only now: a crash before this redelivers the message, and the external id keeps one fact.
      await message.ackAck();
    } catch (error) {
      this.logger.warn(`message ${incoming.id} on ${incoming.subject} not stored (${(error as Error).message}); redelivered later`);
      message.nak(REDELIVER_AFTER_MS);
    }
  }
}

function toIncoming(stream: string, message: JsMsg): IncomingMessage {
  const headers: Record<string, string> = {};
  for (const [key, values] of message.headers ?? []) headers[key] = values[0];
  let data: unknown;
  try {
    data = message.json();
  } catch {
    data = undefined;
  }
  return { id: headers['Nats-Msg-Id'] ?? `${stream}:${message.seq}`, subject: message.subject, data, headers };
}
