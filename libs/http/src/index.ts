// The public API of @nest-es/http: the framework's HTTP routes for a Nest application.
export { EventSourcingHttpModule } from './event-sourcing-http.module.js';
export type { ConsoleOptions, EventSourcingHttpOptions, GuardOption, LiveEventsOptions } from './http-options.js';
export { EventSourcingAdminGuard, EventSourcingGuard } from './configured-guards.js';
export { FASTIFY_ADAPTER_OPTIONS } from './fastify-adapter-options.js';
export { addCommandOperations } from './openapi/command-operations.js';
export { ValidBodyPipe } from './valid-body.pipe.js';
