import type { CommandHandlerDefinition } from '../discovery/aggregate-definition.js';
import type { CommandContext } from './command-context.js';
import { normalizeHandlerResult, type NormalizedHandlerResult } from './handler-result.js';

/** Runs a command handler and holds it to its declaration: it may emit only the events it names. */
export async function invokeHandler(
  handler: CommandHandlerDefinition,
  command: object,
  state: unknown,
  context: CommandContext,
): Promise<NormalizedHandlerResult> {
  const result = normalizeHandlerResult(await handler.handle(command, state, context));
  for (const event of result.events) {
    const type = event?.constructor?.name;
    if (!type || !handler.emits.has(type)) {
      throw new Error(`${handler.location} returned ${type ?? typeof event}, which is not in its emits: [${[...handler.emits].join(', ')}]`);
    }
  }
  return result;
}
