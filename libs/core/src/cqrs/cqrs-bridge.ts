import { Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { CommandBus, EventBus } from '@nestjs/cqrs';
import { CommandGateway } from '../command/command-gateway.js';
import { BootValidationError } from '../discovery/boot-validation.error.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { cqrsHandledCommand, forwardingHandler } from './command-forwarding.js';
import { toEventInstance } from './stored-event-of.js';

/**
 * Commands of our aggregates sent on @nestjs/cqrs's CommandBus go to the CommandGateway; every
 * event stored in this process is published on its EventBus once its append has committed.
 */
@Injectable()
export class CqrsBridge implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('EventSourcingCqrs');

  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly gateway: CommandGateway,
    private readonly notifier: EventNotifier,
    private readonly discovery: DiscoveryService,
    @Optional() private readonly commandBus?: CommandBus,
    @Optional() private readonly eventBus?: EventBus,
  ) {}

  onModuleInit(): void {
    const eventBus = this.eventBus;
    if (!this.commandBus || !eventBus) {
      throw new BootValidationError(['EventSourcingCqrsModule needs CqrsModule.forRoot() from @nestjs/cqrs in the application imports']);
    }
    // Subscribed before processing starts (at bootstrap), so the first process-manager steps are published too.
    this.notifier.onAppend((events) => this.publish(eventBus, events));
  }

  /** After module init, where the registry is filled; before the first command can arrive. */
  onApplicationBootstrap(): void {
    this.assertSingleHandlers();
    const commandClasses = [...this.registry.commandsByClass.keys()];
    this.commandBus!.register(commandClasses.map((commandClass) => forwardingHandler(commandClass, this.gateway)));
  }

  private publish(eventBus: EventBus, events: readonly StoredEvent[]): void {
    // Deferred and guarded: a failing publisher or handler must neither hold nor fail the command whose events are stored.
    queueMicrotask(() => {
      try {
        eventBus.publishAll(events.map((stored) => toEventInstance(stored, this.registry.eventClass(stored.type))));
      } catch (error) {
        this.logger.error(`publishing ${events.length} stored event(s) on the EventBus failed`, error instanceof Error ? error.stack : String(error));
      }
    });
  }

  /** One command class, one handler: an aggregate and a leftover @nestjs/cqrs handler would silently shadow each other. */
  private assertSingleHandlers(): void {
    const problems: string[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const classRef = wrapper.metatype;
      const command = typeof classRef === 'function' ? cqrsHandledCommand(classRef) : undefined;
      const ours = command && this.registry.commandsByClass.get(command);
      if (ours) problems.push(`command ${ours.commandType} is handled by ${ours.location} (aggregate '${ours.aggregate.type}') and by @nestjs/cqrs handler ${classRef!.name}`);
    }
    if (problems.length > 0) throw new BootValidationError(problems);
  }
}
