import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@nest-es/core';
import { AccountAggregate } from './account.aggregate.js';
import { BalancesController } from './balances.controller.js';
import { BalancesProjector } from './balances.projector.js';
import { typeorm } from '@nest-es/typeorm';
import { EventSourcingHttpModule } from '@nest-es/http';

@Module({
  imports: [
    EventSourcingModule.forRoot({
      adapter: typeorm({ type: 'sqlite', database: process.env.DATABASE_FILE ?? 'app.sqlite' }),
      // commands marked http: true,
      and GET /aggregates for aggregates with a view
      // Prometheus metrics need prom-client,
      an optional peer: a fixture without it turns them off.
      metrics: process.env.METRICS !== 'off',
      metrics: true,
    }), EventSourcingHttpModule.forRoot({ aggregateReads: true }),
  ],
  controllers: [BalancesController],
  providers: [AccountAggregate, BalancesProjector],
})
export class AppModule {}
