import type { ProcessingOptions } from '@nest-es/core';
import { loadPokerConfig, redactUrl } from './poker-config.js';
import { PokerModule } from './poker.module.js';

/**
 * The poker app as the maintenance CLI opens it (`nest-es --app dist/apps/poker/src/maintenance.js`,
 * or `npm run cli`): on DATABASE_URL as `npm start` reads it, with the processing the command asks for.
 */
export default function pokerMaintenance({ processing }: { processing: ProcessingOptions }) {
  const config = loadPokerConfig();
  console.error(`poker on DATABASE_URL=${redactUrl(config.databaseUrl)}`);
  return PokerModule.forRoot({ store: config.store, processing });
}
