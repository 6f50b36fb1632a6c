import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  APPLIERS_METADATA,
  EVENT_HANDLERS_METADATA,
  REJECTION_HANDLER_METADATA,
  SUBSCRIBER_METADATA,
  TIMEOUT_HANDLERS_METADATA,
} from '../decorators/constants.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { ApplierMetadata } from '../decorators/decorator-types.js';
import type { EventHandlerMetadata, InstanceKey, ProcessManagerOptions, SubscriberMetadata, TimeoutHandlerMetadata } from '../decorators/subscriber-types.js';
import { MergeStrategy } from '../model/merge-strategy.js';
import { createSnapshotPolicy } from '../snapshot/snapshot-policy.js';
import type { AggregateDefinition, Applier } from '../model/aggregate-definition.js';
import { BootValidationError } from './boot-validation.error.js';
import { EventSourcingRegistry } from './event-sourcing-registry.js';
import { tableProblems } from './read-model-table-names.js';
import type { ProcessDefinition, SubscriberDefinition, SubscriberMethod } from './subscriber-definition.js';

/**
 * Finds `@Projector`, `@Saga` and `@ProcessManager` providers (after the aggregates are known) and
 * registers them; duplicate names and handlers of events nobody stores fail the boot.
 */
@Injectable()
export class SubscriberExplorer {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly registry: EventSourcingRegistry,
  ) {}

  explore(): void {
    const problems: string[] = [];
    const found: Array<{ classRef: Type; instance: Record<string, any>; metadata: SubscriberMetadata }> = [];
    const seen = new Set<Function>();
    for (const wrapper of this.discovery.getProviders()) {
      const classRef = wrapper.metatype as Type | undefined;
      const instance = wrapper.instance as Record<string, any> | undefined;
      if (!instance || typeof classRef !== 'function' || seen.has(classRef)) continue;
      const metadata: SubscriberMetadata | undefined = Reflect.getMetadata(SUBSCRIBER_METADATA, classRef);
      if (!metadata) continue;
      seen.add(classRef);
      found.push({ classRef, instance, metadata });
    }
    // Process managers first: their own events are events other subscribers may handle.
    found.sort((a, b) => Number(b.metadata.kind === 'process-manager') - Number(a.metadata.kind === 'process-manager'));
    const definitions = found.map(({ classRef, instance, metadata }) => this.define(classRef, instance, metadata, problems));
    for (const definition of definitions) this.checkHandlers(definition, problems);
    if (problems.length > 0) throw new BootValidationError(problems);
  }

  private define(classRef: Type, instance: Record<string, any>, metadata: SubscriberMetadata, problems: string[]): SubscriberDefinition {
    const { name, kind, options } = metadata;
    const clash = this.registry.subscribers.get(name);
    if (clash) problems.push(`subscriber name '${name}' is used twice: by ${clash.classRef.name} and ${classRef.name}`);
    if (kind === 'process-manager' && this.registry.aggregates.has(name)) {
      problems.push(`process manager '${name}' (${classRef.name}) has the name of an aggregate type; its stream would mix with the aggregate's`);
    }
    const handlers = new Map<string, SubscriberMethod>();
    const keys = new Map<string, InstanceKey>();
    const defaultKey = kind === 'process-manager' ? (options as ProcessManagerOptions).key : undefined;
    for (const { events, methodName, key } of (Reflect.getMetadata(EVENT_HANDLERS_METADATA, classRef) ?? []) as EventHandlerMetadata[]) {
      if (key !== undefined && kind !== 'process-manager') problems.push(`${classRef.name}.${methodName} names an instance key, which only process managers have`);
      for (const event of events) {
        const eventType = eventTypeName(event);
        this.registry.eventTypes.add(event, problems);
        if (handlers.has(eventType)) problems.push(`${classRef.name} handles ${event.name} twice; ${classRef.name}.${methodName} is the second`);
        handlers.set(eventType, instance[methodName].bind(instance));
        const keyOf = key ?? defaultKey;
        if (keyOf !== undefined) keys.set(eventType, keyOf);
      }
    }
    for (const [eventType, key] of keys) {
      if (typeof key !== 'function' && (typeof key !== 'string' || key.length === 0)) problems.push(`${classRef.name} gives ${eventType} an instance key that is neither a property name nor a function`);
    }
    if (handlers.size === 0) problems.push(`${classRef.name} ('${name}') has no @OnEvent methods`);
    const rejectedMethod: string | undefined = Reflect.getMetadata(REJECTION_HANDLER_METADATA, classRef);
    const definition: SubscriberDefinition = {
      name,
      kind,
      classRef,
      instance,
      options,
      handlers,
      onRejected: rejectedMethod ? instance[rejectedMethod].bind(instance) : undefined,
      reset: kind === 'projector' && typeof instance.reset === 'function' ? instance.reset.bind(instance) : undefined,
      createTables: kind === 'projector' && typeof instance.createTables === 'function' ? instance.createTables.bind(instance) : undefined,
    };
    problems.push(...tableProblems(definition));
    if (kind === 'process-manager') definition.process = this.defineProcess(classRef, instance, options as ProcessManagerOptions, name, keys, problems);
    if (!clash) this.registry.addSubscriber(definition);
    return definition;
  }

  private defineProcess(
    classRef: Type,
    instance: Record<string, any>,
    options: ProcessManagerOptions,
    name: string,
    keys: Map<string, InstanceKey>,
    problems: string[],
  ): ProcessDefinition {
    if (typeof instance.initialState !== 'function') problems.push(`${classRef.name} (@ProcessManager '${name}') has no initialState() method`);
    if (!options.startsOn?.length) problems.push(`${classRef.name} (@ProcessManager '${name}') names no startsOn events`);
    const aggregate: AggregateDefinition = {
      type: name,
      classRef,
      stateVersion: options.stateVersion ?? 1,
      mergeStrategy: MergeStrategy.STRICT,
      snapshotPolicy: createSnapshotPolicy('none', undefined),
      initialState: () => instance.initialState(),
      appliers: new Map(),
      eventClasses: new Map(),
      commandHandlers: new Map(),
    };
    for (const { event, methodName } of (Reflect.getMetadata(APPLIERS_METADATA, classRef) ?? []) as ApplierMetadata[]) {
      const eventType = eventTypeName(event);
      this.registry.eventTypes.add(event, problems);
      aggregate.appliers.set(eventType, (instance[methodName] as Applier).bind(instance));
      aggregate.eventClasses.set(eventType, event);
      const owner = this.registry.eventOwners.get(eventType);
      if (owner) problems.push(`event ${event.name} is applied by two owners: ${owner.classRef.name} and ${classRef.name}`);
      else this.registry.eventOwners.set(eventType, aggregate);
    }
    const timeouts = new Map<string, SubscriberMethod>();
    for (const { name: timer, methodName } of (Reflect.getMetadata(TIMEOUT_HANDLERS_METADATA, classRef) ?? []) as TimeoutHandlerMetadata[]) {
      timeouts.set(timer, instance[methodName].bind(instance));
    }
    return { aggregate, startsOn: new Set((options.startsOn ?? []).map((event) => eventTypeName(event))), timeouts, keys, options };
  }

  private checkHandlers(definition: SubscriberDefinition, problems: string[]): void {
    for (const eventType of definition.handlers.keys()) {
      if (!this.registry.eventOwners.has(eventType)) {
        problems.push(`${definition.classRef.name} ('${definition.name}') handles ${eventType}, which no aggregate or process manager applies`);
      }
    }
    for (const eventType of definition.process?.startsOn ?? []) {
      if (!definition.handlers.has(eventType)) problems.push(`${definition.classRef.name} starts on ${eventType} but has no @OnEvent(${eventType}) method`);
    }
  }
}
