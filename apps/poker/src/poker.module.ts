import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventSourcingModule, type ProcessingOptions } from '@nest-es/core';
import { NatsJetStreamModule, type NatsJetStreamOptions } from '@nest-es/nats';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { EventSourcingCqrsModule } from '@nest-es/core/cqrs';
import { AdminTokenGuard } from './auth/admin-token.guard.js';
import { AuthController } from './auth/auth.controller.js';
import type { PokerAuthOptions } from './auth/poker-auth-options.js';
import { PokerAuthModule } from './auth/poker-auth.module.js';
import { PokerCommandAuthorizer } from './auth/poker-command.authorizer.js';
import { PlayerAuthGuard } from './auth/player-auth.guard.js';
import { BotPlayer } from './bots/bot-player.js';
import { BotTurnsProcess } from './bots/bot-turns.process-manager.js';
import { HandResultsHandler } from './cqrs/hand-results.handler.js';
import { BuyInProcess, HandFlowProcess, HandToTableSaga, PlayerToTableSaga, TableToHandSaga, TableToPlayerSaga } from './flows/index.js';
import { HandAggregate } from './hand/index.js';
import { BalancesController } from './http/balances.controller.js';
import { BotsController } from './http/bots.controller.js';
import { BuyInController } from './http/buy-in.controller.js';
import { RequestSpanInterceptor } from './http/request-span.interceptor.js';
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
import { EventSourcingHttpModule } from '@nest-es/http';

export interface PokerModuleOptions {
  store: StoreOptions;
  shutdownTimeoutMs?: number;
  /** Tests poll faster than the defaults. */
  processing?: ProcessingOptions;
  auth?: PokerAuthOptions;
  /** The NATS JetStream adapters (the publisher of the poker events), when given. */
  nats?: NatsJetStreamOptions;
}

/**
 * The sample poker application: its aggregates, flows and read models on the framework, with the HTTP
 * contract on behind player tokens and the command authorizer (the server adds the security headers and the rate limit).
 */
@Module({})
export class PokerModule {
  static forRoot(options: PokerModuleOptions): DynamicModule {
    const auth = options.auth ?? {};
    return {
      module: PokerModule,
      imports: [
        PokerAuthModule.forRoot(auth),
        EventSourcingModule.forRoot({
          adapter: typeorm(options.store),
          shutdownTimeoutMs: options.shutdownTimeoutMs,
          processing: options.processing,
          metrics: true,
        }), EventSourcingHttpModule.forRoot({
            guards: [PlayerAuthGuard],
            authorizer: PokerCommandAuthorizer,
            aggregateReads: true,
            ...(auth.adminToken ? { adminGuard: AdminTokenGuard } : {}),
            appWide: true,
            // The server sets helmet's headers on every request itself (configurePokerApp): on Fastify a
            // second helmet here would run after it and replace the page's policy with helmet's default.
            helmet: false,
          }),
        CqrsModule.forRoot(),
        EventSourcingCqrsModule,
        ...(options.nats ? [NatsJetStreamModule.forRoot(options.nats)] : []),
      ],
      controllers: [AuthController, BuyInController, BalancesController, LeaderboardController, TablesController, BotsController],
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
        BotTurnsProcess,
        BalancesProjector,
        LeaderboardProjector,
        TableViewProjector,
        BalancesQuery,
        LeaderboardQuery,
        TableViewQuery,
        BotPlayer,
        HandResultsHandler,
        { provide: APP_INTERCEPTOR, useClass: RequestSpanInterceptor },
      ],
    };
  }
}
