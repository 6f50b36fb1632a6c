import type { INestApplication, LoggerService } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import { FASTIFY_ADAPTER_OPTIONS } from '@nest-es/http';

/** The HTTP adapters the framework's contract is tested on. */
export const HTTP_ADAPTERS = ['express', 'fastify'] as const;
export type HttpAdapterName = (typeof HTTP_ADAPTERS)[number];

/** The compiled module as an application on the named adapter (Fastify as the HTTP docs bootstrap it), initialized and ready for supertest. */
export async function createHttpApp(moduleRef: TestingModule, adapter: HttpAdapterName, logger: LoggerService | false = false): Promise<INestApplication> {
  if (adapter === 'express') {
    const app = moduleRef.createNestApplication({ logger });
    await app.init();
    return app;
  }
  const app = moduleRef.createNestApplication(new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), { logger });
  await app.init();
  await (app.getHttpAdapter().getInstance() as { ready(): Promise<unknown> }).ready();
  return app;
}
