import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@nest-es/core';
import { AccountAggregate } from './account.aggregate.js';
import { BalancesController } from './balances.controller.js';
import { BalancesProjector } from './balances.projector.js';

@Module({
  imports: [
    EventSourcingModule.forRoot({
      store: { type: 'sqlite', database: process.env.DATABASE_FILE ?? 'app.sqlite' },
      http: { aggregateReads: true }, // commands marked http: true, and GET /aggregates for aggregates with a view
      // Prometheus metrics need prom-client, an optional peer: a fixture without it turns them off.
      metrics: process.env.METRICS !== 'off',
    }),
  ],
  controllers: [BalancesController],
  providers: [AccountAggregate, BalancesProjector],
})
export class AppModule {}
