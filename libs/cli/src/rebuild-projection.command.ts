import { BlueGreenRebuilder, EventSourcingRegistry, ProjectionRebuilder } from '@nest-es/core/internal';
import { withApplication, type MaintenanceEntry } from './application.js';
import { createProgress } from './progress.js';

/**
 * `projections rebuild <name> [--in-place]`. A projector that declares its tables is rebuilt
 * blue/green: a copy of its tables is built beside the live ones, which keep serving the running
 * application, and switched in once it has caught up. One that declares none, or any with
 * `inPlace`, is cleared (its `reset(tx)`, or its tables made anew) and replayed from position 0 in
 * this process (the running application may keep taking commands: checkpoints move by
 * compare-and-set, so nothing is projected twice). The exit code.
 */
export async function rebuildProjection(entry: MaintenanceEntry, name: string, { inPlace = false }: { inPlace?: boolean } = {}): Promise<number> {
  // Checked with processing off first, so that a mistyped name is answered in the user's words.
  const tables = await withApplication(entry, { enabled: false }, async (context) => context.get(EventSourcingRegistry).projector(name).options.tables !== undefined);
  return tables && !inPlace ? rebuildBlueGreen(entry, name) : rebuildInPlace(entry, name);
}

/** `projections switch-back <name>`: puts the copy that the last blue/green rebuild switched away back live. */
export async function switchBackProjection(entry: MaintenanceEntry, name: string): Promise<number> {
  return withApplication(entry, { subscribers: [] }, async (context) => {
    const { position } = await context.get(BlueGreenRebuilder).switchBack(name);
    console.log(`projection ${name} switched back to its previous copy, at position ${position}; the running application projects it on from there`);
    return 0;
  });
}

async function rebuildInPlace(entry: MaintenanceEntry, name: string): Promise<number> {
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

/** Runs no live subscription here: the running application keeps projecting the live tables. */
async function rebuildBlueGreen(entry: MaintenanceEntry, name: string): Promise<number> {
  return withApplication(entry, { subscribers: [] }, async (context) => {
    const progress = createProgress('{name} [{bar}] position {value}/{total} | {phase} | ETA {eta_formatted}', (value, of) => `${name}: position ${value}/${of}`);
    let started = false;
    const summary = await context
      .get(BlueGreenRebuilder)
      .rebuild(name, ({ position, head, phase, copy }) => {
        if (!started) progress.start(head, { name: `${name} (copy ${copy})`, phase });
        started = true;
        progress.setTotal(head);
        progress.update(position, { phase });
      })
      .finally(() => started && progress.stop());
    const seconds = (summary.durationMs / 1000).toFixed(2);
    console.log(`projection ${summary.projector} rebuilt blue/green (copy ${summary.copy}) and switched live at position ${summary.position} in ${seconds} s`);
    console.log(`the tables it replaced are kept: 'projections switch-back ${summary.projector}' puts them back`);
    return 0;
  });
}

