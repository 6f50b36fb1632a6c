import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { typeorm } from '@nest-es/typeorm';
import { AccountAggregate } from './account.aggregate.js';
import { BalancesController } from './balances.controller.js';
import { BalancesProjector } from './balances.projector.js';

@Module({
  imports: [
    EventSourcingModule.forRoot({
      // PostgreSQL when DATABASE_URL is set (only pg installed), else SQLite (only better-sqlite3 installed).
      adapter: typeorm(process.env.DATABASE_URL ? { type: 'postgres', url: process.env.DATABASE_URL } : { type: 'sqlite', database: process.env.DATABASE_FILE ?? 'app.sqlite' }),
      // Prometheus metrics need prom-client, an optional peer: the fixture without it turns them off.
      metrics: process.env.METRICS !== 'off',
    }),
    // POST /commands/... for commands marked http: true, GET /aggregates/... for aggregates with a view
    EventSourcingHttpModule.forRoot({ aggregateReads: true }),
  ],
  controllers: [BalancesController],
  providers: [AccountAggregate, BalancesProjector],
})
export class AppModule {}
