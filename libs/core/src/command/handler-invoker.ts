import type { CommandHandlerDefinition } from '../model/aggregate-definition.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { CommandContext } from '../model/command-context.js';
import { normalizeHandlerResult, type NormalizedHandlerResult } from '../model/handler-result.js';

/**
 * Runs a command handler on a copy of the state (what a handler does to it, refused or not, never
 * reaches the cached state or a later command) and holds it to its declaration: it may emit only the
 * events it names.
 */
export async function invokeHandler(
  handler: CommandHandlerDefinition,
  command: object,
  state: unknown,
  context: CommandContext,
): Promise<NormalizedHandlerResult> {
  const result = normalizeHandlerResult(await handler.handle(command, structuredClone(state), context));
  assertDeclaredEvents(handler, result.events, handler.location);
  return result;
}

/**
 * Every event must be one the handler declares (and so has an `@Apply`): an undeclared one would
 * be stored and then make the aggregate impossible to rebuild. `source` names who returned them.
 */
export function assertDeclaredEvents(handler: CommandHandlerDefinition, events: readonly object[], source: string): void {
  for (const event of events) {
    const type = typeof event?.constructor === 'function' ? eventTypeName(event.constructor) : undefined;
    if (!type || !handler.emits.has(type)) {
      throw new Error(`${source} returned ${type ?? typeof event}, which is not in the emits of ${handler.location}: [${[...handler.emits].join(', ')}]`);
    }
  }
}
