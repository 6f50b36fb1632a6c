import { Controller, Get, Inject, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule, OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { READ_MODEL_DATA_SOURCE, portableQuery, typeorm, type StoreOptions } from '@nest-es/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BearerAdminGuard, CONSOLE_HTTP_OPTIONS, MeterAggregate, MeterRead, MeterTotalsProjector } from './console-app.js';
import { createHttpApp } from './http-adapter.js';

// The console's blue/green test app: the console app's meters, with a projector that declares its
// table (so the console can rebuild it), a read route on that table, and meter-totals, which
// declares none.

type Ctx = ProjectionContext<EntityManager>;

/**
 * Per meter: readings and, once `sumTotals` is on (the "fixed" code a rebuild recomputes the table
 * with), their total. `delayMs` slows each event: the copy's so that a rebuild lasts long enough to
 * watch, the live one's so that readers get a turn between its batches (SQLite runs them back to
 * back without giving the event loop a turn, so a reader would not see a wrong table being caught up).
 */
@Projector('meter-readings', { tables: ['meter_readings'], batchSize: 20 })
export class MeterReadingsProjector {
  static sumTotals = false;
  static delayMs = { live: 0, copy: 0 };

  async createTables(manager: EntityManager, table: (name: string) => string): Promise<void> {
    await manager.query(`CREATE TABLE IF NOT EXISTS ${table('meter_readings')} (meter_id TEXT PRIMARY KEY, readings INTEGER NOT NULL, total INTEGER NOT NULL)`);
  }

  @OnEvent(MeterRead)
  async onRead(event: MeterRead, { envelope, tx, table }: Ctx): Promise<void> {
    const readings = table('meter_readings');
    const delay = MeterReadingsProjector.delayMs[readings === 'meter_readings' ? 'live' : 'copy'];
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const value = MeterReadingsProjector.sumTotals ? event.value : 0;
    await portableQuery(
      tx,
      `INSERT INTO ${readings} (meter_id, readings, total) VALUES ($1, 1, $2)
       ON CONFLICT (meter_id) DO UPDATE SET readings = ${readings}.readings + 1, total = ${readings}.total + $2`,
      [envelope.aggregateId, value],
    );
  }
}

export interface MeterReading {
  meterId: string;
  readings: number;
  total: number;
}

/** The read route, reading the table by its own name as an application's query would. */
@Controller('meter-readings')
export class MeterReadingsController {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  @Get()
  async all(): Promise<MeterReading[]> {
    const rows = await portableQuery<{ meter_id: string; readings: number | string; total: number | string }>(
      this.dataSource,
      'SELECT meter_id, readings, total FROM meter_readings ORDER BY meter_id',
    );
    return rows.map((row) => ({ meterId: row.meter_id, readings: Number(row.readings), total: Number(row.total) }));
  }
}

/** The app on Express, listening on an ephemeral port. */
export async function startConsoleReadingsApp(store: StoreOptions): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { pollIntervalMs: 50 } }), EventSourcingHttpModule.forRoot(CONSOLE_HTTP_OPTIONS)],
    controllers: [MeterReadingsController],
    providers: [MeterAggregate, MeterReadingsProjector, MeterTotalsProjector, BearerAdminGuard],
  }).compile();
  const app = await createHttpApp(moduleRef, 'express');
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}
