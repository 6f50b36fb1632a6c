import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@nest-es/core';
import { BalancesProjector } from './balances.projector.js';
import { PlayerAggregate } from './player.aggregate.js';

@Module({
  imports: [
    EventSourcingModule.forRoot({
      store: { type: 'sqlite', database: process.env.DATABASE_FILE ?? 'app.sqlite' },
      http: true, // POST /commands/:aggregateType/:aggregateId/:commandType, GET /aggregates/..., /health
    }),
  ],
  providers: [PlayerAggregate, BalancesProjector],
})
export class AppModule {}
