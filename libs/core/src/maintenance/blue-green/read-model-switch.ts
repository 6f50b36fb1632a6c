import type { ReadModelTables } from '../../store/read-model-tables.js';
import { copyTableName } from '../../discovery/read-model-table-names.js';
import { copyCheckpoint, PREVIOUS_COPY } from './copy-names.js';

/** Exchanges the live tables and checkpoint of a projector with a copy's, in the caller's transaction. */
export async function exchange(tables: ReadModelTables, tx: unknown, projector: string, declared: readonly string[], copy: string): Promise<void> {
  const aside = 'exchange';
  // Tables first: on PostgreSQL a rename waits for the projector's transaction that writes them, whose
  // checkpoint move comes after its writes; taking them in the same order cannot deadlock.
  for (const table of declared) {
    await tables.rename(tx, table, copyTableName(table, aside));
    await tables.rename(tx, copyTableName(table, copy), table);
    await tables.rename(tx, copyTableName(table, aside), copyTableName(table, copy));
  }
  await tables.moveCheckpoint(tx, projector, copyCheckpoint(projector, aside));
  await tables.moveCheckpoint(tx, copyCheckpoint(projector, copy), projector);
  await tables.moveCheckpoint(tx, copyCheckpoint(projector, aside), copyCheckpoint(projector, copy));
}

/**
 * Puts a built copy live: the live tables and checkpoint become the previous copy (the way back; an
 * older previous copy is dropped), the built copy's become live.
 */
export async function promote(tables: ReadModelTables, tx: unknown, projector: string, declared: readonly string[], copy: string): Promise<void> {
  await tables.drop(tx, declared.map((table) => copyTableName(table, PREVIOUS_COPY)));
  for (const table of declared) {
    await tables.rename(tx, table, copyTableName(table, PREVIOUS_COPY));
    await tables.rename(tx, copyTableName(table, copy), table);
  }
  await tables.moveCheckpoint(tx, projector, copyCheckpoint(projector, PREVIOUS_COPY));
  await tables.moveCheckpoint(tx, copyCheckpoint(projector, copy), projector);
}
