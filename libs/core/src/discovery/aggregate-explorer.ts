import { Inject, Injectable, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { APPLIERS_METADATA, COMMAND_HANDLERS_METADATA, SUBSCRIBER_METADATA } from '../decorators/constants.js';
import type { SubscriberMetadata } from '../decorators/subscriber-types.js';
import type { ApplierMetadata, CommandHandlerMetadata } from '../decorators/decorator-types.js';
import { customMergeStrategyNameOf } from '../decorators/custom-merge-strategy.decorator.js';
import type { MergeStrategyHandler } from '../merge/merge-strategy-handler.js';
import { MergeStrategies } from '../merge/merge-strategies.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import { aggregateMetadataOf, buildAggregateDefinition } from './aggregate-definition-builder.js';
import { BootValidationError } from './boot-validation.error.js';
import { EventSourcingRegistry } from './event-sourcing-registry.js';

/**
 * Finds `@Aggregate` providers with Nest's DiscoveryService and fills the registry. Every
 * mistake found fails the boot with one message naming each class and method involved.
 */
@Injectable()
export class AggregateExplorer {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly registry: EventSourcingRegistry,
    private readonly mergeInterceptors: MergeStrategies,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
  ) {}

  explore(): void {
    const problems: string[] = [];
    const seen = new Set<Function>();
    this.registerMergeInterceptors(problems);
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as object | undefined;
      const classRef = wrapper.metatype as Type | undefined;
      if (!instance || typeof classRef !== 'function' || seen.has(classRef) || !aggregateMetadataOf(classRef)) continue;
      seen.add(classRef);
      this.register(buildAggregateDefinition(classRef, instance, this.options, problems), problems);
    }
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const classRef = wrapper.metatype as Type | undefined;
      if (typeof classRef !== 'function' || seen.has(classRef) || aggregateMetadataOf(classRef)) continue;
      // Process managers are event-sourced too: their @Apply methods are theirs to have.
      const processManager = (Reflect.getMetadata(SUBSCRIBER_METADATA, classRef) as SubscriberMetadata | undefined)?.kind === 'process-manager';
      const stray: Array<CommandHandlerMetadata | ApplierMetadata> = [
        ...(Reflect.getMetadata(COMMAND_HANDLERS_METADATA, classRef) ?? []),
        ...(processManager ? [] : (Reflect.getMetadata(APPLIERS_METADATA, classRef) ?? [])),
      ];
      for (const entry of stray) problems.push(`${classRef.name}.${entry.methodName} is a @CommandHandler/@Apply outside an @Aggregate class`);
    }
    if (problems.length > 0) throw new BootValidationError(problems);
  }

  private registerMergeInterceptors(problems: string[]): void {
    const seen = new Set<Function>();
    for (const wrapper of this.discovery.getProviders()) {
      const classRef = wrapper.metatype as Type | undefined;
      const name = typeof classRef === 'function' ? customMergeStrategyNameOf(classRef) : undefined;
      if (!name || !wrapper.instance || seen.has(classRef!)) continue;
      seen.add(classRef!);
      const instance = wrapper.instance as Partial<MergeStrategyHandler>;
      if (typeof instance.merge !== 'function') problems.push(`${classRef!.name} (@CustomMergeStrategy('${name}')) has no merge(conflict) method`);
      else if (!this.mergeInterceptors.register(name, instance as MergeStrategyHandler)) problems.push(`merge strategy '${name}' of ${classRef!.name} is registered twice (or is a built-in name)`);
    }
  }

  private assertMergeStrategiesKnown(definition: AggregateDefinition, problems: string[]): void {
    const known = this.mergeInterceptors.names();
    const unknown = (name: string) => !known.includes(name);
    if (unknown(definition.mergeStrategy)) problems.push(`${definition.classRef.name} uses merge strategy '${definition.mergeStrategy}', which is not registered (known: ${known.join(', ')})`);
    for (const handler of definition.commandHandlers.values()) {
      if (handler.mergeStrategy !== definition.mergeStrategy && unknown(handler.mergeStrategy)) {
        problems.push(`${handler.location} uses merge strategy '${handler.mergeStrategy}', which is not registered (known: ${known.join(', ')})`);
      }
    }
  }

  private register(definition: ReturnType<typeof buildAggregateDefinition>, problems: string[]): void {
    if (!definition) return;
    this.assertMergeStrategiesKnown(definition, problems);
    const existing = this.registry.aggregates.get(definition.type);
    if (existing) {
      problems.push(`aggregate type '${definition.type}' is used twice: by ${existing.classRef.name} and ${definition.classRef.name}`);
      return;
    }
    for (const eventClass of definition.eventClasses.values()) this.registry.eventTypes.add(eventClass, problems);
    for (const eventType of definition.eventClasses.keys()) {
      const owner = this.registry.eventOwners.get(eventType);
      if (owner) problems.push(`event ${eventType} is applied by two aggregates: ${owner.classRef.name} and ${definition.classRef.name}`);
      else this.registry.eventOwners.set(eventType, definition);
    }
    for (const [commandType, handler] of definition.commandHandlers) {
      const duplicate = this.registry.commandsByType.get(commandType);
      if (duplicate) {
        problems.push(`command ${commandType} has two handlers: ${duplicate.location} and ${handler.location}`);
        continue;
      }
      this.registry.commandsByType.set(commandType, handler);
      this.registry.commandsByClass.set(handler.commandClass, handler);
    }
    this.registry.aggregates.set(definition.type, definition);
  }
}
