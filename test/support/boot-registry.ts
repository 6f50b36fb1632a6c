import type { Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { BootValidationError, EventSourcingModule, inMemory } from '@nest-es/core';
import { EventSourcingRegistry } from '@nest-es/core/internal';

/** Boots the module with these providers on an in-memory adapter and returns what discovery registered. */
export async function bootRegistry(...providers: Provider[]): Promise<EventSourcingRegistry> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: inMemory(), processing: { enabled: false } })],
    providers,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
    return app.get(EventSourcingRegistry);
  } finally {
    await app.close().catch(() => undefined);
  }
}

/** Boots expecting discovery to refuse the providers; returns the message that lists the problems. */
export async function bootFailure(...providers: Provider[]): Promise<string> {
  const error = await bootRegistry(...providers).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BootValidationError)) throw new Error(`expected a BootValidationError, got ${String(error)}`);
  return error.message;
}
