import { Presets, SingleBar } from 'cli-progress';
import { ProjectionRebuilder } from '@nest-es/core';
import { withPokerContext } from './poker-context.js';

/**
 * `projections rebuild <name>`: clears a projector's read model and replays it from position 0 in
 * this process (the running app may keep taking commands: checkpoints move by compare-and-set, so
 * nothing is projected twice); the exit code.
 */
export function rebuildProjection(name: string): Promise<number> {
  return withPokerContext(async (context) => {
    const bar = new SingleBar({ format: '{name} [{bar}] position {value}/{total} | ETA {eta_formatted}', hideCursor: true }, Presets.shades_classic);
    let started = false;
    const summary = await context
      .get(ProjectionRebuilder)
      .rebuild(name, ({ position, target }) => {
        if (!started) bar.start(target, 0, { name });
        started = true;
        bar.update(position);
      })
      .finally(() => bar.stop());
    console.log(`projection ${summary.projector} rebuilt up to position ${summary.target} in ${(summary.durationMs / 1000).toFixed(2)} s`);
    return 0;
  }, [name]);
}
