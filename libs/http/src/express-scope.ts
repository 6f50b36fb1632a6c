import { NotFoundException } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FrameworkRoutes } from './framework-routes.js';

type ExpressRequest = IncomingMessage & { originalUrl: string };
type ErrorAnswer = (error: unknown, request: ExpressRequest, response: ServerResponse) => void;

/** Express's application, as far as adding layers goes (typed here: Express stays an optional peer). */
interface ExpressLayers {
  use(handler: (request: ExpressRequest, response: ServerResponse, next: (error?: unknown) => void) => void): unknown;
  use(handler: (error: unknown, request: ExpressRequest, response: ServerResponse, next: (error?: unknown) => void) => void): unknown;
}

/**
 * Where no controller's filter runs, requests under the framework's paths on Express still get its
 * error body: a path no route serves (404) and a body parser's refusal. Added after the routes and
 * before Nest's own 404 and error handlers, which keep every other request.
 */
export function answerUnroutedOnExpress(express: unknown, routes: FrameworkRoutes, answer: ErrorAnswer): void {
  const app = express as ExpressLayers;
  app.use((request, response, next) => {
    if (!routes.covers(request.originalUrl)) return next();
    answer(new NotFoundException(`Cannot ${request.method} ${request.originalUrl}`), request, response);
  });
  app.use((error: unknown, request: ExpressRequest, response: ServerResponse, next: (error?: unknown) => void) => {
    if (!routes.covers(request.originalUrl) || response.headersSent) return next(error);
    answer(error, request, response);
  });
}
