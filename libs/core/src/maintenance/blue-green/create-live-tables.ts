import type { EventSourcingRegistry } from '../../discovery/event-sourcing-registry.js';
import { tableNames } from '../../discovery/read-model-table-names.js';
import type { CheckpointStore } from '../../store/checkpoint-store.js';
import type { ReadModelTables } from '../../store/read-model-tables.js';

/**
 * At boot, before any subscription runs: the projectors that declare tables get them created where
 * one is missing. Tables that exist are left alone (changing them is a migration's or a rebuild's
 * work); without table steps in the adapter, `createTables` runs every boot and must be idempotent.
 */
export async function createLiveTables(registry: EventSourcingRegistry, checkpoints: CheckpointStore, tables: ReadModelTables | null): Promise<void> {
  for (const projector of registry.subscribers.values()) {
    if (!projector.createTables) continue;
    await checkpoints.run(async (tx) => {
      if (tables && (await tables.missing(tx, projector.options.tables!)).length === 0) return;
      await projector.createTables!(tx, tableNames(projector));
    });
  }
}
