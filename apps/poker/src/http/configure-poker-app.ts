import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addCommandOperations } from '@nest-es/http';
import { publicFolder } from './public-folder.js';

/**
 * What the poker app adds to the Nest application before it starts, for `npm start`, the demo
 * and the tests alike: the web page at `/` and the OpenAPI document at `/docs` (JSON at `/docs-json`).
 */
export function configurePokerApp(app: NestExpressApplication): void {
  app.useStaticAssets(publicFolder());
  const config = new DocumentBuilder()
    .setTitle('Poker on nest-event-sourcing')
    .setDescription(
      'The sample poker app: one operation per command (POST /commands/<aggregate>/{aggregateId}/<Command> with the headers ' +
        'Command-Id, Correlation-Id, Expected-Sequence, Sync-Mode, Merge-Strategy), aggregate reads, and the poker routes (buy-in, balances, leaderboard, table view, bots).',
    )
    .setVersion('0.1.0')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => addCommandOperations(SwaggerModule.createDocument(app, config), app));
}
