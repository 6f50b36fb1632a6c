import type { INestApplicationContext } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventSourcingModule, type EventSourcingModuleOptions } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate, LedgerAggregate } from './bench-aggregates.js';

@Module({ providers: [AccountAggregate, LedgerAggregate] })
class BenchAggregatesModule {}

/** The framework as an application uses it: EventSourcingModule.forRoot plus the bench aggregates, no HTTP. */
export function bootBenchApp(store: StoreOptions, options: Partial<EventSourcingModuleOptions> = {}): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    { module: BenchAggregatesModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), ...options })] },
    { logger: ['error', 'warn'] },
  );
}
