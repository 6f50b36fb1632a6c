import { type DynamicModule, Module } from '@nestjs/common';
import { JetStreamFactConsumer } from './jetstream-fact-consumer.js';
import { NATS_JETSTREAM_OPTIONS, type NatsJetStreamOptions } from './jetstream-options.js';
import { JetStreamPublisher } from './jetstream-publisher.js';

/**
 * The NATS JetStream adapters, beside `EventSourcingModule`: events out (publisher) and facts in
 * (consumer), each on when its options are given. Needs `@nats-io/jetstream` and
 * `@nats-io/transport-node` installed.
 */
@Module({})
export class NatsJetStreamModule {
  static forRoot(options: NatsJetStreamOptions): DynamicModule {
    return {
      module: NatsJetStreamModule,
      providers: [{ provide: NATS_JETSTREAM_OPTIONS, useValue: options }, JetStreamPublisher, JetStreamFactConsumer],
      exports: [JetStreamPublisher, JetStreamFactConsumer],
    };
  }
}
