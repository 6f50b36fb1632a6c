import type { DataSource } from 'typeorm';
import { ensureSchema } from './schema/migrate.js';
import type { StoreOptions } from './adapter-options.js';
import { createDataSource } from './store-options.js';

/**
 * An initialized DataSource for the options with the store's schema up to date. A given DataSource
 * is initialized if it is not yet; whoever opened it closes it (`destroy()`).
 */
export async function openDataSource(options: StoreOptions): Promise<DataSource> {
  const dataSource = createDataSource(options);
  if (!dataSource.isInitialized) await dataSource.initialize();
  try {
    await ensureSchema(dataSource);
  } catch (error) {
    if (!('dataSource' in options)) await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}
