import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventSourcingModule } from '@nest-es/core';
import { FASTIFY_ADAPTER_OPTIONS, EventSourcingHttpModule } from '@nest-es/http';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { exposedForTests } from '@nest-es/core/testing';
import { CounterAggregate } from './counter.aggregate.js';

/*
 * A minimal app for the optional-peers suite, run with some packages refused (refuse-packages.ts):
 * boots with OPTIONAL_PEERS_CHILD = {store, http?, metrics?, fastify?} (on Express, or on Fastify,
 * loaded only then), sends one command over HTTP, scrapes
 * /metrics and prints one JSON line with the outcome (or the boot error).
 */
const { store, http, metrics, fastify } = JSON.parse(process.env.OPTIONAL_PEERS_CHILD!) as { store: StoreOptions; http?: boolean; metrics?: boolean; fastify?: boolean };

@Module({ imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), metrics: metrics ?? http === true }), ...(http ? [EventSourcingHttpModule.forRoot()] : [])], providers: [exposedForTests(CounterAggregate)] })
class OptionalPeersModule {}

try {
  const options = { logger: false as const, abortOnError: false };
  const app = fastify
    ? await NestFactory.create(OptionalPeersModule, new (await import('@nestjs/platform-fastify')).FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), options)
    : await NestFactory.create(OptionalPeersModule, options);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const command = await fetch(`${base}/commands/counter/c1/AddMany`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count: 2 }),
  });
  const scrape = await fetch(`${base}/metrics`);
  const result = { commandStatus: command.status, metricsStatus: scrape.status, metrics: await scrape.text() };
  await app.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  const { name, message, packageName } = error as { name: string; message: string; packageName?: string };
  process.stdout.write(`${JSON.stringify({ error: { name, message, packageName } })}\n`);
  process.exitCode = 1;
}
