import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule);
app.enableShutdownHooks(); // SIGTERM drains the commands in flight before the process exits
await app.listen(3000);
