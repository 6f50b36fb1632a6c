import { Inject, Injectable } from '@nestjs/common';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { EntryWritten } from './journal.domain.js';

type Ctx = ProjectionContext<EntityManager>;

/**
 * Per journal: its entries, and their characters once `countCharacters` is on (the "fixed" code a
 * blue/green rebuild recomputes the whole table with). Rebuildable blue/green: it declares its table.
 */
@Projector('journal-totals', { tables: ['journal_totals'], batchSize: 50 })
export class JournalTotalsProjector {
  static countCharacters = false;

  async createTables(manager: EntityManager, table: (name: string) => string): Promise<void> {
    const totals = table('journal_totals');
    await manager.query(`CREATE TABLE IF NOT EXISTS ${totals} (journal_id TEXT PRIMARY KEY, entries INTEGER NOT NULL, characters INTEGER NOT NULL)`);
    await manager.query(`CREATE INDEX IF NOT EXISTS ${totals}_entries ON ${totals} (entries)`);
  }

  @OnEvent(EntryWritten)
  async onWritten(event: EntryWritten, { envelope, tx, table }: Ctx): Promise<void> {
    const characters = JournalTotalsProjector.countCharacters ? event.text.length : 0;
    await portableQuery(
      tx,
      `INSERT INTO ${table('journal_totals')} (journal_id, entries, characters) VALUES ($1, 1, $2)
       ON CONFLICT (journal_id) DO UPDATE SET entries = ${table('journal_totals')}.entries + 1, characters = ${table('journal_totals')}.characters + $2`,
      [envelope.aggregateId, characters],
    );
  }
}

/** The read side of journal_totals, as an app's query service reads it: by the table's own name. */
@Injectable()
export class JournalTotals {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async all(): Promise<Array<{ journalId: string; entries: number; characters: number }>> {
    const rows = await portableQuery<{ journal_id: string; entries: number | string; characters: number | string }>(
      this.dataSource,
      'SELECT journal_id, entries, characters FROM journal_totals ORDER BY journal_id',
    );
    return rows.map((row) => ({ journalId: row.journal_id, entries: Number(row.entries), characters: Number(row.characters) }));
  }
}
