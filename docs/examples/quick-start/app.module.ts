import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { typeorm } from '@nest-es/typeorm';
import { BalancesProjector } from './balances.projector.js';
import { PlayerAggregate } from './player.aggregate.js';

@Module({
  imports: [
    EventSourcingModule.forRoot({
      adapter: typeorm({ type: 'sqlite', database: process.env.DATABASE_FILE ?? 'app.sqlite' }),
    }),
    // POST /commands/... for commands marked http: true, GET /aggregates/... for aggregates with a view, /health
    EventSourcingHttpModule.forRoot({ aggregateReads: true }),
  ],
  providers: [PlayerAggregate, BalancesProjector],
})
export class AppModule {}
