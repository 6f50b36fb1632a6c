import type { INestApplicationContext } from '@nestjs/common';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { SyncMode } from '@nest-es/core';
import { EventSourcingRegistry } from '@nest-es/core/internal';
import { MergeStrategy } from '@nest-es/core';
import { MAX_SEQUENCE } from '@nest-es/core/internal';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../paging.js';
import { ERROR_BODY_SCHEMA, errorResponses } from './error-responses.js';
import { describeLiveEventsRoute } from './live-events-operation.js';
import type { JsonSchema, OpenApiDocument } from './openapi-document.js';

const SCHEMAS = '#/components/schemas/';
const ERROR_BODY = `${SCHEMAS}EventSourcingErrorBody`;

const COMMAND_HEADERS = [
  { name: 'Command-Id', description: 'Idempotency key: a repeat with the same body returns the first result.', schema: { type: 'string', maxLength: 200 } },
  { name: 'Correlation-Id', description: 'Groups this command with what it causes (default: a new id).', schema: { type: 'string', maxLength: 200 } },
  {
    name: 'Expected-Sequence',
    description: "The aggregate's sequence the client decided on; a different current sequence goes to the merge strategy.",
    schema: { type: 'integer', minimum: 0, maximum: MAX_SEQUENCE },
  },
  { name: 'Sync-Mode', description: 'What the response waits for (case-insensitive).', schema: { type: 'string', enum: Object.values(SyncMode) } },
  {
    name: 'Merge-Strategy',
    description: `How a stale Expected-Sequence is merged (case-insensitive): ${Object.values(MergeStrategy).join(', ')} or a registered strategy.`,
    schema: { type: 'string', example: MergeStrategy.COMMUTATIVE },
  },
].map((header) => ({ ...header, in: 'header', required: false }));

const COMMAND_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['aggregateType', 'aggregateId', 'sequence', 'events'],
  properties: {
    aggregateType: { type: 'string' },
    aggregateId: { type: 'string' },
    sequence: { type: 'integer', description: "The aggregate's sequence after the command." },
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'sequence', 'position', 'payload'],
        properties: { type: { type: 'string' }, sequence: { type: 'integer' }, position: { type: 'integer' }, payload: {} },
      },
    },
  },
};

/** The generic route as Nest's document lists it, replaced by one operation per command. */
const GENERIC_COMMAND_PATH = '/commands/{aggregateType}/{aggregateId}/{commandType}';

/** What a command sent with `Accept: text/event-stream` answers instead of waiting. */
const COMMAND_PROGRESS_DESCRIPTION =
  'With Accept: text/event-stream (and no Sync-Mode): server-sent events of the command\'s progress: `stored` (the JSON answer), then `handled` ' +
  '({subscriber, kind, position}) as each projector, saga and process manager has handled its consequences, then `done`; or `timeout` ' +
  '(after the sync timeout) or `error`, with {code, message, details}.';

/**
 * Adds the framework's HTTP routes to an OpenAPI document (as `SwaggerModule.createDocument` builds
 * it): one operation per command, `POST /commands/<aggregate type>/{aggregateId}/<CommandType>`,
 * with the body schema generated from the command class's class-validator rules, the command
 * headers, and every error response with its codes. `exposed` chooses the commands to list; by
 * default those routable over HTTP (`@CommandHandler(..., { http: true })`).
 */
export function addCommandOperations<D extends object>(
  openApi: D,
  app: INestApplicationContext,
  options: { exposed?: (aggregateType: string, commandType: string) => boolean } = {},
): D {
  const document = openApi as unknown as OpenApiDocument;
  const registry = app.get(EventSourcingRegistry, { strict: false });
  const exposed = options.exposed ?? ((aggregateType: string, commandType: string) => registry.exposedCommand(aggregateType, commandType) !== undefined);
  const schemas = validationMetadatasToSchemas({ refPointerPrefix: SCHEMAS }) as Record<string, JsonSchema>;
  const components = (document.components ??= {});
  const known = (components.schemas ??= {});
  known.EventSourcingErrorBody = ERROR_BODY_SCHEMA;
  known.EventSourcingCommandResponse = COMMAND_RESPONSE;
  delete document.paths[GENERIC_COMMAND_PATH];
  const openApi30 = String(document.openapi ?? '3.0').startsWith('3.0');

  describeReadRoutes(document);
  describeLiveEventsRoute(document);
  for (const aggregate of registry.aggregates.values()) {
    const tag = `commands: ${aggregate.type}`;
    let listed = false;
    for (const handler of aggregate.commandHandlers.values()) {
      if (!exposed(aggregate.type, handler.commandType)) continue;
      listed = true;
      const schemaName = handler.commandClass.name;
      known[schemaName] = commandBodySchema(schemas[schemaName], handler.aggregateIdProperty);
      addReferencedSchemas(known[schemaName] as JsonSchema, schemas, known, openApi30);
      document.paths[`/commands/${encodeURIComponent(aggregate.type)}/{aggregateId}/${encodeURIComponent(handler.commandType)}`] = {
        post: {
          operationId: `${aggregate.type}.${handler.commandType}`,
          tags: [tag],
          summary: `${handler.commandType} on a ${aggregate.type}`,
          parameters: [{ name: 'aggregateId', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }, ...COMMAND_HEADERS],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `${SCHEMAS}${schemaName}` } } } },
          responses: {
            '200': {
              description: 'Stored: the events the command appended',
              headers: { 'Idempotent-Replayed': { description: "'true' when the Command-Id was already stored: this is its first result", schema: { type: 'string', enum: ['true'] } } },
              content: {
                'application/json': { schema: { $ref: `${SCHEMAS}EventSourcingCommandResponse` } },
                'text/event-stream': {
                  schema: { type: 'string', description: COMMAND_PROGRESS_DESCRIPTION },
                },
              },
            },
            ...errorResponses(ERROR_BODY),
          },
        },
      };
    }
    if (listed && !(document.tags ?? []).some((existing) => existing.name === tag)) {
      (document.tags ??= []).push({ name: tag, description: `Commands of the ${aggregate.type} aggregate` });
    }
  }
  return openApi;
}

