import { EventSourcingRegistry } from '@nest-es/core/internal';
import { NotFoundError } from '@nest-es/core';
import { ProjectionRebuilder } from '@nest-es/core/internal';
import { withApplication, type MaintenanceEntry } from './application.js';
import { createProgress } from './progress.js';

/**
 * `projections rebuild <name>`: clears a projector's read model and replays it from position 0 in
 * this process (the running application may keep taking commands: checkpoints move by
 * compare-and-set, so nothing is projected twice); the exit code.
 */
export async function rebuildProjection(entry: MaintenanceEntry, name: string): Promise<number> {
  // Checked with processing off first, so that a mistyped name is answered in the user's words.
  await withApplication(entry, { enabled: false }, async (context) => assertProjector(context.get(EventSourcingRegistry), name));
  return withApplication(entry, { subscribers: [name] }, async (context) => {
    const progress = createProgress('{name} [{bar}] position {value}/{total} | ETA {eta_formatted}', (value, of) => `${name}: position ${value}/${of}`);
    let started = false;
    const summary = await context
      .get(ProjectionRebuilder)
      .rebuild(name, ({ position, target }) => {
        if (!started) progress.start(target, { name });
        started = true;
        progress.update(position);
      })
      .finally(() => started && progress.stop());
    console.log(`projection ${summary.projector} rebuilt up to position ${summary.target} in ${(summary.durationMs / 1000).toFixed(2)} s`);
    return 0;
  });
}

function assertProjector(registry: EventSourcingRegistry, name: string): void {
  const projectors = [...registry.subscribers.values()].filter((subscriber) => subscriber.kind === 'projector').map((subscriber) => subscriber.name);
  if (!projectors.includes(name)) throw new NotFoundError(`unknown projector '${name}'; known: ${projectors.join(', ') || 'none'}`);
}
