import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadPokerConfig, redactUrl } from '../poker-config.js';
import { PokerModule } from '../poker.module.js';

/**
 * Runs `work` in the poker app without HTTP, on DATABASE_URL as `npm start` reads it, then closes the app.
 * Projectors, sagas and process managers stay off unless `subscribers` names the ones the command
 * drives: the others belong to the running app, not to a maintenance command.
 */
export async function withPokerContext<T>(work: (context: INestApplicationContext) => Promise<T>, subscribers: string[] = []): Promise<T> {
  const config = loadPokerConfig();
  console.error(`poker on DATABASE_URL=${redactUrl(config.databaseUrl)}`);
  const processing = subscribers.length > 0 ? { subscribers } : { enabled: false };
  const context = await NestFactory.createApplicationContext(PokerModule.forRoot({ store: config.store, processing }), {
    logger: ['error', 'warn'],
  });
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}
