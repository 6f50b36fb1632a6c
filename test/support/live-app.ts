import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule } from '@nest-es/core';
import { EventSourcingHttpModule, type LiveEventsOptions } from '@nest-es/http';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { createHttpApp, type HttpAdapterName } from './http-adapter.js';
import { JournalAggregate, JournalReaderGuard } from './journal.domain.js';

/** An application serving the journal's aggregate reads (live streams included) behind the X-User guard, listening on a free port. */
export async function createLiveApp(adapter: HttpAdapterName, store: StoreOptions, live: LiveEventsOptions = {}): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { enabled: false } }),
      EventSourcingHttpModule.forRoot({ aggregateReads: true, guards: [JournalReaderGuard], live }),
    ],
    providers: [JournalAggregate, JournalReaderGuard],
  }).compile();
  const app = await createHttpApp(moduleRef, adapter);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}
