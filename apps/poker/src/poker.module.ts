import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventSourcingModule, type ProcessingOptions, type StoreOptions } from '@nest-es/core';
import { EventSourcingCqrsModule } from '@nest-es/core/cqrs';
import { BotPlayer } from './bots/bot-player.js';
import { HandResultsHandler } from './cqrs/hand-results.handler.js';
import { BuyInProcess, HandFlowProcess, HandToTableSaga, PlayerToTableSaga, TableToHandSaga, TableToPlayerSaga } from './flows/index.js';
import { HandAggregate } from './hand/index.js';
import { BalancesController } from './http/balances.controller.js';
import { BotsController } from './http/bots.controller.js';
import { BuyInController } from './http/buy-in.controller.js';
import { LeaderboardController } from './http/leaderboard.controller.js';
import { TablesController } from './http/tables.controller.js';
import { PlayerAggregate } from './player/index.js';
import {
  BalancesProjector,
  BalancesQuery,
  LeaderboardProjector,
  LeaderboardQuery,
  TableViewProjector,
  TableViewQuery,
} from './read-models/index.js';
import { TableAggregate } from './table/index.js';

export interface PokerModuleOptions {
  store: StoreOptions;
  shutdownTimeoutMs?: number;
  /** Tests poll faster than the defaults. */
  processing?: ProcessingOptions;
}

/** The sample poker application: its aggregates, flows and read models on the framework, with the HTTP contract on. */
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
          processing: options.processing,
        }),
        CqrsModule.forRoot(),
        EventSourcingCqrsModule,
      ],
      controllers: [BuyInController, BalancesController, LeaderboardController, TablesController, BotsController],
      providers: [
        PlayerAggregate,
        TableAggregate,
        HandAggregate,
        TableToHandSaga,
        HandToTableSaga,
        TableToPlayerSaga,
        PlayerToTableSaga,
        HandFlowProcess,
        BuyInProcess,
        BalancesProjector,
        LeaderboardProjector,
        TableViewProjector,
        BalancesQuery,
        LeaderboardQuery,
        TableViewQuery,
        BotPlayer,
        HandResultsHandler,
      ],
    };
  }
}
