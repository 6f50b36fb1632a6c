import type { NestExpressApplication } from '@nestjs/platform-express';
import { PokerClient } from '../apps/poker/src/client/poker-client.js';
import { finishHandWithBots } from '../apps/poker/src/client/play-with-bots.js';
import { createPokerApp } from './support/poker-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

describe('smoke', () => {
  let store: TestStore;
  let app: NestExpressApplication;
  let client: PokerClient;
  beforeAll(async () => {
    store = await createTestStore();
    app = await createPokerApp(store.options, { processing: { pollIntervalMs: 50, timerPollIntervalMs: 50 } });
    await app.listen(0);
    client = new PokerClient(`http://127.0.0.1:${app.getHttpServer().address().port}`);
  });
  afterAll(async () => { await app.close(); await store.cleanup(); });
  it.each(['TEXAS_HOLDEM', 'OMAHA', 'FIVE_CARD_DRAW'])('plays %s', async (variant) => {
    const t = `t-${variant}`;
    await client.createTable(t, { name: 'T', variant: variant as never, smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
    for (const p of ['a', 'b', 'c']) {
      await client.registerPlayer(`${p}-${variant}`, p, 1000, 'AI');
      console.log(JSON.stringify(await client.buyIn(t, `${p}-${variant}`, 500)));
    }
    for (let i = 0; i < 3; i++) {
      const { handId } = await client.startHand(t, `s${i}`);
      const view = await finishHandWithBots(client, t, handId);
      console.log(JSON.stringify(view.hand?.awards), view.seats.map((s) => s.stack));
    }
    console.log(JSON.stringify(await client.leaderboard()));
  });
});
