/**
 * What a blue/green rebuild asks of the read models' database, inside the checkpoints' transaction
 * (`Tx`, as `CheckpointStore.run` gives it): which tables exist, dropping and renaming them, and
 * moving a checkpoint with its held events to another name. The switch from one copy of a read model
 * to another is these steps in one transaction, so readers see the old copy or the new one, never a
 * mix. Optional for an adapter: without it, projectors still run, but none can be rebuilt blue/green.
 */
export interface ReadModelTables<Tx = unknown> {
  /** Those of `tables` that do not exist. */
  missing(tx: Tx, tables: readonly string[]): Promise<string[]>;
  /** Drops each table that exists, with its indexes. */
  drop(tx: Tx, tables: readonly string[]): Promise<void>;
  /** Renames a table (its indexes and rows go with it); `to` must not exist. */
  rename(tx: Tx, from: string, to: string): Promise<void>;
  /**
   * The checkpoint `from` and its held events become `to`'s (whatever `to` had is gone; `to` is at 0
   * when `from` had no checkpoint); `from` is no more.
   */
  moveCheckpoint(tx: Tx, from: string, to: string): Promise<void>;
}

/** The adapter's ReadModelTables, or null when it has none. */
export const READ_MODEL_TABLES = Symbol('READ_MODEL_TABLES');
