import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CqrsBridge } from './cqrs-bridge.js';

/**
 * Makes event sourcing work with @nestjs/cqrs: import it beside `CqrsModule.forRoot()` and
 * `EventSourcingModule.forRoot(...)`. It is its own module in its own entry point
 * (`@nest-es/core/cqrs`) so that apps without @nestjs/cqrs never load it.
 */
@Module({ imports: [DiscoveryModule], providers: [CqrsBridge] })
export class EventSourcingCqrsModule {}
