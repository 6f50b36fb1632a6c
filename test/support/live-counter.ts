import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Added } from './counter.aggregate.js';

/** A read model of each counter's total that says which counter it changed, for live queries. */
@Projector('counter-totals')
export class CounterTotalsProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS counter_totals (counter_id VARCHAR(64) PRIMARY KEY, total INTEGER NOT NULL)');
  }

  @OnEvent(Added)
  async onAdded(_event: Added, ctx: ProjectionContext<EntityManager>): Promise<void> {
    const id = ctx.envelope.aggregateId;
    await portableQuery(ctx.tx, 'INSERT INTO counter_totals (counter_id, total) VALUES ($1, 1) ON CONFLICT (counter_id) DO UPDATE SET total = counter_totals.total + 1', [id]);
    ctx.changed(id);
  }
}

/** The query a live client watches: one counter's total. */
@Injectable()
export class CounterTotals {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async total(counterId: string): Promise<{ counterId: string; total: number }> {
    const [row] = await portableQuery<{ total: number }>(this.dataSource, 'SELECT total FROM counter_totals WHERE counter_id = $1', [counterId]);
    return { counterId, total: row ? Number(row.total) : 0 };
  }
}
