import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

// No top-level await: the same source is compiled as CommonJS and as ES modules.
async function main() {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  // SIGTERM drains the commands in flight, closes the app and exits with code 0.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`listening on ${(app.getHttpServer().address() as AddressInfo).port}`);
}

void main();
