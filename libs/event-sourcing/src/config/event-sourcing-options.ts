import type { CanActivate, Type } from '@nestjs/common';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { HelmetOptions } from 'helmet';
import type { CommandAuthorizer } from '../model/command-authorizer.js';
import type { MergeStrategyName } from '../model/merge-strategy.js';
import type { SnapshotPolicyOption } from '../model/snapshot-policy-option.js';
import type { ReadModelOptions, StoreOptions } from './store-options.js';

export interface EventSourcingModuleOptions {
  /**
   * The TypeORM adapter's database: `{type: 'sqlite', database}`, `{type: 'postgres', url}` or
   * `{dataSource}` (an existing TypeORM DataSource). Required unless the module's `stores` supplies the adapter.
   */
  store?: StoreOptions;
  /**
   * The database of the projectors' read models and of every subscriber's checkpoint, which the
   * projectors write in one transaction (`READ_MODEL_DATA_SOURCE`). Default for a SQLite `store`: a
   * file of its own beside it (`app.read-models.sqlite` for `app.sqlite`; another in-memory database
   * for `:memory:`), so that a projector's open transaction never holds up appends; a SQLite file that
   * already holds checkpoints keeps them. Otherwise, and with `'store'`: the store's database.
   */
  readModels?: ReadModelOptions;
  /** Commands in flight per named aggregate's scheduler (async I/O, not threads). Default 64. */
  schedulerParallelism?: number;
  /** Lanes of the command dispatcher (aggregate id hash mod this). Default 1024. */
  dispatcherParallelism?: number;
  /** Module-wide snapshot default; `@Aggregate({snapshot})` overrides it. Default 'none'. */
  snapshots?: SnapshotPolicyOption;
  /** Default merge strategy of aggregates that do not choose one. Default COMMUTATIVE. */
  mergeStrategy?: MergeStrategyName;
  /** One deadline for the whole graceful stop, then force stop. Default 10,000 ms. */
  shutdownTimeoutMs?: number;
  /**
   * At shutdown, how long the commands in flight and their SIMPLE / CASCADE waits may take to
   * settle (subscriptions still run meanwhile); waits left then end with SYNC_TIMEOUT. Default
   * 5,000 ms, and never more than `shutdownTimeoutMs`.
   */
  drainTimeoutMs?: number;
  /** How long SIMPLE / CASCADE sends wait before SYNC_TIMEOUT. Default 5,000 ms. */
  syncTimeoutMs?: number;
  /** Aggregate states kept in memory between commands (LRU). Default 10,000; 0 turns the cache off. */
  aggregateCacheSize?: number;
  /** Projectors, sagas and process managers. */
  processing?: ProcessingOptions;
}

export interface ProcessingOptions {
  /** Run the subscriptions in this process. Default true (a CLI may turn them off). */
  enabled?: boolean;
  /** Run only these subscribers here (by name); default all. A maintenance command runs just the one it rebuilds. */
  subscribers?: string[];
  /** Lanes per subscriber kind, and tasks in flight per named aggregate. Default 64. */
  parallelism?: number;
  /** Polling backstop for appends made by other instances. Default 250 ms. */
  pollIntervalMs?: number;
  /** How often due process-manager timers are looked for. Default 200 ms. */
  timerPollIntervalMs?: number;
  /** Share the subscribers' work among the instances on one store instead of running all of it in each. */
  scaleOut?: ScaleOutOptions;
}

export interface ScaleOutOptions {
  /**
   * Each subscriber's events split by a hash of the aggregate id (the correlation id for process
   * managers) into this many partitions, each with its own checkpoint, spread over the instances.
   * Default 1 (a subscriber runs on one instance at a time). Changing it starts the new partitions
   * from position 0: rebuild projections after a change.
   */
  partitions?: number;
  /** How often an instance looks at who is alive and takes or hands over partitions. Default 500 ms. */
  rebalanceIntervalMs?: number;
}

/** Options the module needs before the factory runs (they decide which controllers exist). */
export interface EventSourcingModuleStaticOptions {
  /**
   * Mount the framework's HTTP routes. `true` is `{}`: exposed commands, health and metrics, with
   * security headers. Default false (no routes).
   */
  http?: boolean | EventSourcingHttpOptions;
  /**
   * Prometheus metrics (needs the prom-client package), served at `GET /metrics` with `http`.
   * Default: on with `http`, off without.
   */
  metrics?: boolean;
}

/** A Nest guard class (resolved from the application's providers, or created) or instance. */
export type GuardOption = Type<CanActivate> | CanActivate;

export interface EventSourcingHttpOptions {
  /**
   * Run before the command and aggregate routes, after any global `APP_GUARD`. A guard that
   * authenticates leaves the principal on `request.user` (`{id, ...claims}`).
   */
  guards?: GuardOption[];
  /** Allows or refuses each command sent over HTTP, given principal, command, aggregate and state. */
  authorizer?: Type<CommandAuthorizer>;
  /** Mount `GET /aggregates/:type/:id` (and `/events`) for aggregates that declare a `view`. Default false. */
  aggregateReads?: boolean;
  /** Guards the dead-letter routes; without one they are not mounted. */
  adminGuard?: GuardOption;
  /** Security headers on every route (helmet's options); false leaves them to the application. Default helmet's defaults. */
  helmet?: HelmetOptions | false;
  /** Cross-origin requests allowed by these rules (the `cors` package's options). Default: none allowed. */
  cors?: CorsOptions;
}

export const EVENT_SOURCING_HTTP_OPTIONS = Symbol('EVENT_SOURCING_HTTP_OPTIONS');

export const EVENT_SOURCING_OPTIONS = Symbol('EVENT_SOURCING_OPTIONS');
