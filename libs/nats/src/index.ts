// The public API of @nest-es/nats: NATS JetStream beside @nest-es/core (a publisher of stored events, a consumer of facts).
export { NatsJetStreamModule } from './nats-jetstream.module.js';
export { JetStreamPublisher } from './jetstream-publisher.js';
export { JetStreamFactConsumer } from './jetstream-fact-consumer.js';
export type { IncomingFact, IncomingMessage, JetStreamFactConsumerOptions, JetStreamPublisherOptions, NatsJetStreamOptions } from './jetstream-options.js';
