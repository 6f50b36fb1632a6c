import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule);
// SIGTERM drains the commands in flight, then the process exits with code 0
app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
await app.listen(Number(process.env.PORT ?? 3000));
