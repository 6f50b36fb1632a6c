import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventSourcingModule } from '@nest-es/core';
import { NatsJetStreamModule } from '@nest-es/nats';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { EventProcessor } from '@nest-es/core/internal';
import { TICKET_PROVIDERS, TicketReminderProcess } from './ticket.domain.js';
import { EventSourcingHttpModule } from '@nest-es/http';

/*
 * One instance of the ticket app for the multi-process suite: scale-out on, the JetStream
 * publisher on, commands over HTTP. TICKET_CHILD = {store, nats, stream, subjectPrefix,
 * partitions, rebalanceIntervalMs, reminderAfterMs}. Prints `listening <port>` once it serves.
 */
interface TicketChildSettings {
  store: StoreOptions;
  nats: string;
  stream: string;
  subjectPrefix: string;
  partitions: number;
  rebalanceIntervalMs: number;
  reminderAfterMs: number;
}
const settings = JSON.parse(process.env.TICKET_CHILD!) as TicketChildSettings;
TicketReminderProcess.reminderAfterMs = settings.reminderAfterMs;

/** The subscriber partitions this instance runs now, for the suite to see who owns what. */
@Controller('scale-out')
class ScaleOutController {
  constructor(private readonly processor: EventProcessor) {}

  @Get('partitions')
  partitions(): string[] {
    return this.processor.runningPartitions();
  }
}

@Module({
  imports: [
    EventSourcingModule.forRoot({
      adapter: typeorm(settings.store),
      processing: {
        pollIntervalMs: 100,
        timerPollIntervalMs: 50,
        scaleOut: { partitions: settings.partitions, rebalanceIntervalMs: settings.rebalanceIntervalMs },
      },
      metrics: true,
    }), EventSourcingHttpModule.forRoot(),
    NatsJetStreamModule.forRoot({ servers: settings.nats, publisher: { stream: settings.stream, subjectPrefix: settings.subjectPrefix } }),
  ],
  controllers: [ScaleOutController],
  providers: TICKET_PROVIDERS,
})
class TicketChildModule {}

const app = await NestFactory.create(TicketChildModule, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(0, '127.0.0.1');
process.stdout.write(`listening ${(app.getHttpServer().address() as AddressInfo).port}\n`);
