import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { OrderFlowProcess, SHOP_PROVIDERS, ShopProjector } from './shop.domain.js';

/*
 * A shop instance in its own process, for the crash-recovery suite: it processes the backlog with
 * a slowed projector until the suite kills it (SIGKILL) or, with CRASH_CHILD_EXIT_WHEN_IDLE, until
 * every subscriber caught up.
 */
const store = JSON.parse(process.env.CRASH_CHILD_STORE!) as StoreOptions;
// Unpaid orders are cancelled after this: longer than a suite on a loaded machine, so none is.
OrderFlowProcess.paymentTimeoutMs = 3_600_000;

@Module({
  imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { pollIntervalMs: 20 } })],
  providers: SHOP_PROVIDERS,
})
class CrashChildModule {}

const app = await NestFactory.createApplicationContext(CrashChildModule, { logger: ['error'] });
app.get(ShopProjector).delayMs = Number(process.env.CRASH_CHILD_PROJECTOR_DELAY_MS ?? 0);
process.stdout.write('ready\n');
