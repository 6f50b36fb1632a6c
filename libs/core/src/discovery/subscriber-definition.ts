import type { Type } from '@nestjs/common';
import type { InstanceKey, ProcessManagerOptions, SubscriberKind, SubscriberOptions } from '../decorators/subscriber-types.js';
import type { AggregateDefinition } from '../model/aggregate-definition.js';

export type SubscriberMethod = (...args: any[]) => unknown;

/** Pure data (plus bound methods) about one projector, saga or process manager. */
export interface SubscriberDefinition {
  name: string;
  kind: SubscriberKind;
  classRef: Type;
  instance: object;
  options: SubscriberOptions;
  /** Event type name -> the method handling it. */
  handlers: Map<string, SubscriberMethod>;
  onRejected?: SubscriberMethod;
  /** Projectors: clears the read model before a rebuild. */
  reset?: SubscriberMethod;
  /** Projectors that declare `tables`: creates them under the names given, `(tx, table) => Promise<void>`. */
  createTables?: SubscriberMethod;
  process?: ProcessDefinition;
}

export interface ProcessDefinition {
  /** The process manager's own stream: aggregate type = its name, id = the instance key. */
  aggregate: AggregateDefinition;
  startsOn: Set<string>;
  /** Timer name -> the method run when it fires. */
  timeouts: Map<string, SubscriberMethod>;
  /** Event type name -> where its instance key comes from (absent: the correlation id). */
  keys: Map<string, InstanceKey>;
  options: ProcessManagerOptions;
}
