import type { Type } from '@nestjs/common';
import type { AggregateView } from './aggregate-view.js';
import type { CommandContext } from './command-context.js';
import type { HandlerResult } from './handler-result.js';
import type { MergeDecision } from './merge-decision.js';
import type { MergeStrategyName } from './merge-strategy.js';
import type { SnapshotPolicy } from './snapshot-policy-option.js';

export type Applier = (state: any, event: any) => any;

/** Pure data (plus bound methods) about one aggregate, built once at bootstrap. */
export interface AggregateDefinition {
  type: string;
  classRef: Type;
  stateVersion: number;
  mergeStrategy: MergeStrategyName;
  snapshotPolicy: SnapshotPolicy;
  initialState(): unknown;
  /** Event type name -> applier. */
  appliers: Map<string, Applier>;
  /** Event type name -> class, for every event the aggregate applies. */
  eventClasses: Map<string, Type>;
  commandHandlers: Map<string, CommandHandlerDefinition>;
  /** What HTTP readers may see; undefined: not readable over HTTP. */
  view?: AggregateView;
  mergeHandler?: (command: object, expectedState: unknown, actualState: unknown, context: CommandContext) => MergeDecision | Promise<MergeDecision>;
}

export interface CommandHandlerDefinition {
  commandType: string;
  commandClass: Type;
  aggregate: AggregateDefinition;
  /** `Class.method`, for messages. */
  location: string;
  emits: Set<string>;
  modifies?: string[];
  mergeStrategy: MergeStrategyName;
  /** What an outside caller may choose with `Merge-Strategy`: the command's own strategy, STRICT (it only refuses more), and those its options allow. */
  callerMergeStrategies: ReadonlySet<MergeStrategyName>;
  /** Routable over HTTP (`@CommandHandler(..., { http: true })`). */
  exposed: boolean;
  /** The property of the command naming the aggregate, if the command class marks one. */
  aggregateIdProperty?: string;
  handle(command: object, state: unknown, context: CommandContext): HandlerResult | Promise<HandlerResult>;
}
