/** Where NATS is, and which of the two adapters run. */
export interface NatsJetStreamOptions {
  /** NATS server URL(s), e.g. `nats://127.0.0.1:4222`. */
  servers: string | string[];
  /** Committed events out to a JetStream stream. */
  publisher?: JetStreamPublisherOptions;
  /** Messages of a JetStream stream in, as facts. */
  consumer?: JetStreamFactConsumerOptions;
}

export interface JetStreamPublisherOptions {
  /** The stream; created (subjects `<subjectPrefix>.>`) when it does not exist. */
  stream: string;
  /** Subjects are `<subjectPrefix>.<aggregate type>.<event type>`. Default `events`. */
  subjectPrefix?: string;
  /** Events read from the store per batch. Default 500. */
  batchSize?: number;
  /** JetStream's de-duplication window of a stream this creates. Default 2 minutes (JetStream's own). */
  duplicateWindowMs?: number;
}

/** A message of the stream, for `toFact`. */
export interface IncomingMessage {
  /** The message id (`Nats-Msg-Id`), or `<stream>:<stream sequence>` when it has none: the fact's external id. */
  id: string;
  subject: string;
  /** The payload parsed as JSON (undefined when it is not JSON). */
  data: unknown;
  headers: Record<string, string>;
}

/** The fact a message becomes: an event applied to an aggregate without validation, once per message id. */
export interface IncomingFact {
  aggregateType: string;
  aggregateId: string;
  /** An instance of an event class the aggregate has an `@Apply` for. */
  event: object;
}

export interface JetStreamFactConsumerOptions {
  stream: string;
  /** The durable consumer's name (created when missing): instances sharing it share the messages. */
  durable: string;
  /** Only subjects matching this. Default: the whole stream. */
  filterSubject?: string;
  /** The fact for a message; null acknowledges it without storing anything. A throw redelivers it later. */
  toFact(message: IncomingMessage): IncomingFact | null | Promise<IncomingFact | null>;
}

export const NATS_JETSTREAM_OPTIONS = Symbol('NATS_JETSTREAM_OPTIONS');
