import { type CanActivate, type ExecutionContext, Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, IsString } from 'class-validator';
import { Aggregate, AggregateId, Apply, CommandHandler, EventSourcingModule, EventType, OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { UnauthenticatedError, type ProcessingOptions } from '@nest-es/core/internal';
import { EventSourcingHttpModule, type EventSourcingHttpOptions } from '@nest-es/http';
import { typeorm, type StoreOptions } from '@nest-es/typeorm';
import { createHttpApp, type HttpAdapterName } from './http-adapter.js';

// The operator console's test app: meters (an aggregate without a view), a projector that fails on
// one meter while asked to, and an admin guard on a bearer token.

export const ADMIN_TOKEN = 'console-admin-token';
export const READER_TOKEN = 'console-reader-token';

export class Read {
  @AggregateId() @IsString() meterId!: string;
  @IsInt() value!: number;

  constructor(meterId: string, value: number) {
    this.meterId = meterId;
    this.value = value;
  }
}

/** Version 2 holds a unit; version 1 (stored by older code) held the value alone, in watts. */
@EventType('MeterRead', { version: 2, upcasters: { 1: (v1: { value: number }) => ({ value: v1.value, unit: 'W' }) } })
export class MeterRead {
  constructor(
    readonly value: number,
    readonly unit: string,
  ) {}
}

@Aggregate('meter')
export class MeterAggregate {
  initialState(): { total: number; readings: number } {
    return { total: 0, readings: 0 };
  }

  @CommandHandler(Read, { emits: [MeterRead] })
  read(command: Read): MeterRead {
    return new MeterRead(command.value, 'W');
  }

  @Apply(MeterRead)
  onRead(state: { total: number; readings: number }, event: MeterRead): void {
    state.total += event.value;
    state.readings++;
  }
}

/** Fails on meter 'bad' while `failing` is set: its event is held, retried with backoff, never dead-lettered here. */
@Projector('meter-totals', { maxAttempts: 1_000 })
export class MeterTotalsProjector {
  failing = false;
  readonly totals = new Map<string, number>();

  @OnEvent(MeterRead)
  onRead(event: MeterRead, { envelope }: ProjectionContext): void {
    if (this.failing && envelope.aggregateId === 'bad') throw new Error('meter bad is out of range');
    this.totals.set(envelope.aggregateId, (this.totals.get(envelope.aggregateId) ?? 0) + event.value);
  }
}

/** Operators only: 401 without a bearer token, 403 with one that is not the admin's. */
@Injectable()
export class BearerAdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; user?: unknown }>();
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) throw new UnauthenticatedError('an operator bearer token is needed');
    if (header.slice('Bearer '.length) !== ADMIN_TOKEN) return false;
    request.user = { id: 'operator-olga' };
    return true;
  }
}

export const CONSOLE_HTTP_OPTIONS: EventSourcingHttpOptions = { adminGuard: BearerAdminGuard, console: {} };

/** The console app on one adapter, listening on an ephemeral port; `processing: {enabled: false}` runs no subscriber (another instance would). */
export async function startConsoleApp(
  store: StoreOptions,
  adapter: HttpAdapterName,
  { http = CONSOLE_HTTP_OPTIONS, processing = {} }: { http?: EventSourcingHttpOptions; processing?: ProcessingOptions } = {},
): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { pollIntervalMs: 50, ...processing } }), EventSourcingHttpModule.forRoot(http)],
    providers: [MeterAggregate, MeterTotalsProjector, BearerAdminGuard],
  }).compile();
  const app = await createHttpApp(moduleRef, adapter);
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}
