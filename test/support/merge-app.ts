import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { exposedForTests } from '@nest-es/core/testing';
import { PlayerAggregate } from '../../apps/poker/src/player/index.js';
import { AuctionAggregate } from './auction.aggregate.js';
import { DocumentAggregate } from './document.aggregate.js';
import { ProfileAggregate } from './profile.aggregate.js';
import { TurnAggregate } from './turn.aggregate.js';
import { createHttpApp, type HttpAdapterName } from './http-adapter.js';
import { EventSourcingHttpModule } from '@nest-es/http';

/**
 * The framework with HTTP on and one aggregate per merge strategy (plus the poker player), every command
 * routable and every aggregate readable, dead letters open to anyone: initialized, not listening;
 * on Express unless another adapter is named.
 */
export async function createMergeApp(store: StoreOptions, logger: LoggerService | false = false, adapter: HttpAdapterName = 'express'): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), metrics: true }), EventSourcingHttpModule.forRoot({ aggregateReads: true, adminGuard: { canActivate: () => true } })],
    providers: [PlayerAggregate, ProfileAggregate, TurnAggregate, AuctionAggregate, DocumentAggregate].map(exposedForTests),
  }).compile();
  return createHttpApp(moduleRef, adapter, logger);
}
