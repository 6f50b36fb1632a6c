import type { Type } from '@nestjs/common';
import type { CommandContext } from '../model/command-context.js';
import {
  AGGREGATE_ID_PROPERTY_METADATA,
  AGGREGATE_METADATA,
  APPLIERS_METADATA,
  COMMAND_HANDLERS_METADATA,
  MERGE_HANDLER_METADATA,
} from '../decorators/constants.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { AggregateMetadata, ApplierMetadata, CommandHandlerMetadata } from '../decorators/decorator-types.js';
import { MergeStrategy, normalizeMergeStrategy, type MergeStrategyName } from '../model/merge-strategy.js';
import type { SnapshotPolicyOption } from '../model/snapshot-policy-option.js';
import { createSnapshotPolicy } from '../snapshot/snapshot-policy.js';
import type { AggregateDefinition, Applier, CommandHandlerDefinition } from '../model/aggregate-definition.js';

export interface AggregateDefaults {
  mergeStrategy?: MergeStrategyName;
  snapshots?: SnapshotPolicyOption;
}

export function aggregateMetadataOf(classRef: Function): AggregateMetadata | undefined {
  return Reflect.getMetadata(AGGREGATE_METADATA, classRef);
}

/**
 * Turns one `@Aggregate` class and its instance into a definition, collecting every problem
 * found in it (the explorer adds the problems that span aggregates). Used by the module at
 * bootstrap and by the testing fixture, so both see the aggregate the same way.
 */
export function buildAggregateDefinition(
  classRef: Type,
  instance: object,
  defaults: AggregateDefaults,
  problems: string[],
): AggregateDefinition | undefined {
  const metadata = aggregateMetadataOf(classRef);
  if (!metadata) {
    problems.push(`${classRef.name} is not decorated with @Aggregate`);
    return undefined;
  }
  const { type, options } = metadata;
  const target = instance as Record<string, any>;
  if (typeof target.initialState !== 'function') {
    problems.push(`${classRef.name} (@Aggregate '${type}') has no initialState() method`);
    return undefined;
  }
  const definition: AggregateDefinition = {
    type,
    classRef,
    stateVersion: options.stateVersion ?? 1,
    mergeStrategy: normalizeMergeStrategy(options.mergeStrategy ?? defaults.mergeStrategy ?? MergeStrategy.COMMUTATIVE),
    snapshotPolicy: createSnapshotPolicy(options.snapshot, defaults.snapshots),
    initialState: () => target.initialState(),
    appliers: new Map(),
    eventClasses: new Map(),
    commandHandlers: new Map(),
    view: options.view,
  };

  const appliers: ApplierMetadata[] = Reflect.getMetadata(APPLIERS_METADATA, classRef) ?? [];
  for (const { event, methodName } of appliers) {
    const eventType = eventTypeName(event);
    if (definition.appliers.has(eventType)) {
      problems.push(`${classRef.name} has two @Apply(${event.name}) methods (event type '${eventType}'); ${classRef.name}.${methodName} is the second`);
      continue;
    }
    definition.appliers.set(eventType, (target[methodName] as Applier).bind(instance));
    definition.eventClasses.set(eventType, event);
  }

  const mergeMethod: string | undefined = Reflect.getMetadata(MERGE_HANDLER_METADATA, classRef);
  if (mergeMethod) definition.mergeHandler = target[mergeMethod].bind(instance);
  if (definition.mergeStrategy === MergeStrategy.AGGREGATE_HANDLES && !mergeMethod) {
    problems.push(`${classRef.name} uses merge strategy AGGREGATE_HANDLES but has no @MergeHandler() method`);
  }

  const handlers: CommandHandlerMetadata[] = Reflect.getMetadata(COMMAND_HANDLERS_METADATA, classRef) ?? [];
  for (const { command, methodName, options: handlerOptions } of handlers) {
    const location = `${classRef.name}.${methodName}`;
    const duplicate = definition.commandHandlers.get(command.name);
    if (duplicate) {
      problems.push(`command ${command.name} has two handlers: ${duplicate.location} and ${location}`);
      continue;
    }
    if (!handlerOptions?.emits || handlerOptions.emits.length === 0) {
      problems.push(`${location} must declare the events it emits: @CommandHandler(${command.name}, { emits: [...] })`);
    }
    const emits = new Set<string>();
    for (const event of handlerOptions?.emits ?? []) {
      if (!definition.appliers.has(eventTypeName(event))) {
        problems.push(`event ${event.name} emitted by ${location} has no @Apply(${event.name}) method in ${classRef.name}`);
      }
      emits.add(eventTypeName(event));
    }
    const mergeStrategy = handlerOptions?.mergeStrategy === undefined ? definition.mergeStrategy : normalizeMergeStrategy(handlerOptions.mergeStrategy);
    if (mergeStrategy === MergeStrategy.AGGREGATE_HANDLES && !mergeMethod && definition.mergeStrategy !== MergeStrategy.AGGREGATE_HANDLES) {
      problems.push(`${location} uses merge strategy AGGREGATE_HANDLES but ${classRef.name} has no @MergeHandler() method`);
    }
    const method = target[methodName] as (c: object, s: unknown, ctx: CommandContext) => unknown;
    const handler: CommandHandlerDefinition = {
      commandType: command.name,
      commandClass: command,
      aggregate: definition,
      location,
      emits,
      modifies: handlerOptions?.modifies,
      mergeStrategy,
      callerMergeStrategies: new Set([mergeStrategy, MergeStrategy.STRICT, ...(handlerOptions?.callerMergeStrategies ?? options.callerMergeStrategies ?? []).map(normalizeMergeStrategy)]),
      exposed: handlerOptions?.http === true,
      aggregateIdProperty: Reflect.getMetadata(AGGREGATE_ID_PROPERTY_METADATA, command),
      handle: (c, s, ctx) => method.call(instance, c, s, ctx) as any,
    };
    definition.commandHandlers.set(command.name, handler);
  }
  return definition;
}
