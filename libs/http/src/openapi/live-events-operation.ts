import { MAX_SEQUENCE } from '@nest-es/core/internal';
import type { OpenApiDocument } from './openapi-document.js';

/** The live route as Nest lists it (its `@Res()` handler says nothing of what it sends). */
export const LIVE_EVENTS_PATH = '/aggregates/{aggregateType}/{aggregateId}/events/live';

const CURSOR = { type: 'integer', minimum: 0, maximum: MAX_SEQUENCE };

/**
 * Describes `GET .../events/live`: where it resumes (`Last-Event-ID`, `?after=`) and its 200, a
 * `text/event-stream` whose messages carry the sequence as id, the event type as event name and one
 * event of the events route as data. Its error answers are added with the other read routes'.
 */
export function describeLiveEventsRoute(document: OpenApiDocument): void {
  const operation = document.paths[LIVE_EVENTS_PATH]?.get as { parameters?: Array<{ in?: string; [field: string]: unknown }>; responses?: Record<string, unknown>; [field: string]: unknown } | undefined;
  if (!operation) return;
  operation.summary ??= "The aggregate's events as server-sent events, then each new one as it is committed";
  operation.description ??=
    'Resumes after Last-Event-ID (sent by a reconnecting EventSource) or, without it, after `after`; from the first event without either. ' +
    'Every event the reader may see is sent once, in order, across reconnects. A comment line is sent as a heartbeat. ' +
    '503 with Retry-After when the server serves its maximum of live streams.';
  operation.parameters = [
    ...(operation.parameters ?? []).filter((parameter) => parameter.in === 'path'),
    { name: 'Last-Event-ID', in: 'header', required: false, description: 'the id (sequence) of the last event received; wins over `after`', schema: CURSOR },
    { name: 'after', in: 'query', required: false, description: 'resume after this sequence, for clients that cannot set Last-Event-ID; 0 = from the first', schema: { ...CURSOR, default: 0 } },
  ];
  operation.responses = {
    ...operation.responses,
    '200': {
      description:
        'A stream of server-sent events, one per event: `id: <sequence>`, `event: <event type>`, `data: <the event as GET .../events lists it>`',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
  };
}
