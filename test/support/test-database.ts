import type { DataSource } from 'typeorm';
import type { StoreOptions } from '@nest-es/typeorm';
import { createDataSource } from '@nest-es/typeorm';
import { createTestStore } from './test-store.js';

export interface TestDataSource {
  dataSource: DataSource;
  options: StoreOptions;
  /** Destroys the DataSource and drops what it created (the SQLite file, the PostgreSQL schema). */
  close(): Promise<void>;
}

/**
 * An initialized DataSource on a fresh, empty database of the kind under test (ES_TEST_DB): a new
 * SQLite file in the temp folder, or a new PostgreSQL schema `es_test_<random>` at TEST_DATABASE_URL.
 * The schema is not created yet: the stores' `create` does it. For options without a DataSource
 * (module-level tests), use `createTestStore()` from `test-store.ts`.
 */
export async function openTestDataSource(): Promise<TestDataSource> {
  const store = await createTestStore();
  const dataSource = createDataSource(store.options);
  try {
    await dataSource.initialize();
  } catch (error) {
    await store.cleanup();
    throw error;
  }
  return {
    dataSource,
    options: store.options,
    close: async () => {
      await dataSource.destroy();
      await store.cleanup();
    },
  };
}
