import type { BesideRaw } from './beside-raw.js';
import type { CommandFigures, RateFigures } from './command.bench.js';
import type { AppendLockFigures } from './append-lock.bench.js';
import type { CatchUpFigures } from './catch-up.bench.js';
import type { DatabaseKind } from './databases.js';
import type { HttpAdapterKind, HttpLoadFigures } from './http.bench.js';
import type { JetStreamFigures } from './jetstream.bench.js';
import type { LiveFigures } from './live.bench.js';
import type { MachineInfo } from './machine.js';
import type { MemoryFigures } from './memory.bench.js';
import type { PokerActionFigures } from './poker-action.bench.js';
import type { PoisonFigures } from './poison.bench.js';
import type { WorkflowPoisonFigures } from './workflow-poison.bench.js';
import type { ProjectionFigures } from './projection.bench.js';
import type { RebuildFigures } from './rebuild.bench.js';
import type { ScaleOutFigures } from './scale-out.bench.js';
import type { SlowProjectorFigures } from './slow-projector.bench.js';

export interface DatabaseCommandFigures {
  c1: BesideRaw<CommandFigures>;
  c16: CommandFigures;
  c64: CommandFigures;
  /** Latency at a moderate load: a steady rate well below what the store can take. */
  moderate: RateFigures;
  /** A quarter of the commands on aggregates in the store but not cached (the full run only). */
  mixed?: MixedFigures;
}

export interface MixedFigures {
  /** The first run in a new application: it also pays the process's warm-up. */
  afterBoot: MixedRunFigures;
  c1: BesideRaw<MixedRunFigures>;
  c64: MixedRunFigures;
}

type MixedRunFigures = CommandFigures & { coldShare: number };

export interface RawCommitFigures {
  callers: number;
  /** PostgreSQL: the pool size, the store's. */
  connections: number;
  commitsPerSec: number;
}

/** Commands over HTTP (autocannon) on each of Nest's adapters, beside the in-process figures of `command`. */
export type DatabaseHttpFigures = Record<HttpAdapterKind, HttpLoadFigures>;

export interface Target {
  name: string;
  met: boolean;
  detail: string;
}

/** What `bench/results/latest.json` holds. */
export interface BenchResults {
  mode: 'quick' | 'full';
  startedAt: string;
  machine: MachineInfo;
  /** The headline rebuild figures are SQLite's (the embedded default); PostgreSQL's are beside them. */
  rebuild: RebuildFigures & { db: 'sqlite'; postgres?: RebuildFigures };
  command: Partial<Record<DatabaseKind, DatabaseCommandFigures>>;
  raw: Partial<Record<DatabaseKind, RawCommitFigures>>;
  http: Partial<Record<DatabaseKind, DatabaseHttpFigures>>;
  /** A projector catching up from position 0 over `events` stored events, in a store of its own. */
  catchUp: Partial<Record<DatabaseKind, CatchUpFigures>>;
  /** SIMPLE latency on healthy aggregates while a projector retries another aggregate's poison events, in a store of its own. */
  poison: Partial<Record<DatabaseKind, PoisonFigures>>;
  /** SIMPLE and CASCADE latency on healthy accounts while a saga and a process manager retry another account's poison events. */
  workflowPoison: Partial<Record<DatabaseKind, WorkflowPoisonFigures>>;
  /** The poker app on Fastify: one caller's PlayerActions over HTTP with CASCADE (the hand flow, the table view), in a store of its own. */
  pokerAction?: Partial<Record<DatabaseKind, PokerActionFigures>>;
  /** PostgreSQL: appends/s of 1, 2 and 3 processes appending at once (the per-schema append lock's cost). */
  appendLock?: AppendLockFigures[];
  memory: MemoryFigures & { db: DatabaseKind };
  /** Projection lag of ASYNC commands and the cost of SIMPLE and CASCADE over ASYNC (`projection.lagP99Ms`, ...). */
  projection: ProjectionFigures & { db: DatabaseKind };
  /** ASYNC commands while a projector takes 500 ms per event in its transaction (`slowProjector.p99Ms`). */
  slowProjector: SlowProjectorFigures & { db: DatabaseKind };
  /** PostgreSQL: instances in processes of their own sharing a projector's partitions (`scaleOut.lag.p99Ms`, ...). */
  scaleOut?: ScaleOutFigures;
  /** PostgreSQL and NATS: the JetStream publisher (`jetStream.forwardedPerSec`, `jetStream.lag.p99Ms`). */
  jetStream?: JetStreamFigures;
  /** A live query's update, commit to the watching client, and many subscribers at once (`live.postgres.acrossInstances.p99Ms`, ...). */
  live?: Partial<Record<DatabaseKind, LiveFigures>>;
  skipped: string[];
  targets: Target[];
}

/** The figures of `--only scale-out`, in `bench/results/scale-out.json`. */
export type ScaleOutResults = Pick<BenchResults, 'mode' | 'startedAt' | 'machine' | 'scaleOut' | 'jetStream' | 'skipped' | 'targets'>;

/** The figures of `--only poker-action`, in `bench/results/poker-action.json`. */
export type PokerActionResults = Pick<BenchResults, 'mode' | 'startedAt' | 'machine' | 'pokerAction' | 'skipped' | 'targets'>;

/** The figure of `--only slow-projector`, in `bench/results/slow-projector.json`. */
export type SlowProjectorResults = Pick<BenchResults, 'mode' | 'startedAt' | 'machine' | 'slowProjector' | 'skipped' | 'targets'>;