/** The query parameters of the framework's listings: all optional, with their bounds. */
const LISTING_QUERY: Record<string, { description: string; schema: JsonSchema }> = {
  afterSequence: { description: 'events after this sequence (the previous page\'s nextAfterSequence); 0 = from the first', schema: { type: 'integer', minimum: 0, maximum: MAX_SEQUENCE, default: 0 } },
  limit: { description: 'page size', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
  cursor: { description: 'the previous page\'s nextCursor, unchanged', schema: { type: 'string' } },
  status: { description: 'only letters in this status', schema: { type: 'string', enum: ['pending', 'retried', 'discarded'] } },
  kind: { description: 'only letters of this kind', schema: { type: 'string', enum: ['command', 'event'] } },
};

/** Which listing takes which query parameters (Nest does not list untyped `@Query()` parameters). */
const LISTINGS: Record<string, string[]> = {
  '/aggregates/{aggregateType}/{aggregateId}/events': ['afterSequence', 'limit'],
  '/dead-letters': ['status', 'kind', 'limit', 'cursor'],
};

/** The framework's other routes (aggregate reads, dead letters), as Nest listed them, with their errors and query parameters. */
function describeReadRoutes(document: OpenApiDocument): void {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/aggregates/') && !path.startsWith('/dead-letters')) continue;
    for (const [method, operation] of Object.entries(item) as Array<[string, { responses?: Record<string, unknown>; parameters?: Array<{ name?: string; in?: string }> }]>) {
      const statuses = path.startsWith('/dead-letters') && path.endsWith('/retry') ? undefined : [400, 401, 403, 404, 429, 503];
      operation.responses = { ...operation.responses, ...errorResponses(ERROR_BODY, statuses) };
      if (method !== 'get' || !Object.hasOwn(LISTINGS, path)) continue;
      const others = (operation.parameters ?? []).filter((parameter) => parameter.in !== 'query');
      operation.parameters = [...others, ...LISTINGS[path].map((name) => ({ name, in: 'query', required: false, ...LISTING_QUERY[name] }))];
    }
  }
}

/**
 * The class's schema, or an empty object for a command without rules. The aggregate id property is
 * left out: the path supplies it, and "Try it out" would otherwise send a placeholder that disagrees.
 */
function commandBodySchema(generated: JsonSchema | undefined, aggregateIdProperty: string | undefined): JsonSchema {
  const schema: JsonSchema = { type: 'object', ...generated, properties: { ...(generated?.properties as JsonSchema | undefined) } };
  if (aggregateIdProperty === undefined) return schema;
  delete (schema.properties as JsonSchema)[aggregateIdProperty];
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => name !== aggregateIdProperty);
  if (required.length > 0) schema.required = required;
  else delete schema.required;
  return schema;
}

/**
 * Puts the classes a schema refers to (nested DTOs with rules of their own) into the document, and
 * drops references to classes without rules (an array or object property validated by a custom
 * rule), which would otherwise point nowhere: such a property accepts any JSON value.
 */
function addReferencedSchemas(node: unknown, generated: Record<string, JsonSchema>, known: Record<string, unknown>, openApi30: boolean): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.slice(SCHEMAS.length);
    if (generated[name] === undefined) delete schema.$ref;
    else if (known[name] === undefined) {
      known[name] = generated[name];
      addReferencedSchemas(generated[name], generated, known, openApi30);
    }
  }
  // class-validator-jsonschema writes JSON Schema's numeric bounds; OpenAPI 3.0 has boolean flags.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (openApi30 && typeof schema[flag] === 'number') {
      schema[bound] = schema[flag];
      schema[flag] = true;
    }
  }
  for (const value of Object.values(schema)) addReferencedSchemas(value, generated, known, openApi30);
}
