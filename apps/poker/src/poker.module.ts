import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventSourcingModule, type StoreOptions } from '#event-sourcing';
import { EventSourcingCqrsModule } from '#event-sourcing/cqrs';
import { HandResultsHandler } from './cqrs/hand-results.handler.js';
import { PlayerAggregate } from './player/index.js';

export interface PokerModuleOptions {
  store: StoreOptions;
  shutdownTimeoutMs?: number;
}

/** The sample poker application: its aggregates on the framework, with the HTTP contract on. */
@Module({})
export class PokerModule {
  static forRoot(options: PokerModuleOptions): DynamicModule {
    return {
      module: PokerModule,
      imports: [
        EventSourcingModule.forRoot({
          store: options.store,
          http: true,
          shutdownTimeoutMs: options.shutdownTimeoutMs,
        }),
        CqrsModule.forRoot(),
        EventSourcingCqrsModule,
      ],
      providers: [PlayerAggregate, HandResultsHandler],
    };
  }
}
