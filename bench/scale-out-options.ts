import type { StoreOptions } from '@nest-es/typeorm';

/** The projector of the scale-out figures (its partitions' checkpoints are `bench-scale-out#<i>/<n>`). */
export const SCALE_OUT_VIEW = 'bench-scale-out';

/** What an instance process of the scale-out figures runs (scale-out-instance.ts takes it as its argument). */
export interface InstanceOptions {
  store: StoreOptions;
  /** Partitions of the projector with scale-out on; 0: processing off (the instance only sends commands). */
  partitions: number;
  /** Omitted: the framework's default. */
  rebalanceIntervalMs?: number;
  /** The polling backstop of the subscriptions; omitted: the framework's default. */
  pollIntervalMs?: number;
  publisher?: { servers: string; stream: string; subjectPrefix: string };
}
